// Package apitest checks responses of the vds REST API against its OpenAPI
// document: Check for one recorded response, Transport for every response
// of an end-to-end suite. Status, body schema and required headers are
// checked; a request may be bad on purpose, but one the document refuses
// must not succeed (the document would be stricter than the server).
package apitest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/klauspost/compress/zstd"
)

// apiPrefix is where the REST API lives; answers to other paths (health
// checks, the MCP endpoint, the dashboard) are not the document's business.
const apiPrefix = "/v1/"

// unrouted maps the statuses of the server's /v1 fallback, for paths and
// methods the document lacks, to the response components describing them.
var unrouted = map[int]string{
	http.StatusUnauthorized:        "Unauthorized",
	http.StatusForbidden:           "Forbidden",
	http.StatusNotFound:            "NotFound",
	http.StatusTooManyRequests:     "TooManyRequests",
	http.StatusInternalServerError: "InternalError",
	http.StatusServiceUnavailable:  "ServiceUnavailable",
}

// Validator checks responses against one OpenAPI document, concurrently.
type Validator struct {
	doc    *openapi3.T
	router routers.Router
	// fallback is a synthetic operation answering for paths and methods
	// the document does not have.
	fallback *openapi3.Operation
	opts     *openapi3filter.Options
	// reqOpts validate requests without touching them or their security.
	reqOpts *openapi3filter.Options
}

// NewValidator loads and validates doc (OpenAPI 3.1 JSON) and returns a
// validator for it; a document that does not load or validate fails t.
func NewValidator(t testing.TB, doc []byte) *Validator {
	t.Helper()
	v, err := New(doc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// New is NewValidator for callers without a testing.TB.
func New(doc []byte) (*Validator, error) {
	ctx := context.Background()
	loader := openapi3.NewLoader()
	loader.Context = ctx
	d, err := loader.LoadFromData(doc)
	if err != nil {
		return nil, fmt.Errorf("apitest: load OpenAPI document: %w", err)
	}
	if err := d.Validate(ctx); err != nil {
		return nil, fmt.Errorf("apitest: invalid OpenAPI document: %w", err)
	}
	router, err := gorillamux.NewRouter(d)
	if err != nil {
		return nil, fmt.Errorf("apitest: route OpenAPI document: %w", err)
	}
	fallback := &openapi3.Operation{Responses: openapi3.NewResponses()}
	for status, name := range unrouted {
		var ref *openapi3.ResponseRef
		if d.Components != nil {
			ref = d.Components.Responses[name]
		}
		if ref == nil || ref.Value == nil {
			return nil, fmt.Errorf("apitest: the document has no components/responses/%s", name)
		}
		fallback.Responses.Set(strconv.Itoa(status), ref)
	}
	notAllowed, err := methodNotAllowed(d)
	if err != nil {
		return nil, err
	}
	fallback.Responses.Set(strconv.Itoa(http.StatusMethodNotAllowed), &openapi3.ResponseRef{Value: notAllowed})
	// openapi3 has no "uuid" format of its own; with this one a record's
	// uuid that is not a UUID fails validation instead of passing as text.
	opts := &openapi3filter.Options{
		IncludeResponseStatus: true,
		MultiError:            true,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
		},
	}
	reqOpts := &openapi3filter.Options{
		SkipSettingDefaults: true, MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		SchemaValidationOptions: opts.SchemaValidationOptions,
	}
	return &Validator{doc: d, router: router, fallback: fallback, opts: opts, reqOpts: reqOpts}, nil
}

// Doc returns the loaded document.
func (v *Validator) Doc() *openapi3.T { return v.doc }

// Check validates one response to req and reports a mismatch with
// t.Errorf (never FailNow, so it may be called from any goroutine).
func (v *Validator) Check(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	if err := v.Validate(req, status, header, body); err != nil {
		t.Errorf("%s %s: response %d does not match the OpenAPI document: %v\nbody: %s",
			req.Method, req.URL.RequestURI(), status, err, truncate(body))
	}
}

// Validate is Check returning the mismatch; nil means the response matches
// or is outside the REST API.
func (v *Validator) Validate(req *http.Request, status int, header http.Header, body []byte) error {
	body, header, err := decoded(header, body)
	if err != nil {
		return err
	}
	// HEAD is answered like GET without a body: find the GET operation and
	// check status and headers. (openapi3filter skips HEAD entirely.)
	headOnly := req.Method == http.MethodHead
	routed := req
	if headOnly {
		routed = req.Clone(req.Context())
		routed.Method = http.MethodGet
	}
	route, params, err := v.router.FindRoute(routed)
	switch {
	case err == nil:
	case errors.Is(err, routers.ErrPathNotFound) && !underAPI(req.URL.Path):
		return nil
	case errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed):
		// A documented path with another method (/changelog included), or
		// an unknown path under /v1: the server's fallback answers.
		route = &routers.Route{Spec: v.doc, Path: req.URL.Path, Method: routed.Method, Operation: v.fallback}
	default:
		return fmt.Errorf("find route: %w", err)
	}
	if status == http.StatusNotModified {
		// openapi3filter passes every 304 unchecked. Check it as the only
		// response of a copy of its operation, so that an undocumented 304
		// fails and a documented one is held to its headers.
		nm := route.Operation.Responses.Status(http.StatusNotModified)
		if nm == nil {
			return fmt.Errorf("status 304 is not documented for %s %s", routed.Method, req.URL.Path)
		}
		op := *route.Operation
		op.Responses = openapi3.NewResponses(openapi3.WithStatus(http.StatusOK, nm))
		r := *route
		r.Operation = &op
		route, status = &r, http.StatusOK
	}
	opts := *v.opts
	opts.ExcludeResponseBody = headOnly
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: routed, PathParams: params, Route: route, Options: &opts,
		},
		Status:  status,
		Header:  header,
		Options: &opts,
	}
	in.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(req.Context(), in)
}

