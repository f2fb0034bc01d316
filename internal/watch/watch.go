// Package watch refreshes the recalls of every watched vehicle (the make,
// model and year of a saved car, motorcycle or VIN), records each
// campaign's first sighting per item and tells a Notifier of the new ones.
package watch

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
	"golang.org/x/sync/errgroup"
)

// Item is a watched list item as events show it.
type Item struct {
	ListID string       `json:"list_id" jsonschema:"The id of the list holding the item."`
	Type   catalog.Kind `json:"type" jsonschema:"The item's kind: car, motorcycle or vin."`
	UUID   uuid.UUID    `json:"uuid" jsonschema:"The record's uuid, or for a VIN the id derived from it."`
	VIN    *string      `json:"vin" jsonschema:"The saved VIN; null for a catalog record."`
	Make   string       `json:"make" jsonschema:"The vehicle's make."`
	Model  string       `json:"model" jsonschema:"The vehicle's model."`
	Year   int          `json:"year" jsonschema:"The vehicle's model year."`
	Note   string       `json:"note" jsonschema:"The user's note; may be empty."`
}

// Campaign is a recall campaign with when the watch first saw it on the item.
type Campaign struct {
	upstream.Recall
	FirstSeenAt time.Time `json:"first_seen_at" jsonschema:"When the watch first saw the campaign on the item (UTC)."`
}

// Notifier is told of each campaign first seen on an item after its
// baseline. An error leaves the sighting unnotified: the next pass retries.
type Notifier interface {
	RecallNew(ctx context.Context, accountID string, item Item, campaign Campaign) error
}

// Emitter stores an account's events for delivery; webhooks.Service is one.
type Emitter interface {
	Emit(ctx context.Context, accountID, eventType string, data any) error
}

// Events is the Notifier that emits each new campaign as a recall.new
// event with data {"item", "campaign"}.
func Events(e Emitter) Notifier { return events{e} }

type events struct{ e Emitter }

func (n events) RecallNew(ctx context.Context, accountID string, item Item, campaign Campaign) error {
	return n.e.Emit(ctx, accountID, "recall.new", map[string]any{"item": item, "campaign": campaign})
}

// Fetcher asks NHTSA for a vehicle's recalls: Refresh always asks, Recalls
// may answer from the shared cache. upstream.Client is one.
type Fetcher interface {
	RefreshRecalls(ctx context.Context, vehicleMake, model string, year int) ([]upstream.Recall, error)
	Recalls(ctx context.Context, vehicleMake, model string, year int) ([]upstream.Recall, upstream.Meta, error)
}

// Catalog finds a saved record's make, model and year; vehicle.Service is one.
type Catalog interface {
	Get(kind catalog.Kind, id uuid.UUID) (any, error)
}

// Observer counts the watch's work; package metrics implements it.
type Observer interface {
	WatchPass()
	WatchVehicle(outcome string)
	WatchCampaigns(n int)
}

// Outcomes of a vehicle check.
const (
	OutcomeChecked = "checked"
	OutcomeFailed  = "failed"
)

// Config tunes the watch.
type Config struct {
	// Interval is how often each vehicle is checked at most; 24h when zero.
	Interval time.Duration
	// MaxInFlight bounds the requests to NHTSA at once; 8 when zero.
	MaxInFlight int
	// Lease is how long a claim keeps other replicas off a vehicle.
	Lease time.Duration
	// Backoff is the first pause after NHTSA refuses or fails, doubled per
	// failure in a row up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// MaxFailures in a row end a pass; the rest waits for the next.
	MaxFailures int
	// Slots is how many passes share an interval in Run, spreading the requests.
	Slots int
}

func (c Config) withDefaults() Config {
	c.Interval = cmp.Or(c.Interval, 24*time.Hour)
	c.MaxInFlight = cmp.Or(c.MaxInFlight, 8)
	c.Lease = cmp.Or(c.Lease, 10*time.Minute)
	c.Backoff = cmp.Or(c.Backoff, time.Second)
	c.MaxBackoff = cmp.Or(c.MaxBackoff, 5*time.Minute)
	c.MaxFailures = cmp.Or(c.MaxFailures, 5)
	c.Slots = cmp.Or(c.Slots, 96)
	return c
}

// Watch runs recall passes over a store.
type Watch struct {
	st       store.Store
	cat      Catalog
	up       Fetcher
	notifier Notifier
	obs      Observer
	cfg      Config
	log      *slog.Logger
}

