package mcptools

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lookup"
)

// Charger takes a quota unit for a tools/call, without counting the rate
// window again (Handler did); only the first commit counts. Ready refuses
// a spent quota, taking no unit.
type Charger interface {
	Charge(ctx context.Context, accountID string, plan account.Plan, channel string) (commit func(success bool), state limits.State, err error)
	Ready(ctx context.Context, accountID string, plan account.Plan) error
}

// guard is the tool middleware: it charges, checks the output schema
// before settling, and logs internal failures instead of answering them.
type guard struct {
	tools   map[string]*Tool
	charger Charger
	calls   CallObserver
	log     *slog.Logger
	now     func() time.Time
}

// CallObserver counts tools/call by tool and outcome.
type CallObserver interface {
	ToolCall(tool, outcome string)
}

func callOutcome(res *mcp.CallToolResult, err error, refusal string) string {
	switch {
	case refusal != "":
		return refusal
	case err != nil || res == nil:
		return "failed"
	case res.IsError:
		return "error"
	}
	return "ok"
}

func (g *guard) middleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		t, ok := g.tools[req.Params.Name]
		if !ok {
			return next(ctx, req)
		}
		var refusal string
		if g.calls != nil {
			// Deferred first, so it runs last and sees the final answer.
			defer func() { g.calls.ToolCall(t.Def.Name, callOutcome(res, err, refusal)) }()
		}
		log := g.log.With("tool", t.Def.Name, "request_id", edge.RequestID(ctx))
		commit := func(bool) {}
		if t.PerItem {
			m, err := g.itemMeter(ctx, log)
			if err != nil {
				return nil, err
			}
			ctx = context.WithValue(ctx, meterKey{}, m)
		} else if t.Charged {
			var refused *mcp.CallToolResult
			if commit, refused, refusal, err = g.charge(ctx, log); refused != nil || err != nil {
				return refused, err
			}
		}
		settled := false
		defer func() {
			if v := recover(); v != nil {
				log.Error("tool panicked", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				res, err = nil, internalError(ctx)
			}
			if !settled {
				commit(false)
			}
		}()
		res, err = next(ctx, req)
		switch {
		case err != nil:
			log.Error("tool failed", "err", err)
			res, err = nil, internalError(ctx)
		case res == nil:
			log.Error("tool returned no result")
			err = internalError(ctx)
		case !res.IsError:
			// mcp-go's own output check runs after the charge is settled.
			if verr := t.check.checkOutput(res.StructuredContent); verr != nil {
				log.Error("structured content does not match the output schema", "err", verr)
				res, err = nil, internalError(ctx)
			}
		}
		settled = true
		commit(err == nil && !res.IsError)
		return res, err
	}
}

// charge takes a call's quota unit, or returns the refusal result and its
// code, or the error.
func (g *guard) charge(ctx context.Context, log *slog.Logger) (func(bool), *mcp.CallToolResult, string, error) {
	m, err := g.itemMeter(ctx, log)
	if err != nil {
		return nil, nil, "", err
	}
	commit, err := m.meter.Charge(ctx)
	if err != nil {
		var refusal *limits.Refusal
		reason := ""
		if errors.As(err, &refusal) {
			reason = refusal.Reason
		}
		res, err := m.failed(err)
		return nil, res, reason, err
	}
	return commit, nil, "", nil
}

// itemMeter charges the caller's quota one unit at a time: once for a
// charged tool's call (charge), once per item for a PerItem tool's handler.
type itemMeter struct {
	meter *lookup.Meter
	// failed turns the meter's error into the tool's answer.
	failed func(error) (*mcp.CallToolResult, error)
}

var errUsageUnavailable = errors.New("service_unavailable: the usage database is unavailable, so the call could not be counted; it was not charged: retry shortly")

