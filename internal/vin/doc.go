// Package vin validates and decodes 17-character VINs locally, without any
// network call; the rules are in docs/data.md (VINs).
package vin
