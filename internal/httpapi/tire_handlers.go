package httpapi

import (
	"bytes"
	"net/http"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/vehicle"
)

var (
	plusParams   = []string{"window"}
	lookupParams = []string{"size", "window", "make", "year", "page", "per_page"}
)

// plusSizes sends the sets' JSON cached in the snapshot: the answer costs
// a geometry answer's lookup and no encoding.
func (h *Handler) plusSizes(w http.ResponseWriter, r *http.Request, id uuid.UUID) error {
	q := query(r)
	if err := checkParams(q, plusParams, "plus sizes"); err != nil {
		return err
	}
	window, err := intParam(q, "window", vehicle.MinPlusWindow, vehicle.MaxPlusWindow, vehicle.DefaultPlusWindow)
	if err != nil {
		return err
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(`{"data":`)
	if err := h.svc.WritePlusSizesJSON(buf, id, window); err != nil {
		return err
	}
	buf.WriteString("}\n")
	edge.Send(w, http.StatusOK, "application/json", buf.Bytes())
	return nil
}

func (h *Handler) sizeLookup(w http.ResponseWriter, r *http.Request) {
	ans, err := h.lookupSize(r)
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	ok(w, ans)
}

func (h *Handler) lookupSize(r *http.Request) (vehicle.SizeLookup, error) {
	q := query(r)
	if err := checkParams(q, lookupParams, "a tire size lookup"); err != nil {
		return vehicle.SizeLookup{}, err
	}
	sq := vehicle.SizeQuery{Size: q.Get("size"), Make: q.Get("make")}
	for _, p := range []struct {
		name      string
		to        *int
		lo, hi, d int
	}{
		{"window", &sq.Window, vehicle.MinPlusWindow, vehicle.MaxPlusWindow, vehicle.DefaultPlusWindow},
		{"year", &sq.Year, vehicle.MinQueryYear, vehicle.MaxQueryYear, 0},
		{"page", &sq.Page, 1, vehicle.MaxPage, 1},
		{"per_page", &sq.PerPage, 1, vehicle.MaxPerPage, vehicle.DefaultPerPage},
	} {
		n, err := intParam(q, p.name, p.lo, p.hi, p.d)
		if err != nil {
			return vehicle.SizeLookup{}, err
		}
		*p.to = n
	}
	return h.svc.LookupSize(sq)
}
