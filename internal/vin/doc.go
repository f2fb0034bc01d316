// Package vin validates and decodes 17-character VINs locally, without any
// network call: sections, check digit, model-year candidates, WMI region and
// country. The rules are in docs/data.md (VINs).
package vin
