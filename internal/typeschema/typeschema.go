// Package typeschema derives the JSON Schemas of the API's Go types for the
// OpenAPI document and the MCP tools alike (docs/architecture.md#schemas).
package typeschema

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

// Described is implemented by types whose schema carries a description.
type Described interface{ SchemaDescription() string }

// Enumerated is implemented by structs with string fields of a fixed set:
// the values by JSON field name.
type Enumerated interface{ SchemaEnums() map[string][]string }

// typeSchemas are the types whose JSON is not what their Go shape suggests.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[uuid.UUID]():            {Type: "string", Format: "uuid"},
	reflect.TypeFor[time.Time]():            {Type: "string", Format: "date-time"},
	reflect.TypeFor[catalog.Opt[float64]](): {Types: []string{"null", "number"}},
	reflect.TypeFor[catalog.Opt[int]]():     {Types: []string{"null", "integer"}},
	reflect.TypeFor[catalog.Kind](): {Type: "string", Enum: func() []any {
		out := make([]any, len(catalog.Kinds))
		for i, k := range catalog.Kinds {
			out[i] = string(k)
		}
		return out
	}()},
}

// For returns the schema of T with every nested struct inline; it panics
// on a type jsonschema-go cannot describe, which every test run catches.
func For[T any]() *jsonschema.Schema {
	s, err := forType(reflect.TypeFor[T](), typeSchemas)
	if err != nil {
		panic(fmt.Sprintf("typeschema: %v", err))
	}
	return s
}

func forType(t reflect.Type, known map[reflect.Type]*jsonschema.Schema) (*jsonschema.Schema, error) {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: known})
	if err != nil {
		return nil, err
	}
	if d, ok := reflect.Zero(t).Interface().(Described); ok {
		s.Description = d.SchemaDescription()
	}
	units(s, t)
	if e, ok := reflect.Zero(t).Interface().(Enumerated); ok {
		for name, values := range e.SchemaEnums() {
			p := s.Properties[name]
			if p == nil || p.Type != "string" || len(values) == 0 {
				return nil, fmt.Errorf("%v: SchemaEnums names %q, which is no string field, or gives no values", t, name)
			}
			p.Enum = make([]any, len(values))
			for i, v := range values {
				p.Enum[i] = v
			}
		}
	}
	return s, nil
}

// UnitKey is the schema extension that carries a field's unit, from its
// `unit` struct tag (e.g. unit:"mi").
const UnitKey = "x-unit"

// units copies the unit tags of struct t's fields, and of the structs
// inlined in s, into s's properties.
func units(s *jsonschema.Schema, t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
		if s.Items != nil {
			s = s.Items
		}
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		p := s.Properties[name]
		if f.Anonymous || p == nil {
			continue
		}
		if u := f.Tag.Get("unit"); u != "" {
			p.Extra = map[string]any{UnitKey: u}
		}
		units(p, f.Type)
	}
}

// NotNull drops the "null" jsonschema-go allows for a slice (a nil slice
// encodes as null) from s itself, for bodies that never hold one.
func NotNull(s *jsonschema.Schema) {
	s.Types = slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
	if len(s.Types) == 1 {
		s.Type, s.Types = s.Types[0], nil
	}
}

