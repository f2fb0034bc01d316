package dashboard

import (
	"errors"
	"net/http"
	"strings"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
)

// tokensData is the tokens page. Secret is set only in the answer to the
// POST that created or rotated a token: it is shown this once and never
// stored, which is why these answers are pages rather than redirects.
type tokensData struct {
	Active  []account.Token
	Revoked []account.Token
	// Calls are this month's calls of each token, by id.
	Calls   map[string]int64
	Secret  string
	Created *account.Token
	// RotatedFrom is the token a rotation revoked.
	RotatedFrom *account.Token
	Name        string
	MaxName     int
	BaseURL     string
}

func (h *Handler) tokensView(w http.ResponseWriter, r *http.Request, s *session, status int, d tokensData, errMsg string) {
	all, err := h.acc.Tokens(r.Context(), s.account.ID)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	for _, t := range all {
		if t.Active() {
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

func (h *Handler) tokens(w http.ResponseWriter, r *http.Request, s *session) {
	h.tokensView(w, r, s, http.StatusOK, tokensData{}, "")
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
	h.tokensView(w, r, s, http.StatusCreated, tokensData{Secret: secret, Created: &t}, "")
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

func (h *Handler) rotateToken(w http.ResponseWriter, r *http.Request, s *session) {
	old, ok, err := h.ownToken(r, s, r.PathValue("id"))
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	if !ok {
		h.notFound(w, r)
		return
	}
	t, secret, err := h.acc.RotateToken(r.Context(), s.account.ID, old.ID)
	if errors.Is(err, access.ErrNotFound) {
		h.tokensView(w, r, s, http.StatusConflict, tokensData{}, "That token was revoked already, so it cannot be rotated.")
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	h.tokensView(w, r, s, http.StatusOK, tokensData{Secret: secret, Created: &t, RotatedFrom: &old}, "")
}

func (h *Handler) confirmRevoke(w http.ResponseWriter, r *http.Request, s *session) {
	t, ok, err := h.ownToken(r, s, r.PathValue("id"))
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	if !ok || !t.Active() {
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
