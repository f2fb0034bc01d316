// Package vehicle is the query service behind every view of the catalog:
// REST, MCP and the dashboard each build a Query from their own input and
// call Service, so validation, the narrowing rule, paging and matching are
// written once.
//
// Queries never touch the database: Service answers from an immutable,
// indexed Snapshot of one catalog version, which Swap replaces atomically
// (docs/architecture.md). Records handed out share memory with the
// snapshot: callers encode them and must not modify them.
package vehicle
