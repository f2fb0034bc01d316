package tui

import (
	"github.com/vds-dev/vds/client"
)

// pageID names a page on the stack. Fetch results carry the id of the page
// that asked for them: the root delivers them to that page if it is still
// on the stack and drops them otherwise.
type pageID int

// addr is embedded in every message meant for one page.
type addr struct{ id pageID }

// target returns the page the message is for.
func (a addr) target() pageID { return a.id }

// addressed is a message meant for one page.
type addressed interface{ target() pageID }

// errMsg is a failed fetch. The root shows it in the status line and hands
// it to the page so that it stops loading.
type errMsg struct {
	addr
	err error
}

// makesMsg carries the makes of a record type.
type makesMsg struct {
	addr
	makes []client.MakeCount
}

// modelsMsg carries the models of a make.
type modelsMsg struct {
	addr
	models []client.ModelRange
}

// recordsMsg carries one API page of records.
type recordsMsg struct {
	addr
	page int
	rows []record
	meta client.Meta
	next int // next API page, 0 on the last reachable one
	prev int // previous API page, 0 on the first
}

// recordMsg carries one record fetched by uuid.
type recordMsg struct {
	addr
	rec record
}

// tiresMsg carries tire fitments with their geometry.
type tiresMsg struct {
	addr
	tires tireReport
}

// recallsMsg carries recalls, and for a car its crash ratings.
type recallsMsg struct {
	addr
	recalls recallReport
}

// vinMsg carries a decoded VIN.
type vinMsg struct {
	addr
	report *client.VINReport
}

// garageMsg carries the user's saved lists.
type garageMsg struct {
	addr
	lists []client.List
}

// openMsg asks the root to push a page. Pages navigate by returning it
// from a command rather than touching the stack, which the root owns.
type openMsg struct{ p page }
