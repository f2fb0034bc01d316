package cli

import (
	"bufio"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/buildinfo"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/credentials"
	"github.com/vds-dev/vds/internal/textfmt"
	"golang.org/x/term"
)

// defaultURL is the server the client commands talk to when nothing says
// otherwise: where `vds serve` listens by default.
const defaultURL = "http://127.0.0.1:8080"

// Where the URL and token in use came from, as vds auth status reports it.
const (
	sourceFlag    = "flag"
	sourceEnv     = "environment"
	sourceFile    = "credentials file"
	sourceDefault = "default"
)

// clientAuth is the server URL and token the client commands use, with
// where each came from.
type clientAuth struct {
	URL       string `json:"url"`
	URLSource string `json:"url_source"`
	// Token is empty when none is configured for URL.
	Token       string `json:"-"`
	TokenSource string `json:"token_source"`
	// CredentialsPath is the credentials file consulted.
	CredentialsPath string `json:"credentials_path"`
	// creds is what the file holds.
	creds credentials.Credentials
}

func credentialsPath() string { return credentials.Path(config.ConfigDir()) }

// resolveAuth picks the instance (--url, VDS_URL, the current stored one,
// defaultURL) and its token (--token, VDS_TOKEN, the one stored for that
// URL). A stored token is sent only to its own instance, never leaked.
func (f *Factory) resolveAuth() (clientAuth, error) {
	a := clientAuth{CredentialsPath: credentialsPath()}
	creds, err := credentials.Load(a.CredentialsPath)
	if err != nil {
		return a, err
	}
	a.creds = creds
	switch {
	case strings.TrimSpace(f.flagURL) != "":
		a.URL, a.URLSource = f.flagURL, sourceFlag
	case os.Getenv("VDS_URL") != "":
		a.URL, a.URLSource = os.Getenv("VDS_URL"), sourceEnv
	case creds.Current != "":
		a.URL, a.URLSource = creds.Current, sourceFile
	default:
		a.URL, a.URLSource = defaultURL, sourceDefault
	}
	u, err := credentials.NormalizeURL(a.URL)
	if err != nil {
		if a.URLSource == sourceFile {
			return a, fmt.Errorf("%s: %w", a.CredentialsPath, err)
		}
		return a, usageErrorf(err)
	}
	a.URL = u
	switch {
	case strings.TrimSpace(f.flagToken) != "":
		a.Token, a.TokenSource = strings.TrimSpace(f.flagToken), sourceFlag
	case os.Getenv("VDS_TOKEN") != "":
		a.Token, a.TokenSource = strings.TrimSpace(os.Getenv("VDS_TOKEN")), sourceEnv
	case creds.Token(a.URL) != "":
		a.Token, a.TokenSource = creds.Token(a.URL), sourceFile
	}
	return a, nil
}

func (a clientAuth) others() []string {
	return slices.DeleteFunc(a.creds.URLs(), func(u string) bool { return u == a.URL })
}

// errNotLoggedIn explains how to give the client commands a token.
func errNotLoggedIn(a clientAuth) error {
	msg := "not logged in to " + a.URL + ": run vds login, or set VDS_TOKEN or --token"
	if others := a.others(); len(others) > 0 {
		msg += " (tokens are stored for " + strings.Join(others, ", ") + ": vds auth switch URL uses one)"
	}
	return &codedError{code: ExitAuth, err: errors.New(msg)}
}

// noteEnvOverrides tells on stderr which of VDS_URL and VDS_TOKEN outrank
// what a login, logout or switch just stored.
func noteEnvOverrides(s *IOStreams, url string) {
	if env := os.Getenv("VDS_URL"); env != "" {
		if u, err := credentials.NormalizeURL(env); err != nil || u != url {
			fmt.Fprintln(s.ErrOut, "note: VDS_URL is set and picks "+env+" until you unset it")
		}
	}
	if os.Getenv("VDS_TOKEN") != "" {
		fmt.Fprintln(s.ErrOut, "note: VDS_TOKEN is set and overrides the stored token until you unset it")
	}
}

// Client returns the API client for the resolved URL and token, built on
// first use so that commands that never call the API never need a token.
func (f *Factory) Client() (*client.Client, error) {
	if f.apiClient != nil {
		return f.apiClient, nil
	}
	a, err := f.resolveAuth()
	if err != nil {
		return nil, err
	}
	if a.Token == "" {
		return nil, errNotLoggedIn(a)
	}
	f.apiClient, err = f.newAPIClient(a.URL, a.Token)
	return f.apiClient, err
}

