// Package vehicle is the query service behind every view of the catalog:
// validation, the narrowing rule, paging and matching, written once. It
// answers from an immutable, indexed Snapshot (docs/architecture.md);
// records it hands out share the snapshot's memory and must not change.
package vehicle
