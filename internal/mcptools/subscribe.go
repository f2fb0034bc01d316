package mcptools

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// GarageWatchers are the sessions of this replica subscribed to
// vds://garage: by resources/subscribe on a session with a GET stream
// (until the session ends) or by a subscriptions/listen stream (while it
// lasts). Poll reads the shared store, so each replica tells its own
// sessions of the recalls the watch recorded, whichever replica ran it.
type GarageWatchers struct {
	lists ListSource
	now   func() time.Time

	mu   sync.Mutex
	subs map[server.ClientSession]*garageWatcher
	// sessions are those registered here (initialize or GET), which end
	// with an unregistration; a request's passing session never does.
	sessions map[server.ClientSession]bool
}

type garageWatcher struct {
	account string
	// since: the newest sighting the session was told of, or when it subscribed.
	since time.Time
}

// NewGarageWatchers tracks the subscriptions of the server NewServer builds
// with them in its Deps.
func NewGarageWatchers(lists ListSource) *GarageWatchers {
	return &GarageWatchers{lists: lists, now: time.Now, subs: map[server.ClientSession]*garageWatcher{}, sessions: map[server.ClientSession]bool{}}
}

func (g *GarageWatchers) hook(h *server.Hooks) {
	h.AddOnRegisterSession(func(_ context.Context, s server.ClientSession) {
		g.mu.Lock()
		g.sessions[s] = true
		g.mu.Unlock()
	})
	h.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		s := server.ClientSessionFromContext(ctx)
		g.mu.Lock()
		registered := g.sessions[s]
		g.mu.Unlock()
		if req.Params.URI == GarageURI && registered {
			g.add(ctx)
		}
	})
	h.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		if s := server.ClientSessionFromContext(ctx); s != nil && req.Params.URI == GarageURI {
			g.forget(s)
		}
	})
	h.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) { g.unregister(s) })
	h.AddBeforeSubscriptionsListen(func(ctx context.Context, _ any, req *mcp.SubscriptionsListenRequest) {
		if s := server.ClientSessionFromContext(ctx); s != nil && slices.Contains(req.Params.Notifications.ResourceSubscriptions, GarageURI) && g.add(ctx) {
			context.AfterFunc(ctx, func() { g.forget(s) })
		}
	})
}

// add records the session of ctx as a subscriber; false without a
// session or an account.
func (g *GarageWatchers) add(ctx context.Context) bool {
	s := server.ClientSessionFromContext(ctx)
	p, err := principal(ctx)
	if s == nil || err != nil {
		return false
	}
	g.mu.Lock()
	g.subs[s] = &garageWatcher{account: p.Account.ID, since: g.now()}
	g.mu.Unlock()
	return true
}

func (g *GarageWatchers) forget(s server.ClientSession) {
	g.mu.Lock()
	delete(g.subs, s)
	g.mu.Unlock()
}

func (g *GarageWatchers) unregister(s server.ClientSession) {
	g.mu.Lock()
	delete(g.subs, s)
	delete(g.sessions, s)
	g.mu.Unlock()
}

// Poll sends notifications/resources/updated for vds://garage to each
// subscribed session whose account has a campaign first seen (after its
// item's baseline) since the session was last told: one store read per
// account with subscribers.
func (g *GarageWatchers) Poll(ctx context.Context) error {
	g.mu.Lock()
	byAccount := map[string][]server.ClientSession{}
	for s, w := range g.subs {
		byAccount[w.account] = append(byAccount[w.account], s)
	}
	g.mu.Unlock()
	var errs []error
	for account, sessions := range byAccount {
		sightings, err := g.lists.Recalls(ctx, account)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var newest time.Time
		for _, s := range sightings {
			if !s.Baseline && s.FirstSeenAt.After(newest) {
				newest = s.FirstSeenAt
			}
		}
		for _, s := range sessions {
			g.tell(s, newest)
		}
	}
	return errors.Join(errs...)
}

var garageUpdated = mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
	Method: mcp.MethodNotificationResourceUpdated, Params: mcp.NotificationParams{AdditionalFields: map[string]any{"uri": GarageURI}}}}

// tell notifies the session when newest is after what it was last told
// of; a session whose queue is full is told on the next poll.
func (g *GarageWatchers) tell(s server.ClientSession, newest time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	w := g.subs[s]
	if w == nil || !newest.After(w.since) {
		return
	}
	select {
	case s.NotificationChannel() <- garageUpdated:
		w.since = newest
	default:
	}
}
