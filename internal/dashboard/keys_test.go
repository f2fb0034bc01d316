package dashboard_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/config"
)

// issue posts a form that creates or rotates a token, checks that the
// answer is a redirect to the tokens page (POST-redirect-GET), and follows
// it as a browser would.
func (b *browser) issue(path string, form url.Values) page {
	b.t.Helper()
	b.post(path, form).want(b.t, http.StatusSeeOther, "/dashboard/tokens")
	return b.get("/dashboard/tokens").want(b.t, http.StatusOK, "")
}

// signedUp starts e and returns its address and a browser signed up as
// email, on the tokens page.
func (e *env) signedUp(email string) (string, *browser) {
	e.t.Helper()
	base := e.start()
	b := newBrowser(e.t, base)
	b.signUp(email, password)
	b.get("/dashboard/tokens").want(e.t, http.StatusOK, "")
	return base, b
}

// signIn signs b in through the sign-in form.
func (b *browser) signIn(email, password string) {
	b.t.Helper()
	b.get("/dashboard/signin")
	b.post("/dashboard/signin", url.Values{"email": {email}, "password": {password}}).want(b.t, http.StatusSeeOther, "/dashboard/")
}

var rotateLinkRE = regexp.MustCompile(`href="/dashboard/tokens/(tok_[a-z2-7]+)/rotate"`)

// newToken creates a token on the tokens page and returns its id and the
// secret shown after the redirect.
func (b *browser) newToken(name string) (id, secret string) {
	b.t.Helper()
	p := b.issue("/dashboard/tokens", url.Values{"name": {name}})
	return rotateLinkRE.FindStringSubmatch(p.body)[1], secretOf(b.t, p)
}

func secretOf(t *testing.T, p page) string {
	t.Helper()
	m := secretRE.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("no secret on the page:\n%s", mainOf(p.body))
	}
	return m[1]
}

// A created token's secret is shown on the first load after the redirect
// only: a reload shows no secret and creates no token, and another browser
// signed in to the same account never sees it.
func TestTokenSecretShownOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base, b := e.signedUp("once@example.com")
	other := newBrowser(t, base)
	other.signIn("once@example.com", password)

	b.get("/dashboard/tokens").want(t, http.StatusOK, "")
	created := b.post("/dashboard/tokens", url.Values{"name": {"laptop"}}).want(t, http.StatusSeeOther, "/dashboard/tokens")
	if strings.Contains(created.Header.Get("Location"), "vds_") || strings.Contains(created.body, "vds_") {
		t.Fatalf("the secret travels in the redirect: %q %q", created.Header.Get("Location"), created.body)
	}
	other.get("/dashboard/tokens").want(t, http.StatusOK, "").lacks(t, `id="secret"`)
	p := b.get("/dashboard/tokens").want(t, http.StatusOK, "").contains(t, "Token “laptop” created", "shown only this once")
	secret := secretOf(t, p)
	if status, _ := api(t, base, secret, "/v1/me"); status != http.StatusOK {
		t.Fatalf("/v1/me with the shown secret: %d", status)
	}
	for range 2 {
		b.get("/dashboard/tokens").want(t, http.StatusOK, "").lacks(t, secret, `id="secret"`).contains(t, "laptop", secret[:10]+"…")
	}
	a, err := e.acc.Account(context.Background(), "once@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if toks, _ := e.acc.Tokens(context.Background(), a.ID); len(toks) != 1 {
		t.Fatalf("after a create and reloads: %d tokens, want 1", len(toks))
	}
}

