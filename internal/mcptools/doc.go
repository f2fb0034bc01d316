// Package mcptools serves vds over the Model Context Protocol: the tool
// registry, the MCP server, the HTTP handler and the README section. Each
// tool returns its REST twin's body, under one token and one quota.
package mcptools
