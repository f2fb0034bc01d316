package dashboard

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/requestlog"
)

// requestsShown is how many lines a page of the requests page shows.
const requestsShown = 100

// requestsData is a page of the account's request log lines that match
// the search, newest first.
type requestsData struct {
	Lines        []requestlog.Entry
	Total        int
	First, Last  int
	Newer, Older string
	RequestID    string
	Status       string
	Statuses     []string
}

func (h *Handler) requests(w http.ResponseWriter, r *http.Request, s *session) {
	d := requestsData{RequestID: strings.TrimSpace(r.URL.Query().Get("request_id")),
		Status: r.URL.Query().Get("status"), Statuses: []string{"2xx", "3xx", "4xx", "5xx"}}
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 || page > requestlog.Keep/requestsShown {
		page = 1
	}
	v := signedIn(s, "requests", "Requests")
	if wait, err := h.admitRead(r, s.account); err != nil {
		h.serverError(w, r, err)
		return
	} else if wait > 0 {
		v.Error = "Reading the request log counts against your plan's rate limit, which this minute's requests have reached. " + tryAgainIn(w, wait)
		h.render(w, r, http.StatusTooManyRequests, "requests", v)
		return
	}
	lo, hi, ok := requestlog.StatusRange(d.Status)
	status := http.StatusOK
	if !ok {
		d.Status, status = "", http.StatusBadRequest
		v.Error = "Choose a status class from the list."
	} else {
		offset := (page - 1) * requestsShown
		d.Lines, d.Total, err = h.requestLog.Requests(r.Context(), s.account.ID,
			requestlog.Filter{StatusMin: lo, StatusMax: hi, RequestID: d.RequestID, Offset: offset, Limit: requestsShown})
		if err != nil {
			h.serverError(w, r, err)
			return
		}
		d.First, d.Last = offset+1, offset+len(d.Lines)
		if page > 1 {
			d.Newer = d.pageURL(page - 1)
		}
		if d.Last < d.Total {
			d.Older = d.pageURL(page + 1)
		}
	}
	v.Data = d
	h.render(w, r, status, "requests", v)
}

// pageURL is the requests page n of the same search.
func (d *requestsData) pageURL(n int) string {
	q := url.Values{"page": {strconv.Itoa(n)}}
	if d.RequestID != "" {
		q.Set("request_id", d.RequestID)
	}
	if d.Status != "" {
		q.Set("status", d.Status)
	}
	return "/dashboard/requests?" + q.Encode()
}

// admitRead counts a read of the log against the plan's rate window, as
// GET /v1/me/requests does (an unknown plan gets the free plan's); it
// returns how long to wait when the window is full.
func (h *Handler) admitRead(r *http.Request, a account.Account) (time.Duration, error) {
	plan, ok := h.cfg.Plan(a.Plan)
	if !ok {
		plan = account.Plan{Name: a.Plan, RatePerMinute: config.DefaultPlans["free"].RatePerMinute}
	}
	t, _, err := h.limiter.Admit(r.Context(), a.ID, plan, false)
	var refusal *limits.Refusal
	if errors.As(err, &refusal) {
		return max(refusal.RetryAfter, time.Second), nil
	}
	if err != nil {
		return 0, err
	}
	t.Refund()
	return 0, nil
}
