package httpapi

import (
	"net/http"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
)

// okUpstream writes data from an upstream lookup, with the Warning header
// of RFC 7234 when it was served from an expired cache entry.
func okUpstream(w http.ResponseWriter, meta upstream.Meta, data any) {
	if warn := meta.Warning(); warn != "" {
		w.Header().Set("Warning", warn)
	}
	ok(w, data)
}

func (h *Handler) decodeVIN(w http.ResponseWriter, r *http.Request) {
	rep, meta, err := h.lookup.DecodeVIN(r.Context(), r.PathValue("vin"))
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	okUpstream(w, meta, rep)
}

func (h *Handler) carRecalls(w http.ResponseWriter, r *http.Request) {
	id, err := vehicle.ParseUUID(r.PathValue("uuid"))
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	rep, meta, err := h.lookup.CarRecalls(r.Context(), id)
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	okUpstream(w, meta, rep)
}

func (h *Handler) motorcycleRecalls(w http.ResponseWriter, r *http.Request) {
	id, err := vehicle.ParseUUID(r.PathValue("uuid"))
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	rep, meta, err := h.lookup.MotorcycleRecalls(r.Context(), id)
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	okUpstream(w, meta, rep)
}
