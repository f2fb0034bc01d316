package dashboard

import (
	"cmp"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/webhooks"
)

// webhooksData is the Webhooks page; Secret comes from the session's flash
// after a create or rotate, so it is shown once.
type webhooksData struct {
	Endpoints []endpointView
	Secret    string
	SecretFor string
	URL       string
	Types     []string
}

// endpointView is an endpoint with its newest delivery attempts.
type endpointView struct {
	webhooks.Endpoint
	Log []webhooks.Attempt
}

const webhookLogLines = 10

type webhookFlash struct {
	Secret     string `json:"secret"`
	EndpointID string `json:"endpoint_id"`
}

func (h *Handler) webhooksView(w http.ResponseWriter, r *http.Request, s *session, status int, d webhooksData, errMsg string) {
	all, err := h.hooks.Endpoints(r.Context(), s.account.ID)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	for _, e := range all {
		log, err := h.hooks.Deliveries(r.Context(), s.account.ID, e.ID, webhookLogLines)
		if err != nil {
			h.serverError(w, r, err)
			return
		}
		d.Endpoints = append(d.Endpoints, endpointView{Endpoint: e, Log: log})
	}
	d.Types = webhooks.Types
	v := signedIn(s, "webhooks", "Webhooks")
	v.Notice, v.Error, v.Data = notice(r), errMsg, d
	h.render(w, r, status, "webhooks", v)
}

func (h *Handler) webhooksPage(w http.ResponseWriter, r *http.Request, s *session) {
	d := webhooksData{}
	body, err := h.signin.TakeFlash(r.Context(), s.secret)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	var f webhookFlash
	if body != nil && json.Unmarshal(body, &f) == nil {
		d.Secret, d.SecretFor = f.Secret, f.EndpointID
	}
	h.webhooksView(w, r, s, http.StatusOK, d, "")
}

// showWebhookSecret leaves a new secret for the Webhooks page, which shows it once.
func (h *Handler) showWebhookSecret(w http.ResponseWriter, r *http.Request, s *session, c webhooks.Created) {
	h.putFlash(w, r, s, webhookFlash{Secret: c.Secret, EndpointID: c.ID}, "/dashboard/webhooks")
}

func (h *Handler) createWebhook(w http.ResponseWriter, r *http.Request, s *session) {
	u := strings.TrimSpace(r.PostForm.Get("url"))
	c, err := h.hooks.Create(r.Context(), s.account.ID, u, r.PostForm["events"])
	switch {
	case err == nil:
		h.showWebhookSecret(w, r, s, c)
	case errors.Is(err, webhooks.ErrBadURL) || errors.Is(err, webhooks.ErrTooMany) || errors.Is(err, webhooks.ErrBadEventType):
		h.webhooksView(w, r, s, http.StatusBadRequest, webhooksData{URL: u}, sentence(err.Error()))
	default:
		h.serverError(w, r, err)
	}
}

// webhookAction runs do on the account's endpoint {id} and redirects with
// the notice named done.
func (h *Handler) webhookAction(do func(h *Handler, r *http.Request, s *session, id string) error, done string) func(http.ResponseWriter, *http.Request, *session) {
	return func(w http.ResponseWriter, r *http.Request, s *session) {
		err := do(h, r, s, r.PathValue("id"))
		switch {
		case errors.Is(err, webhooks.ErrNotFound):
			h.notFound(w, r)
		case err != nil:
			h.serverError(w, r, err)
		case done != "":
			http.Redirect(w, r, "/dashboard/webhooks?n="+done, http.StatusSeeOther)
		}
	}
}

func (h *Handler) routeWebhooks(m *http.ServeMux) {
	m.HandleFunc("GET /dashboard/webhooks", h.authed(h.webhooksPage))
	m.HandleFunc("POST /dashboard/webhooks", h.authed(h.createWebhook))
	m.HandleFunc("POST /dashboard/webhooks/{id}/test", h.authed(h.webhookAction(func(h *Handler, r *http.Request, s *session, id string) error {
		_, err := h.hooks.SendTest(r.Context(), s.account.ID, id)
		return err
	}, "webhook-test")))
	m.HandleFunc("POST /dashboard/webhooks/{id}/enable", h.authed(h.webhookAction(func(h *Handler, r *http.Request, s *session, id string) error {
		return h.hooks.Enable(r.Context(), s.account.ID, id)
	}, "webhook-enabled")))
	m.HandleFunc("POST /dashboard/webhooks/{id}/delete", h.authed(h.webhookAction(func(h *Handler, r *http.Request, s *session, id string) error {
		return h.hooks.Delete(r.Context(), s.account.ID, id)
	}, "webhook-deleted")))
	m.HandleFunc("POST /dashboard/webhooks/{id}/rotate", h.authed(func(w http.ResponseWriter, r *http.Request, s *session) {
		grace, err := access.ParseGrace(cmp.Or(r.PostForm.Get("grace"), "none"))
		if err != nil {
			h.webhooksView(w, r, s, http.StatusBadRequest, webhooksData{}, sentence(err.Error()))
			return
		}
		c, err := h.hooks.Rotate(r.Context(), s.account.ID, r.PathValue("id"), grace)
		switch {
		case errors.Is(err, webhooks.ErrNotFound):
			h.notFound(w, r)
		case err != nil:
			h.serverError(w, r, err)
		default:
			h.showWebhookSecret(w, r, s, c)
		}
	}))
}
