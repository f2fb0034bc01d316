package dashboard

import (
	"encoding/json"
	"net/http"
)

// connectData is the Connect page's ready-to-paste snippets, which read
// the token from $VDS_TOKEN: no secret appears.
type connectData struct {
	BaseURL   string
	APIURL    string
	MCPURL    string
	CurlMe    string
	CurlCars  string
	MCPConfig string
	MCPCurl   string
}

func (h *Handler) connect(w http.ResponseWriter, r *http.Request, s *session) {
	base := h.baseURL(r)
	d := connectData{BaseURL: base, APIURL: base + "/v1", MCPURL: base + "/mcp"}
	d.CurlMe = `curl -H "Authorization: Bearer $VDS_TOKEN" '` + d.APIURL + `/me'`
	d.CurlCars = `curl -H "Authorization: Bearer $VDS_TOKEN" '` + d.APIURL + `/cars?make=Toyota&model=Camry'`
	// Structs, not maps, keep the keys in the order people expect to read
	// them: type, url, headers.
	type server struct {
		Type    string            `json:"type"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	}
	cfg := struct {
		MCPServers map[string]server `json:"mcpServers"`
	}{map[string]server{"vds": {Type: "http", URL: d.MCPURL, Headers: map[string]string{"Authorization": "Bearer ${VDS_TOKEN}"}}}}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		h.internalError(w, r, err)
		return
	}
	d.MCPConfig = string(b)
	d.MCPCurl = "curl -s '" + d.MCPURL + "' \\\n" +
		"  -H \"Authorization: Bearer $VDS_TOKEN\" \\\n" +
		"  -H 'Content-Type: application/json' \\\n" +
		"  -H 'Accept: application/json, text/event-stream' \\\n" +
		"  -H 'MCP-Protocol-Version: 2025-11-25' \\\n" +
		`  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"my_garage","arguments":{}}}'`
	v := signedIn(s, "connect", "Connect")
	v.Data = d
	h.render(w, r, http.StatusOK, "connect", v)
}
