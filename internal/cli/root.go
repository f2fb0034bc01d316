// Package cli builds the vds command tree. Each command is an xxxOptions
// struct; a newXxxCmd(f, runF) constructor that parses flags and arguments
// into it and hands it to runF when a test passes one (runCmd builds that
// RunE); and an xxxRun function that does the work against dependencies
// taken from the Factory.
// Group commands (accounts, tokens, lists, catalog, config) only hold
// subcommands.
package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/buildinfo"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/textfmt"
)

// Main runs vds with args and returns the process exit code.
func Main(ctx context.Context, args []string) int {
	f := NewFactory(SystemIO())
	defer f.Close()
	return run(ctx, f, args)
}

// run executes args on f, prints the error once, and returns the exit
// code; the command tests call it with their own streams.
func run(ctx context.Context, f *Factory, args []string) int {
	root := NewRootCmd(f)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	if ctx.Err() != nil {
		err = context.Canceled
		fmt.Fprintln(f.IO.ErrOut, "vds: interrupted")
	} else {
		fmt.Fprintln(f.IO.ErrOut, "vds: "+textfmt.Printable(errorMessage(err)))
		var fe *FlagError
		if errors.As(err, &fe) || strings.HasPrefix(err.Error(), "unknown command") {
			fmt.Fprintln(f.IO.ErrOut, "Run 'vds --help' for usage.")
		}
	}
	return exitCode(err)
}

// NewRootCmd builds the whole command tree on f.
func NewRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "vds",
		Short: "vds serves and queries vehicle data: cars, motorcycles, boats, tire fitments",
		Long: `vds is a vehicle-data service: a catalog of cars (with EPA fuel economy),
motorcycles and other powersports vehicles, power boats and tire fitments.`,
		// --version prints what vds version prints.
		Version:       buildinfo.Get().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.prepareJSON(); err != nil {
				return err
			}
			return f.loadConfig(cmd)
		},
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErrorf(err) })
	pf := root.PersistentFlags()
	pf.StringVar(&f.configFile, "config", "", "config file (default $XDG_CONFIG_HOME/vds/config.yaml)")
	pf.String("database", "", "database URL: sqlite:PATH or postgres://... (env VDS_DATABASE_URL)")
	pf.BoolVar(&f.JSON, "json", false, "print machine-readable JSON (client commands: the API's data)")
	pf.StringVar(&f.jqExpr, "jq", "", "filter the JSON output with a jq expression (implies --json)")
	// --database is the documented name; the config key is database.url, so
	// the environment variable is VDS_DATABASE_URL.
	_ = f.v.BindPFlag("database.url", pf.Lookup("database"))

	root.AddCommand(
		newVersionCmd(f, nil),
		newConfigCmd(f),
		newMigrateCmd(f, nil),
		newServeCmd(f, nil),
		newHealthcheckCmd(f, nil),
		newIngestCmd(f, nil),
		newEnrichCmd(f, nil),
		newCatalogCmd(f),
		newVPICCmd(f),
		newAccountsCmd(f),
		newTokensCmd(f),
		newWebhooksCmd(f),
		newListsCmd(f),
		newLoginCmd(f, nil),
		newLogoutCmd(f, nil),
		newAuthStatusCmd(f, "whoami", nil),
		newAuthCmd(f),
		newMakesCmd(f, nil),
		newModelsCmd(f, nil),
		newSearchCmd(f, nil),
		newGetCmd(f, nil),
		newVINCmd(f, nil),
		newHINCmd(f, nil),
		newTiresCmd(f, nil),
		newRecallsCmd(f, nil),
		newGarageCmd(f, nil),
		newLogsCmd(f, nil),
		newTUICmd(f, nil),
		newAPICmd(f, nil),
	)
	root.AddCommand(
		&cobra.Command{Use: "environment", Short: "Client and operator commands, output, configuration", Long: environmentHelp},
		&cobra.Command{Use: "exit-codes", Short: "What vds's exit codes mean", Long: exitCodesHelp},
	)
	groupCommands(root)
	subHelp := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c != root {
			subHelp(c, args)
			return
		}
		fmt.Fprint(c.OutOrStdout(), rootHelp(root))
	})
	return root
}

const environmentHelp = `Operator commands (serve, ingest, catalog, accounts, tokens, lists, migrate,
vpic) work on the database directly: an SQLite file by default, PostgreSQL
with --database postgres://...

Client commands (login, logout, whoami, auth, makes, models, search, get,
vin, tires, recalls, garage, logs, tui, api) talk to any vds server over
HTTP, never to the database. They use --url and --token, else VDS_URL and
VDS_TOKEN, else the current instance and its token that vds login (or vds
serve --demo) stored in $XDG_CONFIG_HOME/vds/credentials; the URL defaults
to ` + defaultURL + `. An https:// server's certificate is checked against
the system's CAs and those of --ca-file (client.ca_file, VDS_CLIENT_CA_FILE). TYPE is car, motorcycle, boat or tire (plurals,
tire-size and tire_size accepted).

Output is an aligned table on a terminal, tab-separated text without a
header when piped; --json prints JSON, for the client commands the API's
data (an array for lists), and --jq EXPR filters it with a jq expression.
Colours only on a terminal, never with NO_COLOR set.

Configuration: flags > VDS_* environment variables > config file
($XDG_CONFIG_HOME/vds/config.yaml) > defaults. See configs/vds.example.yaml.`

