// Package vehicle is the query service behind every view of the catalog:
// REST handlers, MCP tools and the dashboard all call Service, so the
// narrowing rule, the strict parameter checks, pagination and matching are
// written exactly once.
//
// Queries never touch the database. A Snapshot is an immutable, indexed copy
// of one published catalog version, built once by NewSnapshot; Service
// answers from the current snapshot and Swap replaces it atomically when a
// new version is published, so a request always sees one consistent version.
//
// Records handed out by the service share memory with the snapshot (pointer
// fields, alternate-size slices): callers encode them and must not modify them.
package vehicle
