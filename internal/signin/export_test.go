package signin

import "time"

// SetSignUpLimits lowers the sign-up limits, so a test need not create a
// hundred accounts (each with a deliberately slow password hash).
func SetSignUpLimits(s *Service, perAddress, perNetwork, total int) {
	s.signUpLimits.perAddress, s.signUpLimits.perNetwork, s.signUpLimits.total = perAddress, perNetwork, total
}

// SetClock makes the service read the time from now.
func SetClock(s *Service, now func() time.Time) { s.now = now }