// Envelope is the schema of a response body: {"data": data}, or the page
// {"data": data, "meta": meta} when meta is not nil.
func Envelope(data, meta *jsonschema.Schema) *jsonschema.Schema {
	if data.Description == "" && data.Type == "array" {
		data.Description = "The answer: the list."
	} else if data.Description == "" {
		data.Description = "The answer: the object."
	}
	if meta != nil && meta.Description == "" {
		meta.Description = "Where this page lies in the whole list."
	}
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{"data": data},
		PropertyOrder:        []string{"data"},
		Required:             []string{"data"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	if meta != nil {
		s.Properties["meta"] = meta
		s.PropertyOrder = append(s.PropertyOrder, "meta")
		s.Required = append(s.Required, "meta")
	}
	return s
}

// RefPrefix is where Components' schemas live in an OpenAPI document.
const RefPrefix = "#/components/schemas/"

// Components collects named schemas for an OpenAPI document, a property of
// a named struct type being a $ref; slices are never null there.
type Components struct {
	schemas map[string]*jsonschema.Schema
	names   map[reflect.Type]string
}

func NewComponents() *Components {
	return &Components{schemas: map[string]*jsonschema.Schema{}, names: map[reflect.Type]string{}}
}

// Schemas returns the entries, for components/schemas.
func (c *Components) Schemas() map[string]*jsonschema.Schema { return c.schemas }

// Add registers a schema under name; two different schemas may not share one.
func (c *Components) Add(name string, s *jsonschema.Schema) error {
	if old, ok := c.schemas[name]; ok {
		a, _ := json.Marshal(old)
		b, _ := json.Marshal(s)
		if string(a) != string(b) {
			return fmt.Errorf("two different schemas are named %s", name)
		}
	}
	c.schemas[name] = s
	return nil
}

// Ref returns a $ref to the schema of the named struct t, registering it
// and every named struct it reaches.
func (c *Components) Ref(t reflect.Type) (*jsonschema.Schema, error) {
	if err := c.register(t); err != nil {
		return nil, err
	}
	return &jsonschema.Schema{Ref: RefPrefix + t.Name()}, nil
}

func (c *Components) register(t reflect.Type) error {
	if _, ok := c.names[t]; ok {
		return nil
	}
	if t.Kind() != reflect.Struct || t.Name() == "" {
		return fmt.Errorf("%v is not a named struct", t)
	}
	for other, n := range c.names {
		if n == t.Name() {
			return fmt.Errorf("types %v and %v would share the schema name %s", other, t, n)
		}
	}
	c.names[t] = t.Name()
	nested, err := namedStructs(t, nil)
	if err != nil {
		return err
	}
	known := maps.Clone(typeSchemas)
	for _, n := range nested {
		known[n] = &jsonschema.Schema{Ref: RefPrefix + n.Name()}
	}
	s, err := forType(t, known)
	if err != nil {
		return err
	}
	walk(s, refsAndArrays)
	if err := c.Add(t.Name(), s); err != nil {
		return err
	}
	for _, n := range nested {
		if err := c.register(n); err != nil {
			return err
		}
	}
	return nil
}

// namedStructs appends the named structs t's JSON fields hold to out,
// failing on a self-marshalling type typeSchemas does not cover.
func namedStructs(t reflect.Type, out []reflect.Type) ([]reflect.Type, error) {
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() || f.Tag.Get("json") == "-" {
			continue
		}
		if strings.Contains(f.Tag.Get("json"), ",string") {
			return nil, fmt.Errorf("%v.%s: the json \"string\" option is not supported", t, f.Name)
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array || ft.Kind() == reflect.Map {
			ft = ft.Elem()
		}
		if _, ok := typeSchemas[ft]; ok {
			continue
		}
		if marshals(ft) {
			return nil, fmt.Errorf("%v.%s: %v marshals itself; add its schema to typeSchemas", t, f.Name, ft)
		}
		switch {
		case ft.Kind() != reflect.Struct:
		case ft.Name() == "":
			var err error
			if out, err = namedStructs(ft, out); err != nil {
				return nil, err
			}
		case !slices.Contains(out, ft):
			out = append(out, ft)
		}
	}
	return out, nil
}

func marshals(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(reflect.TypeFor[json.Marshaler]()) || p.Implements(reflect.TypeFor[encoding.TextMarshaler]())
}

// refsAndArrays turns jsonschema-go's nullable $ref into anyOf, and drops
// null from slices.
func refsAndArrays(s *jsonschema.Schema) {
	if s.Ref != "" && slices.Equal(s.Types, []string{"null"}) {
		*s = jsonschema.Schema{
			AnyOf:       []*jsonschema.Schema{{Ref: s.Ref}, {Type: "null"}},
			Description: s.Description,
		}
		return
	}
	if slices.Contains(s.Types, "array") {
		NotNull(s)
	}
}

func walk(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	f(s)
	for _, p := range s.Properties {
		walk(p, f)
	}
	walk(s.Items, f)
	walk(s.AdditionalProperties, f)
	for _, a := range s.AnyOf {
		walk(a, f)
	}
}