func (g *guard) itemMeter(ctx context.Context, log *slog.Logger) (*itemMeter, error) {
	p, err := principal(ctx)
	if err != nil {
		log.Error("charge", "err", err)
		return nil, internalError(ctx)
	}
	if g.charger == nil {
		log.Error("charge", "err", "mcptools: NewServer was given no Charger")
		return nil, internalError(ctx)
	}
	usage := func(err error) error {
		var refusal *limits.Refusal
		if err != nil && !errors.As(err, &refusal) {
			log.Error("charge", "err", err)
			return errUsageUnavailable
		}
		return err
	}
	return &itemMeter{
		meter: &lookup.Meter{
			Ready: func(ctx context.Context) error { return usage(g.charger.Ready(ctx, p.Account.ID, p.Plan)) },
			Charge: func(ctx context.Context) (func(bool), error) {
				commit, _, err := g.charger.Charge(ctx, p.Account.ID, p.Plan, limits.ChannelMCP)
				return commit, usage(err)
			},
		},
		failed: func(err error) (*mcp.CallToolResult, error) {
			var refusal *limits.Refusal
			switch {
			case errors.As(err, &refusal):
				return refusalResult(refusal, p.Plan, g.clock()), nil
			case errors.Is(err, errUsageUnavailable):
				return mcp.NewToolResultError(err.Error()), nil
			}
			return nil, err
		},
	}, nil
}

type meterKey struct{}

// meterFrom returns the meter guard gave a PerItem tool's call.
func meterFrom(ctx context.Context) *itemMeter {
	m, _ := ctx.Value(meterKey{}).(*itemMeter)
	if m == nil {
		// Only a handler called outside guard gets here, as in unit tests
		// of the tools: nothing to charge.
		return &itemMeter{failed: func(err error) (*mcp.CallToolResult, error) { return nil, err }}
	}
	return m
}

func (g *guard) clock() time.Time {
	if g.now != nil {
		return g.now()
	}
	return time.Now()
}

func refusalResult(r *limits.Refusal, plan account.Plan, now time.Time) *mcp.CallToolResult {
	if r.Reason == limits.CodeQuotaExceeded {
		reset := r.State.QuotaReset.UTC()
		return mcp.NewToolResultError(fmt.Sprintf(
			"quota_exceeded: the monthly quota of %d calls of the %s plan is used up (REST and tool calls count together); "+
				"it resets at %s (%s, in %s). This call was not charged. Tell the user; account_usage still works, "+
				"and a plan with a larger quota lifts the limit now.",
			r.State.QuotaLimit, plan.Name, reset.Format(time.RFC3339), reset.Format("Monday 2 January 2006 15:04 MST"),
			roughDuration(reset.Sub(now))))
	}
	return mcp.NewToolResultError(fmt.Sprintf(
		"rate_limited: the rate limit of %d requests per minute is exceeded; retry in %d s. This call was not charged.",
		r.State.RateLimit, limits.RetryAfterSeconds(r.RetryAfter)))
}

// roughDuration says how long until a reset in the unit a person would use.
func roughDuration(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	case d >= 2*time.Hour:
		return fmt.Sprintf("%d hours", int(d.Hours()))
	case d >= 2*time.Minute:
		return fmt.Sprintf("%d minutes", int(d.Minutes()))
	}
	return fmt.Sprintf("%d seconds", max(1, limits.RetryAfterSeconds(d)))
}

// internalError hides the cause (logged) but gives the request id.
func internalError(ctx context.Context) error {
	msg := "the server failed to answer this call; it was not charged: retry, and report it if it persists"
	if id := edge.RequestID(ctx); id != "" {
		msg += " (request id " + id + ")"
	}
	return errors.New(msg)
}

const validationPrefix = "input schema validation failed"

// explainInvalidArguments rewords mcp-go's input-validation result, which
// it returns before any middleware runs, into one a model can act on.
func (g *guard) explainInvalidArguments(_ context.Context, _ any, req *mcp.CallToolRequest, result any) {
	res, ok := result.(*mcp.CallToolResult)
	if !ok || res == nil || !res.IsError || len(res.Content) != 1 || req == nil {
		return
	}
	if text, ok := textOf(res.Content[0]); !ok || !strings.HasPrefix(text, validationPrefix) {
		return
	}
	t, ok := g.tools[req.Params.Name]
	if !ok {
		return
	}
	if msg := t.check.explainArgs(req.Params.Arguments); msg != "" {
		res.Content = []mcp.Content{mcp.NewTextContent(msg)}
	}
}

func textOf(c mcp.Content) (string, bool) {
	switch v := c.(type) {
	case mcp.TextContent:
		return v.Text, true
	case *mcp.TextContent:
		return v.Text, true
	}
	return "", false
}
