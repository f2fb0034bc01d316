package cli_test

import (
	"io"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/cli"
)

// exampleSkips are the commands whose help examples cannot run against a
// client instance: operator commands that work on the machine's database
// or files, and serve, which runs until stopped. Every other command's
// examples must run against vds serve --demo.
var exampleSkips = map[string]string{
	"vds serve":                 "runs a server until interrupted",
	"vds ingest":                "reads catalog files of the machine",
	"vds enrich":                "downloads the EPA data set",
	"vds vpic import":           "imports a vPIC snapshot file",
	"vds vpic decode":           "decodes from an imported vPIC snapshot",
	"vds hin import":            "imports a MIC list file",
	"vds hin decode":            "decodes with the machine's database, reading a file",
	"vds accounts create":       "creates accounts in the database",
	"vds accounts set-password": "reads $NEW_PASSWORD or a terminal",
	"vds tokens create":         "creates tokens in the database",
	"vds healthcheck":           "probes the local server.addr, as a container's HEALTHCHECK",
}

// exampleLast names the commands whose examples end the session the
// others use: they run after all the rest.
var exampleLast = map[string]bool{"vds logout": true, "vds auth logout": true}

// exampleURL is the server the examples name: where vds serve listens by
// default. helpexamples points them at the script's server instead.
const exampleURL = "http://127.0.0.1:8080"

// helpexamples runs every line of every command's Example (but for
// exampleSkips) with bash in the script's environment, against the server
// at $URL, and fails on the first that exits non-zero, with its output;
// pipefail makes a failing vds before a pipe fail the line.
func cmdHelpExamples(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: helpexamples")
	}
	root := cli.NewRootCmd(cli.NewFactory(&cli.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}))
	seen := map[string]bool{}
	ran := 0
	run := func(path, line string) {
		line = strings.ReplaceAll(line, exampleURL, ts.Getenv("URL"))
		// Every line gets a time limit, so an example that never ends (one
		// that follows, say) fails rather than stalling the suite.
		if err := ts.Exec("timeout", "-s", "INT", "60", "bash", "-o", "pipefail", "-c", line); err != nil {
			ts.Fatalf("example of %s failed: %s: %v\nstdout:\n%s\nstderr:\n%s", path, line, err, ts.ReadFile("stdout"), ts.ReadFile("stderr"))
		}
		ts.Logf("ran %s", line)
		ran++
	}
	var last [][2]string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := c.CommandPath()
		if _, skip := exampleSkips[path]; skip {
			seen[path] = true
		} else {
			for line := range strings.SplitSeq(c.Example, "\n") {
				switch line = strings.TrimSpace(line); {
				case line == "":
				case exampleLast[path]:
					last = append(last, [2]string{path, line})
				default:
					run(path, line)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, l := range last {
		run(l[0], l[1])
	}
	for path := range exampleSkips {
		if !seen[path] {
			ts.Fatalf("exampleSkips names %s, which is not a command", path)
		}
	}
	if ran < 20 {
		ts.Fatalf("ran only %d example lines", ran)
	}
}
