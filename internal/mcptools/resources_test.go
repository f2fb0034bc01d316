package mcptools_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/mcptools"
)

// TestGarageResource: vds://garage is listed and reads as my_garage and
// GET /v1/lists answer, charged one call per read.
func TestGarageResource(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.tokens["dev"]
	c := e.client(t, token, legacy)
	ctx := context.Background()
	list, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != mcptools.GarageURI || list.Resources[0].MIMEType != "application/json" {
		t.Fatalf("resources/list = %+v, %v; want %s alone", list, err, mcptools.GarageURI)
	}
	before := e.quotaUsed(t, token)
	read, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: mcptools.GarageURI}})
	if err != nil || len(read.Contents) != 1 {
		t.Fatalf("resources/read = %+v, %v", read, err)
	}
	text, ok := read.Contents[0].(mcp.TextResourceContents)
	if !ok {
		t.Fatalf("contents %T, want text", read.Contents[0])
	}
	if got := e.quotaUsed(t, token); got != before+1 {
		t.Fatalf("a read took %d quota units, want 1", got-before)
	}
	resp, rest := e.get(t, "/v1/lists", token)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/v1/lists: %d %s", resp.StatusCode, rest)
	}
	var viaMCP, viaREST any
	if err := json.Unmarshal([]byte(text.Text), &viaMCP); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rest, &viaREST); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(viaMCP)
	b, _ := json.Marshal(viaREST)
	if string(a) != string(b) || len(a) < 100 {
		t.Fatalf("vds://garage = %s\nGET /v1/lists = %s", a, b)
	}
}