func (f *Factory) newAPIClient(baseURL, token string) (*client.Client, error) {
	opts := []client.Option{client.WithUserAgent("vds-cli/" + buildinfo.Get().Version)}
	roots, err := f.rootCAs()
	if err != nil {
		return nil, err
	}
	if roots != nil {
		opts = append(opts, client.WithRootCAs(roots))
	}
	return client.New(baseURL, token, opts...), nil
}

// rootCAs are the system's CAs and those of --ca-file, else client.ca_file;
// nil when neither is given.
func (f *Factory) rootCAs() (*x509.CertPool, error) {
	path, name := f.flagCAFile, "--ca-file"
	if path == "" {
		path, name = f.Config().Client.CAFile, "client.ca_file"
	}
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErrorf(fmt.Errorf("%s: %w", name, err))
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool()
	}
	if !roots.AppendCertsFromPEM(b) {
		return nil, usageErrorf(fmt.Errorf("%s %s: no PEM certificate in it (want -----BEGIN CERTIFICATE-----)", name, path))
	}
	return roots, nil
}

// caFileFlag is --ca-file, for servers whose certificate a private CA signed.
func caFileFlag(f *Factory, cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.flagCAFile, "ca-file", "", "PEM CA certificates to trust besides the system's (config client.ca_file, env VDS_CLIENT_CA_FILE)")
}

// clientCmd gives a client command its --url and --token flags, and puts
// the server's refusals of query parameters in terms of its flags.
func clientCmd(f *Factory, cmd *cobra.Command) *cobra.Command {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error { return inFlagTerms(run(c, args), c) }
	}
	urlFlag(f, cmd, "server URL (env VDS_URL; default: the current stored instance, else "+defaultURL+")")
	cmd.Flags().StringVar(&f.flagToken, "token", "", "API token (env VDS_TOKEN; default: the one stored for the URL)")
	_ = cmd.RegisterFlagCompletionFunc("token", cobra.NoFileCompletions)
	caFileFlag(f, cmd)
	return cmd
}

func urlFlag(f *Factory, cmd *cobra.Command, usage string) {
	cmd.Flags().StringVar(&f.flagURL, "url", "", usage)
	_ = cmd.RegisterFlagCompletionFunc("url", completeStored)
}

func completeStored(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	creds, err := credentials.Load(credentialsPath())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return creds.URLs(), cobra.ShellCompDirectiveNoFileComp
}

// ----- login -----

type loginOptions struct {
	// Token is --token; empty means prompt (on a terminal) or read stdin.
	Token string
}

func newLoginCmd(f *Factory, runF func(*loginOptions) error) *cobra.Command {
	opts := &loginOptions{}
	return clientCmd(f, noArgsCmd(f, opts, runF, loginRun, &cobra.Command{
		Use:   "login [--url URL]",
		Short: "Check a token against a server and store it for that instance",
		Long: `Store an API token for a vds instance (server URL) in
$XDG_CONFIG_HOME/vds/credentials (mode 0600), after checking it against the
server's /v1/me, and make that instance the current one. Each instance keeps
its own token: logging in to a second one keeps the first (vds auth switch
goes back to it).

The token is read from a prompt without echo on a terminal, else from the
first line of stdin; --token gives it on the command line instead (where it
may land in the shell history). The URL is --url, else VDS_URL, else the
current instance, else ` + defaultURL + `.`,
		Example: `  vds tokens create --email demo@vds.local --name laptop | vds login --url http://127.0.0.1:8080
  vds login --token "$(vds tokens create --email demo@vds.local --name ci)"`,
	}, func([]string) error { opts.Token = f.flagToken; return nil }))
}

func loginRun(ctx context.Context, f *Factory, opts *loginOptions) error {
	a, err := f.resolveAuth()
	if err != nil {
		return err
	}
	token := strings.TrimSpace(opts.Token)
	if token == "" {
		if token, err = readToken(ctx, f.IO); err != nil {
			return err
		}
	}
	c, err := f.newAPIClient(a.URL, token)
	if err != nil {
		return err
	}
	me, err := c.Me(ctx)
	if err != nil {
		return loginRefused(a.URL, err)
	}
	if err := a.creds.Set(a.URL, token); err != nil {
		return err
	}
	if err := credentials.Save(a.CredentialsPath, a.creds); err != nil {
		return err
	}
	noteEnvOverrides(f.IO, a.URL)
	if f.JSON {
		return f.writeJSON(map[string]string{
			"url": a.URL, "email": me.Account.Email, "plan": me.Plan.Name, "credentials_path": a.CredentialsPath,
		})
	}
	_, err = fmt.Fprintf(f.IO.Out, "Logged in to %s as %s (%s plan)\n", a.URL, textfmt.Printable(me.Account.Email), textfmt.Printable(me.Plan.Name))
	return err
}

