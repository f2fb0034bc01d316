// Package client is the Go SDK of the vds vehicle-data API: cars, motorcycles,
// boats, tire fitments with geometry, VIN decoding, recalls, and the caller's
// account and lists. One typed method per endpoint:
//
//	c := client.New("http://localhost:8080", os.Getenv("VDS_TOKEN"))
//	page, err := c.ListCars(ctx, client.CarQuery{Make: "Toyota", Year: 2022})
//
// Queries send only the fields that are set and must narrow the catalog;
// AllCars and its siblings iterate over pages. A non-2xx answer is an
// *APIError with the server's problem code. The contract is in docs/api.md.
package client
