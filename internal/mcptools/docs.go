package mcptools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// DefaultURL is where `vds serve` answers MCP with its default address.
const DefaultURL = "http://127.0.0.1:8080/mcp"

// ExampleRequest is one HTTP request of the README's curl walk-through.
// The tests send every one of them, so the documented requests work.
type ExampleRequest struct {
	// Title says what the request does.
	Title string
	// Header holds the headers beyond Authorization, Content-Type and Accept.
	Header [][2]string
	// Body is the JSON-RPC message.
	Body string
}

// Examples are the requests the README shows, against vds serve --demo:
// the 2025-11-25 handshake, the tool list and a call, then a 2026-07-28
// call, which has no handshake.
var Examples = []ExampleRequest{
	{
		Title: "Initialize (2025-11-25). The server keeps no session, so no Mcp-Session-Id comes back or needs sending.",
		Body:  `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1.0"}}}`,
	},
	{
		Title:  "List the tools.",
		Header: [][2]string{{"MCP-Protocol-Version", "2025-11-25"}},
		Body:   `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	},
	{
		Title:  "Call a tool.",
		Header: [][2]string{{"MCP-Protocol-Version", "2025-11-25"}},
		Body:   `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_vehicles","arguments":{"type":"car","make":"Toyota","model":"Camry"}}}`,
	},
	{
		Title:  "A call in revision 2026-07-28: no initialize; the revision goes in a header and, with the client's capabilities, in _meta; Mcp-Method and Mcp-Name repeat the method and the tool.",
		Header: [][2]string{{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "tire_sizes_for_vehicle"}},
		Body:   `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"tire_sizes_for_vehicle","arguments":{"make":"Toyota","model":"Camry","year":2021},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	},
}

// Markdown renders the README section on MCP from the registry, so the
// README cannot drift from tools/list.
func Markdown(tools []Tool) string {
	var b strings.Builder
	b.WriteString(connecting)
	b.WriteString("\n```sh\n")
	for i, ex := range Examples {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "# %s\n", ex.Title)
		fmt.Fprintf(&b, "curl -s %s \\\n", DefaultURL)
		b.WriteString("  -H \"Authorization: Bearer $VDS_TOKEN\" \\\n")
		b.WriteString("  -H 'Content-Type: application/json' \\\n")
		b.WriteString("  -H 'Accept: application/json, text/event-stream' \\\n")
		for _, h := range ex.Header {
			fmt.Fprintf(&b, "  -H '%s: %s' \\\n", h[0], h[1])
		}
		fmt.Fprintf(&b, "  -d '%s'\n", ex.Body)
	}
	b.WriteString("```\n")
	b.WriteString(limitsText)

	b.WriteString("\n### MCP tools\n\n")
	b.WriteString("Every tool is read-only, idempotent and closed-world (it reads the catalog or your account and nothing else). ")
	b.WriteString("Each returns `structuredContent` (and the same JSON as text) equal to the body of its REST twin, ")
	b.WriteString("and declares an `outputSchema` for it.\n\n")
	b.WriteString("| Tool | What it does | Same JSON as | Charged |\n|---|---|---|---|\n")
	for _, t := range tools {
		charged := "yes"
		if !t.Charged {
			charged = "no"
		}
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", t.Def.Name, t.Def.Name, cell(t.Def.Title), cell(restCodes(t.REST)), charged)
	}
	for _, t := range tools {
		fmt.Fprintf(&b, "\n#### %s\n\n%s\n\n", t.Def.Name, t.Def.Description)
		args := t.Arguments()
		if len(args) == 0 {
			b.WriteString("Arguments: none.\n\n")
		} else {
			b.WriteString("| Argument | Type | Required | Description |\n|---|---|---|---|\n")
			for _, a := range args {
				req := ""
				if a.Required {
					req = "yes"
				}
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", a.Name, cell(a.Type), req, cell(a.Description))
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Result: %s.\n", t.Output)
	}
	return b.String()
}

// Argument is one argument of a tool, as the docs describe it.
type Argument struct {
	Name string
	// Type is Markdown, e.g. "integer, 1 to 10" or "`car` or `boat`".
	Type        string
	Required    bool
	Description string
}

// Arguments lists the tool's arguments in its input schema's order, for
// docs generated from the registry (the README, /llms.txt).
func (t Tool) Arguments() []Argument {
	names := t.check.argNames()
	out := make([]Argument, len(names))
	for i, n := range names {
		p := t.in.Properties[n]
		out[i] = Argument{Name: n, Type: docType(p), Required: slices.Contains(t.in.Required, n), Description: p.Description}
	}
	return out
}

// docType renders an argument's type for the tool tables, e.g. "integer,
// 1 to 10" or "`car`, `motorcycle`, `boat` or `tire_size`".
func docType(p *jsonschema.Schema) string {
	if len(p.Enum) > 0 {
		vals := make([]string, len(p.Enum))
		for i, v := range p.Enum {
			vals[i] = fmt.Sprintf("`%v`", v)
		}
		return orList(vals)
	}
	s := p.Type
	switch {
	case p.Minimum != nil && p.Maximum != nil:
		s += fmt.Sprintf(", %s to %s", num(*p.Minimum), num(*p.Maximum))
	case p.Minimum != nil:
		s += fmt.Sprintf(", %s or more", num(*p.Minimum))
	}
	return s
}

// restCodes renders endpoint names as code; a parenthesised note after
// them stays text.
func restCodes(s string) string {
	s, note, _ := strings.Cut(s, " (")
	if note != "" {
		note = " (" + note
	}
	parts := strings.Split(s, ", ")
	for i, p := range parts {
		method, rest, ok := strings.Cut(p, " ")
		if ok && method == "GET" {
			parts[i] = "GET `" + rest + "`"
			continue
		}
		parts[i] = "`" + p + "`"
	}
	return strings.Join(parts, ", ") + note
}

func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// Snapshot is the indented JSON of a tool's definition, as
// testdata/toolsnaps/<name>.json keeps it for review.
func Snapshot(t Tool) ([]byte, error) {
	raw, err := json.Marshal(t.Def)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	// Re-encoding through a map sorts keys at every level, so the file
	// does not depend on the order mcp-go or jsonschema-go emit them in.
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

const connecting = `## Connecting an MCP client

vds serves the Model Context Protocol at ` + "`POST /mcp`" + ` on the REST API's listener (` + "`" + DefaultURL + "`" + ` with the
default ` + "`--addr`" + `) and, with ` + "`vds serve --mcp-addr HOST:PORT`" + `, on a listener of its own as well. The transport
is streamable HTTP: a POST needs no session (any replica answers any request), in protocol revisions 2026-07-28 and
2025-11-25. Authenticate with the same token as the REST API:

    Authorization: Bearer vds_...

For a client configured with JSON (most desktop and editor clients take this shape, under ` + "`mcpServers`" + ` or
` + "`servers`" + `):

` + "```json" + `
{
  "mcpServers": {
    "vds": {
      "type": "http",
      "url": "` + DefaultURL + `",
      "headers": { "Authorization": "Bearer ${VDS_TOKEN}" }
    }
  }
}
` + "```" + `

By hand with curl: every message is a POST with both media types in ` + "`Accept`" + ` and, after
` + "`initialize`" + `, the negotiated revision in ` + "`MCP-Protocol-Version`" + `.
`

const limitsText = `
Limits are the REST API's. Each HTTP request counts against the per-minute rate limit, and a burst over it is a
` + "`429`" + ` with ` + "`Retry-After`" + `. Each successful ` + "`tools/call`" + ` is charged to the same monthly quota as REST
calls and shows in ` + "`GET /v1/me`" + ` and the ` + "`X-Quota-*`" + ` headers, which every response carries;
` + "`initialize`" + `, ` + "`tools/list`" + `, ` + "`ping`" + `, ` + "`account_usage`" + ` (like ` + "`/v1/me`" + `) and calls that end in an error are
free. When the quota is used up, a call returns a result with ` + "`isError`" + ` that says when the quota resets.
A missing or bad token is a ` + "`401`" + ` and a suspended account or a plan without API access a ` + "`403`" + `, before any
JSON-RPC is read. Bad arguments (a wrong type, a query the narrowing rule refuses, an unknown uuid) give a result
with ` + "`isError`" + ` and a sentence saying what to change. Requests from a browser page on another origin are refused,
and bodies are limited to 1 MiB.

Behind a reverse proxy on the same host, forward the ` + "`Host`" + ` header as ` + "`localhost`" + ` or ` + "`127.0.0.1`" + `:
a request that arrives on a loopback address with any other ` + "`Host`" + ` is refused with ` + "`403`" + `, which protects a
local server from DNS rebinding.
`
