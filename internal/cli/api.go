package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/textfmt"
)

type apiOptions struct {
	// Path is below /v1, with its query: "/v1/cars?make=Toyota".
	Path     string
	Paginate bool
	Include  bool
}

func newAPICmd(f *Factory, runF func(*apiOptions) error) *cobra.Command {
	opts := &apiOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "api PATH",
		Short: "GET any API path with your token and print the answer",
		Long: `GET an API path on the server the client commands use (--url, VDS_URL or
the stored one), with the same token, and print the body as the server
sent it (indented on a terminal).

PATH is below /v1, with or without the /v1 and the leading slash: "cars",
"/cars" and "/v1/cars" are the same request. Query parameters go in PATH;
quote it for the shell. Every API path is under /v1 (docs/api.md).

A charged path costs one call (GET /v1/me and /v1/me/requests are free).
--paginate follows the Link header's rel="next" to the last reachable page
and prints one JSON array joining the pages' data arrays: it costs one
call per page, up to 40. --jq EXPR (-q)
filters the output with a jq expression: strings print as plain text,
other values as one line of JSON each. -i prints the status line and the
headers first. An error answer exits as the other client commands do (3
not found, 4 not authenticated, 2 refused as invalid...); -i prints its
problem document too.`,
		Example: `  vds api me --jq .data.plan.name
  vds api 'cars?make=Toyota&year=2022' --jq '.data[].model'
  vds api '/v1/cars?make=Toyota' --paginate --jq length
  vds api -i /cars/makes`,
		Args:              exactArgs("PATH"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: runCmd(f, opts, runF, apiRun, func(args []string) (err error) {
			opts.Path, err = apiPath(args[0])
			return err
		}),
	})
	fl := cmd.Flags()
	fl.BoolVar(&opts.Paginate, "paginate", false, "follow the Link rel=\"next\" pages and print their data arrays joined in one array (one call per page)")
	fl.BoolVarP(&opts.Include, "include", "i", false, "print the status line and the response headers before the body")
	// The global --jq, with gh api's -q as well.
	fl.StringVarP(&f.jqExpr, "jq", "q", "", "filter the output with a jq expression")
	return cmd
}

// apiPath puts a PATH argument below /v1: "cars", "/cars" and "/v1/cars"
// are all /v1/cars. A URL is refused: the server is --url's.
func apiPath(arg string) (string, error) {
	s := strings.TrimSpace(arg)
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "" || u.Host != "" || s == "" {
		return "", usageErrorf(fmt.Errorf("PATH %q: give an API path such as /cars?make=Toyota; the server is --url's", arg))
	}
	s = "/" + strings.TrimLeft(s, "/")
	if s != apiPrefix && !strings.HasPrefix(s, apiPrefix+"/") && !strings.HasPrefix(s, apiPrefix+"?") {
		s = apiPrefix + s
	}
	return s, nil
}

const apiPrefix = "/v1"

func apiRun(ctx context.Context, f *Factory, opts *apiOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	if !opts.Paginate {
		body, info, err := c.Get(ctx, opts.Path)
		if opts.Include {
			if herr := printHead(f.IO, info); herr != nil {
				return herr
			}
			if err != nil {
				return errors.Join(writeBody(f.IO, body), err)
			}
		}
		if err != nil {
			return err
		}
		return f.printBody(body)
	}
	joined, err := paginate(ctx, f.IO, c, opts)
	if err != nil {
		return err
	}
	return f.printBody(joined)
}

// paginate GETs opts.Path and every rel="next" page after it, on the
// client's server (the Link origin is the public URL, which may differ),
// and joins their data arrays.
func paginate(ctx context.Context, s *IOStreams, c *client.Client, opts *apiOptions) ([]byte, error) {
	all := []json.RawMessage{}
	seen := map[string]bool{}
	for path := opts.Path; path != "" && !seen[path]; {
		seen[path] = true
		body, info, err := c.Get(ctx, path)
		if opts.Include {
			if herr := printHead(s, info); herr != nil {
				return nil, herr
			}
			if err != nil {
				return nil, errors.Join(writeBody(s, body), err)
			}
		}
		if err != nil {
			return nil, err
		}
		var page struct {
			Data json.RawMessage `json:"data"`
		}
		var items []json.RawMessage
		if json.Unmarshal(body, &page) != nil || json.Unmarshal(page.Data, &items) != nil || items == nil {
			return nil, usageErrorf(fmt.Errorf("--paginate: %s is not a list: its answer has no data array", path))
		}
		all = append(all, items...)
		path = ""
		if next, err := url.Parse(client.LinkTarget(info.Header, "next")); err == nil && next.Path != "" {
			path = next.RequestURI()
		}
	}
	return json.Marshal(all)
}

// printHead prints the status line and the headers, sorted, then a blank
// line, as curl -i does.
func printHead(s *IOStreams, info client.ResponseInfo) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d %s\n", info.Proto, info.StatusCode, http.StatusText(info.StatusCode))
	names := make([]string, 0, len(info.Header))
	for name := range info.Header {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range info.Header[name] {
			fmt.Fprintf(&b, "%s: %s\n", textfmt.Printable(name), textfmt.Printable(v))
		}
	}
	b.WriteString("\n")
	_, err := fmt.Fprint(s.Out, b.String())
	return err
}

// printBody prints an answer: through --jq, else indented on a terminal,
// else as sent.
func (f *Factory) printBody(body []byte) error {
	if f.jq != nil {
		return runJQ(f.jq, body, f.IO.Out)
	}
	if f.IO.OutTTY && json.Valid(body) {
		var buf bytes.Buffer
		if err := json.Indent(&buf, body, "", "  "); err == nil {
			body = buf.Bytes()
		}
	}
	return writeBody(f.IO, body)
}

// writeBody prints an answer escaped for a terminal: JSON by textfmt.JSON,
// which keeps it valid, other text by textfmt.PrintableLines.
func writeBody(s *IOStreams, body []byte) error {
	if json.Valid(body) {
		body = textfmt.JSON(body)
	} else {
		body = []byte(textfmt.PrintableLines(string(body)))
	}
	if len(body) > 0 && !bytes.HasSuffix(body, []byte("\n")) {
		body = append(body, '\n')
	}
	_, err := s.Out.Write(body)
	return err
}
