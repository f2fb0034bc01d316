// Package epa reads EPA's vehicles.csv (zipped or plain, file or http(s) URL)
// and matches catalog cars to its rows for `vds enrich`. The reading and
// matching rules are in docs/data.md (EPA matching).
package epa
