// Package lists keeps accounts' saved lists; views.NewLists marks missing items.
package lists

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/textcheck"
)

// List limits, so no account grows the database unbounded; MaxLists counts the default.
const (
	MaxListName = 100
	MaxLists    = 50
)

// Errors of list operations; ErrNotFound and ErrConflict are the store's.
var (
	ErrNotFound      = store.ErrNotFound
	ErrConflict      = store.ErrConflict
	ErrUnknownRecord = errors.New("no such record in the catalog")
	ErrDefaultList   = errors.New("the default list cannot be deleted")
	ErrListName      = fmt.Errorf("a list name has 1 to %d characters", MaxListName)
	ErrTooManyLists  = fmt.Errorf("an account has at most %d lists; delete one first", MaxLists)
	ErrNoteTooLong   = fmt.Errorf("note is longer than %d characters", account.MaxNoteLen)
)

// Service implements list operations, each on one account's lists.
type Service struct {
	st     store.Store
	now    func() time.Time
	decode VINDecoder
}

// VINDecoder decodes a VIN to save: the VIN as decoded and what is kept of
// the decode; lookup.Service.ListDecode is one.
type VINDecoder func(ctx context.Context, raw string) (string, account.VINDecode, error)

// SetVINDecoder lets AddVIN decode VINs with d.
func (s *Service) SetVINDecoder(d VINDecoder) { s.decode = d }

// ErrNoVINDecoder: AddVIN was called on a Service without a decoder.
var ErrNoVINDecoder = errors.New("VIN decoding is not available here")

// New returns a Service on st.
func New(st store.Store) *Service {
	return &Service{st: st, now: account.Now}
}

// Lists returns the account's lists with their items, the default first.
func (s *Service) Lists(ctx context.Context, accountID string) ([]account.List, error) {
	return s.st.Lists(ctx, accountID)
}

// Default returns the account's default list, the garage, without items.
func (s *Service) Default(ctx context.Context, accountID string) (account.List, error) {
	l, err := s.st.DefaultList(ctx, accountID)
	l.AccountID = accountID
	return l, err
}

// List returns one of the account's lists without items; another's is ErrNotFound.
func (s *Service) List(ctx context.Context, accountID, listID string) (account.List, error) {
	if err := textcheck.Field("list id", listID, textcheck.Line); err != nil {
		return account.List{}, err
	}
	l, err := s.st.ListByID(ctx, accountID, listID)
	if errors.Is(err, store.ErrNotFound) {
		return l, fmt.Errorf("no list with id %s: %w", listID, store.ErrNotFound)
	}
	return l, err
}

// Create adds a named list to the account; names are unique per account.
func (s *Service) Create(ctx context.Context, accountID, name string) (account.List, error) {
	if err := textcheck.Field("list name", name, textcheck.Line); err != nil {
		return account.List{}, err
	}
	name = strings.Join(strings.Fields(name), " ")
	if name == "" || len(name) > MaxListName {
		return account.List{}, ErrListName
	}
	l := account.List{ID: account.NewID("lst"), AccountID: accountID, Name: name, CreatedAt: s.now(), Items: []account.ListItem{}}
	if err := s.st.CreateList(ctx, l, MaxLists); err != nil {
		if errors.Is(err, store.ErrLimit) {
			return account.List{}, ErrTooManyLists
		}
		return account.List{}, err
	}
	return l, nil
}

// Delete deletes a list with its items, except the default (ErrDefaultList).
func (s *Service) Delete(ctx context.Context, accountID, listID string) error {
	l, err := s.List(ctx, accountID, listID)
	if err != nil {
		return err
	}
	if l.IsDefault {
		return ErrDefaultList
	}
	return s.st.DeleteList(ctx, accountID, listID)
}

// checkNote checks the note and the list of an item to add; the note trimmed.
func (s *Service) checkNote(ctx context.Context, accountID, listID, note string) (string, error) {
	if err := textcheck.Field("note", note, textcheck.Multiline); err != nil {
		return "", err
	}
	note = strings.TrimSpace(note)
	if len(note) > account.MaxNoteLen {
		return "", ErrNoteTooLong
	}
	_, err := s.List(ctx, accountID, listID)
	return note, err
}

// AddVIN decodes a VIN and saves it with its decode; an invalid VIN is
// refused with the decoder's reason.
func (s *Service) AddVIN(ctx context.Context, accountID, listID, raw, note string) (account.ListItem, error) {
	note, err := s.checkNote(ctx, accountID, listID, note)
	if err != nil {
		return account.ListItem{}, err
	}
	if s.decode == nil {
		return account.ListItem{}, ErrNoVINDecoder
	}
	vin, d, err := s.decode(ctx, raw)
	if err != nil {
		return account.ListItem{}, err
	}
	item := account.ListItem{Kind: account.KindVIN, UUID: account.VINItemID(vin), VIN: &vin, Decode: &d, Note: note, AddedAt: s.now()}
	if err := s.st.AddListItem(ctx, listID, item); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return account.ListItem{}, fmt.Errorf("VIN %s is already in the list: %w", vin, store.ErrConflict)
		}
		return account.ListItem{}, err
	}
	return item, nil
}

// Add adds a catalog record to a list; the item stays if the record leaves later.
func (s *Service) Add(ctx context.Context, accountID, listID string, kind catalog.Kind, id uuid.UUID, note string) (account.ListItem, error) {
	note, err := s.checkNote(ctx, accountID, listID, note)
	if err != nil {
		return account.ListItem{}, err
	}
	ok, err := s.st.HasRecord(ctx, kind, id)
	if err != nil {
		return account.ListItem{}, err
	}
	if !ok {
		return account.ListItem{}, fmt.Errorf("%s %s: %w", kind, id, ErrUnknownRecord)
	}
	item := account.ListItem{Kind: kind, UUID: id, Note: note, AddedAt: s.now()}
	return item, s.st.AddListItem(ctx, listID, item)
}

// Remove removes a record from one of the account's lists.
func (s *Service) Remove(ctx context.Context, accountID, listID string, kind catalog.Kind, id uuid.UUID) error {
	if _, err := s.List(ctx, accountID, listID); err != nil {
		return err
	}
	return s.st.RemoveListItem(ctx, listID, kind, id)
}

// Recalls returns the recall campaigns sighted on the account's items.
func (s *Service) Recalls(ctx context.Context, accountID string) ([]store.ItemRecall, error) {
	return s.st.ItemRecalls(ctx, accountID)
}

// SetDealtWith marks a campaign on one of the account's items dealt with,
// with a note, or (dealt false) open again.
func (s *Service) SetDealtWith(ctx context.Context, accountID string, ref store.ItemRef, campaign string, dealt bool, note string) error {
	if err := textcheck.Field("campaign", campaign, textcheck.Line); err != nil {
		return err
	}
	if err := textcheck.Field("note", note, textcheck.Multiline); err != nil {
		return err
	}
	note = strings.TrimSpace(note)
	if len(note) > account.MaxNoteLen {
		return ErrNoteTooLong
	}
	var at *time.Time
	if dealt {
		now := s.now()
		at = &now
	}
	return s.st.SetRecallDealtWith(ctx, accountID, ref, campaign, at, note)
}

// MarkRecallsSeen makes the account's new campaigns no longer new: the user has looked.
func (s *Service) MarkRecallsSeen(ctx context.Context, accountID string) error {
	return s.st.MarkRecallsSeen(ctx, accountID)
}
