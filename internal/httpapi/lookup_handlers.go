package httpapi

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
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

// decodeVINs answers GET /v1/vins?vin=...&vin=...: one entry per VIN, in
// order, each charged only when decoded.
func (h *Handler) decodeVINs(w http.ResponseWriter, r *http.Request) {
	q := query(r)
	for name := range q {
		if name != "vin" {
			p := edge.NewProblem(r, vehicle.CodeUnknownParameter, fmt.Sprintf("Unknown parameter %s: the only parameter is vin, repeated once per VIN.", vehicle.Echo(name)))
			p.Param, p.Accepted = vehicle.Clip(name), []string{"vin"}
			edge.WriteProblem(w, r, p)
			return
		}
	}
	vins := q["vin"]
	if len(vins) == 0 {
		edge.WriteCode(w, r, vehicle.CodeMissingParameter, "vin", "Give the VINs to decode as repeated vin parameters: /v1/vins?vin=...&vin=...")
		return
	}
	// DecodeVINs refuses more than lookup.MaxBatch before charging anything.
	entries, meta, err := h.lookup.DecodeVINs(r.Context(), vins, h.meter(r.Context()))
	var refusal *limits.Refusal
	switch {
	case errors.As(err, &refusal):
		edge.Refuse(w, r, err)
	case err != nil:
		edge.WriteError(w, r, err)
	default:
		okUpstream(w, meta, entries)
	}
}

func (h *Handler) carRecalls(w http.ResponseWriter, r *http.Request, id uuid.UUID) error {
	rep, meta, err := h.lookup.CarRecalls(r.Context(), id)
	if err == nil {
		okUpstream(w, meta, rep)
	}
	return err
}

func (h *Handler) motorcycleRecalls(w http.ResponseWriter, r *http.Request, id uuid.UUID) error {
	rep, meta, err := h.lookup.MotorcycleRecalls(r.Context(), id)
	if err == nil {
		okUpstream(w, meta, rep)
	}
	return err
}
