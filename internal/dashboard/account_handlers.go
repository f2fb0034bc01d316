package dashboard

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/signin"
)

// accountData is the account page: the account, and the change-password
// form's state (passwords are never sent back into the page).
type accountData struct {
	// Invalid marks the fields the error is about, for aria-invalid.
	Invalid map[string]bool
}

func (h *Handler) accountView(w http.ResponseWriter, r *http.Request, s *session, status int, errMsg string, invalid ...string) {
	d := accountData{Invalid: map[string]bool{}}
	for _, f := range invalid {
		d.Invalid[f] = true
	}
	v := signedIn(s, "account", "Account")
	v.Notice, v.Error, v.Data = notice(r), errMsg, d
	h.render(w, r, status, "account", v)
}

func (h *Handler) accountPage(w http.ResponseWriter, r *http.Request, s *session) {
	h.accountView(w, r, s, http.StatusOK, "")
}

// changePassword sets a new password after checking the current one; every
// session ends, and this browser gets a new one.
func (h *Handler) changePassword(w http.ResponseWriter, r *http.Request, s *session) {
	current, next, confirm := r.PostForm.Get("current"), r.PostForm.Get("password"), r.PostForm.Get("confirm")
	switch {
	case current == "":
		h.accountView(w, r, s, http.StatusBadRequest, "Enter your current password.", "current")
		return
	case signin.CheckPassword(next) != nil:
		h.accountView(w, r, s, http.StatusBadRequest, "Choose a new password of at least "+strconv.Itoa(signin.MinPasswordLen)+
			" and at most "+strconv.Itoa(signin.MaxPasswordLen)+" characters.", "password")
		return
	case next != confirm:
		h.accountView(w, r, s, http.StatusBadRequest, "The two new passwords differ. Type the same password twice.", "confirm")
		return
	case next == current:
		h.accountView(w, r, s, http.StatusBadRequest, "The new password is the current one. Choose another.", "password")
		return
	}
	err := h.signin.ChangePassword(r.Context(), s.account, current, next)
	var throttled *signin.ThrottledError
	switch {
	case errors.As(err, &throttled):
		h.accountView(w, r, s, http.StatusTooManyRequests, "Too many wrong passwords for this account. "+tryAgainIn(w, throttled.RetryAfter), "current")
		return
	case errors.Is(err, signin.ErrInvalidCredentials):
		h.accountView(w, r, s, http.StatusBadRequest, "The current password is incorrect.", "current")
		return
	case err != nil:
		h.serverError(w, r, err)
		return
	}
	h.log.InfoContext(r.Context(), "dashboard password changed", "account_id", s.account.ID)
	if !h.startSession(w, r, s.account.ID) {
		return
	}
	http.Redirect(w, r, "/dashboard/account?n=password-changed", http.StatusSeeOther)
}

// deleteData is the account deletion page: what goes, and what was typed.
type deleteData struct {
	Tokens, Lists int
	Typed         string
}

func (h *Handler) deleteAccountView(w http.ResponseWriter, r *http.Request, s *session, status int, typed, errMsg string) {
	toks, err := h.acc.Tokens(r.Context(), s.account.ID)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	lists, err := h.lists.Lists(r.Context(), s.account.ID)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	d := deleteData{Lists: len(lists), Typed: typed}
	now := h.now()
	for _, t := range toks {
		if t.ValidAt(now) {
			d.Tokens++
		}
	}
	v := signedIn(s, "account", "Delete account")
	v.Error, v.Data = errMsg, d
	h.render(w, r, status, "deleteaccount", v)
}

func (h *Handler) confirmDeleteAccount(w http.ResponseWriter, r *http.Request, s *session) {
	h.deleteAccountView(w, r, s, http.StatusOK, "", "")
}

// deleteAccount deletes the account once its email is typed, with its
// tokens (refused at once), lists and sessions, and signs out.
func (h *Handler) deleteAccount(w http.ResponseWriter, r *http.Request, s *session) {
	typed := strings.TrimSpace(r.PostForm.Get("email"))
	if norm, err := account.NormalizeEmail(typed); err != nil || norm != s.account.Email {
		h.deleteAccountView(w, r, s, http.StatusBadRequest, typed,
			"Type your account's email address, "+s.account.Email+", to confirm.")
		return
	}
	if err := h.acc.DeleteAccount(r.Context(), s.account.ID); err != nil {
		h.serverError(w, r, err)
		return
	}
	h.log.InfoContext(r.Context(), "dashboard account deleted", "account_id", s.account.ID)
	h.clearCookie(w, r, sessionCookie)
	http.Redirect(w, r, "/dashboard/signin?n=account-deleted", http.StatusSeeOther)
}