// methodNotAllowed is the 405 a method without an operation gets, which the
// document describes in prose only: a Problem with an Allow header.
func methodNotAllowed(d *openapi3.T) (*openapi3.Response, error) {
	if d.Components == nil || d.Components.Schemas["Problem"] == nil || d.Components.Headers["X-Request-Id"] == nil {
		return nil, errors.New("apitest: the document has no Problem schema or X-Request-Id header")
	}
	allow := &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
		Required: true, Schema: &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{"string"}}},
	}}}
	r := openapi3.NewResponse().WithDescription("Method not allowed.").
		WithContent(openapi3.NewContentWithSchemaRef(d.Components.Schemas["Problem"], []string{"application/problem+json"}))
	r.Headers = openapi3.Headers{"Allow": allow, "X-Request-Id": d.Components.Headers["X-Request-Id"]}
	return r, nil
}

// ValidateRequest is nil when the document accepts req (or req is outside
// the REST API), else why not: no such operation, or a bad parameter.
func (v *Validator) ValidateRequest(req *http.Request) error {
	route, params, err := v.router.FindRoute(req)
	switch {
	case err == nil:
	case errors.Is(err, routers.ErrPathNotFound) && !underAPI(req.URL.Path):
		return nil
	default:
		return fmt.Errorf("no operation: %w", err)
	}
	return openapi3filter.ValidateRequest(req.Context(), &openapi3filter.RequestValidationInput{
		Request: req.Clone(req.Context()), PathParams: params, Route: route, Options: v.reqOpts,
	})
}

func underAPI(path string) bool {
	return strings.HasPrefix(path, apiPrefix) || path == strings.TrimSuffix(apiPrefix, "/")
}

// decoded undoes a gzip or zstd Content-Encoding, which Go's client leaves
// in place when the caller asked for it itself.
func decoded(header http.Header, body []byte) ([]byte, http.Header, error) {
	coding := strings.ToLower(header.Get("Content-Encoding"))
	if len(body) == 0 || coding != "gzip" && coding != "zstd" {
		return body, header, nil
	}
	plain, err := Decode(coding, body)
	if err != nil {
		return nil, nil, fmt.Errorf("%s body: %w", coding, err)
	}
	h := header.Clone()
	h.Del("Content-Encoding")
	return plain, h, nil
}

// Decode undoes a gzip or zstd content coding.
func Decode(coding string, body []byte) ([]byte, error) {
	if coding == "zstd" {
		zr, err := zstd.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		return io.ReadAll(zr)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func truncate(b []byte) string {
	const max = 2000
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// Transport returns a RoundTripper over base (http.DefaultTransport when
// nil) that checks every response with Check.
func (v *Validator) Transport(t testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{v: v, t: t, base: base}
}

type transport struct {
	v    *Validator
	t    testing.TB
	base http.RoundTripper
}

func (tr *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := tr.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("apitest: read response body: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	tr.v.Check(tr.t, req, resp.StatusCode, resp.Header, body)
	if resp.StatusCode < 400 {
		if err := tr.v.ValidateRequest(req); err != nil {
			tr.t.Errorf("%s %s: the server answered %d, but the document refuses the request: %v",
				req.Method, req.URL.RequestURI(), resp.StatusCode, err)
		}
	}
	return resp, nil
}
