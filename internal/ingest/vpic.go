package ingest

import (
	"strings"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

// KeepMotorcycles returns a Run's Prepare for a vPIC powersports import
// whose motorcycles are next's. A stored record next has too keeps its
// power_hp and engine_type, which vPIC does not give; unless exact, the
// stored motorcycles of other sources (the demo's, a catalog file's) stay.
func KeepMotorcycles(exact bool) func(current, next *catalog.Catalog) {
	return func(current, next *catalog.Catalog) {
		stored := make(map[uuid.UUID]*catalog.Motorcycle, len(current.Motorcycles))
		for i := range current.Motorcycles {
			stored[current.Motorcycles[i].UUID] = &current.Motorcycles[i]
		}
		out := make([]catalog.Motorcycle, len(next.Motorcycles), len(next.Motorcycles)+len(current.Motorcycles))
		copy(out, next.Motorcycles)
		for i := range out {
			m := &out[i]
			old := stored[m.UUID]
			if old == nil {
				continue
			}
			delete(stored, m.UUID)
			if m.PowerHP == nil {
				m.PowerHP = old.PowerHP
			}
			if m.EngineType == "" {
				m.EngineType = old.EngineType
			}
		}
		if !exact {
			for _, m := range current.Motorcycles {
				if stored[m.UUID] != nil && !strings.HasPrefix(m.Source, catalog.VPICSourcePrefix) {
					out = append(out, m)
				}
			}
		}
		next.Motorcycles = out
	}
}
