package mcptools_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds the Authorization header to every request of an http.Client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// TestOfficialSDKClient connects with the official go-sdk client, an
// implementation independent of mcp-go, and calls two tools.
func TestOfficialSDKClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	tr := &sdk.StreamableClientTransport{
		Endpoint:   e.mcpURL,
		HTTPClient: &http.Client{Transport: bearer{e.tokens["dev"], http.DefaultTransport}},
		// The server opens no event streams; the client need not try.
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}
	cl := sdk.NewClient(&sdk.Implementation{Name: "vds-test-gosdk", Version: "1.0"}, nil)
	cs, err := cl.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != modern && v != legacy {
		t.Errorf("negotiated %q", v)
	}
	t.Logf("go-sdk negotiated %s", cs.InitializeResult().ProtocolVersion)

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) < 8 {
		t.Errorf("%d tools", len(tools.Tools))
	}
	for _, tool := range tools.Tools {
		if tool.OutputSchema == nil || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: output schema %v, annotations %+v", tool.Name, tool.OutputSchema, tool.Annotations)
		}
	}

	car := e.cat.Cars[0]
	for _, tc := range []struct {
		tool string
		args map[string]any
		path string
	}{
		{"search_vehicles", map[string]any{"type": "car", "make": car.Make, "model": car.Model}, "/v1/cars?make=" + car.Make + "&model=" + car.Model},
		{"get_vehicle", map[string]any{"type": "car", "uuid": car.UUID.String()}, "/v1/cars/" + car.UUID.String()},
		// A mistyped make: no records, and the suggestions REST gives.
		{"search_vehicles", map[string]any{"type": "car", "make": "Toyta"}, "/v1/cars?make=Toyta"},
	} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		if res.IsError {
			t.Fatalf("%s: isError %v", tc.tool, res.Content)
		}
		_, body := e.get(t, tc.path, e.tokens["dev"])
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := decode(t, b), decode(t, body); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: structured content differs from REST\n tool: %s\n rest: %s", tc.tool, b, body)
		}
		if strings.Contains(tc.path, "Toyta") && !strings.Contains(string(b), `"suggestions":[{"names":["Toyota"],"param":"make","value":"Toyta"}]`) {
			t.Errorf("search_vehicles make=Toyta: %s lacks the suggestion", b)
		}
	}

	// An invalid argument is a tool error the go-sdk client reports as such.
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_vehicles", Arguments: map[string]any{"type": "car"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Error("a too-broad search succeeded")
	}
}
