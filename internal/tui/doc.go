// Package tui is `vds tui`, a bubbletea terminal UI over the public client
// (docs/cli.md, The terminal UI). The root Model holds a stack of pages; each
// fetch is a tea.Cmd whose answer is addressed to the page that asked, so an
// answer arriving after the user left is dropped.
package tui
