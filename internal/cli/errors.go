package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/vds-dev/vds/internal/store"
)

// Exit codes, documented in `vds --help`.
const (
	ExitOK        = 0
	ExitError     = 1
	ExitUsage     = 2
	ExitNotFound  = 3
	ExitInterrupt = 130
)

const exitCodesHelp = `Exit codes:
  0    success
  1    error (invalid input data, database or network failure)
  2    usage error (unknown command or flag, bad argument)
  3    not found (account, token or record)
  130  interrupted`

// FlagError is a usage mistake; it exits with ExitUsage.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// usageErrorf builds a FlagError.
func usageErrorf(err error) error { return &FlagError{Err: err} }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	var fe *FlagError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, context.Canceled):
		return ExitInterrupt
	case errors.As(err, &fe), strings.HasPrefix(err.Error(), "unknown command"):
		return ExitUsage
	case errors.Is(err, store.ErrNotFound):
		return ExitNotFound
	}
	return ExitError
}
