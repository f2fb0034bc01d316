package cli

import (
	"context"
	"fmt"
	"net/url"

	"github.com/spf13/cobra"
)

func newConfigCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{Use: "config", Short: "Inspect the effective configuration"}, newConfigShowCmd(f, nil))
}

type configShowOptions struct{}

func newConfigShowCmd(f *Factory, runF func(*configShowOptions) error) *cobra.Command {
	opts := &configShowOptions{}
	return &cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration, passwords masked",
		Long: `Print every setting as vds sees it after merging flags, VDS_* environment
variables, the config file and defaults. Passwords in the database URL are masked.`,
		Args: noArgs,
		RunE: runCmd(f, opts, runF, configShowRun),
	}
}

func configShowRun(_ context.Context, f *Factory, _ *configShowOptions) error {
	c := *f.Config()
	c.Database.URL = maskURL(c.Database.URL)
	if f.JSON {
		return f.writeJSON(map[string]any{"config_file": f.v.ConfigFileUsed(), "server": c.Server, "upstream": c.Upstream, "dashboard": c.Dashboard,
			"database": c.Database, "log": c.Log, "plans": c.Plans})
	}
	t := f.IO.newTable("KEY", "VALUE")
	t.row("config_file", dash(f.v.ConfigFileUsed()))
	t.row("server.addr", c.Server.Addr)
	t.row("upstream.vpic_url", c.Upstream.VPICURL)
	t.row("upstream.nhtsa_url", c.Upstream.NHTSAURL)
	t.row("upstream.epa_url", c.Upstream.EPAURL)
	t.row("upstream.timeout", c.Upstream.Timeout.String())
	t.row("upstream.cache_ttl", c.Upstream.CacheTTL.String())
	t.row("dashboard.signup", fmt.Sprint(c.Dashboard.Signup))
	t.row("dashboard.session_ttl", c.Dashboard.SessionTTL.String())
	t.row("dashboard.secure_cookies", c.Dashboard.SecureCookies)
	t.row("dashboard.public_url", dash(c.Dashboard.PublicURL))
	t.row("database.url", c.Database.URL)
	t.row("log.level", c.Log.Level)
	t.row("log.format", c.Log.Format)
	for _, name := range c.PlanNames() {
		p := c.Plans[name]
		t.row("plans."+name, fmt.Sprintf("rate_per_minute=%d monthly_quota=%d api_access=%t", p.RatePerMinute, p.MonthlyQuota, p.APIAccess))
	}
	return t.flush()
}

// maskURL hides the password of a URL.
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
