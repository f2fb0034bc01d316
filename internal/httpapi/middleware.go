package httpapi

import (
	"net/http"
	"time"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
)

// guard admits through the door, then commits or refunds the charge and
// sets the limit headers when the status is written.
func (h *Handler) guard(charged bool, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r, ticket, st, ok := h.door.Admit(w, r, charged)
		if !ok {
			return
		}
		done := false
		rec := edge.BeforeStatus(w, func(status int) {
			done = true
			final := st
			if charged {
				if status >= 200 && status < 300 {
					final = ticket.Commit(limits.ChannelREST)
				} else {
					final = ticket.Refund()
				}
			}
			edge.SetLimitHeaders(w.Header(), final, time.Now())
		})
		defer func() {
			if !done {
				ticket.Refund() // the handler panicked or wrote nothing
			}
		}()
		next(rec, r)
	}
}
