package apidocs_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/vds-dev/vds/internal/apidocs"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/mcptools"
	"golang.org/x/net/html"
)

// serve starts /docs and /llms.txt on loopback, built from the document
// and the tools of this build, as the server mounts them.
func serve(t *testing.T, publicURL string) (string, *openapi3.T) {
	t.Helper()
	raw, err := httpapi.OpenAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	apidocs.New(raw, httpapi.Samples(), mcptools.Tools(mcptools.Deps{})).At(publicURL).Mount(mux)
	// The test client is a proxy on this host.
	srv := httptest.NewServer(edge.Observe(edge.Observer{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, mux))
	t.Cleanup(srv.Close)
	return srv.URL, doc
}

func get(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d\n%s", url, resp.StatusCode, body)
	}
	return resp, string(body)
}

// node helpers over golang.org/x/net/html.
func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

func TestDocsDescribeEveryOperation(t *testing.T) {
	t.Parallel()
	base, doc := serve(t, "")
	resp, body := get(t, base+"/docs")
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	root, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]*html.Node{}
	tocLinks := map[string]bool{}
	var h1s, styles []string
	var lang string
	walk(root, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		if id := attr(n, "id"); id != "" {
			if ids[id] != nil {
				t.Errorf("id %q is used twice", id)
			}
			ids[id] = n
		}
		switch n.Data {
		case "html":
			lang = attr(n, "lang")
		case "h1":
			h1s = append(h1s, textOf(n))
		case "style":
			styles = append(styles, textOf(n))
		case "script":
			t.Error("the reference has a script; it must work without JavaScript")
		case "link":
			t.Errorf("the reference loads %s; it must be one self-contained file", attr(n, "href"))
		case "a":
			if href := attr(n, "href"); strings.HasPrefix(href, "#") {
				tocLinks[href[1:]] = true
			}
		case "th":
			if attr(n, "scope") == "" {
				t.Errorf("table header %q has no scope", textOf(n))
			}
		}
	})
	if lang != "en" || len(h1s) != 1 {
		t.Errorf("lang %q, h1s %q: want lang en and one h1", lang, h1s)
	}
	// The CSP allows exactly the page's one style sheet, by its hash.
	if len(styles) != 1 {
		t.Fatalf("%d style elements, want 1", len(styles))
	}
	sum := sha256.Sum256([]byte(styles[0]))
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "style-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("CSP %q does not allow only the inline sheet", csp)
	}

	ops := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if method == http.MethodHead {
				continue
			}
			ops++
			name := method + " " + path
			art := ids[op.OperationID]
			if art == nil {
				t.Errorf("%s: no element with id %q", name, op.OperationID)
				continue
			}
			if !tocLinks[op.OperationID] {
				t.Errorf("%s: the contents do not link to #%s", name, op.OperationID)
			}
			if got := strings.Join(strings.Fields(textOf(art)), " "); got != name {
				t.Errorf("%s: heading says %q", name, got)
			}
			section := textOf(art.Parent)
			for _, p := range op.Parameters {
				if !strings.Contains(section, p.Value.Name) || !strings.Contains(section, p.Value.Description) {
					t.Errorf("%s: parameter %s or its description is missing", name, p.Value.Name)
				}
			}
			for status, r := range op.Responses.Map() {
				if !strings.Contains(section, status) || !strings.Contains(section, *r.Value.Description) {
					t.Errorf("%s: response %s or its description is missing", name, status)
				}
				for _, mt := range r.Value.Content {
					for _, sub := range mt.Schema.Value.AllOf {
						if sub.Ref != "" {
							continue // Problem itself: its code lists every code
						}
						for _, code := range sub.Value.Properties["code"].Value.Enum {
							if !strings.Contains(section, code.(string)) {
								t.Errorf("%s: response %s: error code %s is missing", name, status, code)
							}
						}
					}
				}
			}
			checkCurl(t, name, section, base, path, op.Security != nil && len(*op.Security) == 0)
		}
	}
	if ops < 30 {
		t.Errorf("only %d operations in the document", ops)
	}
}

