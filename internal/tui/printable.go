package tui

import (
	"reflect"

	"github.com/vds-dev/vds/internal/textfmt"
)

// printable escapes, in place, every string of the answer v points to
// (textfmt.Printable), so no text a server sent reaches the terminal raw
// and the pages render what they get as it is.
func printable(v any) { escapeStrings(reflect.ValueOf(v)) }

func escapeStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			escapeStrings(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				escapeStrings(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			escapeStrings(v.Index(i))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(textfmt.Printable(v.String()))
		}
	}
}