// readToken prompts for the token without echo on a terminal, else reads
// the first line of stdin so that `... | vds login` works.
func readToken(ctx context.Context, s *IOStreams) (string, error) {
	var (
		line string
		err  error
	)
	if file, ok := s.In.(*os.File); ok && s.InTTY {
		fmt.Fprint(s.ErrOut, "Token: ")
		line, err = readPassword(ctx, int(file.Fd()))
		fmt.Fprintln(s.ErrOut)
	} else {
		line, err = bufio.NewReader(s.In).ReadString('\n')
		if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if err != nil {
		return "", fmt.Errorf("read token: %w", err)
	}
	if line = strings.TrimSpace(line); line == "" {
		return "", usageErrorf(errors.New("no token given: type it at the prompt, pipe it on stdin, or pass --token"))
	}
	return line, nil
}

// readPassword reads a line without echo. The read runs aside, since
// Ctrl-C does not end term.ReadPassword, so a cancelled context can restore
// the echo: the process must never exit with echo off.
func readPassword(ctx context.Context, fd int) (string, error) {
	state, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := term.ReadPassword(fd)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return string(r.b), r.err
	case <-ctx.Done():
		_ = term.Restore(fd, state)
		return "", ctx.Err()
	}
}

// ----- logout -----

type logoutOptions struct{}

func newLogoutCmd(f *Factory, runF func(*logoutOptions) error) *cobra.Command {
	cmd := noArgsCmd(f, &logoutOptions{}, runF, logoutRun, &cobra.Command{
		Use:   "logout [--url URL]",
		Short: "Remove the stored token of one instance",
		Long: `Remove the token stored for one instance from $XDG_CONFIG_HOME/vds/credentials:
the one of --url, else of VDS_URL, else the current instance. The tokens of
other instances stay, and the current instance stays current, so a later
vds login asks only for a token. The token itself stays valid on the
server: revoke it with vds tokens revoke (operator) if it leaked.`,
		Example: `  vds logout
  vds logout --url https://vds.example.com`,
	})
	urlFlag(f, cmd, "the instance to log out of (env VDS_URL; default: the current one)")
	return cmd
}

func logoutRun(_ context.Context, f *Factory, _ *logoutOptions) error {
	a, err := f.resolveAuth()
	if err != nil {
		return err
	}
	if !a.creds.Remove(a.URL) {
		_, err = fmt.Fprintf(f.IO.Out, "Not logged in to %s: no token stored for it in %s\n", a.URL, a.CredentialsPath)
		return err
	}
	if err := credentials.Save(a.CredentialsPath, a.creds); err != nil {
		return err
	}
	if os.Getenv("VDS_TOKEN") != "" {
		fmt.Fprintln(f.IO.ErrOut, "note: VDS_TOKEN is still set and still used")
	}
	if _, err = fmt.Fprintf(f.IO.Out, "Logged out of %s: removed its token from %s\n", a.URL, a.CredentialsPath); err != nil {
		return err
	}
	if others := a.others(); len(others) > 0 && a.URL == a.creds.Current {
		_, err = fmt.Fprintf(f.IO.Out, "Still stored: %s (vds auth switch URL makes one current)\n", strings.Join(others, ", "))
	}
	return err
}

// ----- auth -----

func newAuthCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{
		Use:   "auth",
		Short: "Log in to vds instances and switch between them",
		Long: `The client commands can hold a token for several vds instances (server URLs)
at once, in $XDG_CONFIG_HOME/vds/credentials; one of them is current. A
command uses --url, else VDS_URL, else the current instance, and the token
stored for that URL unless --token or VDS_TOKEN gives one.`,
	}, newLoginCmd(f, nil), newLogoutCmd(f, nil), newAuthStatusCmd(f, "auth status", nil), newAuthSwitchCmd(f, nil))
}

// authStatus is the --json output of vds auth status: /v1/me, where the
// URL and token came from, and the stored instances.
type authStatus struct {
	clientAuth
	*client.Me
	Instances []storedInstance `json:"instances"`
}

type storedInstance struct {
	URL     string `json:"url"`
	Current bool   `json:"current"`
}

type authStatusOptions struct{}

