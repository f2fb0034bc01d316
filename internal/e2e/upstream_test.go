package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

type vinBody struct {
	Data struct {
		VIN        string  `json:"vin"`
		Make       *string `json:"make"`
		Model      *string `json:"model"`
		Year       *int    `json:"year"`
		CheckDigit struct {
			Valid bool `json:"valid"`
		} `json:"check_digit"`
		WMI struct {
			Country string `json:"country"`
		} `json:"wmi"`
		Links struct {
			Cars      []string `json:"cars"`
			TireSizes []string `json:"tire_sizes"`
		} `json:"links"`
		Stale bool `json:"stale"`
	} `json:"data"`
}

// upstreamEnv is a vds installation whose NHTSA is a fake, with
// upstream.timeout set to timeout (the default when empty).
func upstreamEnv(t *testing.T, backend string, ttl time.Duration, timeout string) (*env, *upstreamtest.Fake) {
	e := newEnv(t, backend)
	fake := upstreamtest.New(t)
	yaml := fmt.Sprintf("upstream:\n  vpic_url: %s\n  nhtsa_url: %s\n  cache_ttl: %s\n", fake.URL, fake.URL, ttl)
	if timeout != "" {
		yaml += "  timeout: " + timeout + "\n"
	}
	e.writeConfig(yaml)
	e.vds("ingest")
	return e, fake
}

// TestVINDecode: a captured VIN decodes to its captured make, model and
// year with links into the catalog; a second call is served from the
// cache; invalid VINs never reach NHTSA and are not charged.
func TestVINDecode(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, e0 *env) {
		e, fake := upstreamEnv(t, e0.backend, time.Hour, "300ms")
		_, tok := e.newToken("vin@example.com", "developer")
		in := e.serve()

		var v vinBody
		h := in.getJSON(tok, "/v1/vin/"+strings.ToLower(upstreamtest.KnownVIN), http.StatusOK, &v)
		d := v.Data
		if d.VIN != upstreamtest.KnownVIN || *d.Make != "Ford" || *d.Model != "F-150" || *d.Year != 2021 || !d.CheckDigit.Valid || d.WMI.Country != "United States" {
			t.Fatalf("decode: %+v", d)
		}
		if len(d.Links.Cars) == 0 || len(d.Links.TireSizes) == 0 {
			t.Fatalf("the 2021 F-150 links to no catalog F150: %+v", d.Links)
		}
		var car struct {
			Data struct {
				Make, Model string
				Year        int
			} `json:"data"`
		}
		in.getJSON(tok, "/v1/cars/"+d.Links.Cars[0], http.StatusOK, &car)
		if car.Data.Make != "Ford" || car.Data.Model != "F-150" || car.Data.Year != 2021 {
			t.Fatalf("linked car %+v", car.Data)
		}
		if h.Get("X-Quota-Used") != "1" {
			t.Fatalf("a decode is charged: X-Quota-Used %q, want 1", h.Get("X-Quota-Used"))
		}

		h = in.getJSON(tok, "/v1/vin/"+upstreamtest.KnownVIN, http.StatusOK, nil)
		used := h.Get("X-Quota-Used")
		if n := fake.Hits("/vehicles/DecodeVinValues/"); n != 1 {
			t.Fatalf("two decodes within the TTL reached vPIC %d times, want 1", n)
		}

		for _, bad := range []string{"1FTMW1T88MFA0000", "1FTMW1T88MFA0000I", "1FTMW1T88MFA000O1", "1FTMW1T8-MFA00001"} {
			status, hd, body := in.get(tok, "/v1/vin/"+bad)
			var p problemBody
			_ = json.Unmarshal(body, &p)
			if status != 400 || p.Code != "invalid_vin" {
				t.Fatalf("VIN %q: %d %s", bad, status, body)
			}
			if hd.Get("X-Quota-Used") != used {
				t.Fatalf("an invalid VIN was charged: X-Quota-Used %s after %s", hd.Get("X-Quota-Used"), used)
			}
		}
		if n := fake.Hits("/vehicles/DecodeVinValues/"); n != 1 {
			t.Fatalf("invalid VINs reached vPIC: %d requests", n)
		}
		if status, _, body := in.get(tok, "/v1/vin/ZZZZZZZZZZZZZZZZZ"); status != http.StatusUnprocessableEntity || !strings.Contains(string(body), "vin_not_decodable") {
			t.Fatalf("undecodable VIN: %d %s", status, body)
		}
	})
}

