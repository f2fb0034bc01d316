package mcptools_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
)

// quotaUsed reads X-Quota-Used from REST's /v1/me, which is free.
func (e *env) quotaUsed(t *testing.T, token string) int {
	t.Helper()
	resp, body := e.get(t, "/v1/me", token)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/v1/me: %d %s", resp.StatusCode, body)
	}
	n, err := strconv.Atoi(resp.Header.Get("X-Quota-Used"))
	if err != nil {
		t.Fatalf("X-Quota-Used %q", resp.Header.Get("X-Quota-Used"))
	}
	return n
}

// TestOneQuota checks that tools/call and REST draw on one monthly quota:
// each successful charged call counts once, protocol messages, free tools
// and calls that end in an error count nothing, and an exhausted quota is
// an isError result that says when it resets.
func TestOneQuota(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.tokens["quota"] // a quota of 3 calls
	want := 0
	check := func(step string) {
		t.Helper()
		if got := e.quotaUsed(t, token); got != want {
			t.Fatalf("after %s: X-Quota-Used %d, want %d", step, got, want)
		}
	}
	check("nothing")

	for _, rev := range []string{modern, legacy} {
		c := e.client(t, token, rev)
		if _, err := c.ListTools(context.Background(), mcp.ListToolsRequest{}); err != nil {
			t.Fatal(err)
		}
		check("initialize and tools/list in " + rev)
	}
	// ping is gone from 2026-07-28, where mcp-go's Ping sends nothing.
	if resp, body := e.post(t, token, pingBody, legacyHeader); resp.StatusCode != http.StatusOK {
		t.Fatalf("ping: %d %s", resp.StatusCode, body)
	}
	check("ping")
	c := e.client(t, token, legacy)
	if res := call(t, c, "account_usage", map[string]any{}); res.IsError {
		t.Fatalf("account_usage: %s", text(res))
	}
	check("account_usage")
	for _, bad := range []map[string]any{{"type": "car"}, {"type": "car", "year": "x"}} {
		if res := call(t, c, "search_vehicles", bad); !res.IsError {
			t.Fatalf("%v succeeded", bad)
		}
	}
	if res := call(t, c, "get_vehicle", map[string]any{"type": "car", "uuid": "00000000-0000-0000-0000-000000000000"}); !res.IsError {
		t.Fatal("unknown uuid succeeded")
	}
	check("calls that ended in an error")

	if res := call(t, c, "list_makes", map[string]any{"type": "boat"}); res.IsError {
		t.Fatal(text(res))
	}
	want++
	check("a successful tools/call")

	if resp, body := e.get(t, "/v1/cars/makes", token); resp.StatusCode != http.StatusOK {
		t.Fatalf("REST: %d %s", resp.StatusCode, body)
	}
	want++
	check("a REST call")

	// The MCP response carries the quota headers, counting its own call.
	resp, body := e.post(t, token, rpcCall("my_garage", map[string]any{}), legacyHeader)
	if res := rpcResult(t, body); res["isError"] == true {
		t.Fatalf("my_garage: %s", body)
	}
	want++
	if got := resp.Header.Get("X-Quota-Used"); got != strconv.Itoa(want) {
		t.Errorf("X-Quota-Used on the MCP response %q, want %d", got, want)
	}
	if resp.Header.Get("X-Quota-Remaining") != "0" {
		t.Errorf("X-Quota-Remaining %q, want 0", resp.Header.Get("X-Quota-Remaining"))
	}
	check("a tools/call by raw HTTP")

	// The quota is used up: the tool says so and when it resets; REST too.
	now := time.Now().UTC()
	reset := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	res := call(t, c, "list_makes", map[string]any{"type": "car"})
	if !res.IsError {
		t.Fatal("a call over the quota succeeded")
	}
	for _, w := range []string{"quota_exceeded", "monthly quota of 3 calls", "resets at " + reset.Format(time.RFC3339), "not charged"} {
		if !strings.Contains(text(res), w) {
			t.Errorf("refusal %q lacks %q", text(res), w)
		}
	}
	if resp, body := e.get(t, "/v1/cars/makes", token); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("REST over the quota: %d %s", resp.StatusCode, body)
	}
	// account_usage is free, so it still answers, and shows the state.
	usage := call(t, c, "account_usage", map[string]any{})
	if usage.IsError {
		t.Fatalf("account_usage over the quota: %s", text(usage))
	}
	quota := decode(t, mustJSON(t, usage.StructuredContent)).(map[string]any)["data"].(map[string]any)["quota"].(map[string]any)
	if quota["used"] != json.Number("3") || quota["remaining"] != json.Number("0") {
		t.Errorf("account_usage quota %v", quota)
	}
	check("refusals")
}

