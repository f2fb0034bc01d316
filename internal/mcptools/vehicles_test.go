package mcptools

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// TestSearchInputMapsEveryArgument: each argument of search_vehicles but
// type is a list parameter of some kind and reaches the vehicle.Query, so
// a field added to the input cannot be dropped on the way to Search.
func TestSearchInputMapsEveryArgument(t *testing.T) {
	t.Parallel()
	var params []string
	for _, k := range catalog.Kinds {
		params = append(params, vehicle.AcceptedParams(k)...)
	}
	empty := SearchVehiclesInput{}.query(catalog.KindCar)
	rt := reflect.TypeFor[SearchVehiclesInput]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name == "type" {
			continue
		}
		if !slices.Contains(params, name) {
			t.Errorf("argument %s is no list parameter", name)
		}
		var in SearchVehiclesInput
		f := reflect.ValueOf(&in).Elem().Field(i)
		if f.Kind() == reflect.Pointer {
			f.Set(reflect.New(f.Type().Elem()))
		} else {
			f.SetString("x")
		}
		if reflect.DeepEqual(in.query(catalog.KindCar), empty) {
			t.Errorf("argument %s does not reach the query", name)
		}
	}
}
