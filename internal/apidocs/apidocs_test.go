package apidocs_test

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/vds-dev/vds/internal/apidocs"
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
	apidocs.New(raw, mcptools.Tools(mcptools.Deps{})).At(publicURL).Mount(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL, doc
}

func get(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
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
// else the scheme and host the client used.
func TestReferenceOrigin(t *testing.T) {
	base, _ := serve(t, "")
	if _, body := get(t, base+"/docs", "X-Forwarded-Proto", "https"); !strings.Contains(body, `curl -H &#34;Authorization: Bearer $VDS_TOKEN&#34; \`+"\n  &#34;https://"+strings.TrimPrefix(base, "http://")+"/v1/cars?make=Toyota&amp;model=Camry&#34;") {
		t.Errorf("/docs behind an HTTPS proxy does not call https://%s", strings.TrimPrefix(base, "http://"))
	}
	public, _ := serve(t, "https://vds.example.com/")
	for _, path := range []string{"/docs", "/llms.txt"} {
		_, body := get(t, public+path)
		if !strings.Contains(body, "https://vds.example.com/v1/openapi.json") || strings.Contains(body, public) {
			t.Errorf("%s with dashboard.public_url set does not name it alone", path)
		}
	}
}

func TestLLMsTxt(t *testing.T) {
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
	if !slices.Equal(sections, []string{"Docs", "REST endpoints", "MCP tools", "Optional"}) {
		t.Errorf("sections %q", sections)
	}
	for _, link := range []string{"/docs)", "/v1/openapi.json)", "/mcp)"} {
		if !strings.Contains(body, "]("+base+link) {
			t.Errorf("no link to %s%s", base, link)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
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
