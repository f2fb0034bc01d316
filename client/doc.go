// Package client is the Go SDK of the vds vehicle-data API: cars (with EPA
// fuel economy), motorcycles and other powersports vehicles, power boats,
// tire fitments with their geometry, and the caller's account and saved
// lists.
//
// Create a Client with the server's root URL and an API token, then call
// one typed method per endpoint:
//
//	c := client.New("http://localhost:8080", os.Getenv("VDS_TOKEN"))
//	page, err := c.ListCars(ctx, client.CarQuery{Make: "Toyota", Year: 2022})
//	if err != nil {
//		return err
//	}
//	for _, car := range page.Data {
//		fmt.Println(car.Year, car.Make, car.Model, car.Trim)
//	}
//	fmt.Println("next page:", page.NextPage, "quota left:", page.Rate.QuotaRemaining)
//
// # Queries
//
// List queries send a parameter only when its field is set, because the
// server rejects empty and unknown parameters instead of ignoring them. A
// list query must narrow the catalog (by make, model, free text, a type
// filter, a year, or a window of at most ten model years); otherwise the
// server answers 400 with code query_too_broad. Pages hold at most 10
// records and only pages 1 to 40 can be requested; Page.NextPage is 0 on
// the last reachable one, and AllCars and its siblings iterate over every
// page.
//
// # Errors
//
// A non-2xx answer is returned as an *APIError holding the server's
// problem document (status, stable code, detail, request id). Use
// errors.As, or the helpers IsNotFound, IsUnauthorized, IsForbidden,
// IsRateLimited and IsQuotaExceeded. Transport failures and context
// cancellation come back wrapped, so errors.Is(err, context.Canceled)
// works.
//
// # Retries
//
// Every call is a GET, so the Client retries it (twice by default, see
// WithRetries) after a network error or a 500, 502, 503 or 504, backing
// off exponentially with jitter, and after a 429 once the server's
// Retry-After has passed, unless that is longer than WithMaxRetryAfter
// allows. Other 4xx answers are final. The context bounds the whole call,
// waits included.
//
// # Response details
//
// Pages embed ResponseInfo: the request id and the rate-limit and quota
// state (RateInfo) that came with the response. For other calls pass
// CaptureInfo(&info). Nothing is kept on the Client between calls, so one
// Client can serve many goroutines.
package client