// checkCurl finds the operation's curl example: the absolute URL of its
// path (up to the first parameter) and the token header unless public.
func checkCurl(t *testing.T, name, section, base, path string, public bool) {
	t.Helper()
	i := strings.Index(section, "curl ")
	if i < 0 {
		t.Errorf("%s: no curl example", name)
		return
	}
	cmd := section[i:]
	fixed, _, _ := strings.Cut(path, "{")
	if !strings.Contains(cmd, `"`+base+fixed) {
		t.Errorf("%s: curl example does not call %s%s:\n%s", name, base, fixed, cmd)
	}
	if auth := strings.Contains(cmd, `-H "Authorization: Bearer $VDS_TOKEN"`); auth == public {
		t.Errorf("%s: public %v, but the curl example sends the token: %v", name, public, auth)
	}
}

// TestReferenceOrigin: the examples name dashboard.public_url when set,
// else the scheme and host the client used, and then no shared cache may
// keep them; a Host that is no host name gives relative links.
func TestReferenceOrigin(t *testing.T) {
	t.Parallel()
	base, _ := serve(t, "")
	if _, body := get(t, base+"/docs", "X-Forwarded-Proto", "https"); !strings.Contains(body, `curl -H &#34;Authorization: Bearer $VDS_TOKEN&#34; \`+"\n  &#34;https://"+strings.TrimPrefix(base, "http://")+"/v1/cars?make=Toyota&amp;model=Camry&#34;") {
		t.Errorf("/docs behind an HTTPS proxy does not call https://%s", strings.TrimPrefix(base, "http://"))
	}
	for _, path := range []string{"/docs", "/llms.txt"} {
		resp, body := get(t, base+path, "Host", "x](javascript:alert(1))")
		if strings.Contains(body, "javascript") || !strings.Contains(body, "(/v1/openapi.json)") && !strings.Contains(body, `"/v1/openapi.json"`) {
			t.Errorf("%s with a hostile Host: not relative links alone", path)
		}
		if cc, vary := resp.Header.Get("Cache-Control"), strings.Join(resp.Header.Values("Vary"), ", "); cc != "private, no-cache" ||
			!strings.Contains(vary, "Host") || !strings.Contains(vary, "X-Forwarded-Proto") {
			t.Errorf("%s from the request's origin: Cache-Control %q, Vary %q", path, cc, vary)
		}
	}
	public, _ := serve(t, "https://vds.example.com/")
	for _, path := range []string{"/docs", "/llms.txt"} {
		resp, body := get(t, public+path, "Host", "evil.example", "X-Forwarded-Proto", "http")
		if !strings.Contains(body, "https://vds.example.com/v1/openapi.json") || strings.Contains(body, public) || strings.Contains(body, "evil") {
			t.Errorf("%s with dashboard.public_url set does not name it alone", path)
		}
		if resp.Header.Get("Cache-Control") != "" {
			t.Errorf("%s with dashboard.public_url: Cache-Control %q, want none", path, resp.Header.Get("Cache-Control"))
		}
	}
}

func TestLLMsTxt(t *testing.T) {
	t.Parallel()
	base, doc := serve(t, "")
	resp, body := get(t, base+"/llms.txt")
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	lines := strings.Split(body, "\n")
	// The llms.txt shape: an H1, then a blockquote summary, then H2 sections.
	if lines[0] != "# vds API" || lines[1] != "" || !strings.HasPrefix(lines[2], "> Read-only vehicle data") {
		t.Errorf("llms.txt does not start with a title and a summary:\n%s", strings.Join(lines[:3], "\n"))
	}
	var sections []string
	for _, l := range lines {
		if h, ok := strings.CutPrefix(l, "## "); ok {
			sections = append(sections, h)
		}
	}
	if !slices.Equal(sections, []string{"Docs", "REST endpoints", "Objects", "MCP tools", "Optional"}) {
		t.Errorf("sections %q", sections)
	}
	for _, link := range []string{"/docs)", "/v1/openapi.json)", "/mcp)"} {
		if !strings.Contains(body, "]("+base+link) {
			t.Errorf("no link to %s%s", base, link)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if method == http.MethodHead {
				continue
			}
			if !strings.Contains(body, "- ["+method+" "+path+"]("+base+"/docs#"+op.OperationID+"): "+op.Summary) {
				t.Errorf("no entry for %s %s", method, path)
			}
		}
	}
	for _, tool := range mcptools.Tools(mcptools.Deps{}) {
		entry := "\n- `" + tool.Def.Name + "` (" + tool.Def.Title
		i := strings.Index(body, entry)
		if i < 0 {
			t.Errorf("MCP tool %s is not listed", tool.Def.Name)
			continue
		}
		rest := body[i+len(entry):]
		if j := strings.Index(rest, "\n- "); j >= 0 {
			rest = rest[:j]
		}
		for _, a := range tool.Arguments() {
			if !strings.Contains(rest, "\n  - `"+a.Name+"` (") {
				t.Errorf("MCP tool %s: argument %s is not listed", tool.Def.Name, a.Name)
			}
		}
	}
}

// TestReferenceRendersEveryField: /docs has a table for every component
// schema with a row per field giving its type, its unit when it has one and
// its description; /llms.txt lists the same fields.
func TestReferenceRendersEveryField(t *testing.T) {
	base, doc := serve(t, "")
	_, body := get(t, base+"/docs")
	_, llms := get(t, base+"/llms.txt")
	root, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	articles := map[string]*html.Node{}
	walk(root, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "h3" && strings.HasPrefix(attr(n, "id"), "schema-") {
			articles[strings.TrimPrefix(attr(n, "id"), "schema-")] = n.Parent
		}
	})
	schemas := doc.Components.Schemas
	if len(schemas) < 20 {
		t.Fatalf("only %d schemas in the document", len(schemas))
	}
	units := 0
	for name, ref := range schemas {
		art := articles[name]
		if art == nil {
			t.Errorf("/docs has no section for schema %s", name)
			continue
		}
		rows := map[string][]string{}
		walk(art, func(n *html.Node) {
			if n.Type != html.ElementNode || n.Data != "tr" {
				return
			}
			var cells []string
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					cells = append(cells, strings.Join(strings.Fields(textOf(c)), " "))
				}
			}
			rows[cells[0]] = cells
		})
		_, rest, ok := strings.Cut(llms, "\n### "+name+"\n")
		if !ok {
			t.Errorf("/llms.txt has no section for schema %s", name)
		}
		llmsSection, _, _ := strings.Cut(rest, "\n### ")
		for field, p := range ref.Value.Properties {
			cells := rows[field]
			if len(cells) != 5 {
				t.Errorf("%s.%s: row %q, want field, type, unit, description, example", name, field, cells)
				continue
			}
			desc := strings.Join(strings.Fields(p.Value.Description), " ")
			if cells[1] == "" || !strings.Contains(cells[3], strings.ReplaceAll(desc, "`", "")) {
				t.Errorf("%s.%s: type %q, description %q; want the document's %q", name, field, cells[1], cells[3], desc)
			}
			if unit, _ := p.Value.Extensions["x-unit"].(string); unit != cells[2] {
				t.Errorf("%s.%s: unit %q, want %q", name, field, cells[2], unit)
			} else if unit != "" {
				units++
			}
			if !strings.Contains(llmsSection, "- `"+field+"` (") {
				t.Errorf("/llms.txt: %s.%s is not listed", name, field)
			}
		}
	}
	if units < 20 {
		t.Errorf("only %d fields with a unit rendered", units)
	}
	for _, want := range []string{"mpg_city", "MPGe", "USD", "g/mi"} {
		if !strings.Contains(body, want) || !strings.Contains(llms, want) {
			t.Errorf("/docs or /llms.txt never says %q", want)
		}
	}
}

