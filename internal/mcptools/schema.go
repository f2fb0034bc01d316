package mcptools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// The schemas are generated with jsonschema-go directly rather than through
// mcp.WithInputSchema[T] and mcp.WithOutputSchema[T], for three reasons:
// those helpers describe uuid.UUID as an array of 16 integers (so every
// record would fail output validation), they cannot express numeric bounds
// or enums computed from the catalog, and on a generation error they print
// to stderr and leave the tool without a schema. Here a bad schema panics
// when the registry is built, which every test run catches.

// typeSchemas describes the types whose JSON is not what their Go shape
// suggests: both marshal as strings.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[uuid.UUID](): {Type: "string", Format: "uuid"},
	reflect.TypeFor[time.Time](): {Type: "string", Format: "date-time"},
}

// schemaOf generates the JSON Schema of T.
func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		panic(fmt.Sprintf("mcptools: schema of %s: %v", reflect.TypeFor[T](), err))
	}
	return s
}

// prop adjusts one property of an input schema beyond what struct tags say.
type prop struct {
	// desc, when set, replaces the struct tag's description: for text
	// built from the catalog's lists, which a tag cannot hold.
	desc     string
	enum     []string
	min, max *float64
	examples []any
}

func bounds(lo, hi float64) prop { return prop{min: &lo, max: &hi} }

func atLeast(lo float64) prop { return prop{min: &lo} }

// inputSchema generates the input schema of T and applies extra: enums,
// numeric bounds and examples, which struct tags cannot carry. Optional
// arguments are pointers in Go so that 0 and false can be told from
// absent, which makes jsonschema-go type them ["null", T]; the null is
// dropped so the schema says what the tool takes: leave an argument out
// to leave it unset.
func inputSchema[T any](extra map[string]prop) *jsonschema.Schema {
	s := schemaOf[T]()
	if s.Properties == nil {
		// A tool without arguments: an empty object, and nothing else.
		s.Properties = map[string]*jsonschema.Schema{}
	}
	for name, p := range s.Properties {
		if len(p.Types) > 0 {
			p.Types = slices.DeleteFunc(slices.Clone(p.Types), func(t string) bool { return t == "null" })
			if len(p.Types) == 1 {
				p.Type, p.Types = p.Types[0], nil
			}
		}
		x, ok := extra[name]
		if !ok {
			continue
		}
		for _, v := range x.enum {
			p.Enum = append(p.Enum, v)
		}
		p.Minimum, p.Maximum = x.min, x.max
		p.Examples = x.examples
		if x.desc != "" {
			p.Description = x.desc
		}
	}
	for name := range extra {
		if _, ok := s.Properties[name]; !ok {
			panic(fmt.Sprintf("mcptools: %s has no argument %q", reflect.TypeFor[T](), name))
		}
	}
	return s
}

// kindNames are the values of every "type" argument, in display order.
var kindNames = func() []string {
	out := make([]string, len(catalog.Kinds))
	for i, k := range catalog.Kinds {
		out[i] = string(k)
	}
	return out
}()

// kindProp is the "type" argument: one of the four record types.
var kindProp = prop{enum: kindNames}

// yearProp bounds a model year as the service does.
var yearProp = func() prop {
	p := bounds(vehicle.MinQueryYear, vehicle.MaxQueryYear)
	p.examples = []any{2020}
	return p
}()

// recordSchemas are the output schemas of the four record types, each
// titled with its type so a reader can tell the variants apart.
func recordSchemas() []*jsonschema.Schema {
	out := []*jsonschema.Schema{schemaOf[catalog.Car](), schemaOf[catalog.Motorcycle](), schemaOf[catalog.Boat](), schemaOf[catalog.TireFitment]()}
	for i, s := range out {
		s.Title = string(catalog.Kinds[i])
	}
	return out
}

// envelope builds the output schema {"data": data} or, with meta, the list
// envelope {"data": data, "meta": meta}: the body of the REST twin.
func envelope(data *jsonschema.Schema, dataDesc string, meta bool) *jsonschema.Schema {
	if len(data.Types) > 0 {
		// jsonschema-go allows null for every slice, since a nil slice
		// encodes as null; the services never return one, as REST's
		// bodies show.
		data.Types = slices.DeleteFunc(slices.Clone(data.Types), func(t string) bool { return t == "null" })
		if len(data.Types) == 1 {
			data.Type, data.Types = data.Types[0], nil
		}
	}
	data.Description = dataDesc
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{"data": data},
		PropertyOrder:        []string{"data"},
		Required:             []string{"data"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	if meta {
		m := schemaOf[vehicle.Meta]()
		m.Description = "Paging: page and per_page as asked, total matches, total_pages, max_page (the last page " +
			"that can be asked for, at most 40) and truncated (more than 400 matches: narrow the query to see the rest)."
		s.Properties["meta"] = m
		s.PropertyOrder = append(s.PropertyOrder, "meta")
		s.Required = append(s.Required, "meta")
	}
	return s
}

// dataOf is the schema of T as the data member of an envelope.
func dataOf[T any]() *jsonschema.Schema { return schemaOf[T]() }

// rawSchema encodes a schema for mcp.WithRawInputSchema and friends.
func rawSchema(s *jsonschema.Schema) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic("mcptools: encode schema: " + err.Error())
	}
	return b
}
