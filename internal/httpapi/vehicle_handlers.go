package httpapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

func (h *Handler) list(kind catalog.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		page, err := h.svc.Search(kind, q)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if link := linkHeader(r.URL, q, page.Meta); link != "" {
			w.Header().Set("Link", link)
		}
		writeJSON(w, http.StatusOK, "application/json", Envelope{Data: page.Data, Meta: &page.Meta})
	}
}

// linkHeader builds the RFC 8288 first/prev/next/last links of a page,
// keeping every other query parameter as the client sent it.
func linkHeader(u *url.URL, q url.Values, m vehicle.Meta) string {
	if m.MaxPage == 0 {
		return ""
	}
	at := func(page int, rel string) string {
		v := make(url.Values, len(q)+1)
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("page", strconv.Itoa(page))
		return fmt.Sprintf(`<%s?%s>; rel="%s"`, u.Path, v.Encode(), rel)
	}
	links := []string{at(1, "first")}
	if m.Page > 1 && m.Page <= m.MaxPage+1 {
		links = append(links, at(min(m.Page-1, m.MaxPage), "prev"))
	}
	if m.Page < m.MaxPage {
		links = append(links, at(m.Page+1, "next"))
	}
	links = append(links, at(m.MaxPage, "last"))
	return strings.Join(links, ", ")
}

// noParams refuses query parameters on endpoints that take none, so a typo
// is an error rather than silently ignored.
func noParams(w http.ResponseWriter, r *http.Request) bool {
	for name := range r.URL.Query() {
		p := problem(r, vehicle.CodeUnknownParameter, fmt.Sprintf("This endpoint takes no query parameters; remove %q.", name))
		p.Param, p.Accepted = name, []string{}
		writeProblem(w, r, p)
		return false
	}
	return true
}

func (h *Handler) get(kind catalog.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !noParams(w, r) {
			return
		}
		id, err := vehicle.ParseUUID(r.PathValue("uuid"))
		if err != nil {
			writeError(w, r, err)
			return
		}
		rec, err := h.svc.Get(kind, id)
		if err != nil {
			writeError(w, r, err)
			return
		}
		ok(w, rec)
	}
}

func (h *Handler) makes(kind catalog.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if noParams(w, r) {
			ok(w, h.svc.Makes(kind))
		}
	}
}

func (h *Handler) models(kind catalog.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		models, err := h.svc.Models(kind, r.URL.Query())
		if err != nil {
			writeError(w, r, err)
			return
		}
		ok(w, models)
	}
}

func (h *Handler) bodyTypes(w http.ResponseWriter, r *http.Request) {
	if noParams(w, r) {
		ok(w, h.svc.BodyTypes())
	}
}

func (h *Handler) motorcycleTypes(w http.ResponseWriter, r *http.Request) {
	if noParams(w, r) {
		ok(w, h.svc.MotorcycleTypes())
	}
}

func (h *Handler) hullTypes(w http.ResponseWriter, r *http.Request) {
	if noParams(w, r) {
		ok(w, h.svc.HullTypes())
	}
}

func (h *Handler) carTires(w http.ResponseWriter, r *http.Request) {
	if !noParams(w, r) {
		return
	}
	id, err := vehicle.ParseUUID(r.PathValue("uuid"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	t, err := h.svc.TiresForCar(id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	ok(w, t)
}

func (h *Handler) geometry(w http.ResponseWriter, r *http.Request) {
	if !noParams(w, r) {
		return
	}
	id, err := vehicle.ParseUUID(r.PathValue("uuid"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	g, err := h.svc.Geometry(id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	ok(w, g)
}
