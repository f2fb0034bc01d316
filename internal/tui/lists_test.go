package tui

import (
	"reflect"
	"testing"

	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
)

func TestSubstringFilter(t *testing.T) {
	t.Parallel()
	targets := []string{"Honda", "Tesla", "Toyota", "Lotus", "Škoda"}
	tests := []struct {
		term      string
		wantIdx   []int
		wantMatch [][]int
	}{
		{"toy", []int{2}, [][]int{{0, 1, 2}}},
		{"TOY", []int{2}, [][]int{{0, 1, 2}}},
		// Prefix matches first, then the rest in list order.
		{"o", []int{0, 2, 3, 4}, [][]int{{1}, {1}, {1}, {2}}},
		{"t", []int{1, 2, 3}, [][]int{{0}, {0}, {2}}},
		{"ško", []int{4}, [][]int{{0, 1, 2}}},
		{"xyz", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.term, func(t *testing.T) {
			ranks := substringFilter(tt.term, targets)
			var idx []int
			var match [][]int
			for _, r := range ranks {
				idx = append(idx, r.Index)
				match = append(match, r.MatchedIndexes)
			}
			if !reflect.DeepEqual(idx, tt.wantIdx) || !reflect.DeepEqual(match, tt.wantMatch) {
				t.Errorf("substringFilter(%q) = %v %v, want %v %v", tt.term, idx, match, tt.wantIdx, tt.wantMatch)
			}
		})
	}
}

// TestUpdateListStaleMatches: the matches for "t" arriving after those for
// "toy" do not replace them.
func TestUpdateListStaleMatches(t *testing.T) {
	t.Parallel()
	c := &common{styles: NewStyles(nil)}
	l := newList(c, "make", "makes", true)
	l.SetSize(80, 20)
	setRows(&l, []row{{title: "Honda"}, {title: "Tesla"}, {title: "Toyota"}})
	l, _ = updateList(l, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")})
	var matches []tea.Msg
	for _, r := range "toy" {
		var cmd tea.Cmd
		l, cmd = updateList(l, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		matches = append(matches, filterMatches(t, cmd))
	}
	for _, i := range []int{2, 0} { // "toy", then the stale "t"
		l, _ = updateList(l, matches[i])
	}
	var got []string
	for _, it := range l.VisibleItems() {
		got = append(got, it.FilterValue())
	}
	if !reflect.DeepEqual(got, []string{"Toyota"}) || l.FilterState() != list.Filtering || l.FilterValue() != "toy" {
		t.Errorf("visible %v, state %v, filter %q; want [Toyota] while still filtering \"toy\"", got, l.FilterState(), l.FilterValue())
	}
}

// filterMatches runs cmd and returns the list.FilterMatchesMsg it yields.
func filterMatches(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	var find func(tea.Cmd) tea.Msg
	find = func(cmd tea.Cmd) tea.Msg {
		if cmd == nil {
			return nil
		}
		switch msg := cmd().(type) {
		case list.FilterMatchesMsg:
			return msg
		case tea.BatchMsg:
			for _, c := range msg {
				if m := find(c); m != nil {
					return m
				}
			}
		}
		return nil
	}
	m := find(cmd)
	if m == nil {
		t.Fatal("the keystroke started no filtering")
	}
	return m
}