// New returns a Watch; notifier and obs may be nil.
func New(st store.Store, cat Catalog, up Fetcher, notifier Notifier, obs Observer, cfg Config, log *slog.Logger) *Watch {
	return &Watch{st: st, cat: cat, up: up, notifier: notifier, obs: obs, cfg: cfg.withDefaults(), log: log}
}

// Sighting is a campaign first seen on an item in a pass.
type Sighting struct {
	AccountID string   `json:"account_id"`
	Item      Item     `json:"item"`
	Campaign  Campaign `json:"campaign"`
	Notified  bool     `json:"notified"`
}

// Result is what a pass did.
type Result struct {
	Vehicles  int        `json:"vehicles"`
	Checked   int        `json:"checked"`
	Failed    int        `json:"failed"`
	Campaigns int        `json:"campaigns"`
	Baselined int        `json:"baselined"`
	New       []Sighting `json:"new"`
}

// vehicleOf is the watched vehicle of an item; ok false when unknown.
func (w *Watch) vehicleOf(it account.ListItem) (Item, bool) {
	v := Item{Type: it.Kind, UUID: it.UUID, VIN: it.VIN, Note: it.Note}
	if it.Kind == account.KindVIN {
		d := it.Decode
		if d == nil || d.Make == nil || d.Model == nil || d.Year == nil {
			return v, false
		}
		v.Make, v.Model, v.Year = *d.Make, *d.Model, *d.Year
		return v, true
	}
	if w.cat == nil {
		return v, false
	}
	rec, err := w.cat.Get(it.Kind, it.UUID)
	if err != nil {
		return v, false
	}
	switch r := rec.(type) {
	case catalog.Car:
		v.Make, v.Model, v.Year = r.Make, r.Model, r.Year
	case catalog.Motorcycle:
		v.Make, v.Model, v.Year = r.Make, r.Model, r.Year
	default:
		return v, false
	}
	return v, true
}

// Key names a vehicle as the watch's claims do: make|model|year, case folded.
func Key(vehicleMake, model string, year int) string {
	return strings.ToLower(strings.Join(strings.Fields(vehicleMake), " ")) + "|" +
		strings.ToLower(strings.Join(strings.Fields(model), " ")) + "|" + strconv.Itoa(year)
}

type watched struct {
	key       string
	sample    Item
	items     []store.WatchedItem
	checkedAt time.Time
	// fresh: checked within the interval; only its unchecked items need a (cached) look.
	fresh bool
}

// pass is one pass's shared state: its result and the backoff.
type pass struct {
	mu  sync.Mutex
	res Result
	// asking holds a slot per request to NHTSA in flight.
	asking chan struct{}
	// until is when requests may resume; inARow counts failures in a row.
	until   time.Time
	inARow  int
	stopped bool
}

