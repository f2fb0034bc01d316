package e2e

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// receiver is a loopback webhook endpoint that keeps every POST.
type receiver struct {
	URL  string
	mu   sync.Mutex
	got  []hook
	more chan struct{}
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{more: make(chan struct{}, 100)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost {
			t.Errorf("webhook %s, want POST", r.Method)
		}
		rc.mu.Lock()
		rc.got = append(rc.got, hook{r.Header.Get("VDS-Event-ID"), r.Header.Get("VDS-Signature"), body, time.Now()})
		rc.mu.Unlock()
		rc.more <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	rc.URL = srv.URL + "/hooks/vds"
	return rc
}

func (rc *receiver) hooks() []hook {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// verifySignature checks a VDS-Signature header against the secret: some
// v1 is the hex HMAC-SHA256 of "<t>.<body>".
func verifySignature(header, secret string, body []byte) error {
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if _, err := strconv.ParseInt(ts, 10, 64); err != nil {
		return fmt.Errorf("signature %q: no t", header)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + string(body)))
	want := hex.EncodeToString(mac.Sum(nil))
	if !slices.Contains(sigs, want) {
		return fmt.Errorf("signature %q does not verify with the printed secret", header)
	}
	return nil
}

type recallEvent struct {
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Created time.Time `json:"created"`
	Data    struct {
		Item struct {
			ListID                        string `json:"list_id"`
			Type, UUID, Make, Model, Note string
			VIN                           *string
			Year                          int
		} `json:"item"`
		Campaign struct {
			CampaignNumber string    `json:"campaign_number"`
			FirstSeenAt    time.Time `json:"first_seen_at"`
		} `json:"campaign"`
	} `json:"data"`
}

// TestRecallWatchEndToEnd is the check: an account saves a
// catalog car and a VIN and registers a loopback receiver; the first
// vds recalls refresh is the baseline and sends nothing; a campaign filed
// at NHTSA for the VIN's vehicle then reaches the receiver once, signed,
// and the API shows it new on that item only; MCP clients subscribed to
// vds://garage are told.
func TestRecallWatchEndToEnd(t *testing.T) {
	t.Parallel()
	snapshot := vpictest.Cut(t, "1FT")
	backends(t, func(t *testing.T, e *env) {
		fake := upstreamtest.New(t)
		e.writeConfig(fmt.Sprintf("upstream:\n  vpic_url: %s\n  nhtsa_url: %s\nwebhooks:\n  allow_private: true\n", fake.URL, fake.URL))
		e.vds("ingest")
		e.vds("vpic", "import", snapshot)
		const email = "dana@example.com"
		_, tok := e.newToken(email, "developer")
		in := e.serve()

		var cars struct {
			Data []struct{ UUID string }
		}
		in.getJSON(tok, "/v1/cars?make=Toyota&per_page=1", http.StatusOK, &cars)
		if len(cars.Data) != 1 {
			t.Fatalf("no Toyota in the catalog: %+v", cars)
		}
		car := cars.Data[0].UUID
		e.vds("lists", "add", "--email", email, "--type", "car", "--uuid", car, "--note", "daily driver")
		if out := e.vds("lists", "add", "--email", email, "--vin", upstreamtest.KnownVIN, "--note", "Dana's F-150"); !strings.Contains(out, "2021 Ford F-150") {
			t.Fatalf("lists add --vin: %q", out)
		}
		rc := newReceiver(t)
		var ep struct{ ID, Secret string }
		if err := json.Unmarshal([]byte(e.vds("webhooks", "create", "--email", email, "--url", rc.URL, "--json")), &ep); err != nil {
			t.Fatal(err)
		}

		type refresh struct {
			Failed int
			New    []struct {
				Campaign struct {
					CampaignNumber string `json:"campaign_number"`
				}
			}
		}
		var base refresh
		if err := json.Unmarshal([]byte(e.vds("recalls", "refresh", "--json")), &base); err != nil {
			t.Fatal(err)
		}
		// vds serve's own first pass may have baselined an item already.
		if base.Failed != 0 || len(base.New) != 0 {
			t.Fatalf("baseline pass: %+v, want none failed, none new", base)
		}

		// MCP clients subscribed to the garage, in both protocol eras.
		revs := []string{mcp.LATEST_PROTOCOL_VERSION, mcp.LATEST_LEGACY_PROTOCOL_VERSION}
		updates := map[string]<-chan string{}
		for _, rev := range revs {
			updates[rev] = in.subscribeGarage(tok, rev)
		}

		const campaign = "26V999000"
		fake.AddRecall(t, "Ford", "F-150", 2021, campaign)
		var second refresh
		if err := json.Unmarshal([]byte(e.vds("recalls", "refresh", "--json")), &second); err != nil {
			t.Fatal(err)
		}
		if len(second.New) != 1 || second.New[0].Campaign.CampaignNumber != campaign {
			t.Fatalf("second pass: %+v, want %s new", second, campaign)
		}
		select {
		case <-rc.more:
		case <-time.After(15 * time.Second):
			t.Fatalf("no delivery within 15s\n%s", in.logs.String())
		}
		// Each replica polls the store every server.catalog_poll (1s).
		for _, rev := range revs {
			updatedWithin(t, updates[rev], rev, 10*time.Second)
		}
		// Deliveries are logged after the receiver answered; once logged,
		// any other event would have had its own attempt too.
		eventually(t, 10*time.Second, "delivery logged", func() bool {
			var log []struct{ Status int }
			return json.Unmarshal([]byte(e.vds("webhooks", "deliveries", ep.ID, "--json")), &log) == nil && len(log) >= 1
		})
		got := rc.hooks()
		if len(got) != 1 {
			t.Fatalf("%d deliveries, want 1: %+v", len(got), got)
		}
		h := got[0]
		if err := verifySignature(h.signature, ep.Secret, h.body); err != nil {
			t.Error(err)
		}
		var ev recallEvent
		if err := json.Unmarshal(h.body, &ev); err != nil {
			t.Fatalf("body %s: %v", h.body, err)
		}
		it, c := ev.Data.Item, ev.Data.Campaign
		if ev.ID == "" || ev.ID != h.eventID || ev.Type != "recall.new" || time.Since(ev.Created) > time.Minute ||
			it.Type != "vin" || it.VIN == nil || *it.VIN != upstreamtest.KnownVIN || it.Make != "Ford" || it.Model != "F-150" ||
			it.Year != 2021 || it.Note != "Dana's F-150" || it.ListID == "" || c.CampaignNumber != campaign || c.FirstSeenAt.IsZero() {
			t.Errorf("event %+v (header id %q)\n%s", ev, h.eventID, h.body)
		}

		var recalls struct {
			Data []struct {
				Type      string
				VIN       *string
				UUID      string
				Campaigns []struct {
					CampaignNumber string `json:"campaign_number"`
					New, Baseline  bool
					Status         string
				}
			}
		}
		in.getJSON(tok, "/v1/lists/recalls", http.StatusOK, &recalls)
		found := 0
		for _, item := range recalls.Data {
			for _, cv := range item.Campaigns {
				isNew := cv.CampaignNumber == campaign
				if cv.New != isNew || cv.Baseline == isNew || cv.Status != "open" {
					t.Errorf("/v1/lists/recalls: %s on %s %s: new %v, baseline %v, %s", cv.CampaignNumber, item.Type, item.UUID, cv.New, cv.Baseline, cv.Status)
				}
				if isNew {
					found++
					if item.VIN == nil || *item.VIN != upstreamtest.KnownVIN {
						t.Errorf("/v1/lists/recalls: %s on %s %s, want the VIN only", campaign, item.Type, item.UUID)
					}
				}
			}
		}
		if len(recalls.Data) != 2 || found != 1 {
			t.Errorf("/v1/lists/recalls: %d items, %s on %d, want 2 items, on 1: %+v", len(recalls.Data), campaign, found, recalls.Data)
		}

		var lists struct {
			Data []struct {
				Items []struct {
					Type    string
					VIN     *string
					Recalls *struct{ Open, New []string }
				}
			}
		}
		in.getJSON(tok, "/v1/lists", http.StatusOK, &lists)
		var seen []string
		for _, l := range lists.Data {
			for _, item := range l.Items {
				if item.Recalls == nil {
					t.Fatalf("/v1/lists: %s item without recalls", item.Type)
				}
				wantNew := []string{}
				if item.VIN != nil {
					wantNew = []string{campaign}
				}
				if !slices.Equal(item.Recalls.New, wantNew) || !slices.Contains(item.Recalls.Open, "00V421001") ||
					slices.Contains(item.Recalls.Open, campaign) != (item.VIN != nil) {
					t.Errorf("/v1/lists: %s item: open %v, new %v, want new %v", item.Type, item.Recalls.Open, item.Recalls.New, wantNew)
				}
				seen = append(seen, item.Type)
			}
		}
		slices.Sort(seen)
		if !slices.Equal(seen, []string{"car", "vin"}) {
			t.Errorf("/v1/lists items %v, want a car and a VIN", seen)
		}
	})
}

// subscribeGarage connects an MCP client in protocol revision rev and
// subscribes to vds://garage: by subscriptions/listen from 2026-07-28 on,
// by resources/subscribe and a GET stream before. It returns the URIs of
// the notifications/resources/updated the client receives.
func (in *instance) subscribeGarage(token, rev string) <-chan string {
	in.t.Helper()
	modern := rev == mcp.LATEST_PROTOCOL_VERSION
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token})}
	if !modern {
		//lint:ignore SA1019 2025-11-25 clients still subscribe on the GET stream, which vds serves.
		opts = append(opts, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(in.URL+"/mcp", opts...)
	if err != nil {
		in.t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(rev))
	in.t.Cleanup(func() { c.Close() })
	updated, acked := make(chan string, 10), make(chan struct{}, 1)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		switch n.Method {
		case mcp.MethodNotificationResourceUpdated:
			uri, _ := n.Params.AdditionalFields["uri"].(string)
			updated <- uri
		case mcp.MethodNotificationSubscriptionsAcknowledged:
			acked <- struct{}{}
		}
	})
	ctx := context.Background()
	var init mcp.InitializeRequest
	init.Params.ClientInfo = mcp.Implementation{Name: "vds-e2e", Version: "1.0"}
	if err := c.Start(ctx); err != nil {
		in.t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, init); err != nil {
		in.t.Fatal(err)
	}
	if !modern {
		var sub mcp.SubscribeRequest
		sub.Params.URI = "vds://garage"
		//lint:ignore SA1019 resources/subscribe is how 2025-11-25 clients subscribe.
		if err := c.Subscribe(ctx, sub); err != nil {
			in.t.Fatalf("resources/subscribe: %v", err)
		}
		return updated
	}
	stop, err := c.ListenAsync(ctx, mcp.SubscriptionFilter{ResourceSubscriptions: []string{"vds://garage"}}, func(err error) {
		in.t.Errorf("subscriptions/listen: %v", err)
	})
	if err != nil {
		in.t.Fatal(err)
	}
	in.t.Cleanup(stop)
	select {
	case <-acked:
	case <-time.After(10 * time.Second):
		in.t.Fatal("subscriptions/listen not acknowledged within 10s")
	}
	return updated
}

// updatedWithin waits for a notification of vds://garage.
func updatedWithin(t *testing.T, got <-chan string, rev string, limit time.Duration) {
	t.Helper()
	select {
	case uri := <-got:
		if uri != "vds://garage" {
			t.Errorf("%s: notifications/resources/updated for %q, want vds://garage", rev, uri)
		}
	case <-time.After(limit):
		t.Errorf("%s: no notifications/resources/updated within %s", rev, limit)
	}
}
