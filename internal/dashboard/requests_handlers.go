package dashboard

import (
	"net/http"
	"strings"

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