// TestReferenceShowsSamples: every operation but the document itself shows
// a sample response that is JSON, and fields take examples from them.
func TestReferenceShowsSamples(t *testing.T) {
	base, doc := serve(t, "")
	_, body := get(t, base+"/docs")
	root, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	samples := map[string]string{}
	examples := map[string]string{}
	walk(root, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		if n.Data == "pre" && attr(n, "class") == "sample" {
			samples[attr(n.Parent, "aria-labelledby")] = textOf(n)
		}
		if n.Data == "tr" && strings.HasPrefix(attr(n.Parent.Parent.Parent.Parent, "aria-labelledby"), "schema-Car") {
			var cells []string
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					cells = append(cells, textOf(c))
				}
			}
			examples[cells[0]] = cells[len(cells)-1]
		}
	})
	for _, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.OperationID == "getOpenAPI" || method == http.MethodHead {
				continue
			}
			s, ok := samples[op.OperationID]
			if !ok {
				t.Errorf("%s has no sample response", op.OperationID)
				continue
			}
			if !json.Valid([]byte(s)) {
				t.Errorf("%s: the sample is not JSON:\n%s", op.OperationID, s)
			}
		}
	}
	for _, field := range []string{"uuid", "make", "mpg_city", "annual_fuel_cost", "co2_gpm"} {
		if examples[field] == "" {
			t.Errorf("Car.%s has no example", field)
		}
	}
}
