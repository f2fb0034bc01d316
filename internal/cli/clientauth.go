package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/buildinfo"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/credentials"
	"golang.org/x/term"
)

// defaultURL is the server the client commands talk to when nothing says
// otherwise: where `vds serve` listens by default.
const defaultURL = "http://127.0.0.1:8080"

// Where the URL and token in use came from, as vds whoami reports it.
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
	// StoredURL is the URL of the credentials file, when it holds one.
	StoredURL string `json:"-"`
}

// credentialsPath is where vds login keeps the URL and token.
func credentialsPath() string { return credentials.Path(config.ConfigDir()) }

// resolveAuth picks the URL and the token, each by the same precedence:
// the --url/--token flags, then VDS_URL/VDS_TOKEN, then the credentials
// file. The stored token is sent only to the stored URL: a token is a
// secret for one server, and pointing --url elsewhere must not leak it.
func (f *Factory) resolveAuth() (clientAuth, error) {
	a := clientAuth{CredentialsPath: credentialsPath()}
	creds, err := credentials.Load(a.CredentialsPath)
	if err != nil {
		return a, err
	}
	a.StoredURL = normalizeURL(creds.URL)
	switch {
	case strings.TrimSpace(f.flagURL) != "":
		a.URL, a.URLSource = f.flagURL, sourceFlag
	case os.Getenv("VDS_URL") != "":
		a.URL, a.URLSource = os.Getenv("VDS_URL"), sourceEnv
	case a.StoredURL != "":
		a.URL, a.URLSource = a.StoredURL, sourceFile
	default:
		a.URL, a.URLSource = defaultURL, sourceDefault
	}
	u, err := checkURL(a.URL)
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
	case creds.Token != "" && a.StoredURL == a.URL:
		a.Token, a.TokenSource = creds.Token, sourceFile
	}
	return a, nil
}

// checkURL accepts an http or https URL of a server root and returns it
// without a trailing slash.
func checkURL(raw string) (string, error) {
	s := normalizeURL(raw)
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("server URL %q: want http://HOST[:PORT] or https://HOST[:PORT]", raw)
	}
	return s, nil
}

func normalizeURL(s string) string {
	return strings.TrimRight(strings.TrimSpace(s), "/")
}

// errNotLoggedIn explains how to give the client commands a token.
func errNotLoggedIn(a clientAuth) error {
	msg := "not logged in to " + a.URL + ": run vds login, or set VDS_TOKEN or --token"
	if a.StoredURL != "" && a.StoredURL != a.URL {
		msg += " (the stored token is for " + a.StoredURL + ")"
	}
	return &codedError{code: ExitAuth, err: errors.New(msg)}
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
	f.apiClient = newAPIClient(a.URL, a.Token)
	return f.apiClient, nil
}

func newAPIClient(baseURL, token string) *client.Client {
	return client.New(baseURL, token, client.WithUserAgent("vds-cli/"+buildinfo.Get().Version))
}

// clientCmd gives a client command its --url and --token flags, and puts
// the server's refusals of query parameters in terms of its flags.
func clientCmd(f *Factory, cmd *cobra.Command) *cobra.Command {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error { return inFlagTerms(run(c, args), c) }
	}
	cmd.Flags().StringVar(&f.flagURL, "url", "", "server URL (env VDS_URL; default: the stored one, else "+defaultURL+")")
	cmd.Flags().StringVar(&f.flagToken, "token", "", "API token (env VDS_TOKEN; default: the one stored for the URL)")
	_ = cmd.RegisterFlagCompletionFunc("url", cobra.NoFileCompletions)
	_ = cmd.RegisterFlagCompletionFunc("token", cobra.NoFileCompletions)
	return cmd
}

// ----- login -----

type loginOptions struct {
	// Token is --token; empty means prompt (on a terminal) or read stdin.
	Token string
}

