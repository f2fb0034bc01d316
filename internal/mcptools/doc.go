// Package mcptools serves vds over the Model Context Protocol: the tool
// registry (Tools), the MCP server that validates, charges and recovers
// around it (NewServer), the HTTP handler that authenticates and limits
// requests before mcp-go reads them (Handler), and the README section
// generated from the registry (Markdown).
//
// Each tool calls the service its REST twin calls and returns the twin's
// response body as structured content, so a client gets the same JSON
// whichever door it uses, under one token and one quota.
package mcptools
