package cli

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestRunCmd checks the shared RunE: binders in order up to the first
// error, then the test hook or, without one, the run function.
func TestRunCmd(t *testing.T) {
	type opts struct{ A, B string }
	f := testFactory()
	var ran []string
	run := func(_ context.Context, got *Factory, o *opts) error {
		if got != f {
			t.Error("run got another Factory")
		}
		ran = append(ran, "run "+o.A+o.B)
		return nil
	}
	newCmd := func(runF func(*opts) error, bind ...binder) *cobra.Command {
		o := &opts{}
		return &cobra.Command{Use: "x", RunE: runCmd(f, o, runF, run, append([]binder{argsTo(&o.A, &o.B)}, bind...)...)}
	}

	if err := runParsed(t, newCmd(nil), "a", "b"); err != nil || strings.Join(ran, ";") != "run ab" {
		t.Fatalf("without a hook: %v, ran %q", err, ran)
	}
	ran = nil
	hook := func(o *opts) error { ran = append(ran, "hook "+o.A+o.B); return nil }
	if err := runParsed(t, newCmd(hook), "c", "d"); err != nil || strings.Join(ran, ";") != "hook cd" {
		t.Fatalf("with a hook: %v, ran %q", err, ran)
	}
	ran = nil
	refuse := func([]string) error { ran = append(ran, "refuse"); return usageErrorf(errors.New("no")) }
	never := func([]string) error { ran = append(ran, "never"); return nil }
	if err := runParsed(t, newCmd(hook, refuse, never), "e", "f"); !isUsage(err) || strings.Join(ran, ";") != "refuse" {
		t.Fatalf("a refusing binder: %v, ran %q", err, ran)
	}
}

// TestListsItemRequiredFlags names the first missing flag in the order of
// the usage line, every time.
func TestListsItemRequiredFlags(t *testing.T) {
	for range 20 {
		err := runParsed(t, newListsItemCmd(testFactory(), true, func(*listItemOptions) error { return nil }), "--email", "a@b.c", "--uuid", "x")
		if !isUsage(err) || errText(err) != "--type is required" {
			t.Fatalf("got %v, want a usage error: --type is required", err)
		}
	}
}

// TestRootHelp: vds --help fits an 80×24 terminal with every command in it.
func TestRootHelp(t *testing.T) {
	f := testFactory()
	root := NewRootCmd(f)
	help := rootHelp(root)
	lines := strings.Split(strings.TrimSuffix(help, "\n"), "\n")
	if len(lines) > 23 {
		t.Errorf("vds --help is %d lines; it must leave a line for the prompt on a 24-line terminal:\n%s", len(lines), help)
	}
	for i, l := range lines {
		if len([]rune(l)) > 80 || strings.HasSuffix(l, " ") {
			t.Errorf("line %d is %d wide or ends in a space: %q", i+1, len([]rune(l)), l)
		}
	}
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() || c.Name() == "help" {
			continue
		}
		if c.GroupID != "" && briefs[c.Name()] == "" {
			t.Errorf("%s has no brief in the root help", c.Name())
		}
		if !strings.Contains(help, " "+c.Name()+" ") && !strings.Contains(help, " "+c.Name()+",") && !strings.Contains(help, " "+c.Name()+".") {
			t.Errorf("vds --help does not list %s", c.Name())
		}
	}
}