// Rotation asks first, offering a grace period; during it both tokens are
// admitted by the REST API, after it the old one is refused.
func TestRotateWithGrace(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, backend string) {
		e := newEnvOn(t, backend, nil)
		base, b := e.signedUp("grace@example.com")
		id, old := b.newToken("ci")

		confirm := b.get("/dashboard/tokens/"+id+"/rotate").want(t, http.StatusOK, "").
			contains(t, "Rotate token “ci”?", `value="none" required checked`, `value="1h"`, `value="24h"`)
		if status, _ := api(t, base, old, "/v1/me"); status != http.StatusOK || strings.Contains(confirm.body, `id="secret"`) {
			t.Fatalf("the confirmation page rotated by itself: old token %d", status)
		}
		p := b.post("/dashboard/tokens/"+id+"/rotate", url.Values{"grace": {"2h"}}).want(t, http.StatusBadRequest, "")
		if got := p.alert(); got != "Choose how long the old token keeps working: none, 1 hour or 24 hours." {
			t.Fatalf("a grace not offered: alert %q", got)
		}

		p = b.issue("/dashboard/tokens/"+id+"/rotate", url.Values{"grace": {"1h"}}).
			contains(t, "Token “ci” rotated", old[:10]+"…</code> keeps working until", "(in 59 minutes)")
		next := secretOf(t, p)
		for _, secret := range []string{old, next} {
			if status, _ := api(t, base, secret, "/v1/cars?make=Toyota"); status != http.StatusOK {
				t.Fatalf("%s… in the grace period: %d, want 200", secret[:10], status)
			}
		}
		// The old token is listed as rotated, can only be revoked now.
		b.get("/dashboard/tokens").contains(t, `<td data-label="Status" class="grace">Rotated: ends <time`, ">in 59 minutes</time></td>",
			`<td class="actions"><a class="button danger" href="/dashboard/tokens/`+id+`/revoke" aria-label="Revoke ci now">Revoke now</a></td>`,
			`<td data-label="Status">Active</td>`).
			lacks(t, `href="/dashboard/tokens/`+id+`/rotate"`)
		b.get("/dashboard/tokens/"+id+"/rotate").want(t, http.StatusNotFound, "")

		// The grace ends (its end moved into the past): the old token is refused.
		if err := e.st.RevokeToken(context.Background(), id, time.Now().Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		if status, _ := api(t, base, old, "/v1/me"); status != http.StatusUnauthorized {
			t.Fatalf("old token after the grace: %d, want 401", status)
		}
		if status, _ := api(t, base, next, "/v1/me"); status != http.StatusOK {
			t.Fatalf("new token after the grace: %d, want 200", status)
		}
	})
}

// Ending a grace period early: "Revoke now" refuses the old token at once,
// through the token cache.
func TestRevokeDuringGrace(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *config.Config) { c.Server.AuthCacheTTL = time.Minute })
	base, b := e.signedUp("early@example.com")
	id, old := b.newToken("ci")
	b.issue("/dashboard/tokens/"+id+"/rotate", url.Values{"grace": {"24h"}})
	if status, _ := api(t, base, old, "/v1/me"); status != http.StatusOK {
		t.Fatalf("old token in the grace: %d, want 200", status)
	}
	b.get("/dashboard/tokens/"+id+"/revoke").want(t, http.StatusOK, "").contains(t, "Revoke token “ci”?")
	b.post("/dashboard/tokens/"+id+"/revoke", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/tokens?n=revoked")
	if status, _ := api(t, base, old, "/v1/me"); status != http.StatusUnauthorized {
		t.Fatalf("old token revoked in its grace: %d, want 401", status)
	}
	b.get("/dashboard/tokens").contains(t, "Revoked tokens (1)")
}

// The tokens page says when a token was last used in words, with the exact
// time for machines and on hover.
func TestTokenLastUsed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	_, b := e.signedUp("used@example.com")
	id, _ := b.newToken("ci")
	b.get("/dashboard/tokens").contains(t, `<td data-label="Last used" class="nowrap">Never</td>`)
	at := time.Now().UTC().Add(-5*time.Minute - 10*time.Second).Truncate(time.Second)
	if err := e.st.TouchTokens(context.Background(), map[string]time.Time{id: at}); err != nil {
		t.Fatal(err)
	}
	b.get("/dashboard/tokens").contains(t, `<td data-label="Last used" class="nowrap"><time datetime="`+at.Format(time.RFC3339)+
		`" title="`+at.Format("2 Jan 2006 15:04 UTC")+`">5 minutes ago</time></td>`)
}

