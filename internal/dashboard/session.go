package dashboard

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/signin"
)

// Cookie names. __Host- makes the browser refuse a cookie a sibling
// subdomain or a plain-HTTP page would plant.
const (
	sessionCookie        = "vds_session"
	csrfCookie           = "vds_csrf"
	hostPrefix           = "__Host-"
	csrfField            = "csrf"
	maxFormBytes         = 64 << 10
	anonCSRFCookieMaxAge = 24 * 60 * 60
)

type session struct {
	secret  string
	s       account.Session
	account account.Account
}

func (h *Handler) secure(r *http.Request) bool {
	switch h.cookieMode {
	case config.SecureCookiesAlways:
		return true
	case config.SecureCookiesNever:
		return false
	}
	return edge.IsHTTPS(r)
}

func (h *Handler) cookieName(r *http.Request, base string) string {
	if h.secure(r) {
		return hostPrefix + base
	}
	return base
}

// readCookie returns base's cookie under the name this request uses; over
// HTTPS only the __Host- one counts.
func (h *Handler) readCookie(r *http.Request, base string) string {
	if c, err := r.Cookie(h.cookieName(r, base)); err == nil {
		return c.Value
	}
	return ""
}

func (h *Handler) setCookie(w http.ResponseWriter, r *http.Request, base, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name: h.cookieName(r, base), Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: h.secure(r), SameSite: http.SameSiteLaxMode,
	})
}

func (h *Handler) clearCookie(w http.ResponseWriter, r *http.Request, base string) {
	h.setCookie(w, r, base, "", -1)
}

func (h *Handler) baseURL(r *http.Request) string {
	return edge.Origin(r, h.publicURL)
}

func (h *Handler) sessionOf(r *http.Request) (*session, error) {
	secret := h.readCookie(r, sessionCookie)
	if secret == "" {
		return nil, signin.ErrNoSession
	}
	ss, a, err := h.signin.Session(r.Context(), secret)
	if err != nil {
		return nil, err
	}
	return &session{secret: secret, s: ss, account: a}, nil
}

// sameToken compares a submitted synchronizer token in constant time.
func sameToken(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

func parseForm(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	return r.ParseForm()
}

// authed wraps a page that needs a signed-in user; a POST must also pass
// the cross-origin check and carry the session's CSRF token.
func (h *Handler) authed(fn func(w http.ResponseWriter, r *http.Request, s *session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		s, err := h.sessionOf(r)
		if errors.Is(err, signin.ErrNoSession) {
			q := url.Values{}
			if h.readCookie(r, sessionCookie) != "" {
				// The cookie named a session that ended: say so, and drop it.
				h.clearCookie(w, r, sessionCookie)
				q.Set("n", "expired")
			}
			if r.Method == http.MethodGet && r.URL.Path != Prefix {
				q.Set("next", r.URL.RequestURI())
			}
			target := "/dashboard/signin"
			if len(q) > 0 {
				target += "?" + q.Encode()
			}
			http.Redirect(w, r, target, http.StatusSeeOther)
			return
		}
		if err != nil {
			h.serverError(w, r, err)
			return
		}
		if r.Method == http.MethodPost && !h.checkForm(w, r, s.s.CSRF) {
			return
		}
		fn(w, r, s)
	}
}

// anonPost wraps the sign-in and sign-up forms, which have no session yet,
// with a double-submit token: it stops login CSRF.
func (h *Handler) anonPost(fn http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if h.checkForm(w, r, h.readCookie(r, csrfCookie)) {
			fn(w, r)
		}
	}
}

// checkForm admits a same-origin POST whose form carries the token want;
// otherwise it answers the request and reports false.
func (h *Handler) checkForm(w http.ResponseWriter, r *http.Request, want string) bool {
	if h.cop.Check(r) != nil {
		h.forbidden(w, r)
		return false
	}
	if err := parseForm(w, r); err != nil {
		h.badRequest(w, r)
		return false
	}
	if !sameToken(r.PostForm.Get(csrfField), want) {
		h.forbidden(w, r)
		return false
	}
	return true
}

// anonCSRF returns the double-submit token of a signed-out visitor,
// setting its cookie when there is none yet.
func (h *Handler) anonCSRF(w http.ResponseWriter, r *http.Request) string {
	if v := h.readCookie(r, csrfCookie); v != "" && len(v) <= 100 {
		return v
	}
	v := account.NewCSRFToken()
	h.setCookie(w, r, csrfCookie, v, anonCSRFCookieMaxAge)
	return v
}

// safeNext keeps a post-sign-in redirect on the dashboard, so the sign-in
// page cannot be used to send people elsewhere (an open redirect).
func safeNext(next string) string {
	if !strings.HasPrefix(next, Prefix) || strings.ContainsAny(next, "\\\r\n") || strings.Contains(next, "//") {
		return Prefix
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return Prefix
	}
	return next
}
