package httpapi

import (
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/vehicle"
)

// subPaths maps each collection under /v1 ("boats") to the paths below it,
// for the detail of a 404.
func subPaths(routes []Route) map[string][]string {
	out := map[string][]string{}
	for _, rt := range routes {
		_, path, _ := strings.Cut(rt.Pattern, " ")
		rest, ok := strings.CutPrefix(path, "/v1/")
		if !ok {
			continue
		}
		if coll, _, ok := strings.Cut(rest, "/"); ok {
			out[coll] = append(out[coll], path)
		}
	}
	return out
}

// noSuchPath is the detail of a 404 for path: the paths of its collection
// when it is under one, the OpenAPI document otherwise.
func (h *Handler) noSuchPath(path string) string {
	rest, _ := strings.CutPrefix(path, "/v1/")
	coll, _, _ := strings.Cut(rest, "/")
	paths := h.paths[coll]
	if len(paths) == 0 {
		return "No such endpoint; see /v1/openapi.json for the list."
	}
	return "No such endpoint. Under /v1/" + coll + ": " + strings.Join(paths, ", ") + "; see /v1/openapi.json for the whole list."
}

// recordID reads the {uuid} of a record path: a segment with a digit is a
// mistyped id (invalid_uuid), a word an unknown path (not_found).
func (h *Handler) recordID(r *http.Request) (uuid.UUID, error) {
	s := r.PathValue("uuid")
	id, err := vehicle.ParseUUID(s)
	if err == nil || strings.ContainsAny(s, "0123456789") {
		return id, err
	}
	return uuid.Nil, &vehicle.Error{Code: vehicle.CodeNotFound, Message: h.noSuchPath(r.URL.Path)}
}
