package tui

import (
	"context"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Run runs the TUI full-screen until the user quits or ctx is done.
func Run(ctx context.Context, c Client, in io.Reader, out io.Writer) error {
	// The renderer looks at out, not stdout, for the colour profile and
	// NO_COLOR.
	m := New(c, WithContext(ctx), WithRenderer(lipgloss.NewRenderer(out)))
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen())
	_, err := p.Run()
	return err
}
