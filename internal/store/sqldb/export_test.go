package sqldb

import (
	"context"

	"github.com/vds-dev/vds/internal/catalog"
)

// SetLoadParts makes s read its cars in n parts, whatever their count.
func SetLoadParts(s *DB, n int) { s.loadParts = func(int) int { return n } }

func LoadCarParts(ctx context.Context, s *DB, v catalog.Version, parts int) ([]catalog.Car, error) {
	return s.loadCarParts(ctx, v, parts)
}
