package config

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/viper"
)

func TestDashboardDefaults(t *testing.T) {
	v := viper.New()
	SetDefaults(v)
	v.Set("database.url", "sqlite:/tmp/x.db")
	c, err := Load(v)
	if err != nil {
		t.Fatal(err)
	}
	d := c.Dashboard
	if !d.Signup || d.SessionTTL != 168*time.Hour || d.CookieMode() != SecureCookiesAuto || d.PublicURL != "" {
		t.Fatalf("dashboard defaults = %+v", d)
	}
}

func TestCookieMode(t *testing.T) {
	for in, want := range map[string]string{"": "auto", "auto": "auto", "ALWAYS": "always", "true": "always", "1": "always",
		"never": "never", "false": "never", "0": "never", "sometimes": ""} {
		if got := (Dashboard{SecureCookies: in}).CookieMode(); got != want {
			t.Errorf("CookieMode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidateDashboard(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    Dashboard
		want string
	}{
		{"short ttl", Dashboard{SessionTTL: time.Second}, "dashboard.session_ttl"},
		{"bad cookie mode", Dashboard{SecureCookies: "sometimes"}, "dashboard.secure_cookies"},
		{"public url with a path", Dashboard{PublicURL: "https://vds.example.com/app"}, "dashboard.public_url"},
		{"public url without scheme", Dashboard{PublicURL: "vds.example.com"}, "dashboard.public_url"},
		{"fine", Dashboard{SessionTTL: time.Hour, PublicURL: "https://vds.example.com/"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := viper.New()
			SetDefaults(v)
			v.Set("database.url", "sqlite:/tmp/x.db")
			c, err := Load(v)
			if err != nil {
				t.Fatal(err)
			}
			c.Dashboard = tc.d
			err = c.Validate()
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("Validate = %v, want an error about %q", err, tc.want)
			}
		})
	}
}
