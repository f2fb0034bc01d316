package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/webhooks"
)

func newWebhooksCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{
		Use:   "webhooks",
		Short: "Manage accounts' webhook endpoints (operator, on the database)",
		Long: `Create, list, test, rotate, enable and delete the endpoints an account's
signed events are POSTed to, and read their delivery log. The signing secret
is printed once, when the endpoint is created or its secret rotated. vds
serve delivers the events; docs/api.md, Webhooks, tells how to verify them.`,
	}, newWebhooksCreateCmd(f), newWebhooksListCmd(f), newWebhooksDeliveriesCmd(f), newWebhooksTestCmd(f),
		newWebhooksRotateCmd(f), newWebhooksEnableCmd(f), newWebhooksDeleteCmd(f))
}

// Webhooks returns the webhook service on the configured database.
func (f *Factory) Webhooks(ctx context.Context) (*webhooks.Service, error) {
	st, err := f.database(ctx)
	if err != nil {
		return nil, err
	}
	w := f.cfg.Webhooks
	return webhooks.New(st, webhooks.Options{RetryInitial: w.RetryInitial, Timeout: w.Timeout, AllowPrivate: w.AllowPrivate}, nil), nil
}

// printEndpointSecret shows a new signing secret, the only time it is shown.
func printEndpointSecret(f *Factory, c webhooks.Created) error {
	return printOnce(f, c, c.Secret, "endpoint id "+c.ID, "Endpoint "+c.ID+" ("+c.URL+").")
}

// accountWebhooks is Webhooks with the account --email names.
func (f *Factory) accountWebhooks(ctx context.Context, email string) (*webhooks.Service, string, error) {
	_, a, err := f.flagAccount(ctx, email)
	if err != nil {
		return nil, "", err
	}
	svc, err := f.Webhooks(ctx)
	return svc, a.ID, err
}

type webhooksCreateOptions struct {
	Email, URL string
	Events     []string
}

func newWebhooksCreateCmd(f *Factory) *cobra.Command {
	opts := &webhooksCreateOptions{}
	cmd := noArgsCmd(f, opts, nil, webhooksCreateRun, &cobra.Command{
		Use:     "create --email EMAIL --url URL [--events recall.new]",
		Short:   "Create an endpoint and print its signing secret once",
		Example: "  VDS_WEBHOOKS_ALLOW_PRIVATE=true vds webhooks create --email demo@vds.local --url http://127.0.0.1:9000/hooks/vds --json",
	})
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	cmd.Flags().StringVar(&opts.URL, "url", "", "the http(s) URL events are POSTed to (required)")
	cmd.Flags().StringSliceVar(&opts.Events, "events", []string{webhooks.RecallNew}, "event types to send: "+strings.Join(webhooks.Types, ", "))
	return cmd
}

func webhooksCreateRun(ctx context.Context, f *Factory, opts *webhooksCreateOptions) error {
	if err := requireFlag("url", opts.URL); err != nil {
		return err
	}
	svc, acc, err := f.accountWebhooks(ctx, opts.Email)
	if err != nil {
		return err
	}
	c, err := svc.Create(ctx, acc, opts.URL, opts.Events)
	if err != nil {
		return err
	}
	return printEndpointSecret(f, c)
}

type webhooksListOptions struct{ Email string }

func newWebhooksListCmd(f *Factory) *cobra.Command {
	opts := &webhooksListOptions{}
	cmd := noArgsCmd(f, opts, nil, webhooksListRun, &cobra.Command{
		Use:   "list --email EMAIL",
		Short: "List an account's endpoints (never their secrets)",
	})
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	return cmd
}

func webhooksListRun(ctx context.Context, f *Factory, opts *webhooksListOptions) error {
	svc, acc, err := f.accountWebhooks(ctx, opts.Email)
	if err != nil {
		return err
	}
	list, err := svc.Endpoints(ctx, acc)
	if list == nil {
		list = []webhooks.Endpoint{} // JSON [], not null
	}
	return f.show(list, err, func() error {
		t := f.IO.newTable("ID", "URL", "EVENTS", "CREATED", "STATUS")
		for _, e := range list {
			t.row(e.ID, e.URL, strings.Join(e.Events, ","), e.CreatedAt.Format(time.RFC3339), endpointStatus(e))
		}
		return t.flush()
	})
}

func endpointStatus(e webhooks.Endpoint) string {
	switch {
	case !e.Enabled && e.DisabledAt != nil:
		return "disabled " + e.DisabledAt.Format(time.RFC3339) + " after 3 days of failures"
	case e.FailingSince != nil:
		return "failing since " + e.FailingSince.Format(time.RFC3339)
	}
	return "enabled"
}

type webhooksIDOptions struct {
	ID    string
	Limit int
}

func newWebhooksDeliveriesCmd(f *Factory) *cobra.Command {
	opts := &webhooksIDOptions{}
	cmd := &cobra.Command{
		Use:   "deliveries ID [--limit N]",
		Short: "Show an endpoint's delivery log, newest first",
		Args:  exactArgs("ID"),
		RunE:  runCmd(f, opts, nil, webhooksDeliveriesRun, argsTo(&opts.ID)),
	}
	cmd.Flags().IntVar(&opts.Limit, "limit", 50, "how many attempts to show (1 to 1000)")
	return cmd
}

