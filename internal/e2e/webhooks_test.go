package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

type hook struct {
	eventID, signature string
	body               []byte
	at                 time.Time
}

// TestWebhookSurvivesKill: a delivery whose first attempt failed is sent
// after vds serve is killed with SIGKILL before its retry and started
// again: the event was stored, and the retry carries the same id.
func TestWebhookSurvivesKill(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, e *env) {
		got := make(chan hook, 10)
		n := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if n++; n == 1 {
				w.WriteHeader(http.StatusServiceUnavailable)
			}
			got <- hook{r.Header.Get("VDS-Event-ID"), r.Header.Get("VDS-Signature"), body, time.Now()}
		}))
		t.Cleanup(srv.Close)
		e.writeConfig("webhooks:\n  retry_initial: 3s\n  allow_private: true\n")
		e.vds("accounts", "create", "--email", "hooks@example.com")
		var ep struct{ ID, Secret string }
		if err := json.Unmarshal([]byte(e.vds("webhooks", "create", "--email", "hooks@example.com", "--url", srv.URL+"/in", "--json")), &ep); err != nil {
			t.Fatal(err)
		}
		in := e.serve()
		var ev struct{ ID string }
		if err := json.Unmarshal([]byte(e.vds("webhooks", "test", ep.ID, "--json")), &ev); err != nil {
			t.Fatal(err)
		}
		queued := time.Now()
		first := wait(t, got)
		t.Logf("queued by another process to first attempt: %s", first.at.Sub(queued))
		var log []struct{ Attempt, Status int }
		logged := func(n int) func() bool {
			return func() bool {
				return json.Unmarshal([]byte(e.vds("webhooks", "deliveries", ep.ID, "--json")), &log) == nil && len(log) == n
			}
		}
		eventually(t, 10*time.Second, "first attempt logged", logged(1))
		if err := in.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		<-in.done
		e.serve()
		second := wait(t, got)
		if first.eventID != ev.ID || second.eventID != ev.ID || string(second.body) != string(first.body) {
			t.Errorf("events %s then %s, want %s twice with the same body", first.eventID, second.eventID, ev.ID)
		}
		if err := verifySignature(second.signature, ep.Secret, second.body); err != nil {
			t.Error(err)
		}
		eventually(t, 10*time.Second, "retry logged", logged(2))
		if log[0].Attempt != 2 || log[0].Status != 200 || log[1].Status != 503 {
			t.Errorf("delivery log %+v", log)
		}
	})
}

func wait(t *testing.T, got chan hook) hook {
	t.Helper()
	select {
	case h := <-got:
		return h
	case <-time.After(30 * time.Second):
		t.Fatal("no delivery within 30s")
	}
	return hook{}
}
