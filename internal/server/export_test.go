package server

import (
	"context"
	"net/http"
)

// ReloadCerts loads the TLS pair again, as SIGHUP does.
func ReloadCerts(s *Server) { s.certs.reload("test") }

// ReloadRecalls indexes newly imported NHTSA files, as the poll does.
func ReloadRecalls(ctx context.Context, s *Server) error { return s.reloadRecalls(ctx) }

// Metrics serves the server's /metrics.
func Metrics(s *Server) http.Handler { return s.metrics.Handler() }
