package dashboard

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/requestlog"
)

// requestsShown is how many lines the requests page shows: the newest.
const requestsShown = 100

// requestsData is the requests page: the newest lines of the account's
// request log that match the search.
type requestsData struct {
	Lines     []requestlog.Entry
	Total     int
	Shown     int
	RequestID string
	Status    string
	Statuses  []string
}

func (h *Handler) requests(w http.ResponseWriter, r *http.Request, s *session) {
	d := requestsData{RequestID: strings.TrimSpace(r.URL.Query().Get("request_id")),
		Status: r.URL.Query().Get("status"), Statuses: []string{"2xx", "3xx", "4xx", "5xx"}}
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
		var err error
		d.Lines, d.Total, err = h.requestLog.Requests(r.Context(), s.account.ID,
			requestlog.Filter{StatusMin: lo, StatusMax: hi, RequestID: d.RequestID, Limit: requestsShown})
		if err != nil {
			h.serverError(w, r, err)
			return
		}
		d.Shown = len(d.Lines)
	}
	v.Data = d
	h.render(w, r, status, "requests", v)
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
