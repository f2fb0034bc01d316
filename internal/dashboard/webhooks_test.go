package dashboard_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"testing"

	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/store"
)

// TestWebhooksPage: an endpoint is added on the Webhooks page, its secret
// shown once; a private address is refused with a message; the test event
// is sent by the dispatcher vds serve runs, and rotating shows a new secret.
func TestWebhooksPage(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- string(body)
	}))
	t.Cleanup(receiver.Close)
	strict := newEnv(t, nil)
	b := newBrowser(t, strict.start())
	b.signUp("hooks@example.com", "correct horse battery")
	b.get("/dashboard/webhooks").want(t, http.StatusOK, "").contains(t, "No endpoints yet")
	p := b.post("/dashboard/webhooks", url.Values{"url": {receiver.URL}, "events": {"recall.new"}}).want(t, http.StatusBadRequest, "")
	if a := p.alert(); !regexp.MustCompile(`private`).MatchString(a) {
		t.Errorf("alert %q, want a refusal of the private address", a)
	}

	e := newEnv(t, func(c *config.Config) { c.Webhooks.AllowPrivate = true })
	// e.start serves the handler alone; vds serve also runs the dispatcher.
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.srv.Webhooks().Run(ctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	b = newBrowser(t, e.start())
	b.signUp("hooks@example.com", "correct horse battery")
	b.get("/dashboard/webhooks").want(t, http.StatusOK, "")
	b.post("/dashboard/webhooks", url.Values{"url": {receiver.URL + "/in"}, "events": {"recall.new"}}).want(t, http.StatusSeeOther, "/dashboard/webhooks")
	secret := regexp.MustCompile(`whsec_[0-9a-f]{48}`)
	first := b.get("/dashboard/webhooks").want(t, http.StatusOK, "").contains(t, receiver.URL+"/in", "Copy the secret now")
	if secret.FindString(first.body) == "" {
		t.Fatal("the new secret is not shown")
	}
	again := b.get("/dashboard/webhooks").lacks(t, "Copy the secret now")
	id := regexp.MustCompile(`/dashboard/webhooks/(we_[a-z0-9]+)/test`).FindStringSubmatch(again.body)
	if id == nil || secret.FindString(again.body) != "" {
		t.Fatalf("endpoint id %v; the secret must not show again", id)
	}
	b.post("/dashboard/webhooks/"+id[1]+"/test", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/webhooks?n=webhook-test")
	if body := <-got; !regexp.MustCompile(`"type":"webhook.test"`).MatchString(body) {
		t.Errorf("test event %s", body)
	}
	b.post("/dashboard/webhooks/"+id[1]+"/rotate", url.Values{"grace": {"2h"}}).want(t, http.StatusBadRequest, "")
	b.post("/dashboard/webhooks/"+id[1]+"/rotate", url.Values{"grace": {"24h"}}).want(t, http.StatusSeeOther, "/dashboard/webhooks")
	rotated := b.get("/dashboard/webhooks").contains(t, "The old secret also signs until")
	if s := secret.FindString(rotated.body); s == "" || s == secret.FindString(first.body) {
		t.Errorf("rotated secret %q", s)
	}
	// An endpoint that failures turned off: a notice on the overview and the
	// Webhooks page, until it is enabled.
	a, err := e.acc.Account(context.Background(), "hooks@example.com")
	if err != nil {
		t.Fatal(err)
	}
	off := store.WebhookEndpoint{ID: "we_off", AccountID: a.ID, URL: "https://93.184.215.14/off", Events: []string{"recall.new"},
		Secret: "whsec_x", CreatedAt: a.CreatedAt}
	if err := e.st.CreateWebhookEndpoint(context.Background(), off, 10); err != nil {
		t.Fatal(err)
	}
	b.get("/dashboard/").contains(t, "1 webhook endpoint was turned off after 3 days of failed deliveries")
	b.get("/dashboard/webhooks").contains(t, "The endpoint https://93.184.215.14/off was turned off")
	b.post("/dashboard/webhooks/we_off/enable", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/webhooks?n=webhook-enabled")
	b.get("/dashboard/").lacks(t, "turned off")
	b.post("/dashboard/webhooks/we_nosuch/delete", url.Values{}).want(t, http.StatusNotFound, "")
	b.post("/dashboard/webhooks/"+id[1]+"/delete", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/webhooks?n=webhook-deleted")
	b.post("/dashboard/webhooks/we_off/delete", url.Values{}).want(t, http.StatusSeeOther, "")
	b.get("/dashboard/webhooks").contains(t, "No endpoints yet")
}
