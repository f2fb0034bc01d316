package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/views"
)

// guard admits through the door, then commits or refunds the charge and
// sets the limit headers when the status is written. A PerItem route is
// admitted uncharged; its handler charges through meter, so its headers
// are read after the handler's charges.
func (h *Handler) guard(rt Route, next http.HandlerFunc) http.HandlerFunc {
	charged := rt.Charged && !rt.PerItem
	return func(w http.ResponseWriter, r *http.Request) {
		r, ticket, st, ok := h.door.Admit(w, r, charged)
		if !ok {
			return
		}
		done := false
		rec := edge.BeforeStatus(w, func(status int) {
			done = true
			final := st
			switch {
			case charged && status >= 200 && status < 300:
				final = ticket.Commit(limits.ChannelREST)
			case charged:
				final = ticket.Refund()
			case rt.PerItem:
				final = h.limitState(r.Context(), st)
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

// limitState reads the caller's standing again, or keeps st when the
// usage store cannot say.
func (h *Handler) limitState(ctx context.Context, st limits.State) limits.State {
	p, ok := edge.PrincipalFrom(ctx)
	if !ok {
		return st
	}
	if now, err := h.limiter.State(ctx, p.Account.ID, p.Plan); err == nil {
		return now
	}
	return st
}

// meter charges the caller one quota unit per item of a PerItem route; a
// usage store failure is a 503, logged.
func (h *Handler) meter(ctx context.Context) lookup.Meter {
	p, _ := edge.PrincipalFrom(ctx) // guard put it there
	return func(ctx context.Context) (func(bool), error) {
		settle, _, err := h.limiter.Charge(ctx, p.Account.ID, p.Plan, limits.ChannelREST)
		var refusal *limits.Refusal
		if err != nil && !errors.As(err, &refusal) {
			edge.Logger(ctx).Error("database call failed", "data", "usage", "err", err)
			return nil, views.Unavailable("usage")
		}
		return settle, err
	}
}