// newAuthStatusCmd is vds auth status, and vds whoami: path is the command
// line that runs it.
func newAuthStatusCmd(f *Factory, path string, runF func(*authStatusOptions) error) *cobra.Command {
	return clientCmd(f, noArgsCmd(f, &authStatusOptions{}, runF, authStatusRun, &cobra.Command{
		Use:   path[strings.LastIndex(path, " ")+1:],
		Short: "Show the instance, account, plan, quota and the other stored instances",
		Long: `Show the instance in use and where its URL and token come from, the account
and plan of the token, its rate limit and its monthly quota (used / limit),
then the other instances with a stored token. vds whoami is the same command.`,
		Example: "  vds " + path + "\n  vds " + path + " --json",
	}))
}

func authStatusRun(ctx context.Context, f *Factory, _ *authStatusOptions) error {
	a, err := f.resolveAuth()
	if err != nil {
		return err
	}
	c, err := f.Client()
	if err != nil {
		return err
	}
	me, err := c.Me(ctx)
	st := authStatus{clientAuth: a, Me: me, Instances: []storedInstance{}}
	for _, u := range a.creds.URLs() {
		st.Instances = append(st.Instances, storedInstance{URL: u, Current: u == a.creds.Current})
	}
	return f.show(st, err, func() error { return printAuthStatus(f.IO, a, me) })
}

func printAuthStatus(s *IOStreams, a clientAuth, me *client.Me) error {
	tokenSource := a.TokenSource
	if tokenSource == sourceFile {
		tokenSource += " " + a.CredentialsPath
	}
	access := "API access"
	if !me.Plan.APIAccess {
		access = "no API access"
	}
	rate := "unlimited"
	if me.RateLimit.Limit != nil {
		rate = fmt.Sprintf("%d/min", *me.RateLimit.Limit)
		if me.RateLimit.Remaining != nil {
			rate += fmt.Sprintf(", %d left this minute", *me.RateLimit.Remaining)
		}
	}
	quota := fmt.Sprintf("%d used in %s, unlimited", me.Quota.Used, me.Quota.Period)
	if me.Quota.Limit != nil {
		quota = fmt.Sprintf("%d of %d used in %s, resets %s", me.Quota.Used, *me.Quota.Limit, me.Quota.Period, formatTime(me.Quota.Reset))
	}
	t := s.newTable()
	t.row("Instance", a.URL+" (from "+a.URLSource+")")
	t.row("Email", me.Account.Email)
	t.row("Account", me.Account.ID)
	t.row("Plan", me.Plan.Name+" ("+access+")")
	t.row("Token", me.Token.ID+" (from "+tokenSource+")")
	t.row("Scopes", strings.Join(me.Token.Scopes, ","))
	t.row("Rate limit", rate)
	t.row("Quota", quota)
	for _, u := range a.others() {
		if u == a.creds.Current {
			u += " (current)"
		}
		t.row("Also stored", u)
	}
	return t.flush()
}

type authSwitchOptions struct {
	URL string
}

func newAuthSwitchCmd(f *Factory, runF func(*authSwitchOptions) error) *cobra.Command {
	opts := &authSwitchOptions{}
	return &cobra.Command{
		Use:   "switch URL",
		Short: "Make a stored instance the current one",
		Long: `Make the instance at URL, which must have a token stored by vds login, the
current one: the client commands use it when neither --url nor VDS_URL
names another.`,
		Example: `  vds auth switch http://127.0.0.1:8080`,
		Args:    exactArgs("URL"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, s string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return completeStored(cmd, args, s)
		},
		RunE: runCmd(f, opts, runF, authSwitchRun, argsTo(&opts.URL)),
	}
}

func authSwitchRun(_ context.Context, f *Factory, opts *authSwitchOptions) error {
	path := credentialsPath()
	creds, err := credentials.Load(path)
	if err != nil {
		return err
	}
	u, err := credentials.NormalizeURL(opts.URL)
	if err != nil {
		return usageErrorf(err)
	}
	if err := creds.Switch(u); errors.Is(err, credentials.ErrNotStored) {
		msg := "no token stored for " + u + ": run vds login --url " + u + " first"
		if stored := creds.URLs(); len(stored) > 0 {
			msg += " (stored: " + strings.Join(stored, ", ") + ")"
		}
		return &codedError{code: ExitAuth, err: errors.New(msg)}
	} else if err != nil {
		return err
	}
	if err := credentials.Save(path, creds); err != nil {
		return err
	}
	noteEnvOverrides(f.IO, u)
	_, err = fmt.Fprintf(f.IO.Out, "Switched to %s\n", u)
	return err
}
