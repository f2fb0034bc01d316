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
// sets the limit and caching headers when the status is written. A PerItem
// route's handler charges through meter. A catalog request whose
// If-None-Match names the current tag counts against the rate window only,
// is refused when the quota is spent, and is answered 304 without running
// next, so the 304 tells nothing the tag did not.
func (h *Handler) guard(rt Route, next http.HandlerFunc) http.HandlerFunc {
	charged := rt.Charged && !rt.PerItem
	var fresh http.HandlerFunc
	if rt.Cache == cacheCatalog {
		fresh = checked(rt, notModified)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		edge.AddVary(w.Header(), "Authorization")
		// One allocation holds everything the answer needs when its
		// status is written.
		a := &admitted{ResponseWriter: w, h: h, rt: &rt, charged: charged}
		cond := noCondition
		var key uint64
		var coding string
		if rt.Cache == cacheCatalog {
			// The handler reads the snapshot later, so its version is this
			// one or newer: a race costs a 200, never a stale 304. A
			// newer version's answer kept under this key costs nothing
			// worse: the next request's key differs.
			v := h.svc.Snapshot().Version()
			key, coding = catalogKey(v, r.URL.Path, r.URL.RawQuery), edge.Negotiated(w)
			a.tag = catalogTag(v.Number, key, coding)
			cond = a.tag.condition(r.Header["If-None-Match"])
		}
		var ok bool
		r, ok = h.door.Admit(w, r, charged && cond == noCondition, &a.ticket)
		if !ok {
			return
		}
		a.r = r
		defer func() {
			if !a.done {
				a.ticket.Refund() // the handler panicked, wrote nothing or was refused
			}
		}()
		switch {
		case cond == noCondition && rt.Cache == cacheCatalog:
			h.cached(a, r, next, key, coding)
			return
		case cond == noCondition:
			next(a, r)
			return
		}
		if p, _ := edge.PrincipalFrom(r.Context()); charged {
			if err := h.limiter.Ready(r.Context(), p.Account.ID, p.Plan); err != nil {
				edge.Refuse(w, r, err)
				return
			}
		}
		fresh(a, r)
	}
}

// admitted is the writer of an admitted request: just before the status
// it settles the charge and sets the limit and caching headers.
type admitted struct {
	http.ResponseWriter
	h       *Handler
	rt      *Route
	r       *http.Request
	charged bool
	ticket  limits.Ticket
	tag     entityTag
	// etagValue is the ETag header's value: the answer cache's, or etag
	// made from tag when the status is written.
	etagValue []string
	etag      [1]string
	done      bool
}

func (a *admitted) WriteHeader(status int) {
	if a.done {
		return
	}
	a.done = true
	final := a.ticket.Admitted()
	switch {
	case a.charged && status >= 200 && status < 300:
		final = a.ticket.Commit(limits.ChannelREST)
	case a.charged:
		final = a.ticket.Refund()
	case a.rt.PerItem:
		final = a.h.limitState(a.r.Context(), final)
	}
	hd := a.Header()
	if final.Limited() {
		edge.SetLimitHeaders(hd, final, time.Now())
	}
	switch {
	case a.rt.Cache == cacheNever:
		hd["Cache-Control"] = noStore
	case a.rt.Cache == cacheCatalog && (status == http.StatusOK || status == http.StatusNotModified):
		if a.etagValue == nil {
			a.etag[0] = string(a.tag.bytes())
			a.etagValue = a.etag[:]
		}
		hd["Etag"] = a.etagValue
		hd["Cache-Control"] = a.h.maxAge
	}
	a.ResponseWriter.WriteHeader(status)
}

func (a *admitted) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.ResponseWriter.Write(b)
}

func (a *admitted) Unwrap() http.ResponseWriter { return a.ResponseWriter }

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
func (h *Handler) meter(ctx context.Context) *lookup.Meter {
	p, _ := edge.PrincipalFrom(ctx) // guard put it there
	usage := func(ctx context.Context, err error) error {
		var refusal *limits.Refusal
		if err != nil && !errors.As(err, &refusal) {
			edge.Logger(ctx).Error("database call failed", "data", "usage", "err", err)
			return views.Unavailable("usage")
		}
		return err
	}
	return &lookup.Meter{
		Ready: func(ctx context.Context) error {
			return usage(ctx, h.limiter.Ready(ctx, p.Account.ID, p.Plan))
		},
		Charge: func(ctx context.Context) (func(bool), error) {
			settle, _, err := h.limiter.Charge(ctx, p.Account.ID, p.Plan, limits.ChannelREST)
			return settle, usage(ctx, err)
		},
	}
}
