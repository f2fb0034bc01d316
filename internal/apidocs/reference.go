package apidocs

import (
	"bytes"
	"encoding/json"
	"html/template"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// originMark stands where each request's origin goes in a pre-rendered
// page; neither HTML nor Markdown escapes any of its characters.
const originMark = "VDSORIGINMARK"

type reference struct {
	Title, Version string
	Intro          []template.HTML
	Schemes        []scheme
	Groups         []group
	Objects        []objectView
}

// objectView is a component schema with its fields.
type objectView struct {
	Name, Anchor string
	Description  template.HTML
	Type         template.HTML
	Fields       []fieldView
}

type fieldView struct {
	Name, Unit, Example string
	Type, Description   template.HTML
}

type scheme struct {
	Name, Kind  string
	Description template.HTML
}

type group struct {
	Name, Anchor string
	Description  template.HTML
	Ops          []opView
}

type opView struct {
	Anchor, Method, Path, Summary string
	Description                   template.HTML
	Public, Charged               bool
	Params                        []paramView
	Body                          *bodyView
	Responses                     []responseView
	Curl                          string
	Sample                        *sampleView
}

type sampleView struct {
	Request, Body string
	Items, Shown  int
}

type paramView struct {
	Name, In, Type   string
	Required         bool
	Values, Examples []string
	Description      template.HTML
}

type bodyView struct {
	Description template.HTML
	Required    bool
	Media       []mediaView
}

type mediaView struct{ Type, Schema string }

type responseView struct {
	Status, Schema, Media string
	Description           template.HTML
	Codes                 []string
	SchemaAnchor          string
}

func buildReference(d *document, samples []sample) reference {
	ref := reference{Title: d.Info.Title, Version: d.Info.Version, Intro: paragraphs(d.Info.Description)}
	for name, s := range d.Components.SecuritySchemes {
		ref.Schemes = append(ref.Schemes, scheme{Name: name, Kind: s.Type + " " + s.Scheme, Description: inline(s.Description)})
	}
	slices.SortFunc(ref.Schemes, func(a, b scheme) int { return strings.Compare(a.Name, b.Name) })
	byTag := map[string][]opView{}
	for _, e := range d.endpoints() {
		tag := ""
		if len(e.Op.Tags) > 0 {
			tag = e.Op.Tags[0]
		}
		op := buildOp(d, e)
		op.Sample = sampleFor(e.Op.ID, samples)
		byTag[tag] = append(byTag[tag], op)
	}
	for _, t := range d.Tags {
		ref.Groups = append(ref.Groups, group{Name: t.Name, Anchor: "tag-" + slug(t.Name), Description: inline(t.Description), Ops: byTag[t.Name]})
		delete(byTag, t.Name)
	}
	// Operations under a tag the document does not declare still show.
	for _, name := range slices.Sorted(maps.Keys(byTag)) {
		title := name
		if title == "" {
			title = "Other"
		}
		ref.Groups = append(ref.Groups, group{Name: title, Anchor: "tag-" + slug(title), Ops: byTag[name]})
	}
	for _, name := range slices.Sorted(maps.Keys(d.Components.Schemas)) {
		ref.Objects = append(ref.Objects, buildObject(d, name))
	}
	return ref
}

func schemaAnchor(name string) string { return "schema-" + name }

func buildObject(d *document, name string) objectView {
	s := d.Components.Schemas[name]
	o := objectView{Name: name, Anchor: schemaAnchor(name), Description: inline(s.Description)}
	if len(s.Properties) == 0 {
		o.Type = d.linkTypes(typeText(s))
	}
	for _, f := range s.Properties {
		o.Fields = append(o.Fields, fieldView{
			Name: f.Name, Type: d.linkTypes(typeText(f.Schema)), Unit: f.Schema.Unit,
			Description: inline(fieldDescription(f.Schema)), Example: d.example(name, f),
		})
	}
	return o
}

// fieldDescription is a field's description with its fixed values.
func fieldDescription(s jsonSchema) string {
	if len(s.Enum) == 0 {
		return s.Description
	}
	return strings.TrimSpace(s.Description + " One of: " + strings.Join(texts(s.Enum), ", ") + ".")
}

// example is a field's first example in the document, else the first
// value the samples give it.
func (d *document) example(schema string, f property) string {
	if len(f.Schema.Examples) > 0 {
		return exampleText(f.Schema.Examples[0])
	}
	if v, ok := d.fieldExamples[schema][f.Name]; ok {
		return exampleText(v)
	}
	return ""
}

// sampleFor is the operation's successful sample, indented.
func sampleFor(op string, samples []sample) *sampleView {
	for _, s := range samples {
		if s.Operation != op || s.Status != 200 {
			continue
		}
		var b bytes.Buffer
		if json.Indent(&b, s.Body, "", "  ") != nil {
			return nil
		}
		v := &sampleView{Request: s.Request, Body: b.String(), Items: s.Items}
		if s.Items > 0 {
			var list struct{ Data []json.RawMessage }
			_ = json.Unmarshal(s.Body, &list)
			v.Shown = len(list.Data)
		}
		return v
	}
	return nil
}

var typeWord = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*\b`)

// linkTypes renders a type text as HTML, each component name a link to it.
func (d *document) linkTypes(t string) template.HTML {
	return template.HTML(typeWord.ReplaceAllStringFunc(template.HTMLEscapeString(t), func(w string) string {
		if _, ok := d.Components.Schemas[w]; !ok {
			return w
		}
		return `<a href="#` + schemaAnchor(w) + `"><code>` + w + `</code></a>`
	}))
}

func buildOp(d *document, e endpoint) opView {
	v := opView{
		Anchor: e.Op.ID, Method: e.Method, Path: e.Path, Summary: e.Op.Summary,
		Description: inline(e.Op.Description), Public: e.public(), Charged: e.Op.Charged, Curl: curl(e),
	}
	if v.Anchor == "" {
		v.Anchor = slug(e.Method + " " + e.Path)
	}
	for _, p := range e.Op.Parameters {
		v.Params = append(v.Params, paramView{
			Name: p.Name, In: p.In, Type: typeText(p.Schema), Required: p.Required,
			Values: texts(p.Schema.Enum), Examples: texts(p.Schema.Examples), Description: inline(p.Description),
		})
	}
	if b := e.Op.RequestBody; b != nil {
		v.Body = &bodyView{Description: inline(b.Description), Required: b.Required}
		for _, mt := range slices.Sorted(maps.Keys(b.Content)) {
			v.Body.Media = append(v.Body.Media, mediaView{Type: mt, Schema: schemaName(b.Content[mt].Schema)})
		}
	}
	for _, status := range slices.Sorted(maps.Keys(e.Op.Responses)) {
		r := d.resolve(e.Op.Responses[status])
		rv := responseView{Status: status, Description: inline(r.Description)}
		for _, mt := range slices.Sorted(maps.Keys(r.Content)) {
			rv.Media, rv.Schema = mt, schemaName(r.Content[mt].Schema)
			if _, ok := d.Components.Schemas[rv.Schema]; ok {
				rv.SchemaAnchor = schemaAnchor(rv.Schema)
			}
			rv.Codes = append(rv.Codes, problemCodes(r.Content[mt].Schema)...)
		}
		v.Responses = append(v.Responses, rv)
	}
	return v
}

// curl is a command that calls the operation, with example path
// parameters and the required query parameters.
func curl(e endpoint) string {
	path := e.Path
	var unset []string
	query := url.Values{}
	required := slices.ContainsFunc(e.Op.Parameters, func(p parameter) bool { return p.In == "query" && p.Required })
	for _, p := range e.Op.Parameters {
		examples := p.Schema.Examples
		switch {
		case p.In == "path":
			v := "$" + strings.ToUpper(p.Name)
			if len(examples) > 0 {
				v = url.PathEscape(text(examples[0]))
			} else {
				unset = append(unset, p.Name)
			}
			path = strings.ReplaceAll(path, "{"+p.Name+"}", v)
		case p.In == "query" && len(examples) > 0 && (p.Required || !required && (p.Name == "make" || p.Name == "model")):
			if items, ok := examples[0].([]any); ok {
				query[p.Name] = texts(items)
			} else {
				query.Set(p.Name, text(examples[0]))
			}
		}
	}
	target := originMark + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var b strings.Builder
	for _, name := range unset {
		b.WriteString("# Set " + strings.ToUpper(name) + " to the " + name + " of a record, e.g. from a list answer.\n")
	}
	b.WriteString("curl ")
	if !e.public() {
		b.WriteString("-H \"Authorization: Bearer $VDS_TOKEN\" \\\n  ")
	}
	// Double quotes: the shell expands $UUID and leaves & alone.
	b.WriteString(`"` + target + `"`)
	return b.String()
}

var (
	boldMark = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	codeMark = regexp.MustCompile("`([^`]+)`")
)

// inline renders the Markdown the document's descriptions use (code and
// bold) as HTML; everything else is escaped.
func inline(s string) template.HTML {
	e := template.HTMLEscapeString(s)
	e = codeMark.ReplaceAllString(e, "<code>$1</code>")
	e = boldMark.ReplaceAllString(e, "<strong>$1</strong>")
	return template.HTML(e)
}

// paragraphs splits text at blank lines and renders each with inline.
func paragraphs(s string) []template.HTML {
	var out []template.HTML
	for p := range strings.SplitSeq(s, "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, inline(p))
		}
	}
	return out
}

var notSlug = regexp.MustCompile(`[^a-z0-9]+`)

func slug(s string) string {
	return strings.Trim(notSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
}
