package tui

import (
	"reflect"
	"testing"
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
