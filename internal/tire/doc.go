// Package tire parses metric and flotation tire sizes and derives their
// geometry, unrounded (callers round with Round). Notations, ranges and the
// fitment window are in docs/data.md (Tire sizes).
package tire