// TestUpstreamFailures: NHTSA failing, garbage, or too slow gives a clear
// 502/503 within the timeout's bound, is not cached, and an expired answer
// is served as stale with a Warning header.
func TestUpstreamFailures(t *testing.T) {
	t.Parallel()
	e, fake := upstreamEnv(t, "sqlite", time.Second, "300ms")
	_, tok := e.newToken("up@example.com", "developer")
	in := e.serve()
	demo := demoCatalog(t)
	car := func(i int) string { return "/v1/cars/" + demo.Cars[i].UUID.String() + "/recalls" }

	cases := []struct {
		mode   upstreamtest.Mode
		delay  time.Duration
		status int
		code   string
	}{
		{upstreamtest.Fail, 0, 503, "upstream_unavailable"},
		{upstreamtest.Malformed, 0, 502, "upstream_error"},
		{upstreamtest.Stall, 5 * time.Second, 503, "upstream_unavailable"},
	}
	for i, tc := range cases {
		fake.SetMode(tc.mode, tc.delay)
		start := time.Now()
		status, _, body := in.get(tok, car(10+i))
		took := time.Since(start)
		var p problemBody
		_ = json.Unmarshal(body, &p)
		if status != tc.status || p.Code != tc.code || took > 3*time.Second {
			t.Fatalf("mode %d: %d %s after %v, want %d %s quickly", tc.mode, status, p.Code, took, tc.status, tc.code)
		}
		// Not cached: once NHTSA is back, the same call succeeds (after the
		// fetch still under way for a stalled NHTSA has given up).
		fake.SetMode(upstreamtest.Normal, 0)
		eventually(t, 3*time.Second, "recovery", func() bool {
			status, _, _ := in.get(tok, car(10+i))
			return status == http.StatusOK
		})
		var r struct {
			Data struct {
				Coverage string `json:"coverage"`
				Recalls  []struct {
					CampaignNumber string  `json:"campaign_number"`
					ReportDate     *string `json:"report_date"`
				} `json:"recalls"`
				Ratings []struct{ Overall *int } `json:"ratings"`
				Stale   bool                     `json:"stale"`
			} `json:"data"`
		}
		in.getJSON(tok, car(10+i), http.StatusOK, &r)
		if r.Data.Coverage != "US (NHTSA)" || len(r.Data.Recalls) != 2 || r.Data.Recalls[0].CampaignNumber != "00V421001" ||
			*r.Data.Recalls[0].ReportDate != "2000-12-18" || len(r.Data.Ratings) != 3 || r.Data.Stale {
			t.Fatalf("recalls after recovery: %+v", r.Data)
		}
	}

	// Stale: the entry expires (TTL 1s) and NHTSA fails.
	time.Sleep(1100 * time.Millisecond)
	fake.SetMode(upstreamtest.Fail, 0)
	var r struct {
		Data struct{ Stale bool } `json:"data"`
	}
	h := in.getJSON(tok, car(10), http.StatusOK, &r)
	if !r.Data.Stale || !strings.Contains(h.Get("Warning"), "110") {
		t.Fatalf("expired entry with NHTSA down: stale %v, Warning %q", r.Data.Stale, h.Get("Warning"))
	}
}

// callTool calls an MCP tool with the mcp-go client, as an agent would:
// initialize, then tools/call. It returns the tool result, or the error
// of a call that got none.
func (in *instance) callTool(token, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	in.t.Helper()
	tr, err := transport.NewStreamableHTTP(in.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		in.t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_PROTOCOL_VERSION))
	defer c.Close()
	ctx := context.Background()
	var init mcp.InitializeRequest
	init.Params.ClientInfo = mcp.Implementation{Name: "vds-e2e", Version: "1.0"}
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	if _, err := c.Initialize(ctx, init); err != nil {
		return nil, err
	}
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = tool, args
	return c.CallTool(ctx, req)
}

