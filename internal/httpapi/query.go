package httpapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/textcheck"
	"github.com/vds-dev/vds/internal/vehicle"
)

// checkInput parses the raw query once, for every route. r.URL.Query()
// silently drops a pair it cannot parse, widening a search; here it is a
// 400 that names it. Names and values must be plain text (textcheck.Line),
// where PostgreSQL and SQLite would differ.
func checkInput(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			pair := badPair(r.URL.RawQuery)
			name, _, _ := strings.Cut(pair, "=")
			p := edge.NewProblem(r, vehicle.CodeInvalidParameter, fmt.Sprintf(
				"The query pair %s cannot be parsed (%v): separate pairs with & only and percent-encode %%, &, ; and + inside names and values.",
				vehicle.Echo(pair), err))
			p.Param = vehicle.Clip(name)
			edge.WriteProblem(w, r, p)
			return
		}
		for name, vals := range q {
			err := textcheck.Line(name)
			for i := 0; err == nil && i < len(vals); i++ {
				err = textcheck.Line(vals[i])
			}
			if err != nil {
				p := edge.NewProblem(r, vehicle.CodeInvalidParameter, fmt.Sprintf("The query parameter %s has %v: send plain text.", vehicle.Echo(name), err))
				p.Param = vehicle.Clip(name)
				edge.WriteProblem(w, r, p)
				return
			}
		}
		// r.Form is net/http's home of a parsed query: no copy on the hot path.
		r.Form = q
		next(w, r)
	}
}

// badPair returns the first &-separated pair of raw that url.ParseQuery
// refuses, as the client sent it.
func badPair(raw string) string {
	for pair := range strings.SplitSeq(raw, "&") {
		if _, err := url.ParseQuery(pair); err != nil {
			return pair
		}
	}
	return raw
}

func query(r *http.Request) url.Values { return r.Form }