func webhooksDeliveriesRun(ctx context.Context, f *Factory, opts *webhooksIDOptions) error {
	if opts.Limit < 1 || opts.Limit > webhooks.LogSize {
		return usageErrorf(fmt.Errorf("--limit: %d is not between 1 and %d", opts.Limit, webhooks.LogSize))
	}
	svc, err := f.Webhooks(ctx)
	if err != nil {
		return err
	}
	log, err := svc.Deliveries(ctx, "", opts.ID, opts.Limit)
	if log == nil {
		log = []webhooks.Attempt{}
	}
	return f.show(log, err, func() error {
		t := f.IO.newTable("TIME", "EVENT", "TYPE", "ATTEMPT", "STATUS", "DURATION", "ERROR")
		for _, a := range log {
			status := "-"
			if a.Status > 0 {
				status = strconv.Itoa(a.Status)
			}
			t.row(a.At.Format(time.RFC3339), a.EventID, a.EventType, strconv.Itoa(a.Attempt), status,
				a.Duration.Round(time.Millisecond).String(), dash(a.Error))
		}
		return t.flush()
	})
}

func newWebhooksTestCmd(f *Factory) *cobra.Command {
	opts := &webhooksIDOptions{}
	return &cobra.Command{
		Use:   "test ID",
		Short: "Queue a webhook.test event for the endpoint; vds serve sends it",
		Args:  exactArgs("ID"),
		RunE:  runCmd(f, opts, nil, webhooksTestRun, argsTo(&opts.ID)),
	}
}

func webhooksTestRun(ctx context.Context, f *Factory, opts *webhooksIDOptions) error {
	svc, err := f.Webhooks(ctx)
	if err != nil {
		return err
	}
	ev, err := svc.SendTest(ctx, "", opts.ID)
	if err != nil {
		return err
	}
	if f.JSON {
		return f.writeJSON(ev)
	}
	_, err = fmt.Fprintf(f.IO.Out, "queued test event %s for %s; vds serve delivers it (see vds webhooks deliveries %s)\n", ev.ID, opts.ID, opts.ID)
	return err
}

type webhooksRotateOptions struct {
	ID, Grace string
}

func newWebhooksRotateCmd(f *Factory) *cobra.Command {
	opts := &webhooksRotateOptions{}
	cmd := &cobra.Command{
		Use:   "rotate ID [--grace none|1h|24h]",
		Short: "Give the endpoint a new signing secret, printed once",
		Long: `Give the endpoint a new signing secret and print it once. With --grace 1h or
24h, deliveries also carry a signature with the old secret that long, so the
receiver can move to the new one without refusing any.`,
		Args: exactArgs("ID"),
		RunE: runCmd(f, opts, nil, func(ctx context.Context, f *Factory, opts *webhooksRotateOptions) error {
			grace, err := access.ParseGrace(opts.Grace)
			if err != nil {
				return usageErrorf(fmt.Errorf("--grace: %w", err))
			}
			svc, err := f.Webhooks(ctx)
			if err != nil {
				return err
			}
			c, err := svc.Rotate(ctx, "", opts.ID, grace)
			if err != nil {
				return err
			}
			return printEndpointSecret(f, c)
		}, argsTo(&opts.ID)),
	}
	cmd.Flags().StringVar(&opts.Grace, "grace", "none", "how long the old secret also signs: none, 1h or 24h")
	return cmd
}

// newWebhooksActionCmd is a command that does one thing to endpoint ID and says so.
func newWebhooksActionCmd(f *Factory, use, short, done string, do func(*webhooks.Service, context.Context, string, string) error) *cobra.Command {
	opts := &webhooksIDOptions{}
	return &cobra.Command{
		Use:   use + " ID",
		Short: short,
		Args:  exactArgs("ID"),
		RunE: runCmd(f, opts, nil, func(ctx context.Context, f *Factory, opts *webhooksIDOptions) error {
			svc, err := f.Webhooks(ctx)
			if err != nil {
				return err
			}
			if err := do(svc, ctx, "", opts.ID); err != nil {
				return err
			}
			if f.JSON {
				return f.writeJSON(map[string]string{"id": opts.ID, "result": done})
			}
			_, err = fmt.Fprintf(f.IO.Out, "%s endpoint %s\n", done, opts.ID)
			return err
		}, argsTo(&opts.ID)),
	}
}

func newWebhooksEnableCmd(f *Factory) *cobra.Command {
	return newWebhooksActionCmd(f, "enable", "Turn an endpoint back on after failures turned it off", "enabled", (*webhooks.Service).Enable)
}

func newWebhooksDeleteCmd(f *Factory) *cobra.Command {
	return newWebhooksActionCmd(f, "delete", "Delete an endpoint, its pending deliveries and its log", "deleted", (*webhooks.Service).Delete)
}