func newLoginCmd(f *Factory, runF func(*loginOptions) error) *cobra.Command {
	opts := &loginOptions{}
	return clientCmd(f, &cobra.Command{
		Use:   "login [--url URL]",
		Short: "Check a token against a server and store both for the client commands",
		Long: `Store a server URL and an API token in $XDG_CONFIG_HOME/vds/credentials
(mode 0600) for the client commands, after checking the token against the
server's /v1/me.

The token is read from a prompt without echo on a terminal, else from the
first line of stdin; --token gives it on the command line instead (where it
may land in the shell history). The URL is --url, else VDS_URL, else the one
already stored, else ` + defaultURL + `.`,
		Example: `  vds tokens create --email demo@vds.local --name laptop | vds login --url http://127.0.0.1:8080
  vds login --token "$(vds tokens create --email demo@vds.local --name ci)"`,
		Args: noArgs,
		RunE: runCmd(f, opts, runF, loginRun, func([]string) error { opts.Token = f.flagToken; return nil }),
	})
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
	me, err := newAPIClient(a.URL, token).Me(ctx)
	if err != nil {
		return loginRefused(a.URL, err)
	}
	if err := credentials.Save(a.CredentialsPath, credentials.Credentials{URL: a.URL, Token: token}); err != nil {
		return err
	}
	if os.Getenv("VDS_TOKEN") != "" {
		fmt.Fprintln(f.IO.ErrOut, "note: VDS_TOKEN is set and overrides the stored token until you unset it")
	}
	if f.JSON {
		return f.writeJSON(map[string]string{
			"url": a.URL, "email": me.Account.Email, "plan": me.Plan.Name, "credentials_path": a.CredentialsPath,
		})
	}
	_, err = fmt.Fprintf(f.IO.Out, "Logged in to %s as %s (%s plan)\n", a.URL, me.Account.Email, me.Plan.Name)
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

// readPassword reads a line from the terminal fd without echo. Ctrl-C does
// not end term.ReadPassword (vds catches SIGINT to cancel the context), so
// the read runs aside and a cancelled context restores the terminal's echo
// before returning: the process must never exit with echo off.
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
	opts := &logoutOptions{}
	return &cobra.Command{
		Use:   "logout",
		Short: "Remove the stored token (the stored URL stays)",
		Long: `Remove the token from $XDG_CONFIG_HOME/vds/credentials. The URL stays, so a
later vds login asks only for a token. The token itself stays valid on the
server: revoke it with vds tokens revoke (operator) if it leaked.`,
		Args: noArgs,
		RunE: runCmd(f, opts, runF, logoutRun),
	}
}

func logoutRun(_ context.Context, f *Factory, _ *logoutOptions) error {
	path := credentialsPath()
	creds, err := credentials.Load(path)
	if err != nil {
		return err
	}
	if creds.Token == "" {
		_, err = fmt.Fprintf(f.IO.Out, "Not logged in: no token in %s\n", path)
		return err
	}
	creds.Token = ""
	if err := credentials.Save(path, creds); err != nil {
		return err
	}
	if os.Getenv("VDS_TOKEN") != "" {
		fmt.Fprintln(f.IO.ErrOut, "note: VDS_TOKEN is still set and still used")
	}
	_, err = fmt.Fprintf(f.IO.Out, "Logged out: removed the token from %s (kept the URL %s)\n", path, creds.URL)
	return err
}

// ----- whoami -----

// whoami is the --json output of vds whoami: /v1/me plus where the URL and
// token came from.
type whoami struct {
	clientAuth
	*client.Me
}

type whoamiOptions struct{}

func newWhoamiCmd(f *Factory, runF func(*whoamiOptions) error) *cobra.Command {
	opts := &whoamiOptions{}
	return clientCmd(f, &cobra.Command{
		Use:   "whoami",
		Short: "Show the account, plan, usage and where the URL and token come from",
		Args:  noArgs,
		RunE:  runCmd(f, opts, runF, whoamiRun),
	})
}

func whoamiRun(ctx context.Context, f *Factory, _ *whoamiOptions) error {
	a, err := f.resolveAuth()
	if err != nil {
		return err
	}
	c, err := f.Client()
	if err != nil {
		return err
	}
	me, err := c.Me(ctx)
	return f.show(whoami{clientAuth: a, Me: me}, err, func() error { return printWhoami(f.IO, a, me) })
}

func printWhoami(s *IOStreams, a clientAuth, me *client.Me) error {
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
	t.row("Email", me.Account.Email)
	t.row("Account", me.Account.ID)
	t.row("Plan", me.Plan.Name+" ("+access+")")
	t.row("URL", a.URL+" (from "+a.URLSource+")")
	t.row("Token", me.Token.ID+" (from "+tokenSource+")")
	t.row("Scopes", strings.Join(me.Token.Scopes, ","))
	t.row("Rate limit", rate)
	t.row("Quota", quota)
	return t.flush()
}
