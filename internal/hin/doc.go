// Package hin decodes boats' hull identification numbers (33 CFR 181
// subpart C) and the EU's craft identification numbers (ISO 10087) from
// their characters alone; the rules and codes are in docs/data.md (Hull
// identification numbers).
package hin
