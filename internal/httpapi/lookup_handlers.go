package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lookup"
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

// batchParam returns the repeated parameter name of a batch endpoint, or
// answers the 400 of another parameter or of none.
func batchParam(w http.ResponseWriter, r *http.Request, name, what string) ([]string, bool) {
	q := query(r)
	for p := range q {
		if p != name {
			prob := edge.NewProblem(r, vehicle.CodeUnknownParameter, fmt.Sprintf("Unknown parameter %s: the only parameter is %s, repeated once per %s.", vehicle.Echo(p), name, what))
			prob.Param, prob.Accepted = vehicle.Clip(p), []string{name}
			edge.WriteProblem(w, r, prob)
			return nil, false
		}
	}
	if len(q[name]) == 0 {
		edge.WriteCode(w, r, vehicle.CodeMissingParameter, name, fmt.Sprintf("Give the %ss to decode as repeated %s parameters: %s?%s=...&%s=...", what, name, r.URL.Path, name, name))
		return nil, false
	}
	return q[name], true
}

// writeBatch writes a batch's entries, or its error: a refusal of the
// whole batch as the door refuses, another as its problem.
func writeBatch(w http.ResponseWriter, r *http.Request, meta upstream.Meta, entries any, err error) {
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

// decodeVINs answers GET /v1/vins?vin=...&vin=...: one entry per VIN, in
// order, each charged only when decoded.
func (h *Handler) decodeVINs(w http.ResponseWriter, r *http.Request) {
	vins, ok := batchParam(w, r, "vin", "VIN")
	if !ok {
		return
	}
	// DecodeVINs refuses more than lookup.MaxBatch before charging anything.
	entries, meta, err := h.lookup.DecodeVINs(r.Context(), vins, h.meter(r.Context()))
	writeBatch(w, r, meta, entries, err)
}

func (h *Handler) decodeHIN(w http.ResponseWriter, r *http.Request) {
	rep, err := h.lookup.DecodeHIN(r.PathValue("hin"))
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	ok(w, rep)
}

// decodeHINs answers GET /v1/hins?hin=...&hin=...: one entry per HIN, in
// order, each charged only when decoded.
func (h *Handler) decodeHINs(w http.ResponseWriter, r *http.Request) {
	hins, ok := batchParam(w, r, "hin", "HIN")
	if !ok {
		return
	}
	entries, err := h.lookup.DecodeHINs(r.Context(), hins, h.meter(r.Context()))
	writeBatch(w, r, upstream.Meta{}, entries, err)
}

func (h *Handler) carRecalls(w http.ResponseWriter, r *http.Request, id uuid.UUID) error {
	v := h.svc.Snapshot().Version()
	if h.keptRecalls(w, r, recallsKey(v, r.URL.Path, h.lookup.CarRecallsVersion(id))) {
		return nil
	}
	rep, meta, err := h.lookup.CarRecalls(r.Context(), id)
	if err == nil {
		bare := rep
		bare.Recalls = []upstream.Recall{}
		h.okRecalls(w, r, recallsKey(v, r.URL.Path, rep.Version), meta, rep, bare, rep.RecallsJSON)
	}
	return err
}

func (h *Handler) motorcycleRecalls(w http.ResponseWriter, r *http.Request, id uuid.UUID) error {
	v := h.svc.Snapshot().Version()
	if h.keptRecalls(w, r, recallsKey(v, r.URL.Path, h.lookup.MotorcycleRecallsVersion())) {
		return nil
	}
	rep, meta, err := h.lookup.MotorcycleRecalls(r.Context(), id)
	if err == nil {
		bare := rep
		bare.Recalls = []upstream.Recall{}
		h.okRecalls(w, r, recallsKey(v, r.URL.Path, rep.Version), meta, rep, bare, rep.RecallsJSON)
	}
	return err
}

// recallsKey is the body cache's key of a recall answer of data version
// (lookup's Version), read after v: 0, not to be kept, without one. The
// path is the target (a catalog answer's has a query).
func recallsKey(v catalog.Version, path string, version uint64) uint64 {
	if version == 0 {
		return 0
	}
	return fnvUint(catalogKey(v, path, ""), version)
}

// keptRecalls answers from the body cache when it keeps key's answer.
func (h *Handler) keptRecalls(w http.ResponseWriter, r *http.Request, key uint64) bool {
	if key == 0 {
		return false
	}
	e := h.bodies.get(key, &target{2: r.URL.Path})
	if e != nil {
		h.sendCached(w, e, edge.Negotiated(w))
	}
	return e != nil
}

// emptyRecalls is the recall list of an answer encoded without it: quotes
// inside strings are escaped, so only the field itself reads so.
var emptyRecalls = []byte(`"recalls":[]`)

// okRecalls is okUpstream for a recall answer. One from the files has its
// list already encoded: only the rest is encoded (bare, the answer with an
// empty list), and the list is put in its place; it is most of the bytes.
// With a key (recallsKey) and no warning, it is kept rendered.
func (h *Handler) okRecalls(w http.ResponseWriter, r *http.Request, key uint64, meta upstream.Meta, data, bare any, list []byte) {
	warn := meta.Warning()
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if !spliceRecalls(buf, bare, list) {
		okUpstream(w, meta, data)
		return
	}
	if warn != "" {
		w.Header().Set("Warning", warn)
	} else if key != 0 {
		e := h.bodies.add(key, r.URL.Path, http.Header{"Content-Type": {"application/json"}}, buf.Bytes())
		h.sendCached(w, e, edge.Negotiated(w))
		return
	}
	edge.Send(w, http.StatusOK, "application/json", buf.Bytes())
}

// spliceRecalls writes the envelope of bare with list in place of its
// empty recall list, and reports whether it could.
func spliceRecalls(buf *bytes.Buffer, bare any, list []byte) bool {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if list == nil || enc.Encode(Envelope{Data: bare}) != nil {
		return false
	}
	i := bytes.Index(buf.Bytes(), emptyRecalls)
	if i < 0 {
		return false
	}
	at := i + len(emptyRecalls) - len("[]")
	tail := string(buf.Bytes()[at+len("[]"):])
	buf.Truncate(at)
	buf.Write(list)
	buf.WriteString(tail)
	return true
}

// complaintParams are the query parameters of the complaints routes.
var complaintParams = []string{"page", "per_page"}

func (h *Handler) complaints(answer func(context.Context, uuid.UUID, lookup.ComplaintPage) (lookup.Complaints, upstream.Meta, error)) func(http.ResponseWriter, *http.Request, uuid.UUID) error {
	return func(w http.ResponseWriter, r *http.Request, id uuid.UUID) error {
		q := query(r)
		if err := checkParams(q, complaintParams, "complaints"); err != nil {
			return err
		}
		var pg lookup.ComplaintPage
		var err error
		if pg.Page, err = intParam(q, "page", 1, vehicle.MaxPage, 1); err != nil {
			return err
		}
		if pg.PerPage, err = intParam(q, "per_page", 1, vehicle.MaxPerPage, vehicle.DefaultPerPage); err != nil {
			return err
		}
		rep, meta, err := answer(r.Context(), id, pg)
		if err == nil {
			okUpstream(w, meta, rep)
		}
		return err
	}
}
