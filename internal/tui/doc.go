// Package tui is `vds tui`, a terminal UI on bubbletea v1 that browses the
// catalog through the public client: pick a record type, its makes (with
// counts, filterable), their models (with year ranges), the matching
// records page by page and one record in full; from a car its tire
// fitments with geometry and its recalls; a VIN decoder that links to
// catalog records; and the user's garage.
//
// The root Model owns what every page shares (size, styles, key map, the
// Client) and a stack of pages: entering a page pushes it, Esc pops it.
// Pages never do I/O in Update or View. Each fetch is a tea.Cmd that calls
// the Client and returns a message addressed to the page that asked, so an
// answer that arrives after the user has left that page is dropped instead
// of landing on whatever is on screen.
package tui
