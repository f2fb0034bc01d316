package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
)

// pageID names a page; fetch results carry it and are dropped once that page left.
type pageID int

type addr struct{ id pageID }

func (a addr) target() pageID { return a.id }

type addressed interface{ target() pageID }

// errMsg is a failed fetch: status line, and the page stops loading.
type errMsg struct {
	addr
	// what failed: "load car makes".
	what string
	err  error
	// retry is the fetch that failed, for the r key.
	retry tea.Cmd
}

type makesMsg struct {
	addr
	makes []client.MakeCount
}

type modelsMsg struct {
	addr
	models []client.ModelRange
}

type recordsMsg struct {
	addr
	page int
	rows []record
	meta client.Meta
	next int // next API page, 0 on the last reachable one
	prev int // previous API page, 0 on the first
}

type recordMsg struct {
	addr
	rec record
}

type vinMsg struct {
	addr
	report *client.VINReport
}

type hinMsg struct {
	addr
	report *client.HINReport
}

type garageMsg struct {
	addr
	lists []client.List
}

// openMsg asks the root to push a page: pages never touch the stack.
type openMsg struct{ p page }
