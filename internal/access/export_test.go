package access

import "time"

// SetClock makes the service and the authenticator read the time from now.
func SetClock(s *Service, a *Authenticator, now func() time.Time) {
	s.now, a.now = now, now
}
