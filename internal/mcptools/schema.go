package mcptools

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/typeschema"
	"github.com/vds-dev/vds/internal/vehicle"
)

// The schemas come from typeschema, as the OpenAPI document's do, rather
// than mcp.WithInputSchema[T]: that describes uuid.UUID as 16 integers,
// cannot carry bounds or enums computed from the catalog, and on an error
// leaves the tool without a schema where typeschema panics in every test.

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
	s := typeschema.For[T]()
	if s.Properties == nil {
		// A tool without arguments: an empty object, and nothing else.
		s.Properties = map[string]*jsonschema.Schema{}
	}
	for name, p := range s.Properties {
		typeschema.NotNull(p)
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
	out := []*jsonschema.Schema{dataOf[catalog.Car](), dataOf[catalog.Motorcycle](), dataOf[catalog.Boat](), dataOf[catalog.TireFitment]()}
	for i, s := range out {
		s.Title = string(catalog.Kinds[i])
	}
	return out
}

// envelope builds the output schema {"data": data} or, with meta, the list
// envelope {"data": data, "meta": meta}: the body of the REST twin.
func envelope(data *jsonschema.Schema, dataDesc string, meta bool) *jsonschema.Schema {
	if meta {
		return envelopeWith(data, dataDesc, dataOf[vehicle.Meta]())
	}
	return envelopeWith(data, dataDesc, nil)
}

// envelopeWith is envelope with a meta of the tool's own, or none.
func envelopeWith(data *jsonschema.Schema, dataDesc string, meta *jsonschema.Schema) *jsonschema.Schema {
	// The data of a body is never a nil slice, as REST's bodies show.
	typeschema.NotNull(data)
	data.Description = dataDesc
	return typeschema.Envelope(data, meta)
}

// dataOf is the schema of T, every nested struct inline.
func dataOf[T any]() *jsonschema.Schema { return typeschema.For[T]() }

// rawSchema encodes a schema for mcp.WithRawInputSchema and friends.
func rawSchema(s *jsonschema.Schema) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic("mcptools: encode schema: " + err.Error())
	}
	return b
}
