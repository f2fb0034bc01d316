package dashboard

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/textcheck"
	"github.com/vds-dev/vds/internal/textfmt"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static/*
var staticFS embed.FS

type view struct {
	Title string
	// Nav names the active navigation item.
	Nav string
	// Account is nil on signed-out pages.
	Account *account.Account
	// CSRF is the token the page's POST forms carry.
	CSRF   string
	Notice string
	Error  string
	Signup bool
	Data   any
}

// asset is an embedded static file with the fingerprint its URL carries,
// so it can be cached for a year and still change with each build.
type asset struct {
	body        []byte
	contentType string
	version     string
}

// pageSet holds the pages, each a template named after its file that
// brackets its content with the layout's top and bottom.
type pageSet struct {
	set    *template.Template
	assets map[string]asset
}

var contentTypes = map[string]string{".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}

func mustParsePages() *pageSet {
	ps := &pageSet{assets: map[string]asset{}}
	files, err := fs.Glob(staticFS, "static/*")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		b, err := staticFS.ReadFile(f)
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(b)
		ps.assets[path.Base(f)] = asset{body: b, contentType: contentTypes[path.Ext(f)], version: hex.EncodeToString(sum[:6])}
	}
	funcs := template.FuncMap{
		"asset": func(name string) string {
			a, ok := ps.assets[name]
			if !ok {
				panic("dashboard: no static asset " + name)
			}
			return "/dashboard/static/" + name + "?v=" + a.version
		},
		"date":        func(t time.Time) string { return t.UTC().Format("2 Jan 2006") },
		"datetime":    func(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") },
		"datetimesec": func(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04:05 UTC") },
		"iso":         func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"ms": func(d time.Duration) string {
			return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
		},
		"ago":       func(t time.Time) string { return ago(t, time.Now()) },
		"num":       formatNum,
		"kindLabel": kindLabel,
		"recordURL": recordURL,
		"itemKey":   itemKey,
		"inc":       func(i int) int { return i + 1 },
		"join":      strings.Join,
		"carURL":    func(id fmt.Stringer) string { return recordURL(catalog.KindCar, id) },
	}
	// One set holds every page, so the layout is parsed (and escaped) once,
	// not once per page: its trees were half the dashboard's, held for
	// the life of the server and walked by every collection.
	ps.set = template.Must(template.New("dashboard").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))
	pages, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	for _, p := range pages {
		if name := strings.TrimSuffix(path.Base(p), ".html"); name != "layout" && ps.set.Lookup(name) == nil {
			panic("dashboard: " + p + " defines no template " + name)
		}
	}
	return ps
}

// formatNum writes an integer with thousands separators for templates,
// which pass int or int64.
func formatNum(v any) string {
	switch x := v.(type) {
	case int:
		return textfmt.Thousands(int64(x))
	case int64:
		return textfmt.Thousands(x)
	default:
		return fmt.Sprint(v)
	}
}

func kindLabel(k catalog.Kind) string {
	switch k {
	case catalog.KindCar:
		return "Car"
	case catalog.KindMotorcycle:
		return "Motorcycle or powersports"
	case catalog.KindBoat:
		return "Boat"
	case catalog.KindTireSize:
		return "Tire fitment"
	case account.KindVIN:
		return "VIN"
	}
	return string(k)
}

func recordURL(k catalog.Kind, id fmt.Stringer) string {
	return "/dashboard/records/" + string(k) + "/" + id.String()
}

// render executes a page into a buffer first, so a template failure
// becomes a clean 500 rather than half a page.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	t := h.pages().set.Lookup(name)
	if t == nil {
		h.internalError(w, r, fmt.Errorf("no page template %q", name))
		return
	}
	v.Signup = h.signup
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		h.internalError(w, r, fmt.Errorf("render %s: %w", name, err))
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func signedIn(s *session, nav, title string) view {
	a := s.account
	return view{Title: title, Nav: nav, Account: &a, CSRF: s.s.CSRF}
}

// errorPage renders a short explanation; it never echoes request input.
func (h *Handler) errorPage(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	var buf bytes.Buffer
	if err := h.pages().set.ExecuteTemplate(&buf, "error", view{Title: title, Error: msg, Signup: h.signup}); err != nil {
		http.Error(w, msg, status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// serverError answers a failed store call: an outage the user can only
// wait out, so a 503 as in the API.
func (h *Handler) serverError(w http.ResponseWriter, r *http.Request, err error) {
	h.log.ErrorContext(r.Context(), "dashboard request failed", "path", r.URL.Path, "err", err)
	h.errorPage(w, r, http.StatusServiceUnavailable, "Service unavailable",
		"The database is not answering, so this could not be done now. Try again in a moment.")
}

// internalError answers a failure that only a bug in vds can cause.
func (h *Handler) internalError(w http.ResponseWriter, r *http.Request, err error) {
	h.log.ErrorContext(r.Context(), "dashboard request failed", "path", r.URL.Path, "err", err)
	h.errorPage(w, r, http.StatusInternalServerError, "Something went wrong",
		"The server could not complete the request. Try again in a moment.")
}

func (h *Handler) forbidden(w http.ResponseWriter, r *http.Request) {
	h.errorPage(w, r, http.StatusForbidden, "Form refused",
		"The form was refused: it came from another site or has expired. Go back, reload the page and try again.")
}

func (h *Handler) badRequest(w http.ResponseWriter, r *http.Request) {
	h.errorPage(w, r, http.StatusBadRequest, "Bad request", "The form could not be read. Go back and try again.")
}

// isBadText reports whether err refuses text no person types: control
// characters or invalid UTF-8 in a field or id (textcheck).
func isBadText(err error) bool {
	var te *textcheck.Error
	return errors.As(err, &te)
}

// badText answers 400 with err's message when it is a textcheck refusal,
// and reports whether it did.
func (h *Handler) badText(w http.ResponseWriter, r *http.Request, err error) bool {
	if !isBadText(err) {
		return false
	}
	h.errorPage(w, r, http.StatusBadRequest, "Not plain text", sentence(err.Error()))
	return true
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request) {
	h.errorPage(w, r, http.StatusNotFound, "Page not found", "There is no such page in the dashboard.")
}

// static serves the embedded stylesheet and script. A URL with the
// current fingerprint is cached for a year; any other is revalidated.
func (h *Handler) static(w http.ResponseWriter, r *http.Request) {
	a, ok := h.pages().assets[r.PathValue("file")]
	if !ok {
		h.notFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.contentType)
	if r.URL.Query().Get("v") == a.version {
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hd.Set("Cache-Control", "no-cache")
	}
	hd.Set("ETag", `"`+a.version+`"`)
	if r.Header.Get("If-None-Match") == `"`+a.version+`"` {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Length", strconv.Itoa(len(a.body)))
	// An explicit WriteHeader lets a compressing wrapper drop the
	// Content-Length, which no longer holds once the body is gzipped.
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(a.body)
}

// notices are the fixed messages a redirect may ask a page to show (?n=),
// so no request text is ever reflected into a page.
var notices = map[string]string{
	"signed-out":   "You are signed out.",
	"expired":      "Your session has ended. Sign in again.",
	"welcome":      "Welcome! Your account is on the free plan. Create a token to call the API.",
	"revoked":      "The token was revoked. Programs using it are refused from now on.",
	"added":        "Added to the list.",
	"already":      "That vehicle is already in the list.",
	"removed":      "Removed from the list.",
	"list-created": "List created.",
	"list-deleted": "List deleted.",
	"dealt-with":   "Marked dealt with.",
	"reopened":     "Marked open again.",

	"webhook-test":    "A test event is on its way; its attempt shows below within seconds.",
	"webhook-enabled": "The endpoint is enabled again and receives new events.",
	"webhook-deleted": "The endpoint was deleted with its pending deliveries and its log.",

	"password-changed": "Your password was changed. Every other browser signed in to this account was signed out.",
	"account-deleted":  "Your account was deleted, with its tokens, lists and sessions.",
}

func notice(r *http.Request) string { return notices[r.URL.Query().Get("n")] }
