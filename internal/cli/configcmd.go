package cli

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func newConfigCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{Use: "config", Short: "Inspect the effective configuration"}, newConfigShowCmd(f, nil))
}

type configShowOptions struct{}

func newConfigShowCmd(f *Factory, runF func(*configShowOptions) error) *cobra.Command {
	return noArgsCmd(f, &configShowOptions{}, runF, configShowRun, &cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration, passwords masked",
		Long: `Print every setting as vds sees it after merging flags, VDS_* environment
variables, the config file and defaults. Passwords in the database URL are masked.`,
	})
}

func configShowRun(_ context.Context, f *Factory, _ *configShowOptions) error {
	c := *f.Config()
	c.Database.URL = maskURL(c.Database.URL)
	file := f.v.ConfigFileUsed()
	all := settings("", reflect.ValueOf(c))
	return f.show(nestSettings(append(all, setting{"config_file", file})), nil, func() error {
		t := f.IO.newTable("KEY", "VALUE")
		t.row("config_file", dash(file))
		for _, s := range all {
			t.row(s.key, s.text())
		}
		return t.flush()
	})
}

// setting is one configuration key, as configs/vds.example.yaml spells it
// (server.addr), and its effective value.
type setting struct {
	key   string
	value any
}

// text is the value for the table: lists joined with commas, "-" for empty.
func (s setting) text() string {
	if l, ok := s.value.([]string); ok {
		return dash(strings.Join(l, ","))
	}
	return dash(fmt.Sprint(s.value))
}

// settings lists the keys of the configuration value v under prefix, named
// by their mapstructure tags, in the order of the Config struct.
func settings(prefix string, v reflect.Value) []setting {
	switch {
	case v.Type() == reflect.TypeFor[time.Duration]():
		return []setting{{prefix, time.Duration(v.Int()).String()}}
	case v.Kind() == reflect.Struct:
		var out []setting
		for i := range v.NumField() {
			out = append(out, settings(joinKey(prefix, v.Type().Field(i).Tag.Get("mapstructure")), v.Field(i))...)
		}
		return out
	case v.Kind() == reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		var out []setting
		for _, k := range keys {
			out = append(out, settings(joinKey(prefix, k.String()), v.MapIndex(k))...)
		}
		return out
	case v.Kind() == reflect.Slice && v.IsNil():
		return []setting{{prefix, reflect.MakeSlice(v.Type(), 0, 0).Interface()}}
	}
	return []setting{{prefix, v.Interface()}}
}

func joinKey(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// nestSettings is the --json of config show: the keys nested as in the
// config file, so that server.addr is {"server": {"addr": ...}}.
func nestSettings(all []setting) map[string]any {
	root := map[string]any{}
	for _, s := range all {
		parts := strings.Split(s.key, ".")
		m := root
		for _, p := range parts[:len(parts)-1] {
			sub, ok := m[p].(map[string]any)
			if !ok {
				sub = map[string]any{}
				m[p] = sub
			}
			m = sub
		}
		m[parts[len(parts)-1]] = s.value
	}
	return root
}

func maskURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
