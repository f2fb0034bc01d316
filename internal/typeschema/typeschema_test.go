package typeschema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

type inner struct {
	N int `json:"n"`
}

type base struct {
	Shared string `json:"shared"`
}

type outer struct {
	base
	ID     uuid.UUID             `json:"id"`
	At     time.Time             `json:"at"`
	Kind   catalog.Kind          `json:"kind"`
	One    inner                 `json:"one" jsonschema:"The one."`
	Maybe  *inner                `json:"maybe" jsonschema:"Null or one."`
	Many   []inner               `json:"many"`
	ByName map[string]inner      `json:"by_name"`
	Tags   []string              `json:"tags,omitempty"`
	Nested struct{ Deep *inner } `json:"nested"`
}

func (outer) SchemaDescription() string { return "An outer thing." }

// marshal encodes v with sorted keys, so schemas compare by content.
func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(generic)
	return string(b)
}

// canon is want with sorted keys.
func canon(t *testing.T, want string) string { return marshal(t, json.RawMessage(want)) }

func TestForInlinesAndKeepsNullableSlices(t *testing.T) {
	t.Parallel()
	s := For[outer]()
	if s.Description != "An outer thing." {
		t.Errorf("description = %q", s.Description)
	}
	for name, want := range map[string]string{
		"id":     `{"type":"string","format":"uuid"}`,
		"at":     `{"type":"string","format":"date-time"}`,
		"kind":   `{"type":"string","enum":["car","motorcycle","boat","tire_size"]}`,
		"one":    `{"type":"object","description":"The one.","required":["n"],"additionalProperties":false,"properties":{"n":{"type":"integer"}}}`,
		"tags":   `{"type":["null","array"],"items":{"type":"string"}}`,
		"shared": `{"type":"string"}`,
	} {
		if got, want := marshal(t, s.Properties[name]), canon(t, want); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	if slices.Contains(s.Required, "tags") || !slices.Contains(s.Required, "maybe") {
		t.Errorf("required = %v", s.Required)
	}
}

func TestComponentsRefNamedStructs(t *testing.T) {
	t.Parallel()
	c := NewComponents()
	ref, err := c.Ref(reflect.TypeFor[outer]())
	if err != nil {
		t.Fatal(err)
	}
	if ref.Ref != "#/components/schemas/outer" {
		t.Errorf("ref = %+v", ref)
	}
	if got := slices.Sorted(func(yield func(string) bool) {
		for k := range c.Schemas() {
			if !yield(k) {
				return
			}
		}
	}); !slices.Equal(got, []string{"inner", "outer"}) {
		t.Errorf("components = %v, want inner and outer (base is flattened, the anonymous struct inline)", got)
	}
	o := c.Schemas()["outer"]
	for name, want := range map[string]string{
		"one":     `{"description":"The one.","$ref":"#/components/schemas/inner"}`,
		"maybe":   `{"description":"Null or one.","anyOf":[{"$ref":"#/components/schemas/inner"},{"type":"null"}]}`,
		"many":    `{"type":"array","items":{"$ref":"#/components/schemas/inner"}}`,
		"by_name": `{"type":"object","additionalProperties":{"$ref":"#/components/schemas/inner"}}`,
		"tags":    `{"type":"array","items":{"type":"string"}}`,
		"nested":  `{"type":"object","required":["Deep"],"additionalProperties":false,"properties":{"Deep":{"anyOf":[{"$ref":"#/components/schemas/inner"},{"type":"null"}]}}}`,
	} {
		if got, want := marshal(t, o.Properties[name]), canon(t, want); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	if o.Description != "An outer thing." {
		t.Errorf("description = %q", o.Description)
	}
}

type viaAnonymous struct {
	Other struct {
		X inner `json:"x"`
	} `json:"other"`
}

type selfMarshaling struct{ V string }

func (selfMarshaling) MarshalJSON() ([]byte, error) { return []byte(`"v"`), nil }

type holdsSelfMarshaling struct {
	S selfMarshaling `json:"s"`
}

type stringOption struct {
	N int `json:"n,string"`
}

func TestComponentsRefuse(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		typ  reflect.Type
		want string
	}{
		"self-marshaling field": {reflect.TypeFor[holdsSelfMarshaling](), "marshals itself"},
		"json string option":    {reflect.TypeFor[stringOption](), `"string" option`},
		"not a named struct":    {reflect.TypeFor[[]inner](), "not a named struct"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := NewComponents().Ref(c.typ); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
	t.Run("same name, other type", func(t *testing.T) {
		type inner struct{ S string }
		c := NewComponents()
		if _, err := c.Ref(reflect.TypeFor[outer]()); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Ref(reflect.TypeFor[inner]()); err == nil || !strings.Contains(err.Error(), "share the schema name") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("same name, other schema", func(t *testing.T) {
		c := NewComponents()
		if _, err := c.Ref(reflect.TypeFor[viaAnonymous]()); err != nil {
			t.Fatal(err)
		}
		if err := c.Add("inner", &jsonschema.Schema{Type: "string"}); err == nil {
			t.Fatal("Add replaced a registered schema with a different one")
		}
		if err := c.Add("inner", c.Schemas()["inner"]); err != nil {
			t.Fatalf("re-adding the same schema: %v", err)
		}
	})
}

func TestEnvelope(t *testing.T) {
	t.Parallel()
	data := &jsonschema.Schema{Type: "string"}
	if got, want := marshal(t, Envelope(data, nil)), canon(t, `{"type":"object","required":["data"],"additionalProperties":false,"properties":{"data":{"type":"string","description":"The answer: the object."}}}`); got != want {
		t.Errorf("object = %s, want %s", got, want)
	}
	page := Envelope(data, &jsonschema.Schema{Type: "object"})
	if !slices.Equal(page.Required, []string{"data", "meta"}) || page.Properties["meta"] == nil {
		t.Errorf("page = %s", marshal(t, page))
	}
}

type measured struct {
	Len   float64   `json:"len" unit:"ft"`
	Parts []measure `json:"parts"`
	Plain int       `json:"plain"`
}

type measure struct {
	Mass *float64 `json:"mass" unit:"lb"`
}

func TestUnitTagsBecomeExtensions(t *testing.T) {
	s := For[measured]()
	if got := s.Properties["len"].Extra[UnitKey]; got != "ft" {
		t.Errorf("len unit = %v, want ft", got)
	}
	if got := s.Properties["parts"].Items.Properties["mass"].Extra[UnitKey]; got != "lb" {
		t.Errorf("inlined parts[].mass unit = %v, want lb", got)
	}
	if s.Properties["plain"].Extra != nil {
		t.Errorf("plain has extensions %v, want none", s.Properties["plain"].Extra)
	}
	c := NewComponents()
	if _, err := c.Ref(reflect.TypeFor[measured]()); err != nil {
		t.Fatal(err)
	}
	if got := marshal(t, c.Schemas()["measure"].Properties["mass"]); !strings.Contains(got, `"x-unit":"lb"`) {
		t.Errorf("component measure.mass = %s, want x-unit lb", got)
	}
}

type withEnum struct {
	Mode  string `json:"mode"`
	Count int    `json:"count"`
}

func (withEnum) SchemaEnums() map[string][]string { return map[string][]string{"mode": {"on", "off"}} }

type badEnum struct {
	Count int `json:"count"`
}

func (badEnum) SchemaEnums() map[string][]string { return map[string][]string{"count": {"1"}} }

// TestSchemaEnums: a struct's fixed sets become enums of its string
// fields; one naming a non-string field fails.
func TestSchemaEnums(t *testing.T) {
	if got, want := marshal(t, For[withEnum]().Properties["mode"]), canon(t, `{"type":"string","enum":["on","off"]}`); got != want {
		t.Errorf("mode = %s, want %s", got, want)
	}
	if _, err := NewComponents().Ref(reflect.TypeFor[badEnum]()); err == nil || !strings.Contains(err.Error(), "no string field") {
		t.Errorf("err = %v, want a refusal of the int field", err)
	}
}