// TestHangingUpstream: an NHTSA that accepts connections and never answers
// is a 503 upstream_unavailable (an isError result over MCP) once
// upstream.timeout is spent, on every endpoint that asks NHTSA, retries
// included. The default timeout's bound (well within 15 seconds, long
// before the server's write timeout) is config's TestUpstreamTimeoutBelowWriteTimeout; here
// a 1s timeout shows the server spends the configured one.
func TestHangingUpstream(t *testing.T) {
	t.Parallel()
	e, fake := upstreamEnv(t, "sqlite", time.Hour, "1s")
	_, tok := e.newToken("hang@example.com", "developer")
	in := e.serve()
	fake.SetMode(upstreamtest.Stall, time.Minute)

	demo := demoCatalog(t)
	car, moto := demo.Cars[20].UUID.String(), demo.Motorcycles[20].UUID.String()
	const bound = 2500 * time.Millisecond // upstream.timeout 1s plus a margin
	for _, path := range []string{"/v1/vin/" + upstreamtest.KnownVIN, "/v1/cars/" + car + "/recalls", "/v1/motorcycles/" + moto + "/recalls"} {
		start := time.Now()
		status, h, body := in.get(tok, path)
		took := time.Since(start)
		var p problemBody
		_ = json.Unmarshal(body, &p)
		if status != http.StatusServiceUnavailable || p.Code != "upstream_unavailable" || h.Get("Content-Type") != "application/problem+json" {
			t.Errorf("GET %s with NHTSA hanging: %d %s %s", path, status, h.Get("Content-Type"), body)
		}
		if took < time.Second || took > bound {
			t.Errorf("GET %s answered after %v, want upstream.timeout 1s plus a margin", path, took)
		}
	}
	for _, call := range []map[string]any{
		{"vin": upstreamtest.KnownVIN},
		{"type": "car", "uuid": car},
		{"type": "motorcycle", "uuid": moto},
	} {
		tool := "vehicle_recalls"
		if call["vin"] != nil {
			tool = "decode_vin"
		}
		start := time.Now()
		res, err := in.callTool(tok, tool, call)
		took := time.Since(start)
		if err != nil || !res.IsError || len(res.Content) != 1 || !strings.HasPrefix(mcp.GetTextFromContent(res.Content[0]), "upstream_unavailable: ") {
			t.Errorf("MCP %s %v with NHTSA hanging: %+v, %v", tool, call, res, err)
		}
		if took < time.Second || took > bound {
			t.Errorf("MCP %s %v answered after %v, want upstream.timeout 1s plus a margin", tool, call, took)
		}
	}
}

// TestOfflineBatchWithNHTSAClosed: with every NHTSA address a closed port
// and a vPIC snapshot imported, vds serve (vin.decoder auto) decodes a
// batch from its first request, charging the decoded VINs only.
func TestOfflineBatchWithNHTSAClosed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	e.writeConfig("upstream:\n  vpic_url: http://127.0.0.1:9\n  nhtsa_url: http://127.0.0.1:9\n")
	e.vds("ingest")
	e.vds("vpic", "import", vpictest.Cut(t, "1FT"))
	_, tok := e.newToken("batch@example.com", "developer")
	start := time.Now()
	in := e.serve()

	var body struct {
		Data []struct {
			VIN, Source string
			Year        int
			Error       *struct{ Code string }
		} `json:"data"`
	}
	h := in.getJSON(tok, "/v1/vins?vin="+upstreamtest.KnownVIN+"&vin=1FTMW1T88&vin=ZZZZZZZZZZZZZZZZZ", http.StatusOK, &body)
	t.Logf("first answer %v after start", time.Since(start))
	d := body.Data
	if len(d) != 3 || d[0].Year != 2021 || d[0].Source != "vPIC snapshot 2026-02-17" || d[0].Error != nil ||
		d[1].Error == nil || d[1].Error.Code != "invalid_vin" || d[2].Error == nil || d[2].Error.Code != "vin_not_decodable" {
		t.Fatalf("batch: %+v", d)
	}
	if h.Get("X-Quota-Used") != "1" {
		t.Errorf("X-Quota-Used %q after one decoded VIN, want 1", h.Get("X-Quota-Used"))
	}
}
