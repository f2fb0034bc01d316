package apidocs

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vds-dev/vds/internal/mcptools"
)

// llmsText is /llms.txt (https://llmstxt.org): a summary, the rules of the
// API, and links to every REST operation and MCP tool.
func llmsText(d *document, tools []mcptools.Tool) string {
	var b strings.Builder
	intro := strings.Split(strings.TrimSpace(d.Info.Description), "\n\n")
	fmt.Fprintf(&b, "# %s\n\n> %s\n\n", d.Info.Title, oneLine(intro[0]))
	fmt.Fprintf(&b, "The REST API answers at %s (the paths below follow it, e.g. %s/v1/cars), the MCP server at %s/mcp. "+
		"Both take the same token: `Authorization: Bearer vds_...`.\n\n", originMark, originMark, originMark)
	for _, p := range intro[1:] {
		b.WriteString(strings.TrimSpace(p) + "\n\n")
	}

	b.WriteString("## Docs\n\n")
	fmt.Fprintf(&b, "- [API reference](%s/docs): every endpoint, parameter, response and error code, with a curl example each (HTML)\n", originMark)
	fmt.Fprintf(&b, "- [OpenAPI document](%s/v1/openapi.json): the OpenAPI 3.1 description of the REST API (JSON, no token needed)\n", originMark)
	fmt.Fprintf(&b, "- [MCP server](%s/mcp): Model Context Protocol over streamable HTTP (POST JSON-RPC, no session), the tools below\n", originMark)

	b.WriteString("\n## REST endpoints\n\n")
	for _, e := range d.endpoints() {
		fmt.Fprintf(&b, "- [%s %s](%s/docs#%s): %s. %s", e.Method, e.Path, originMark, e.Op.ID,
			strings.TrimSuffix(e.Op.Summary, "."), oneLine(e.Op.Description))
		var params []string
		for _, p := range e.Op.Parameters {
			s := "`" + p.Name + "` (" + p.In
			if p.Required {
				s += ", required"
			}
			params = append(params, s+")")
		}
		if len(params) > 0 {
			b.WriteString(" Parameters: " + strings.Join(params, ", ") + ".")
		}
		if e.public() {
			b.WriteString(" Public: no token.")
		}
		b.WriteString("\n")
	}

	b.WriteString("\n## Objects\n\n")
	b.WriteString("The objects the responses carry. Every field is always present; an absent value is null.\n")
	for _, name := range slices.Sorted(maps.Keys(d.Components.Schemas)) {
		o := d.Components.Schemas[name]
		fmt.Fprintf(&b, "\n### %s\n\n", name)
		if o.Description != "" {
			b.WriteString(oneLine(o.Description) + "\n\n")
		}
		if len(o.Properties) == 0 {
			b.WriteString("Type: " + typeText(o) + ".\n")
		}
		for _, f := range o.Properties {
			kind := typeText(f.Schema)
			if f.Schema.Unit != "" {
				kind += "; unit " + f.Schema.Unit
			}
			fmt.Fprintf(&b, "- `%s` (%s): %s", f.Name, kind, oneLine(fieldDescription(f.Schema)))
			if ex := d.example(name, f); ex != "" {
				b.WriteString(" Example: `" + ex + "`.")
			}
			b.WriteString("\n")
		}
	}

	b.WriteString("\n## MCP tools\n\n")
	b.WriteString("Call them with `tools/call` at /mcp; each returns the same JSON as its REST twin.\n\n")
	for _, t := range tools {
		charged := "charged"
		if !t.Charged {
			charged = "free"
		}
		fmt.Fprintf(&b, "- `%s` (%s; %s): %s\n", t.Def.Name, t.Def.Title, charged, oneLine(t.Def.Description))
		args := t.Arguments()
		if len(args) == 0 {
			b.WriteString("  - Arguments: none.\n")
		}
		for _, a := range args {
			req := ""
			if a.Required {
				req = ", required"
			}
			fmt.Fprintf(&b, "  - `%s` (%s%s): %s\n", a.Name, a.Type, req, oneLine(a.Description))
		}
	}

	b.WriteString("\n## Optional\n\n")
	fmt.Fprintf(&b, "- [Changelog](%s/v1/changelog): the releases of the API, newest first (JSON, token needed)\n", originMark)
	return b.String()
}
