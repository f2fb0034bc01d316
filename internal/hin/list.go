package hin

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ReadList reads a MIC list: CSV with the header mic,company,address,city,
// state (any order and case), or JSON, an array of objects with those keys
// or the Coast Guard export's {"MICDDATA": [...]}. It refuses the whole list
// at its first bad entry: a MIC that is not 3 letters or digits, no company,
// or a MIC given twice.
func ReadList(r io.Reader) ([]Manufacturer, error) {
	br := bufio.NewReader(r)
	first, err := firstByte(br)
	if err != nil {
		return nil, err
	}
	var list []Manufacturer
	if first == '[' || first == '{' {
		list, err = readJSON(br, first)
	} else {
		list, err = readCSV(br)
	}
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errors.New("the list has no entries")
	}
	return list, nil
}

func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return 0, errors.New("the list is empty")
		} else if err != nil {
			return 0, err
		}
		if b[0] == 0xEF { // a UTF-8 byte-order mark
			if _, err := br.Discard(3); err != nil {
				return 0, err
			}
			continue
		}
		if !bytes.ContainsAny(b, " \t\r\n") {
			return b[0], nil
		}
		_, _ = br.ReadByte()
	}
}

func readJSON(r io.Reader, first byte) ([]Manufacturer, error) {
	dec := json.NewDecoder(r)
	var list []Manufacturer
	var err error
	if first == '{' {
		var doc struct {
			MICDDATA *[]Manufacturer `json:"MICDDATA"`
		}
		err = dec.Decode(&doc)
		if err == nil && doc.MICDDATA == nil {
			return nil, errors.New(`the JSON object has no "MICDDATA" array`)
		}
		if doc.MICDDATA != nil {
			list = *doc.MICDDATA
		}
	} else {
		err = dec.Decode(&list)
	}
	if err != nil {
		return nil, fmt.Errorf("the JSON is not a MIC list: %w", err)
	}
	seen := map[string]int{}
	for i := range list {
		if err := check(&list[i], seen, i+1); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
	}
	return list, nil
}

var csvColumns = []string{"mic", "company", "address", "city", "state"}

func readCSV(r io.Reader) ([]Manufacturer, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("the CSV has no header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	idx := make([]int, len(csvColumns))
	for i, name := range csvColumns {
		j, ok := col[name]
		if !ok {
			return nil, fmt.Errorf("the CSV header has no %s column: it needs %s", name, strings.Join(csvColumns, ","))
		}
		idx[i] = j
	}
	var list []Manufacturer
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return list, nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, err
		}
		m := Manufacturer{MIC: rec[idx[0]], Company: rec[idx[1]], Address: rec[idx[2]], City: rec[idx[3]], State: rec[idx[4]]}
		if err := check(&m, seen, line); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		list = append(list, m)
	}
}

// check trims m's fields and validates them; seen maps each MIC, upper-cased,
// to where it was first given.
func check(m *Manufacturer, seen map[string]int, at int) error {
	for _, f := range []*string{&m.MIC, &m.Company, &m.Address, &m.City, &m.State} {
		*f = strings.TrimSpace(*f)
	}
	key := strings.ToUpper(m.MIC)
	if len(key) != 3 || !isAlnum(key[0]) || !isAlnum(key[1]) || !isAlnum(key[2]) {
		return fmt.Errorf("MIC %q is not 3 letters or digits", m.MIC)
	}
	if m.Company == "" {
		return fmt.Errorf("MIC %s has no company", m.MIC)
	}
	if prev, ok := seen[key]; ok {
		return fmt.Errorf("MIC %s is given twice (first at %d)", m.MIC, prev)
	}
	seen[key] = at
	return nil
}
