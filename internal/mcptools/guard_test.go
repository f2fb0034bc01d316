package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
)

// fakeCharger records what the guard charged.
type fakeCharger struct {
	refuse  error
	charged int
	commits []bool
}

func (f *fakeCharger) Charge(_ context.Context, _ string, _ account.Plan, channel string) (func(bool), limits.State, error) {
	if channel != limits.ChannelMCP {
		return nil, limits.State{}, errors.New("a tool call charged to channel " + channel)
	}
	if f.refuse != nil {
		return nil, limits.State{}, f.refuse
	}
	f.charged++
	return func(ok bool) { f.commits = append(f.commits, ok) }, limits.State{}, nil
}

func (f *fakeCharger) Ready(context.Context, string, account.Plan) error { return f.refuse }

type countOut struct {
	N int `json:"n"`
}

// guarded builds a guard around one tool named "t" whose handler is h.
func guarded(charged bool, h func() (*mcp.CallToolResult, error)) (*guard, *fakeCharger, func() (*mcp.CallToolResult, error)) {
	tool := newTool(toolSpec{name: "t", title: "T", desc: "test tool", in: inputSchema[NoInput](nil),
		out: envelope(dataOf[countOut](), "a count", false), charged: charged})
	tool.Handler = func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return h() }
	fc := &fakeCharger{}
	g := &guard{tools: map[string]*Tool{"t": &tool}, charger: fc, log: discard(),
		now: func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }}
	ctx := edge.WithPrincipal(context.Background(), &access.Principal{Account: account.Account{ID: "acc_1"}, Plan: account.Plan{Name: "free"}})
	run := func() (*mcp.CallToolResult, error) {
		var req mcp.CallToolRequest
		req.Params.Name = "t"
		return g.middleware(tool.Handler)(ctx, req)
	}
	return g, fc, run
}

func ok(n int) (*mcp.CallToolResult, error) { return jsonResult(countOut{n}) }

func TestGuardCharges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		charged bool
		handler func() (*mcp.CallToolResult, error)
		commits []bool
		isError bool
		err     bool
	}{
		{"success is charged", true, func() (*mcp.CallToolResult, error) { return ok(1) }, []bool{true}, false, false},
		{"free tool", false, func() (*mcp.CallToolResult, error) { return ok(1) }, nil, false, false},
		{"isError is refunded", true, func() (*mcp.CallToolResult, error) { return mcp.NewToolResultError("bad"), nil }, []bool{false}, true, false},
		{"error is refunded", true, func() (*mcp.CallToolResult, error) { return nil, errors.New("db: connection refused at 10.0.0.1") }, []bool{false}, false, true},
		{"panic is refunded", true, func() (*mcp.CallToolResult, error) { panic("secret detail") }, []bool{false}, false, true},
		{"nil result is refunded", true, func() (*mcp.CallToolResult, error) { return nil, nil }, []bool{false}, false, true},
		{"output off schema is refunded", true, func() (*mcp.CallToolResult, error) { return jsonResult(map[string]any{"m": 1}) }, []bool{false}, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, fc, run := guarded(tc.charged, tc.handler)
			res, err := run()
			if (err != nil) != tc.err {
				t.Fatalf("err %v, want error %v", err, tc.err)
			}
			if err != nil {
				// Internal failures never reach the model in detail.
				for _, leak := range []string{"10.0.0.1", "secret detail", "schema"} {
					if strings.Contains(err.Error(), leak) {
						t.Errorf("error %q leaks %q", err, leak)
					}
				}
			}
			if err == nil && res.IsError != tc.isError {
				t.Errorf("isError %v", res.IsError)
			}
			if len(fc.commits) != len(tc.commits) || (len(tc.commits) > 0 && fc.commits[0] != tc.commits[0]) {
				t.Errorf("commits %v, want %v", fc.commits, tc.commits)
			}
		})
	}
}

func TestGuardRefusal(t *testing.T) {
	t.Parallel()
	called := false
	g, fc, run := guarded(true, func() (*mcp.CallToolResult, error) { called = true; return ok(1) })
	reset := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	fc.refuse = &limits.Refusal{Reason: limits.CodeQuotaExceeded, RetryAfter: reset.Sub(g.now()), State: limits.State{QuotaLimit: 100, QuotaReset: reset}}
	res, err := run()
	if err != nil || !res.IsError || called {
		t.Fatalf("res %v, err %v, handler called %v", res, err, called)
	}
	for _, w := range []string{"quota_exceeded", "100 calls of the free plan", "2026-12-01T00:00:00Z", "Tuesday 1 December 2026", "in 9 days", "not charged"} {
		if !strings.Contains(textContent(res), w) {
			t.Errorf("%q lacks %q", textContent(res), w)
		}
	}
	fc.refuse = errors.New("usage store down")
	res, err = run()
	if err != nil || !res.IsError || strings.Contains(textContent(res), "store down") ||
		!strings.Contains(textContent(res), "service_unavailable") || !strings.Contains(textContent(res), "not charged") {
		t.Errorf("store failure: %v, %v", res, err)
	}
}

