// Package client is the Go SDK of the vds vehicle-data API: cars, motorcycles,
// boats, tire fitments with geometry, VIN decoding, recalls, and the caller's
// account and lists. One typed method per endpoint:
//
//	c := client.New("http://localhost:8080", os.Getenv("VDS_TOKEN"))
//	page, err := c.ListCars(ctx, client.CarQuery{Make: "Toyota", Year: 2022})
//
// Queries send only the fields that are set (the server refuses empty and
// unknown parameters) and must narrow the catalog; pages hold up to 10
// records, pages 1 to 40 are reachable, and AllCars and its siblings iterate.
// A non-2xx answer is an *APIError with the server's stable problem code.
// Calls are GETs, retried after network errors, 5xx and a 429 whose
// Retry-After is short (see WithRetries). The contract is in docs/api.md.
package client