// acquire takes a request slot once the backoff allows; false when the
// pass stopped or ctx ended.
func (p *pass) acquire(ctx context.Context) bool {
	select {
	case p.asking <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	if !p.ready(ctx) {
		<-p.asking
		return false
	}
	return true
}

// release gives back a request slot taken by acquire, once the request's
// outcome is counted: a slot given back earlier let another request start
// on the backoff and failure count from before it.
func (p *pass) release(acquired bool) {
	if acquired {
		<-p.asking
	}
}

// ready waits out the backoff; false when the pass stopped or ctx ended.
func (p *pass) ready(ctx context.Context) bool {
	for {
		p.mu.Lock()
		stopped, wait := p.stopped, time.Until(p.until)
		p.mu.Unlock()
		if stopped || ctx.Err() != nil {
			return false
		}
		if wait <= 0 {
			return true
		}
		if !sleep(ctx, wait) {
			return false
		}
	}
}

// PassOptions choose what a pass checks.
type PassOptions struct {
	// Slots > 0 checks those never checked and a Slots-th of the others.
	Slots int
	// Force checks every vehicle, however recently checked (vds recalls refresh).
	Force bool
}

// Pass checks the vehicles due (never checked or not within the interval),
// oldest check first. Items first seen on a vehicle not due get their
// baseline from the shared cache.
func (w *Watch) Pass(ctx context.Context, opts PassOptions) (Result, error) {
	if w.obs != nil {
		w.obs.WatchPass()
	}
	p := &pass{res: Result{New: []Sighting{}}, asking: make(chan struct{}, w.cfg.MaxInFlight)}
	w.retryNotifications(ctx, p)
	all, err := w.st.WatchedItems(ctx)
	if err != nil {
		return p.res, err
	}
	checks, err := w.st.RecallChecks(ctx)
	if err != nil {
		return p.res, err
	}
	now := time.Now()
	byKey := map[string]*watched{}
	var vehicles []*watched
	for _, it := range all {
		v, ok := w.vehicleOf(it.Item)
		if !ok {
			continue
		}
		key := Key(v.Make, v.Model, v.Year)
		wv := byKey[key]
		if wv == nil {
			at, seen := checks[key]
			wv = &watched{key: key, sample: v, checkedAt: at, fresh: !opts.Force && seen && now.Sub(at) < w.cfg.Interval}
			byKey[key] = wv
			vehicles = append(vehicles, wv)
		}
		wv.items = append(wv.items, it)
	}
	p.res.Vehicles = len(vehicles)
	slices.SortStableFunc(vehicles, func(a, b *watched) int { return a.checkedAt.Compare(b.checkedAt) })
	limit := 0
	if opts.Slots > 0 {
		checked := len(checks)
		limit = max(0, len(vehicles)-checked) + (checked+opts.Slots-1)/opts.Slots
	}
	var asks []*watched
	for _, wv := range vehicles {
		switch {
		case !wv.fresh && (limit <= 0 || len(asks) < limit):
			asks = append(asks, wv)
		case wv.fresh && slices.ContainsFunc(wv.items, func(it store.WatchedItem) bool { return it.Item.RecallsCheckedAt == nil }):
			w.check(ctx, wv, false, p)
		}
	}
	due := now.Add(-w.cfg.Interval)
	if opts.Force {
		due = now
	}
	err = w.ask(ctx, asks, due, p)
	return p.res, err
}

// ask checks the vehicles with at most MaxInFlight requests at once,
// pausing after failures and stopping after MaxFailures in a row. Twice as
// many workers run, so the store's work overlaps the requests.
func (w *Watch) ask(ctx context.Context, vehicles []*watched, due time.Time, p *pass) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(2 * w.cfg.MaxInFlight)
	for _, wv := range vehicles {
		if !p.ready(gctx) {
			break
		}
		g.Go(func() error {
			if !p.ready(gctx) {
				return nil
			}
			now := time.Now()
			ok, err := w.st.ClaimRecallCheck(gctx, wv.key, due, now, now.Add(w.cfg.Lease))
			if err != nil || !ok {
				return err
			}
			w.check(gctx, wv, true, p)
			return nil
		})
	}
	err := g.Wait()
	if p.stopped {
		w.log.Warn("recall watch pass stopped after failures in a row", "failures", w.cfg.MaxFailures)
	}
	return err
}

// check asks for a vehicle's recalls (refresh: NHTSA, else the cache
// first, for its unchecked items) and records them on each item.
func (w *Watch) check(ctx context.Context, wv *watched, refresh bool, p *pass) {
	var recalls []upstream.Recall
	var err error
	if refresh {
		if !p.acquire(ctx) {
			w.finish(ctx, wv.key, nil, time.Now()) // the claim goes back for the next pass
			return
		}
		recalls, err = w.up.RefreshRecalls(ctx, wv.sample.Make, wv.sample.Model, wv.sample.Year)
	} else {
		recalls, _, err = w.up.Recalls(ctx, wv.sample.Make, wv.sample.Model, wv.sample.Year)
	}
	now := time.Now()
	if err != nil {
		p.mu.Lock()
		p.res.Failed++
		p.inARow++
		pause := min(w.cfg.MaxBackoff, w.cfg.Backoff<<min(p.inARow-1, 30))
		p.until = now.Add(pause)
		p.stopped = p.inARow >= w.cfg.MaxFailures
		p.mu.Unlock()
		p.release(refresh)
		w.observe(OutcomeFailed, 0)
		w.log.Warn("recall check failed", "vehicle", wv.key, "err", err, "pause", pause)
		if refresh {
			w.finish(ctx, wv.key, nil, now.Add(pause))
		}
		return
	}
	p.mu.Lock()
	p.inARow = 0
	p.res.Checked++
	p.res.Campaigns += len(recalls)
	p.mu.Unlock()
	p.release(refresh)
	w.observe(OutcomeChecked, len(recalls))
	campaigns := make(map[string][]byte, len(recalls))
	byNumber := make(map[string]upstream.Recall, len(recalls))
	for _, r := range recalls {
		raw, err := json.Marshal(r)
		if err != nil {
			continue
		}
		campaigns[r.CampaignNumber], byNumber[r.CampaignNumber] = raw, r
	}
	for _, it := range wv.items {
		if !refresh && it.Item.RecallsCheckedAt != nil {
			continue
		}
		added, err := w.st.RecordItemRecalls(ctx, it.Ref(), campaigns, now)
		if errors.Is(err, store.ErrNotFound) {
			continue // removed meanwhile
		} else if err != nil {
			w.log.Error("record recalls", "vehicle", wv.key, "err", err)
			continue
		}
		item := wv.sample
		item.ListID, item.Type, item.UUID, item.VIN, item.Note = it.ListID, it.Item.Kind, it.Item.UUID, it.Item.VIN, it.Item.Note
		p.mu.Lock()
		if it.Item.RecallsCheckedAt == nil {
			p.res.Baselined++
		}
		p.mu.Unlock()
		for _, a := range added {
			w.notify(ctx, p, a.AccountID, item, Campaign{Recall: byNumber[a.Campaign], FirstSeenAt: a.FirstSeenAt}, a.ItemRef)
		}
	}
	if refresh {
		w.finish(ctx, wv.key, &now, time.Time{})
	}
}