// TestSchemasCompile compiles every tool's input and output schema, which
// a server otherwise compiles on the tool's first call: a schema the
// registry generated wrong fails here, not in front of an agent.
func TestSchemasCompile(t *testing.T) {
	t.Parallel()
	for _, tool := range Tools(Deps{}) {
		for which, compiled := range map[string]func() *sjs.Schema{"input": tool.check.inC, "output": tool.check.outC} {
			if s, want := compiled(), "mem:///vds/tools/"+tool.Def.Name+"/"+which+".json#"; s == nil || s.Location != want {
				t.Errorf("%s %s schema compiled to %v, want one at %s", tool.Def.Name, which, s, want)
			}
		}
	}
}

func TestExplainArgs(t *testing.T) {
	t.Parallel()
	tools := map[string]Tool{}
	for _, tool := range Tools(Deps{}) {
		tools[tool.Def.Name] = tool
	}
	cases := []struct {
		tool string
		args string
		want string // "" means valid
	}{
		{"search_vehicles", `{"type":"car","make":"Ford"}`, ""},
		{"search_vehicles", `{"type":"car","length_min":2.5,"ev_only":true}`, ""},
		{"search_vehicles", `{"type":"car","ev_only":"yes"}`, `ev_only must be true or false, not a string`},
		{"search_vehicles", `{"type":"car","hp_min":-1}`, `hp_min must be a whole number of 0 or more, not -1`},
		{"search_vehicles", `{"type":"car","year":2020.5}`, `year must be a whole number from 1886 to 2100 such as 2020, not a number`},
		{"search_vehicles", `[1,2]`, `the arguments must be a JSON object, not an array`},
		{"search_vehicles", `{"type":"car","mdoel":"x","make":"y"}`, `there is no argument "mdoel" (did you mean model?)`},
		{"get_vehicle", `{}`, `type is required (one of car, motorcycle, boat, tire_size); uuid is required (a string such as "6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41")`},
		{"my_garage", `null`, ""},
		{"list_models", `{"type":"car","make":7}`, `make must be a string such as "Toyota", not a number`},
	}
	for _, tc := range cases {
		t.Run(tc.tool+" "+tc.args, func(t *testing.T) {
			got := tools[tc.tool].check.explainArgs(json.RawMessage(tc.args))
			if tc.want == "" {
				if got != "" {
					t.Errorf("valid arguments explained as %q", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) || !strings.HasPrefix(got, "Invalid arguments for "+tc.tool+": ") {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestSchemas checks what the generators promise: every argument has a
// description, optional arguments are not nullable, and no uuid or time
// is described as anything but a string.
func TestSchemas(t *testing.T) {
	t.Parallel()
	for _, tool := range Tools(Deps{}) {
		for name, p := range tool.in.Properties {
			if p.Description == "" {
				t.Errorf("%s.%s has no description", tool.Def.Name, name)
			}
			if p.Type == "" {
				t.Errorf("%s.%s has types %v, want one type", tool.Def.Name, name, p.Types)
			}
		}
		var walk func(path string, s *jsonschema.Schema)
		walk = func(path string, s *jsonschema.Schema) {
			if s == nil {
				return
			}
			if (s.Format == "uuid" || s.Format == "date-time") && s.Type != "string" && !slices.Equal(s.Types, []string{"null", "string"}) {
				t.Errorf("%s: %s is formatted %s but typed %q", tool.Def.Name, path, s.Format, s.Type)
			}
			if s.Type == "array" && s.Items != nil && s.Items.Type == "integer" && s.MaxItems != nil && *s.MaxItems == 16 {
				t.Errorf("%s: %s looks like a uuid described as bytes", tool.Def.Name, path)
			}
			for n, c := range s.Properties {
				walk(path+"."+n, c)
			}
			walk(path+"[]", s.Items)
			for i, c := range s.AnyOf {
				walk(path+"|"+string(rune('0'+i)), c)
			}
		}
		var out jsonschema.Schema
		if err := json.Unmarshal(tool.Def.RawOutputSchema, &out); err != nil {
			t.Fatal(err)
		}
		walk(tool.Def.Name, &out)
	}
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// textContent returns the text of a result's first content.
func textContent(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	s, _ := textOf(res.Content[0])
	return s
}
