package hin

import (
	"strings"
	"testing"
)

func TestReadList(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"csv":      "\ufeffMIC,Company,Address,City,State\nBWC,BOSTON WHALER INC,100 WHALER WAY,EDGEWATER,FL\n4WN,\"FOUR WINNS, INC\",4 WINN WAY,CADILLAC,MI\n",
		"csv cols": "state,city,address,company,mic\nFL,EDGEWATER,100 WHALER WAY,BOSTON WHALER INC,BWC\nMI,CADILLAC,4 WINN WAY,\"FOUR WINNS, INC\",4WN\n",
		"json":     ` [{"mic":"BWC","company":"BOSTON WHALER INC","address":"100 WHALER WAY","city":"EDGEWATER","state":"FL"},{"mic":"4WN","company":"FOUR WINNS, INC"}]`,
		"uscg":     `{"MICDDATA":[{"MIC":"BWC","Company":"BOSTON WHALER INC","Address":"100 WHALER WAY","City":"EDGEWATER","State":"FL"},{"MIC":"4WN","Company":"FOUR WINNS, INC"}]}`,
	} {
		list, err := ReadList(strings.NewReader(in))
		if err != nil || len(list) != 2 || list[0].MIC != "BWC" || list[0].City != "EDGEWATER" || list[1].Company != "FOUR WINNS, INC" {
			t.Errorf("%s: %+v, %v", name, list, err)
		}
	}
	for in, want := range map[string]string{
		"":                                 "empty",
		"mic,company\nBWC,X\n":             "no address column",
		"mic,company,address,city,state\n": "no entries",
		"mic,company,address,city,state\nBW,X,,,\n":            `line 2: MIC "BW" is not 3`,
		"mic,company,address,city,state\nBWC,X,,,\nbwc,Y,,,\n": "line 3: MIC bwc is given twice (first at 2)",
		"mic,company,address,city,state\nBWC, ,,,\n":           "line 2: MIC BWC has no company",
		`{"rows":[]}`:                   `no "MICDDATA"`,
		`[{"mic":"B#C","company":"X"}]`: `entry 1: MIC "B#C"`,
		`[{"mic":1}]`:                   "not a MIC list",
	} {
		_, err := ReadList(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadList(%q) = %v, want %q", in, err, want)
		}
	}
}
