package dashboard

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/signin"
)

// authForm is the data of the sign-in and sign-up pages. The password is
// never sent back into the page.
type authForm struct {
	Email string
	Next  string
	// Invalid marks the fields the error is about, for aria-invalid.
	Invalid map[string]bool
	// Free is the plan sign-up gives, to say what it includes.
	Free *account.Plan
}

func (h *Handler) freePlan() *account.Plan {
	if p, ok := h.cfg.Plan(signin.FreePlan); ok {
		return &p
	}
	return nil
}

// signInFailed is the one message for a wrong email or a wrong password.
const signInFailed = "The email address or password is incorrect."

func (h *Handler) signInPage(w http.ResponseWriter, r *http.Request) {
	if s, err := h.sessionOf(r); err == nil && s != nil {
		http.Redirect(w, r, safeNext(r.URL.Query().Get("next")), http.StatusSeeOther)
		return
	}
	v := view{Title: "Sign in", Nav: "signin", CSRF: h.anonCSRF(w, r), Notice: notice(r),
		Data: authForm{Next: safeNext(r.URL.Query().Get("next"))}}
	h.render(w, r, http.StatusOK, "signin", v)
}

func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	email := strings.TrimSpace(r.PostForm.Get("email"))
	form := authForm{Email: email, Next: safeNext(r.PostForm.Get("next"))}
	fail := func(status int, msg string) {
		form.Invalid = map[string]bool{"email": true, "password": true}
		h.render(w, r, status, "signin", view{Title: "Sign in", Nav: "signin", CSRF: h.anonCSRF(w, r), Error: msg, Data: form})
	}
	a, err := h.signin.SignIn(r.Context(), email, r.PostForm.Get("password"))
	var throttled *signin.ThrottledError
	switch {
	case errors.As(err, &throttled):
		fail(http.StatusTooManyRequests, "Too many failed sign-ins for this email address. "+tryAgainIn(w, throttled.RetryAfter))
		return
	case errors.Is(err, signin.ErrInvalidCredentials):
		fail(http.StatusUnauthorized, signInFailed)
		return
	case err != nil:
		h.serverError(w, r, err)
		return
	}
	if !h.startSession(w, r, a.ID) {
		return
	}
	http.Redirect(w, r, form.Next, http.StatusSeeOther)
}

// startSession ends the session the browser had, if any, and starts a new
// one with a new id (so an id planted before sign-in is worthless).
func (h *Handler) startSession(w http.ResponseWriter, r *http.Request, accountID string) bool {
	if old := h.readCookie(r, sessionCookie); old != "" {
		if err := h.signin.EndSession(r.Context(), old); err != nil {
			h.serverError(w, r, err)
			return false
		}
	}
	secret, _, err := h.signin.StartSession(r.Context(), accountID, h.sessionTTL)
	if err != nil {
		h.serverError(w, r, err)
		return false
	}
	h.setCookie(w, r, sessionCookie, secret, int(h.sessionTTL.Seconds()))
	return true
}

func (h *Handler) signUpPage(w http.ResponseWriter, r *http.Request) {
	if !h.signup {
		h.render(w, r, http.StatusForbidden, "signup", view{Title: "Sign up"})
		return
	}
	if s, err := h.sessionOf(r); err == nil && s != nil {
		http.Redirect(w, r, Prefix, http.StatusSeeOther)
		return
	}
	h.render(w, r, http.StatusOK, "signup", view{Title: "Sign up", Nav: "signup", CSRF: h.anonCSRF(w, r), Data: authForm{Free: h.freePlan()}})
}

func (h *Handler) signUp(w http.ResponseWriter, r *http.Request) {
	if !h.signup {
		h.render(w, r, http.StatusForbidden, "signup", view{Title: "Sign up"})
		return
	}
	email := strings.TrimSpace(r.PostForm.Get("email"))
	pw, confirm := r.PostForm.Get("password"), r.PostForm.Get("confirm")
	form := authForm{Email: email, Free: h.freePlan()}
	fail := func(status int, field, msg string) {
		form.Invalid = map[string]bool{field: true}
		h.render(w, r, status, "signup", view{Title: "Sign up", Nav: "signup", CSRF: h.anonCSRF(w, r), Error: msg, Data: form})
	}
	if _, err := account.NormalizeEmail(email); err != nil {
		fail(http.StatusBadRequest, "email", "Enter an email address such as name@example.com.")
		return
	}
	if err := signin.CheckPassword(pw); err != nil {
		fail(http.StatusBadRequest, "password", "Choose a password of at least "+strconv.Itoa(signin.MinPasswordLen)+
			" and at most "+strconv.Itoa(signin.MaxPasswordLen)+" characters.")
		return
	}
	if pw != confirm {
		fail(http.StatusBadRequest, "confirm", "The two passwords differ. Type the same password twice.")
		return
	}
	a, err := h.signin.SignUp(r.Context(), email, pw, edge.ClientAddr(r))
	var throttled *signin.ThrottledError
	switch {
	case errors.As(err, &throttled):
		fail(http.StatusTooManyRequests, "", "Too many accounts were created recently, from your network or in all. "+
			tryAgainIn(w, throttled.RetryAfter))
		return
	case errors.Is(err, access.ErrConflict):
		fail(http.StatusConflict, "email", "An account with this email address exists already. Sign in instead.")
		return
	case err != nil:
		h.serverError(w, r, err)
		return
	}
	h.log.InfoContext(r.Context(), "dashboard sign-up", "account_id", a.ID)
	if !h.startSession(w, r, a.ID) {
		return
	}
	http.Redirect(w, r, Prefix+"?n=welcome", http.StatusSeeOther)
}

func (h *Handler) signOut(w http.ResponseWriter, r *http.Request, s *session) {
	if err := h.signin.EndSession(r.Context(), s.secret); err != nil {
		h.serverError(w, r, err)
		return
	}
	h.clearCookie(w, r, sessionCookie)
	http.Redirect(w, r, "/dashboard/signin?n=signed-out", http.StatusSeeOther)
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// tryAgainIn sets Retry-After for a throttled form and tells the person the
// wait in whole minutes, rounded up like the header.
func tryAgainIn(w http.ResponseWriter, d time.Duration) string {
	w.Header().Set("Retry-After", strconv.Itoa(limits.RetryAfterSeconds(d)))
	return "Try again in " + plural(int(math.Ceil(d.Minutes())), "minute") + "."
}
