package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/store"
)

// Exit codes, documented in `vds --help`.
const (
	ExitOK          = 0
	ExitError       = 1
	ExitUsage       = 2
	ExitNotFound    = 3
	ExitAuth        = 4
	ExitRateLimited = 5
	ExitServer      = 6
	ExitInterrupt   = 130
)

const exitCodesHelp = `Exit codes:
  0    success
  1    error (invalid input data, database failure, a VIN nobody can decode)
  2    usage error (unknown command or flag, bad argument, a missing input
       file, or a request the server refused as invalid: bad parameter,
       query too broad, bad VIN)
  3    not found (account, token or record)
  4    not authenticated or not allowed (no token, bad or revoked token,
       suspended account, plan without API access)
  5    rate limited or monthly quota exceeded
  6    server or network error (5xx, NHTSA unavailable, server unreachable)
  130  interrupted`

// FlagError is a usage mistake; it exits with ExitUsage.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

func usageErrorf(err error) error { return &FlagError{Err: err} }

// codedError is an error the command has already classified, for the cases
// no sentinel or API status says it (no stored token, a uuid that is
// neither a car nor a fitment).
type codedError struct {
	code int
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

func exitCode(err error) int {
	var (
		fe      *FlagError
		ce      *codedError
		apiErr  *client.APIError
		pathErr *fs.PathError
	)
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, context.Canceled):
		return ExitInterrupt
	case errors.As(err, &ce):
		return ce.code
	case errors.As(err, &fe), strings.HasPrefix(err.Error(), "unknown command"):
		return ExitUsage
	case errors.Is(err, store.ErrNotFound):
		return ExitNotFound
	case errors.As(err, &apiErr):
		return apiExitCode(apiErr)
	case errors.Is(err, client.ErrInvalidUUID), errors.Is(err, client.ErrInvalidVIN):
		return ExitUsage
	case errors.As(err, &pathErr):
		// Before isNetworkError: the syscall.Errno inside is a net.Error.
		if errors.Is(pathErr, fs.ErrNotExist) {
			return ExitUsage
		}
		return ExitError
	case isNetworkError(err):
		return ExitServer
	}
	return ExitError
}

// apiExitCode classifies an API answer by status: a 400 refuses what the
// user typed, a usage error; a 422 cannot be fixed by retyping.
func apiExitCode(e *client.APIError) int {
	switch {
	case e.Status == http.StatusBadRequest:
		return ExitUsage
	case e.Status == http.StatusNotFound:
		return ExitNotFound
	case e.Status == http.StatusUnauthorized, e.Status == http.StatusForbidden:
		return ExitAuth
	case e.Status == http.StatusTooManyRequests:
		return ExitRateLimited
	case e.Status >= 500:
		return ExitServer
	}
	return ExitError
}

// isNetworkError reports a transport failure: no answer from the server.
func isNetworkError(err error) bool {
	var (
		ue *url.Error
		ne net.Error
	)
	return errors.As(err, &ue) || errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded)
}

// inFlagTerms rewrites the server's refusal of query parameters in the
// command line's terms: fuel_type becomes --fuel-type.
func inFlagTerms(err error, cmd *cobra.Command) error {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest || !slices.Contains(paramCodes, apiErr.Code) {
		return err
	}
	e := *apiErr
	e.Detail = flagWords(e.Detail, cmd)
	return &e
}

// paramCodes are the problems that name query parameters.
var paramCodes = []string{client.CodeInvalidParameter, client.CodeUnknownParameter, client.CodeMissingParameter, client.CodeQueryTooBroad}

// paramWord is a lowercase word, such as a parameter name.
var paramWord = regexp.MustCompile(`\b[a-z][a-z0-9_]*\b`)

func flagWords(s string, cmd *cobra.Command) string {
	var b strings.Builder
	last := 0
	for _, m := range paramWord.FindAllStringIndex(s, -1) {
		w := s[m[0]:m[1]]
		flag := cmd.Flags().Lookup(strings.ReplaceAll(w, "_", "-"))
		if flag == nil || !namesParam(s[:m[0]], w, s[m[1]:]) {
			continue
		}
		b.WriteString(s[last:m[0]] + "--" + flag.Name)
		last = m[1]
		// ev_only=1 is the flag alone: --ev-only.
		if flag.Value.Type() == "bool" && strings.HasPrefix(s[last:], "=1") {
			last += len("=1")
		}
	}
	return b.String() + s[last:]
}

// namesParam tells a parameter's name from the same word in prose ("model
// year") by the server's sentence patterns.
func namesParam(before, w, after string) bool {
	if strings.Contains(w, "_") || strings.HasPrefix(after, "=") || strings.HasPrefix(after, ` "`) || strings.HasSuffix(before, "value of ") {
		return true
	}
	listed := strings.HasSuffix(before, "by ") || strings.HasSuffix(before, ", ") || strings.HasSuffix(before, "(") || strings.HasSuffix(before, "give ")
	return listed && (strings.HasPrefix(after, ",") || strings.HasPrefix(after, " or ") || strings.HasPrefix(after, ")"))
}

// loginRefused says a token the server did not know in the terms of vds
// login: which server refused it and where to create one.
func loginRefused(serverURL string, err error) error {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusUnauthorized {
		return err
	}
	msg := fmt.Sprintf("that token was refused by %s; create one in the dashboard at %s/dashboard/tokens", serverURL, serverURL)
	if apiErr.RequestID != "" {
		msg += " (request id " + apiErr.RequestID + ")"
	}
	return &codedError{code: ExitAuth, err: errors.New(msg)}
}

// errorMessage is what Main prints after "vds: ". API errors show the
// server's explanation, a next step and the request id to quote, not the
// status line the SDK's Error() leads with.
func errorMessage(err error) string {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) {
		return apiMessage(apiErr)
	}
	var ue *url.Error
	var untrusted *tls.CertificateVerificationError
	if errors.As(err, &ue) && errors.As(err, &untrusted) {
		return fmt.Sprintf("cannot trust the server: %s %s: %v (if a private CA signed its certificate, give the CA with --ca-file or client.ca_file)", strings.ToUpper(ue.Op), ue.URL, ue.Err)
	}
	if errors.As(err, &ue) && !errors.Is(err, context.Canceled) {
		return fmt.Sprintf("cannot reach the server: %s %s: %v (is vds serve running there?)", strings.ToUpper(ue.Op), ue.URL, ue.Err)
	}
	// The SDK prefixes its own errors with "vds: ", as Main does.
	return strings.TrimPrefix(err.Error(), "vds: ")
}

func apiMessage(e *client.APIError) string {
	if e.Code == "" {
		// No problem document: a proxy, or not a vds server at all.
		return fmt.Sprintf("HTTP %d from %s: is this a vds server?", e.Status, e.URL)
	}
	msg := e.Detail
	switch {
	case msg == "":
		msg = fmt.Sprintf("%d %s", e.Status, e.Title)
	case e.Status == http.StatusUnauthorized:
		msg = strings.ToLower(msg[:1]) + strings.TrimSuffix(msg[1:], ".") +
			"; run vds login with a working token (vds auth status shows the one in use)"
	}
	// The server's limit details already say when to retry.
	if e.Status == http.StatusTooManyRequests && e.Detail == "" && e.RetryAfter > 0 {
		msg += fmt.Sprintf("; retry after %s", e.RetryAfter)
	}
	if e.RequestID != "" {
		msg += " (request id " + e.RequestID + ")"
	}
	return msg
}