// briefs are the root help's short descriptions, two commands a line, so
// that vds --help fits a 24-line terminal; TestRootHelp checks each visible
// command has one.
var briefs = map[string]string{
	"vin": "Decode VINs", "search": "Search the catalog", "get": "Show one record",
	"makes": "List makes", "models": "List models of a make", "tires": "Tire fitments, geometry",
	"recalls": "Recalls, crash ratings", "garage": "Your saved lists", "tui": "Browse in a terminal",
	"api": "GET any API path", "hin": "Decode boats' HINs", "login": "Store a token", "logout": "Forget a token",
	"auth": "Switch instances", "whoami": "Account, plan, quota", "logs": "Your newest requests",
	"serve": "API, MCP and dashboard", "ingest": "Load catalog files", "enrich": "Add EPA fuel economy",
	"catalog": "Inspect the catalog", "accounts": "Accounts and plans", "tokens": "API tokens",
	"lists": "Accounts' saved lists", "migrate": "Apply migrations", "vpic": "Offline VIN decoding",
	"webhooks": "Signed event endpoints",
}

// rootHelp is vds --help: the command groups first, the long text in the
// help topics.
func rootHelp(root *cobra.Command) string {
	var b strings.Builder
	b.WriteString(root.Long + "\n")
	for _, g := range commandGroups {
		b.WriteString("\n" + g.group.Title + "\n")
		for pair := range slices.Chunk(g.names, 2) {
			line := ""
			for _, name := range pair {
				line += fmt.Sprintf("  %-10s %-24s", name, briefs[name])
			}
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
	var other []string
	for _, c := range root.Commands() {
		if c.GroupID == "" && c.IsAvailableCommand() && c.Name() != "help" {
			other = append(other, c.Name())
		}
	}
	fmt.Fprintf(&b, "\nAlso: %s.\n", strings.Join(other, ", "))
	b.WriteString("Flags: --json, --jq EXPR; --url, --token (client); --database (operator).\n")
	b.WriteString("More: vds help COMMAND, vds help environment, vds help exit-codes.\n")
	return b.String()
}

// Command groups of `vds --help`: database commands apart from HTTP ones.
var commandGroups = []struct {
	group cobra.Group
	names []string
}{
	{cobra.Group{ID: "client", Title: "Client commands (HTTP, any vds server):"},
		[]string{"vin", "search", "get", "makes", "models", "tires", "recalls", "garage", "tui", "api", "login", "logout", "auth", "whoami", "logs", "hin"}},
	{cobra.Group{ID: "operator", Title: "Operator commands (on the database):"},
		[]string{"serve", "ingest", "enrich", "catalog", "accounts", "tokens", "lists", "migrate", "vpic", "webhooks"}},
}

func groupCommands(root *cobra.Command) {
	for _, g := range commandGroups {
		root.AddGroup(&g.group)
		for _, c := range root.Commands() {
			if slices.Contains(g.names, c.Name()) {
				c.GroupID = g.group.ID
			}
		}
	}
}

// Factory hands commands their dependencies, each created on first use so
// that `vds --help` or `vds version` never opens a database.
type Factory struct {
	IO *IOStreams
	// JSON is the global --json flag, also set by --jq.
	JSON bool
	// jqExpr is --jq; jq is it compiled, nil without one.
	jqExpr string
	jq     *gojq.Code

	v          *viper.Viper
	configFile string
	cfg        *config.Config
	st         store.Store
	closers    []func() error

	// flagURL and flagToken are the client commands' --url and --token.
	flagURL    string
	flagToken  string
	flagCAFile string
	apiClient  *client.Client
}

// NewFactory returns a Factory on the given streams with a fresh viper.
func NewFactory(io *IOStreams) *Factory {
	v := viper.New()
	config.SetDefaults(v)
	v.SetEnvPrefix("VDS")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	return &Factory{IO: io, v: v}
}

// loadConfig reads the config file and unmarshals the configuration once,
// after flags are parsed (so --config can choose the file).
func (f *Factory) loadConfig(cmd *cobra.Command) error {
	if f.cfg != nil {
		return nil
	}
	if f.configFile != "" {
		f.v.SetConfigFile(f.configFile)
	} else {
		f.v.SetConfigName("config")
		f.v.SetConfigType("yaml")
		f.v.AddConfigPath(config.ConfigDir())
	}
	if err := f.v.ReadInConfig(); err != nil {
		var notFound viper.ConfigFileNotFoundError
		if f.configFile != "" || !errors.As(err, &notFound) {
			return fmt.Errorf("read config: %w", err)
		}
	}
	cfg, err := config.Load(f.v)
	if err != nil {
		return err
	}
	f.cfg = &cfg
	return nil
}

// Config returns the loaded configuration.
func (f *Factory) Config() *config.Config { return f.cfg }

// Close releases whatever the commands opened.
func (f *Factory) Close() {
	for i := len(f.closers) - 1; i >= 0; i-- {
		_ = f.closers[i]()
	}
	f.closers = nil
}

// exactArgs is cobra.ExactArgs with a usage error and named arguments.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != len(names) {
			return usageErrorf(fmt.Errorf("expected %d argument(s): %s; got %d", len(names), strings.Join(names, " "), len(args)))
		}
		return nil
	}
}

func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf(fmt.Errorf("unexpected argument %q", args[0]))
	}
	return nil
}

func requireFlag(name, value string) error {
	if strings.TrimSpace(value) == "" {
		return usageErrorf(fmt.Errorf("--%s is required", name))
	}
	return nil
}
