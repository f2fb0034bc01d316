package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/requestlog"
)

// followEvery is how often vds logs --follow asks for new lines.
const followEvery = 2 * time.Second

type logsOptions struct {
	Follow    bool
	Status    string
	RequestID string
	Limit     int
}

func newLogsCmd(f *Factory, runF func(*logsOptions) error) *cobra.Command {
	opts := &logsOptions{}
	cmd := clientCmd(f, noArgsCmd(f, opts, runF, logsRun, &cobra.Command{
		Use:   "logs [--follow] [--status 4xx] [--request-id ID]",
		Short: "Show your account's newest API and MCP requests",
		Long: `Show the request log of your account: its newest authenticated requests to
the REST API and the MCP server (the server keeps the last 1,000), oldest
first like a log file: time, channel (rest or mcp), route or tool, status,
duration, request id and token prefix.

An error names its request id ("(request id ...)"): --request-id finds that
request. --follow keeps printing new requests until interrupted. --json
prints the lines as the API's data, newest first; with --follow, one JSON
object a line.`,
		Example: `  vds logs
  vds logs --status 4xx
  vds logs --request-id 5f0c2a9e41d8b7c3e6a1f024
  vds logs --status 5xx --limit 20`,
	}))
	cmd.Flags().BoolVarP(&opts.Follow, "follow", "f", false, "keep printing new requests until interrupted")
	cmd.Flags().StringVar(&opts.Status, "status", "", "only this status (404) or class (4xx)")
	cmd.Flags().StringVar(&opts.RequestID, "request-id", "", "only the request with this id")
	cmd.Flags().IntVar(&opts.Limit, "limit", 50, "how many of the newest requests to show (1 to 100)")
	return cmd
}

func logsRun(ctx context.Context, f *Factory, opts *logsOptions) error {
	if opts.Limit < 1 || opts.Limit > 100 {
		return usageErrorf(fmt.Errorf("--limit must be from 1 to 100, not %d", opts.Limit))
	}
	if _, _, ok := requestlog.StatusRange(opts.Status); !ok {
		return usageErrorf(fmt.Errorf("--status %q is not a status: give one such as 404, or a class such as 4xx", opts.Status))
	}
	c, err := f.Client()
	if err != nil {
		return err
	}
	q := client.RequestQuery{Status: opts.Status, RequestID: opts.RequestID, PerPage: opts.Limit}
	page, err := c.Requests(ctx, q)
	if err != nil {
		return err
	}
	if !opts.Follow {
		return f.show(page.Data, nil, func() error { return printRequests(f, page.Data) })
	}
	seen := map[string]bool{}
	var printed []client.RequestLine
	for {
		var fresh []client.RequestLine
		for _, l := range page.Data {
			if k := l.At.Format(time.RFC3339Nano) + " " + l.RequestID; !seen[k] {
				seen[k] = true
				fresh = append(fresh, l)
			}
		}
		if err := printFollowed(f, fresh); err != nil {
			return err
		}
		// Remember only what the next page can still hold.
		printed = append(printed, fresh...)
		if len(printed) > 2*opts.Limit {
			for _, l := range printed[:len(printed)-2*opts.Limit] {
				delete(seen, l.At.Format(time.RFC3339Nano)+" "+l.RequestID)
			}
			printed = slices.Clone(printed[len(printed)-2*opts.Limit:])
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(followEvery):
		}
		if page, err = c.Requests(ctx, q); err != nil {
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		}
	}
}

// printFollowed prints new lines (newest first, as the API gives them) in
// the order they happened; --json prints one object a line.
func printFollowed(f *Factory, newestFirst []client.RequestLine) error {
	if !f.JSON {
		return printRequests(f, newestFirst)
	}
	for _, l := range slices.Backward(newestFirst) {
		b, err := json.Marshal(l)
		if err != nil {
			return err
		}
		if err := f.IO.writeJSONText(b); err != nil {
			return err
		}
	}
	return nil
}

func printRequests(f *Factory, newestFirst []client.RequestLine) error {
	if len(newestFirst) == 0 {
		return nil
	}
	t := f.IO.newTable("TIME", "CHANNEL", "OPERATION", "STATUS", "DURATION", "REQUEST ID", "TOKEN", "QUERY", "PROBLEM")
	for _, l := range slices.Backward(newestFirst) {
		problem := l.Code
		if l.Detail != "" {
			problem += ": " + l.Detail
		}
		t.row(formatTime(l.At), l.Channel, l.Operation, strconv.Itoa(l.Status),
			strconv.FormatFloat(l.DurationMS, 'f', 1, 64)+" ms", l.RequestID, l.TokenPrefix+"...", dashIfEmpty(l.Query), dashIfEmpty(problem))
	}
	return t.flush()
}
