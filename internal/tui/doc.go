// Package tui is `vds tui`, a bubbletea terminal UI over the public client.
// The root Model holds a stack of pages; an answer is addressed to the page
// that asked, and dropped once the user left it.
package tui
