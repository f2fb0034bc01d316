// Package tire parses tire size designations and derives tire geometry.
//
// Two notations are understood. Metric sizes (P-metric, LT-metric and
// Euro-metric) state the section width in millimetres and the sidewall
// as a percentage of that width:
//
//	P225/45R17 94W
//	LT265/70R17
//	245/40ZR18
//
// Flotation sizes, common on light trucks, state the overall diameter
// and section width directly in inches:
//
//	33x12.50R15
//	35x12.50R17 LT 121Q
//
// Parse is deliberately strict about structure and plausible ranges,
// because a mistyped size that parsed anyway would produce a confident
// but wrong fitment report. It is lenient only about letter case and
// whitespace, which carry no meaning.
//
// Geometry values are returned unrounded so that differences between
// sizes are computed at full precision; callers presenting values
// should use Round so that every caller rounds the same way.
package tire
