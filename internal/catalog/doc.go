// Package catalog holds the vehicle catalog's domain types (cars, motorcycles
// and other powersports vehicles, power boats, tire fitments), their
// validation, and the derivation of stable record UUIDs from natural keys.
//
// The package knows nothing about HTTP, SQL or configuration: ingest, the
// stores and the query service all speak these types.
package catalog
