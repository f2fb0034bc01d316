package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Page is one page of a list endpoint; it encodes as the server's envelope.
type Page[T any] struct {
	Data []T  `json:"data"`
	Meta Meta `json:"meta"`
	// NextPage and PrevPage come from the Link header; 0 at either end.
	NextPage     int `json:"-"`
	PrevPage     int `json:"-"`
	ResponseInfo `json:"-"`
}

// HasNext reports whether another page can be requested.
func (p *Page[T]) HasNext() bool { return p.NextPage > 0 }

// The page types of the four list endpoints.
type (
	CarPage        = Page[Car]
	MotorcyclePage = Page[Motorcycle]
	BoatPage       = Page[Boat]
	TireSizePage   = Page[TireFitment]
)

func listPage[T any](ctx context.Context, c *Client, path string, query url.Values, opts []CallOption) (*Page[T], error) {
	data, meta, info, err := getData[[]T](ctx, c, path, query, opts)
	if err != nil {
		return nil, err
	}
	p := &Page[T]{Data: data, ResponseInfo: info}
	if p.Data == nil {
		p.Data = []T{}
	}
	if meta != nil {
		p.Meta = *meta
	}
	if links := info.Header.Values("Link"); len(links) > 0 {
		p.NextPage = linkPage(links, "next")
		p.PrevPage = linkPage(links, "prev")
	} else if meta != nil {
		// No Link header (a proxy may strip it): the metadata says the same.
		if meta.Page < meta.MaxPage {
			p.NextPage = meta.Page + 1
		}
		if meta.Page > 1 && meta.MaxPage > 0 {
			p.PrevPage = min(meta.Page-1, meta.MaxPage)
		}
	}
	return p, nil
}

// LinkTarget returns the target of the first rel link of h's Link headers,
// or "": how a caller of Get follows rel="next".
func LinkTarget(h http.Header, rel string) string {
	return linkTarget(h.Values("Link"), rel)
}

func linkTarget(values []string, rel string) string {
	for _, v := range values {
		for _, l := range parseLinks(v) {
			if l.hasRel(rel) {
				return l.target
			}
		}
	}
	return ""
}

// linkPage returns the page parameter of the first rel link (RFC 8288), or 0.
func linkPage(values []string, rel string) int {
	target := linkTarget(values, rel)
	if target == "" {
		return 0
	}
	u, err := url.Parse(target)
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(u.Query().Get("page"))
	if err != nil || n < 1 {
		return 0
	}
	return n
}

type link struct {
	target string
	rels   []string
}

func (l link) hasRel(rel string) bool {
	for _, r := range l.rels {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// parseLinks splits a Link value; a comma inside <...> or quotes splits nothing.
func parseLinks(v string) []link {
	var out []link
	for {
		start := strings.IndexByte(v, '<')
		if start < 0 {
			return out
		}
		end := strings.IndexByte(v[start:], '>')
		if end < 0 {
			return out
		}
		l := link{target: v[start+1 : start+end]}
		rest := v[start+end+1:]
		stop, inQuote := len(rest), false
	scan:
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case '"':
				inQuote = !inQuote
			case ',':
				if !inQuote {
					stop = i
					break scan
				}
			}
		}
		for param := range strings.SplitSeq(rest[:stop], ";") {
			name, val, ok := strings.Cut(strings.TrimSpace(param), "=")
			if ok && strings.EqualFold(strings.TrimSpace(name), "rel") {
				l.rels = append(l.rels, strings.Fields(strings.Trim(strings.TrimSpace(val), `"`))...)
			}
		}
		out = append(out, l)
		v = rest[stop:]
	}
}

// all yields every record from page start on, stopping at the last page
// or the first error.
func all[T any](ctx context.Context, start int, fetch func(ctx context.Context, page int) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		page := max(start, 1)
		for {
			p, err := fetch(ctx, page)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, rec := range p.Data {
				if !yield(rec, nil) {
					return
				}
			}
			// A confused server must not make this loop forever.
			if p.NextPage <= page {
				return
			}
			page = p.NextPage
		}
	}
}