// TestDecodeVINChargesPerVIN checks that decode_vin draws one unit per VIN
// it decodes, none for an invalid or undecodable one, and refuses a batch
// when the quota is out before its first VIN.
func TestDecodeVINChargesPerVIN(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.tokens["quota"] // a quota of 3 calls
	c := e.client(t, token, modern)
	res := call(t, c, "decode_vin", map[string]any{"vins": []string{upstreamtest.KnownVIN, "ZZZZZZZZZZZZZZZZZ", "1FTMW1T88", strings.ToLower(upstreamtest.KnownVIN)}})
	if res.IsError {
		t.Fatal(text(res))
	}
	entries := decode(t, mustJSON(t, res.StructuredContent)).(map[string]any)["data"].([]any)
	if len(entries) != 4 || entries[0].(map[string]any)["model"] != "F-150" || entries[3].(map[string]any)["model"] != "F-150" ||
		entries[1].(map[string]any)["error"].(map[string]any)["code"] != "vin_not_decodable" ||
		entries[2].(map[string]any)["error"].(map[string]any)["code"] != "invalid_vin" {
		t.Errorf("entries %v", entries)
	}
	if got := e.quotaUsed(t, token); got != 1 {
		t.Fatalf("X-Quota-Used %d after a batch with one distinct decodable VIN, want 1", got)
	}
	if res := call(t, c, "decode_vin", map[string]any{"vin": "ZZZZZZZZZZZZZZZZZ"}); !res.IsError || !strings.Contains(text(res), "vin_not_decodable") {
		t.Errorf("an undecodable VIN: %s", text(res))
	}
	if res := call(t, c, "decode_vin", map[string]any{"vin": upstreamtest.KnownVIN}); res.IsError {
		t.Fatal(text(res))
	}
	// The last unit goes to the VIN that decodes, not the one before it.
	res = call(t, c, "decode_vin", map[string]any{"vins": []string{"ZZZZZZZZZZZZZZZZZ", upstreamtest.KnownVIN}})
	if entries := decode(t, mustJSON(t, res.StructuredContent)).(map[string]any)["data"].([]any); res.IsError || entries[1].(map[string]any)["model"] != "F-150" {
		t.Fatalf("the last unit: %s", text(res))
	}
	if got := e.quotaUsed(t, token); got != 3 {
		t.Fatalf("X-Quota-Used %d, want 3", got)
	}
	res = call(t, c, "decode_vin", map[string]any{"vins": []string{upstreamtest.KnownVIN}})
	if !res.IsError || !strings.Contains(text(res), "quota_exceeded") || !strings.Contains(text(res), "not charged") {
		t.Errorf("over the quota: %s", text(res))
	}
	if res := call(t, c, "decode_vin", map[string]any{"vin": upstreamtest.KnownVIN, "vins": []string{upstreamtest.KnownVIN}}); !res.IsError ||
		!strings.Contains(text(res), "invalid_parameter") {
		t.Errorf("vin and vins: %s", text(res))
	}
}

// TestRateLimit checks that a burst over the per-minute limit is an HTTP
// 429 with Retry-After and a problem, whatever the message.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.tokens["rate"]
	for i := 1; i <= ratePerMinute; i++ {
		resp, body := e.post(t, token, pingBody, legacyHeader)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d of %d: %d %s", i, ratePerMinute, resp.StatusCode, body)
		}
		if got := resp.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(ratePerMinute-i) {
			t.Errorf("request %d: X-RateLimit-Remaining %q, want %d", i, got, ratePerMinute-i)
		}
	}
	for _, body := range []string{pingBody, rpcCall("list_makes", map[string]any{"type": "car"})} {
		resp, b := e.post(t, token, body, legacyHeader)
		if resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("request over the limit: %d %s", resp.StatusCode, b)
		}
		if code := problemCode(t, resp, b); code != "rate_limited" {
			t.Errorf("code %q", code)
		}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
			t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
		}
	}
	// REST shares the window.
	if resp, _ := e.get(t, "/v1/me", token); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("REST after the MCP burst: %d", resp.StatusCode)
	}
}

// TestToolCallCountsOnceInRateWindow checks that a tools/call takes one
// unit of the rate window, not one for the request and one for the charge.
func TestToolCallCountsOnceInRateWindow(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	resp, body := e.post(t, e.tokens["rate"], rpcCall("list_makes", map[string]any{"type": "car"}), legacyHeader)
	if res := rpcResult(t, body); res["isError"] == true {
		t.Fatalf("list_makes: %s", body)
	}
	if got := resp.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(ratePerMinute-1) {
		t.Errorf("X-RateLimit-Remaining %q after one tools/call, want %d", got, ratePerMinute-1)
	}
}

// TestDecodeHINChargesPerHIN: decode_hin draws one unit per distinct HIN it
// decodes, none for an invalid one, and refuses once the quota is out.
func TestDecodeHINChargesPerHIN(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := e.tokens["quota"] // a quota of 3 calls
	c := e.client(t, token, modern)
	res := call(t, c, "decode_hin", map[string]any{"hins": []string{"BWC12345L718", "BWC12O45L718", "bwc 12345 l718", "SER12345A919"}})
	if res.IsError {
		t.Fatal(text(res))
	}
	entries := decode(t, mustJSON(t, res.StructuredContent)).(map[string]any)["data"].([]any)
	bad := entries[1].(map[string]any)["error"].(map[string]any)
	if len(entries) != 4 || entries[3].(map[string]any)["mic"] != "SER" || bad["code"] != "invalid_hin" || bad["position"] != json.Number("6") {
		t.Errorf("entries %v", entries)
	}
	if got := e.quotaUsed(t, token); got != 2 {
		t.Fatalf("X-Quota-Used %d after a batch of two distinct valid HINs, want 2", got)
	}
	if res := call(t, c, "decode_hin", map[string]any{"hin": "BWC12345Z718"}); !res.IsError || !strings.Contains(text(res), "invalid_hin") ||
		!strings.Contains(text(res), "character 9") {
		t.Errorf("an invalid HIN: %s", text(res))
	}
	if res := call(t, c, "decode_hin", map[string]any{"hin": "BWC12345L718"}); res.IsError {
		t.Fatal(text(res))
	}
	if res := call(t, c, "decode_hin", map[string]any{"hin": "BWC12345L718"}); !res.IsError || !strings.Contains(text(res), "quota_exceeded") {
		t.Errorf("over the quota: %s", text(res))
	}
}
