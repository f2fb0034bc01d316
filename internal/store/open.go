package store

import (
	"fmt"
	"strings"
)

// Location is a parsed database URL: Backend "sqlite" or "postgres", and
// Target, the file path or the connection URL.
type Location struct {
	Backend string
	Target  string
}

// ParseURL reads postgres://..., postgresql://..., sqlite:PATH or sqlite://PATH.
func ParseURL(u string) (Location, error) {
	switch {
	case strings.HasPrefix(u, "postgres://"), strings.HasPrefix(u, "postgresql://"):
		return Location{Backend: "postgres", Target: u}, nil
	case strings.HasPrefix(u, "sqlite://"):
		u = strings.TrimPrefix(u, "sqlite://")
	case strings.HasPrefix(u, "sqlite:"):
		u = strings.TrimPrefix(u, "sqlite:")
	default:
		return Location{}, fmt.Errorf("unsupported database URL %q: use sqlite:PATH or postgres://USER@HOST/DB", redact(u))
	}
	if u == "" {
		return Location{}, fmt.Errorf("database URL sqlite: needs a file path, e.g. sqlite:/var/lib/vds/vds.db")
	}
	return Location{Backend: "sqlite", Target: u}, nil
}

// redact hides anything after a scheme's "//user:" so errors never print passwords.
func redact(u string) string {
	if i := strings.Index(u, "@"); i >= 0 {
		if j := strings.Index(u, "://"); j >= 0 && j < i {
			return u[:j+3] + "***" + u[i:]
		}
	}
	return u
}