func (w *Watch) finish(ctx context.Context, key string, checkedAt *time.Time, retryAt time.Time) {
	if err := w.st.FinishRecallCheck(context.WithoutCancel(ctx), key, checkedAt, retryAt); err != nil {
		w.log.Error("finish recall check", "vehicle", key, "err", err)
	}
}

func (w *Watch) observe(outcome string, campaigns int) {
	if w.obs != nil {
		w.obs.WatchVehicle(outcome)
		w.obs.WatchCampaigns(campaigns)
	}
}

// notify tells the notifier of a sighting and marks it notified when it
// took it; a failure is retried by the next pass. Without a notifier the
// sighting stays unnotified, for a process that has one.
func (w *Watch) notify(ctx context.Context, p *pass, accountID string, item Item, c Campaign, ref store.ItemRef) {
	s := Sighting{AccountID: accountID, Item: item, Campaign: c}
	var err error
	if w.notifier != nil {
		err = w.notifier.RecallNew(ctx, accountID, item, c)
		if err == nil {
			err = w.st.MarkRecallNotified(context.WithoutCancel(ctx), ref, c.CampaignNumber)
			s.Notified = err == nil
		}
	}
	if err != nil {
		w.log.Warn("recall notification failed; the next pass retries", "campaign", c.CampaignNumber, "err", err)
	}
	p.mu.Lock()
	p.res.New = append(p.res.New, s)
	p.mu.Unlock()
}

// retryNotifications notifies the sightings an earlier pass could not.
func (w *Watch) retryNotifications(ctx context.Context, p *pass) {
	if w.notifier == nil {
		return
	}
	pending, err := w.st.UnnotifiedRecalls(ctx)
	if err != nil || len(pending) == 0 {
		return
	}
	items, err := w.st.WatchedItems(ctx)
	if err != nil {
		return
	}
	byRef := make(map[store.ItemRef]Item, len(items))
	for _, it := range items {
		if v, ok := w.vehicleOf(it.Item); ok {
			v.ListID = it.ListID
			byRef[it.Ref()] = v
		}
	}
	for _, r := range pending {
		var c Campaign
		if json.Unmarshal(r.Recall, &c.Recall) != nil {
			continue
		}
		c.FirstSeenAt = r.FirstSeenAt
		if item, ok := byRef[r.ItemRef]; ok {
			w.notify(ctx, p, r.AccountID, item, c, r.ItemRef)
		}
	}
}

// Run runs the watch until ctx ends: whichever replica holds the watch
// lock makes a pass each Interval/Slots, checking a Slots-th of the
// vehicles (those checked longest ago), so the requests spread over the interval.
func (w *Watch) Run(ctx context.Context) {
	tick := max(w.cfg.Interval/time.Duration(w.cfg.Slots), time.Second)
	var release func()
	defer func() {
		if release != nil {
			release()
		}
	}()
	for {
		if release == nil {
			held, rel, err := w.st.TryWatchLock(ctx)
			if err != nil {
				w.log.Warn("recall watch lock", "err", err)
			} else if held {
				release = rel
			}
		}
		if release != nil {
			if _, err := w.Pass(ctx, PassOptions{Slots: w.cfg.Slots}); err != nil && ctx.Err() == nil {
				w.log.Warn("recall watch pass", "err", err)
			}
		}
		if !sleep(ctx, tick) {
			return
		}
	}
}

// sleep waits d or until ctx ends; false when ctx ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// String summarises a result for the command line.
func (r Result) String() string {
	return fmt.Sprintf("%d vehicles watched, %d checked, %d failed, %d campaigns open, %d items baselined, %d new",
		r.Vehicles, r.Checked, r.Failed, r.Campaigns, r.Baselined, len(r.New))
}
