// Package catalog holds the vehicle catalog's domain types, their
// validation, and the stable record UUIDs derived from natural keys.
package catalog