// Changing the password checks the current one, signs out every other
// browser and keeps this one signed in.
func TestChangePassword(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base, b := e.signedUp("pw@example.com")
	other := newBrowser(t, base)
	other.signIn("pw@example.com", password)

	b.get("/dashboard/account").want(t, http.StatusOK, "").contains(t, "Change password", "Danger zone", "pw@example.com")
	const next = "a brand new passphrase"
	for _, c := range []struct {
		form  url.Values
		want  int
		alert string
	}{
		{url.Values{"current": {""}, "password": {next}, "confirm": {next}}, http.StatusBadRequest, "Enter your current password."},
		{url.Values{"current": {password}, "password": {"short"}, "confirm": {"short"}}, http.StatusBadRequest,
			"Choose a new password of at least 10 and at most 256 characters."},
		{url.Values{"current": {password}, "password": {next}, "confirm": {next + "!"}}, http.StatusBadRequest,
			"The two new passwords differ. Type the same password twice."},
		{url.Values{"current": {password}, "password": {password}, "confirm": {password}}, http.StatusBadRequest,
			"The new password is the current one. Choose another."},
		{url.Values{"current": {"not the password"}, "password": {next}, "confirm": {next}}, http.StatusBadRequest,
			"The current password is incorrect."},
	} {
		p := b.post("/dashboard/account/password", c.form).want(t, c.want, "")
		if p.alert() != c.alert || !strings.Contains(p.body, `aria-invalid="true"`) {
			t.Fatalf("change with %v: alert %q, want %q", c.form, p.alert(), c.alert)
		}
	}
	b.post("/dashboard/account/password", url.Values{"current": {password}, "password": {next}, "confirm": {next}, "csrf": {"forged"}}).
		want(t, http.StatusForbidden, "")
	// Nothing changed so far: the other browser is still signed in.
	other.get("/dashboard/tokens").want(t, http.StatusOK, "")

	b.post("/dashboard/account/password", url.Values{"current": {password}, "password": {next}, "confirm": {next}}).
		want(t, http.StatusSeeOther, "/dashboard/account?n=password-changed")
	b.get("/dashboard/account?n=password-changed").want(t, http.StatusOK, "").contains(t, "Your password was changed.")
	other.get("/dashboard/tokens").want(t, http.StatusSeeOther, "/dashboard/signin?n=expired&next=%2Fdashboard%2Ftokens")

	fresh := newBrowser(t, base)
	fresh.get("/dashboard/signin")
	fresh.post("/dashboard/signin", url.Values{"email": {"pw@example.com"}, "password": {password}}).want(t, http.StatusUnauthorized, "")
	fresh.post("/dashboard/signin", url.Values{"email": {"pw@example.com"}, "password": {next}}).want(t, http.StatusSeeOther, "/dashboard/")
}

// Deleting the account needs its email typed; then the account, its
// tokens (refused at once despite the token cache), lists and sessions go.
func TestDeleteAccount(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, backend string) {
		e := newEnvOn(t, backend, func(c *config.Config) { c.Server.AuthCacheTTL = time.Minute })
		base, b := e.signedUp("leaving@example.com")
		other := newBrowser(t, base)
		other.signIn("leaving@example.com", password)
		_, secret := b.newToken("ci")
		for range 3 { // cached
			if status, _ := api(t, base, secret, "/v1/lists"); status != http.StatusOK {
				t.Fatalf("token before the deletion: %d", status)
			}
		}
		ctx := context.Background()
		a, err := e.acc.Account(ctx, "leaving@example.com")
		if err != nil {
			t.Fatal(err)
		}

		b.get("/dashboard/account/delete").want(t, http.StatusOK, "").
			contains(t, "Delete your account?", "its API token, refused at once", "its list and the vehicles", "cannot be undone")
		p := b.post("/dashboard/account/delete", url.Values{"email": {"someone@example.com"}}).want(t, http.StatusBadRequest, "")
		if got := p.alert(); got != "Type your account&#39;s email address, leaving@example.com, to confirm." {
			t.Fatalf("wrong email: alert %q", got)
		}
		b.post("/dashboard/account/delete", url.Values{}).want(t, http.StatusBadRequest, "")
		if _, err := e.acc.Account(ctx, a.Email); err != nil {
			t.Fatalf("a refused confirmation deleted the account: %v", err)
		}

		b.post("/dashboard/account/delete", url.Values{"email": {" Leaving@Example.com "}}).
			want(t, http.StatusSeeOther, "/dashboard/signin?n=account-deleted")
		if status, _ := api(t, base, secret, "/v1/lists"); status != http.StatusUnauthorized {
			t.Fatalf("token of the deleted account: %d, want 401", status)
		}
		if _, err := e.acc.Account(ctx, a.Email); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("account after deletion: %v", err)
		}
		if toks, _ := e.acc.Tokens(ctx, a.ID); len(toks) != 0 {
			t.Fatalf("tokens after deletion: %d", len(toks))
		}
		if ls, _ := e.lists.Lists(ctx, a.ID); len(ls) != 0 {
			t.Fatalf("lists after deletion: %d", len(ls))
		}
		b.get("/dashboard/signin?n=account-deleted").want(t, http.StatusOK, "").contains(t, "Your account was deleted")
		b.get("/dashboard/tokens").want(t, http.StatusSeeOther, "/dashboard/signin?next=%2Fdashboard%2Ftokens")
		other.get("/dashboard/tokens").want(t, http.StatusSeeOther, "/dashboard/signin?n=expired&next=%2Fdashboard%2Ftokens")
		other.post("/dashboard/signin", url.Values{"email": {a.Email}, "password": {password}}).want(t, http.StatusUnauthorized, "")
	})
}
