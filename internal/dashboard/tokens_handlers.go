package dashboard

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
)

// tokensData is the tokens page. Secret comes from the session's flash
// (POST-redirect-GET), so a reload neither shows it again nor creates a token.
type tokensData struct {
	// Active are the tokens that work now, those in a rotation's grace
	// period included (their RevokedAt is when they stop).
	Active  []account.Token
	Revoked []account.Token
	// Calls are this month's calls of each token, by id.
	Calls   map[string]int64
	Secret  string
	Created *account.Token
	// RotatedFrom is the token a rotation replaced; GraceUntil is when it
	// stops working, if that is still to come.
	RotatedFrom *account.Token
	GraceUntil  *time.Time
	Name        string
	MaxName     int
	BaseURL     string
}

// tokenFlash is what a create or rotate leaves for the next tokens page.
type tokenFlash struct {
	Secret      string `json:"secret"`
	TokenID     string `json:"token_id"`
	RotatedFrom string `json:"rotated_from,omitempty"`
}

func (h *Handler) tokensView(w http.ResponseWriter, r *http.Request, s *session, status int, d tokensData, errMsg string) {
	all, err := h.acc.Tokens(r.Context(), s.account.ID)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	now := h.now()
	for _, t := range all {
		if t.ValidAt(now) {
			d.Active = append(d.Active, t)
		} else {
			d.Revoked = append(d.Revoked, t)
		}
	}
	if d.Calls, err = h.requestLog.TokenCalls(r.Context(), s.account.ID, h.now()); err != nil {
		h.serverError(w, r, err)
		return
	}
	d.MaxName = access.MaxTokenName
	d.BaseURL = h.baseURL(r)
	v := signedIn(s, "tokens", "API tokens")
	v.Notice, v.Error, v.Data = notice(r), errMsg, d
	h.render(w, r, status, "tokens", v)
}

// tokens is the tokens page, with the secret of a token just created or
// rotated the one time it is loaded after that.
func (h *Handler) tokens(w http.ResponseWriter, r *http.Request, s *session) {
	d := tokensData{}
	body, err := h.signin.TakeFlash(r.Context(), s.secret)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	var f tokenFlash
	if body != nil && json.Unmarshal(body, &f) == nil {
		all, err := h.acc.Tokens(r.Context(), s.account.ID)
		if err != nil {
			h.serverError(w, r, err)
			return
		}
		for _, t := range all {
			switch t.ID {
			case f.TokenID:
				d.Created, d.Secret = &t, f.Secret
			case f.RotatedFrom:
				d.RotatedFrom = &t
				if t.ValidAt(h.now()) {
					d.GraceUntil = t.RevokedAt
				}
			}
		}
	}
	h.tokensView(w, r, s, http.StatusOK, d, "")
}

// showSecret leaves a new secret in the session's flash and redirects to
// the tokens page, which shows it once.
func (h *Handler) showSecret(w http.ResponseWriter, r *http.Request, s *session, f tokenFlash) {
	h.putFlash(w, r, s, f, "/dashboard/tokens")
}

