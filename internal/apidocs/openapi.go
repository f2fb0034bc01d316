package apidocs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The part of an OpenAPI 3.1 document the reference shows: only the shapes
// httpapi.BuildOpenAPI writes.

type document struct {
	Info struct {
		Title       string `json:"title"`
		Version     string `json:"version"`
		Description string `json:"description"`
	} `json:"info"`
	Security []map[string][]string `json:"security"`
	Tags     []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tags"`
	Paths      map[string]map[string]operation `json:"paths"`
	Components struct {
		Schemas         map[string]jsonSchema `json:"schemas"`
		Responses       map[string]response   `json:"responses"`
		SecuritySchemes map[string]struct {
			Type        string `json:"type"`
			Scheme      string `json:"scheme"`
			Description string `json:"description"`
		} `json:"securitySchemes"`
	} `json:"components"`
	// fieldExamples are the samples' values by schema and field.
	fieldExamples map[string]map[string]any
}

type operation struct {
	ID          string      `json:"operationId"`
	Summary     string      `json:"summary"`
	Description string      `json:"description"`
	Tags        []string    `json:"tags"`
	Parameters  []parameter `json:"parameters"`
	RequestBody *struct {
		Description string               `json:"description"`
		Required    bool                 `json:"required"`
		Content     map[string]mediaType `json:"content"`
	} `json:"requestBody"`
	Responses map[string]response `json:"responses"`
	// Security nil inherits the document's; an empty list is public.
	Security *[]map[string][]string `json:"security"`
	Charged  bool                   `json:"x-charged"`
}

type parameter struct {
	Name        string     `json:"name"`
	In          string     `json:"in"`
	Description string     `json:"description"`
	Required    bool       `json:"required"`
	Schema      jsonSchema `json:"schema"`
}

type response struct {
	Ref         string               `json:"$ref"`
	Description string               `json:"description"`
	Content     map[string]mediaType `json:"content"`
}

type mediaType struct {
	Schema jsonSchema `json:"schema"`
}

type jsonSchema struct {
	Ref         string       `json:"$ref"`
	Type        any          `json:"type"`
	Format      string       `json:"format"`
	Description string       `json:"description"`
	Unit        string       `json:"x-unit"`
	Enum        []any        `json:"enum"`
	Examples    []any        `json:"examples"`
	Default     any          `json:"default"`
	Minimum     *float64     `json:"minimum"`
	Maximum     *float64     `json:"maximum"`
	Items       *jsonSchema  `json:"items"`
	AllOf       []jsonSchema `json:"allOf"`
	AnyOf       []jsonSchema `json:"anyOf"`
	Properties  properties   `json:"properties"`
}

// properties are a schema's properties in the document's order.
type properties []property

type property struct {
	Name   string
	Schema jsonSchema
}

func (ps properties) get(name string) jsonSchema {
	for _, p := range ps {
		if p.Name == name {
			return p.Schema
		}
	}
	return jsonSchema{}
}

func (ps *properties) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		var s jsonSchema
		if err := dec.Decode(&s); err != nil {
			return err
		}
		*ps = append(*ps, property{Name: fmt.Sprint(key), Schema: s})
	}
	return nil
}

func parseDocument(b []byte) (*document, error) {
	var d document
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("apidocs: read the OpenAPI document: %w", err)
	}
	if len(d.Paths) == 0 {
		return nil, fmt.Errorf("apidocs: the OpenAPI document has no paths")
	}
	return &d, nil
}

type endpoint struct {
	Method, Path string
	Op           operation
}

// endpoints lists the operations but the HEAD twin of each GET, which the
// document declares for validators and the reference need not repeat.
func (d *document) endpoints() []endpoint {
	var out []endpoint
	for _, path := range slices.Sorted(maps.Keys(d.Paths)) {
		for _, method := range slices.Sorted(maps.Keys(d.Paths[path])) {
			if method == "head" {
				continue
			}
			out = append(out, endpoint{Method: strings.ToUpper(method), Path: path, Op: d.Paths[path][method]})
		}
	}
	return out
}

func (e endpoint) public() bool {
	return e.Op.Security != nil && len(*e.Op.Security) == 0
}

func (d *document) resolve(r response) response {
	if name, ok := strings.CutPrefix(r.Ref, "#/components/responses/"); ok {
		if c, ok := d.Components.Responses[name]; ok {
			return c
		}
	}
	return r
}

// typeText renders a schema's type with its bounds and default, e.g.
// "integer, 1 to 10, default 10" or "array of string".
func typeText(s jsonSchema) string {
	t := typeName(s)
	if s.Format != "" {
		t += " (" + s.Format + ")"
	}
	if s.Items != nil {
		t += " of " + typeText(*s.Items)
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		t += ", " + num(*s.Minimum) + " to " + num(*s.Maximum)
	case s.Minimum != nil:
		t += ", " + num(*s.Minimum) + " or more"
	}
	if s.Default != nil {
		t += ", default " + fmt.Sprint(s.Default)
	}
	return t
}

func typeName(s jsonSchema) string {
	switch t := s.Type.(type) {
	case string:
		return t
	case []any:
		// "number or null": the type first.
		parts := texts(t)
		slices.SortStableFunc(parts, func(a, b string) int { return boolInt(a == "null") - boolInt(b == "null") })
		return strings.Join(parts, " or ")
	}
	if name := schemaName(s); name != "" {
		return name
	}
	if len(s.AnyOf) > 0 {
		parts := make([]string, len(s.AnyOf))
		for i, a := range s.AnyOf {
			parts[i] = typeText(a)
		}
		return strings.Join(parts, " or ")
	}
	return "any"
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// schemaName names a body's schema: its component, or "object" inline.
func schemaName(s jsonSchema) string {
	if name, ok := strings.CutPrefix(s.Ref, "#/components/schemas/"); ok {
		return name
	}
	for _, sub := range s.AllOf {
		if name := schemaName(sub); name != "" {
			return name
		}
	}
	if t, ok := s.Type.(string); ok {
		return t
	}
	return ""
}

// problemCodes are the problem code values a response's schema allows
// (allOf: Problem, then {properties: {code: {enum}}}).
func problemCodes(s jsonSchema) []string {
	var out []string
	for _, sub := range s.AllOf {
		for _, v := range sub.Properties.get("code").Enum {
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}

// text renders a JSON value (an enum value or an example) as text; an
// array is its items joined with commas.
func text(v any) string {
	if a, ok := v.([]any); ok {
		return strings.Join(texts(a), ", ")
	}
	return fmt.Sprint(v)
}

func texts(vals []any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = text(v)
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
