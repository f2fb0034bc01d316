package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/vehicle"
)

func (h *Handler) list(kind catalog.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := query(r)
		page, err := h.search(kind, q)
		if err != nil {
			edge.WriteError(w, r, err)
			return
		}
		if link := linkHeader(r, h.publicURL, q, page.Meta); link != "" {
			w.Header().Set("Link", link)
		}
		writeRawList(w, page.Raw, page.Meta)
	}
}

// writeRawList writes a list envelope around records encoded in advance,
// the hot path of the API: only the small meta object is encoded here.
func writeRawList(w http.ResponseWriter, raw []json.RawMessage, m vehicle.Meta) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(`{"data":[`)
	for i, rec := range raw {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(rec)
	}
	b := buf.AvailableBuffer()
	b = append(b, `],"meta":{"page":`...)
	b = strconv.AppendInt(b, int64(m.Page), 10)
	b = append(b, `,"per_page":`...)
	b = strconv.AppendInt(b, int64(m.PerPage), 10)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(m.Total), 10)
	b = append(b, `,"total_pages":`...)
	b = strconv.AppendInt(b, int64(m.TotalPages), 10)
	b = append(b, `,"max_page":`...)
	b = strconv.AppendInt(b, int64(m.MaxPage), 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, m.Truncated)
	if len(m.Suggestions) > 0 {
		// Only an empty page carries them: encoding here costs the hot path nothing.
		enc, err := json.Marshal(m.Suggestions)
		if err != nil {
			panic("httpapi: encode suggestions: " + err.Error())
		}
		b = append(append(b, `,"suggestions":`...), enc...)
	}
	b = append(b, "}}\n"...)
	buf.Write(b)
	edge.Send(w, http.StatusOK, "application/json", buf.Bytes())
}

// writeRawRecord keeps rec (a record, or a taxonomy encoded in advance)
// out of encoding/json, which would scan and compact it on every request.
func writeRawRecord(w http.ResponseWriter, rec json.RawMessage) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(`{"data":`)
	buf.Write(rec)
	buf.WriteString("}\n")
	edge.Send(w, http.StatusOK, "application/json", buf.Bytes())
}

// linkHeader builds the RFC 8288 links of a page as absolute URLs under
// the origin, other parameters as sent. It runs on every list answer, so
// the first link's URL is escaped once into one builder and the others
// repeat it.
func linkHeader(r *http.Request, publicURL string, q url.Values, m vehicle.Meta) string {
	if m.MaxPage == 0 {
		return ""
	}
	var names [16]string
	keys := names[:0]
	size := 0
	for k, vs := range q {
		if k != "page" {
			keys = append(keys, k)
			for _, v := range vs {
				size += len(k) + len(v) + 2
			}
		}
	}
	slices.Sort(keys)
	scheme, host := edge.OriginParts(r, publicURL)
	var b strings.Builder
	b.Grow(4 * (len(scheme) + len(host) + len(r.URL.Path) + size + 32))
	b.WriteByte('<')
	b.WriteString(scheme)
	b.WriteString(host)
	b.WriteString(r.URL.Path)
	b.WriteByte('?')
	for _, k := range keys {
		for _, v := range q[k] {
			b.WriteString(url.QueryEscape(k))
			b.WriteByte('=')
			b.WriteString(url.QueryEscape(v))
			b.WriteByte('&')
		}
	}
	b.WriteString("page=")
	// The builder only appends, so prefix stays as written.
	prefix := b.String()[1:]
	link := func(page int, rel string) {
		if b.Len() > len(prefix)+1 {
			b.WriteString(", <")
			b.WriteString(prefix)
		}
		b.WriteString(strconv.Itoa(page))
		b.WriteString(`>; rel="`)
		b.WriteString(rel)
		b.WriteByte('"')
	}
	link(1, "first")
	if m.Page > 1 && m.Page <= m.MaxPage+1 {
		link(min(m.Page-1, m.MaxPage), "prev")
	}
	if m.Page < m.MaxPage {
		link(m.Page+1, "next")
	}
	link(m.MaxPage, "last")
	return b.String()
}

// noParams wraps the handler of an endpoint that takes no query parameters:
// any parameter is refused, so a typo is an error rather than ignored.
func noParams(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for name := range query(r) {
			p := edge.NewProblem(r, vehicle.CodeUnknownParameter, fmt.Sprintf("This endpoint takes no query parameters; remove %q.", name))
			p.Param, p.Accepted = name, []string{}
			edge.WriteProblem(w, r, p)
			return
		}
		next(w, r)
	}
}

// byRecord answers a route of one record, whose uuid answer is given.
func (h *Handler) byRecord(answer func(http.ResponseWriter, *http.Request, uuid.UUID) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := h.recordID(r)
		if err == nil {
			err = answer(w, r, id)
		}
		if err != nil {
			edge.WriteError(w, r, err)
		}
	}
}

func (h *Handler) get(kind catalog.Kind) http.HandlerFunc {
	return h.byRecord(func(w http.ResponseWriter, _ *http.Request, id uuid.UUID) error {
		rec, err := h.svc.GetJSON(kind, id)
		if err == nil {
			writeRawRecord(w, rec)
		}
		return err
	})
}

func (h *Handler) makes(kind catalog.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a := h.svc.MakesBody(kind)
		edge.Send(w, http.StatusOK, "application/json", a.Body)
	}
}

func (h *Handler) models(kind catalog.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		models, err := h.modelsOf(kind, query(r))
		if err != nil {
			edge.WriteError(w, r, err)
			return
		}
		edge.Send(w, http.StatusOK, "application/json", models.Body)
	}
}

func (h *Handler) bodyTypes(w http.ResponseWriter, r *http.Request) {
	ok(w, h.svc.BodyTypes())
}

func (h *Handler) motorcycleTypes(w http.ResponseWriter, r *http.Request) {
	ok(w, h.svc.MotorcycleTypes())
}

func (h *Handler) hullTypes(w http.ResponseWriter, r *http.Request) {
	ok(w, h.svc.HullTypes())
}

func (h *Handler) carTires(w http.ResponseWriter, _ *http.Request, id uuid.UUID) error {
	t, err := h.svc.TiresForCar(id)
	if err == nil {
		ok(w, t)
	}
	return err
}

func (h *Handler) geometry(w http.ResponseWriter, _ *http.Request, id uuid.UUID) error {
	g, err := h.svc.Geometry(id)
	if err == nil {
		ok(w, g)
	}
	return err
}