// putFlash leaves v in the session's flash and redirects to the page at
// to, which takes it (POST-redirect-GET: a reload neither shows it again
// nor repeats the POST).
func (h *Handler) putFlash(w http.ResponseWriter, r *http.Request, s *session, v any, to string) {
	body, err := json.Marshal(v)
	if err != nil {
		h.internalError(w, r, err)
		return
	}
	if err := h.signin.PutFlash(r.Context(), s.secret, body); err != nil {
		h.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

func (h *Handler) createToken(w http.ResponseWriter, r *http.Request, s *session) {
	name := strings.TrimSpace(r.PostForm.Get("name"))
	if name == "" || len(name) > access.MaxTokenName {
		h.tokensView(w, r, s, http.StatusBadRequest, tokensData{Name: name},
			"Give the token a name of 1 to 100 characters, such as the program that will use it.")
		return
	}
	t, secret, err := h.acc.CreateToken(r.Context(), s.account.ID, name)
	if errors.Is(err, access.ErrTooManyTokens) {
		h.tokensView(w, r, s, http.StatusBadRequest, tokensData{Name: name}, sentence(err.Error()))
		return
	}
	if isBadText(err) {
		h.tokensView(w, r, s, http.StatusBadRequest, tokensData{}, sentence(err.Error()))
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	h.showSecret(w, r, s, tokenFlash{Secret: secret, TokenID: t.ID})
}

// ownToken finds one of the account's tokens for a confirmation page.
func (h *Handler) ownToken(r *http.Request, s *session, id string) (account.Token, bool, error) {
	all, err := h.acc.Tokens(r.Context(), s.account.ID)
	if err != nil {
		return account.Token{}, false, err
	}
	for _, t := range all {
		if t.ID == id {
			return t, true, nil
		}
	}
	return account.Token{}, false, nil
}

type graceChoice struct {
	Value, Label, Hint string
	Checked            bool
}

type rotateData struct {
	Token   account.Token
	Choices []graceChoice
}

func graceChoices(picked string) []graceChoice {
	c := []graceChoice{
		{Value: "none", Label: "At once", Hint: "The old token is refused at once. Choose this when it may have leaked."},
		{Value: "1h", Label: "After 1 hour", Hint: "Both tokens work for an hour, time to update your programs."},
		{Value: "24h", Label: "After 24 hours", Hint: "Both tokens work for a day."},
	}
	for i := range c {
		c[i].Checked = c[i].Value == picked
	}
	return c
}

// activeOwnToken answers the rotation pages for a token of the account
// that has not been rotated or revoked, or answers 404 and reports false.
func (h *Handler) activeOwnToken(w http.ResponseWriter, r *http.Request, s *session) (account.Token, bool) {
	t, ok, err := h.ownToken(r, s, r.PathValue("id"))
	if err != nil {
		h.serverError(w, r, err)
		return t, false
	}
	if !ok || !t.Active() {
		h.notFound(w, r)
		return t, false
	}
	return t, true
}

func (h *Handler) confirmRotate(w http.ResponseWriter, r *http.Request, s *session) {
	t, ok := h.activeOwnToken(w, r, s)
	if !ok {
		return
	}
	v := signedIn(s, "tokens", "Rotate token")
	v.Data = rotateData{Token: t, Choices: graceChoices("none")}
	h.render(w, r, http.StatusOK, "rotate", v)
}

func (h *Handler) rotateToken(w http.ResponseWriter, r *http.Request, s *session) {
	old, ok := h.activeOwnToken(w, r, s)
	if !ok {
		return
	}
	picked := r.PostForm.Get("grace")
	grace, err := access.ParseGrace(picked)
	if err != nil {
		v := signedIn(s, "tokens", "Rotate token")
		v.Error = "Choose how long the old token keeps working: none, 1 hour or 24 hours."
		v.Data = rotateData{Token: old, Choices: graceChoices("")}
		h.render(w, r, http.StatusBadRequest, "rotate", v)
		return
	}
	rot, err := h.acc.RotateToken(r.Context(), s.account.ID, old.ID, grace)
	if errors.Is(err, access.ErrNotFound) {
		h.tokensView(w, r, s, http.StatusConflict, tokensData{}, "That token was revoked or rotated already, so it cannot be rotated.")
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	h.showSecret(w, r, s, tokenFlash{Secret: rot.Secret, TokenID: rot.New.ID, RotatedFrom: rot.Old.ID})
}

func (h *Handler) confirmRevoke(w http.ResponseWriter, r *http.Request, s *session) {
	t, ok, err := h.ownToken(r, s, r.PathValue("id"))
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	if !ok || !t.ValidAt(h.now()) {
		h.notFound(w, r)
		return
	}
	v := signedIn(s, "tokens", "Revoke token")
	v.Data = t
	h.render(w, r, http.StatusOK, "revoke", v)
}

func (h *Handler) revokeToken(w http.ResponseWriter, r *http.Request, s *session) {
	_, err := h.acc.RevokeToken(r.Context(), s.account.ID, r.PathValue("id"))
	if h.badText(w, r, err) {
		return
	}
	if errors.Is(err, access.ErrNotFound) {
		h.notFound(w, r)
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, "/dashboard/tokens?n=revoked", http.StatusSeeOther)
}

// ago says when t is, next to now, as a person would: "just now",
// "5 minutes ago", "in 1 hour"; a date past a month.
func ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 0:
		return "in " + span(-d)
	case d < time.Minute:
		return "just now"
	case d < 30*24*time.Hour:
		return span(d) + " ago"
	}
	return t.UTC().Format("2 Jan 2006")
}

// span rounds a duration down to its largest whole unit.
func span(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "less than a minute"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		return plural(int(d/time.Hour), "hour")
	}
	return plural(int(d/(24*time.Hour)), "day")
}
