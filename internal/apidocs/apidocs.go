// Package apidocs serves /docs, an HTML reference rendered from the OpenAPI
// document, and /llms.txt, a Markdown summary for agents. Both are
// rendered once, with a mark where each request's origin goes.
package apidocs

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/mcptools"
)

//go:embed templates
var files embed.FS

// Handler serves /docs and /llms.txt.
type Handler struct {
	publicURL string
	// docs and llms are the pages cut at each originMark.
	docs, llms [][]byte
	// csp allows the page's one inline style sheet by its hash, and nothing else.
	csp string
}

// New renders the reference of the OpenAPI document openapi (JSON), with
// samples (httpapi.Samples()), and the llms.txt of it and the MCP tools, for
// the request's origin until At sets one. It panics when the built-in
// document does not parse, which every test run would catch.
func New(openapi, samples []byte, tools []mcptools.Tool) *Handler {
	h, err := build(openapi, samples, tools)
	if err != nil {
		panic(err)
	}
	return h
}

func build(openapi, samplesJSON []byte, tools []mcptools.Tool) (*Handler, error) {
	d, err := parseDocument(openapi)
	if err != nil {
		return nil, err
	}
	samples, err := parseSamples(samplesJSON)
	if err != nil {
		return nil, err
	}
	d.fieldExamples = d.examples(samples)
	css, err := files.ReadFile("templates/docs.css")
	if err != nil {
		return nil, err
	}
	tmpl, err := template.ParseFS(files, "templates/docs.html")
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	err = tmpl.Execute(&page, struct {
		reference
		CSS    template.CSS
		Origin string
	}{buildReference(d, samples), template.CSS(css), originMark})
	if err != nil {
		return nil, fmt.Errorf("apidocs: render /docs: %w", err)
	}
	sum := sha256.Sum256(css)
	return &Handler{
		docs: bytes.Split(page.Bytes(), []byte(originMark)),
		llms: bytes.Split([]byte(llmsText(d, tools)), []byte(originMark)),
		csp: "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
			"base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	}, nil
}

// At returns h with publicURL as the origin of its pages; rendering is
// shared, so one Handler serves every server of a process.
func (h *Handler) At(publicURL string) *Handler {
	c := *h
	c.publicURL = publicURL
	return &c
}

// Mount registers /docs and /llms.txt on mux.
func (h *Handler) Mount(mux *http.ServeMux) {
	mux.HandleFunc("GET /docs", h.serveDocs)
	mux.HandleFunc("GET /llms.txt", h.serveLLMs)
}

func (h *Handler) serveDocs(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", h.csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "no-referrer")
	writeParts(w, h.docs, template.HTMLEscapeString(edge.DocumentOrigin(w, r, h.publicURL)))
}

func (h *Handler) serveLLMs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	writeParts(w, h.llms, edge.DocumentOrigin(w, r, h.publicURL))
}

func writeParts(w http.ResponseWriter, parts [][]byte, origin string) {
	for i, p := range parts {
		if i > 0 {
			_, _ = w.Write([]byte(origin))
		}
		_, _ = w.Write(p)
	}
}

// oneLine folds a description onto one line, for a Markdown list item.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
