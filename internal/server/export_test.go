package server

// ReloadCerts loads the TLS pair again, as SIGHUP does.
func ReloadCerts(s *Server) { s.certs.reload("test") }
