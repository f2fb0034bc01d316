package cli

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
)

// binder stores a command's positional arguments in its options or checks
// its flags; the first error (a usage error) stops the command.
type binder func(args []string) error

// runCmd is the RunE of every command: the binders fill opts in order, then
// runF, a test's hook, gets opts; without one, run does the work.
func runCmd[O any](f *Factory, opts *O, runF func(*O) error, run func(context.Context, *Factory, *O) error, bind ...binder) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		for _, b := range bind {
			if err := b(args); err != nil {
				return err
			}
		}
		if runF != nil {
			return runF(opts)
		}
		return run(cmd.Context(), f, opts)
	}
}

// noArgsCmd gives cmd, which takes no arguments, the RunE of runCmd.
func noArgsCmd[O any](f *Factory, opts *O, runF func(*O) error, run func(context.Context, *Factory, *O) error, cmd *cobra.Command, bind ...binder) *cobra.Command {
	cmd.Args = noArgs
	cmd.RunE = runCmd(f, opts, runF, run, bind...)
	return cmd
}

func argsTo(dst ...*string) binder {
	return func(args []string) error {
		for i, p := range dst {
			*p = args[i]
		}
		return nil
	}
}

func kindArg(dst *client.Kind) binder {
	return func(args []string) (err error) {
		*dst, err = parseType(args[0])
		return err
	}
}

func uuidArg(i int, dst *string) binder {
	return func(args []string) error {
		if err := checkUUID(args[i]); err != nil {
			return err
		}
		*dst = args[i]
		return nil
	}
}

// required refuses an empty --name flag, whose value is at v.
func required(name string, v *string) binder {
	return func([]string) error { return requireFlag(name, *v) }
}

func groupCmd(cmd *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	cmd.Args = noArgs
	cmd.AddCommand(subs...)
	return cmd
}
