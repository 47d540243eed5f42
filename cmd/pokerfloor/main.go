// Command pokerfloor is the platform's one binary: today it plays a whole tournament on this machine
// (run), ranks hands, computes equities and replays hand histories; the manager, the Temporal worker
// and the table process join it as subcommands as they are built.
//
// Exit status: 0 on success, 2 for bad input (an unknown card, a duplicate, a wrong count, an unknown
// flag or command, an unreadable config file or one with an unknown key, a bad value), 130 when
// Ctrl-C (SIGINT) stopped it (143 for SIGTERM), 1 for anything else. Every failure prints one line
// to stderr.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// The first Ctrl-C (or SIGTERM) lets the command stop in order and say so; a second one ends
	// the process at once.
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-signals
		cancel(interruptedError{sig: sig})
		sig = <-signals
		fmt.Fprintf(os.Stderr, "\npokerfloor: %v again: stopping at once\n", sig)
		os.Exit(interruptedError{sig: sig}.exitStatus())
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(signals)
	os.Exit(code)
}

// run executes the command line args and returns the process's exit status. It is main without the
// process: the tests call it with their own args and buffers.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "pokerfloor: %v\n", err)
	var e *exitError
	if ie := interruption(ctx); ie != nil && !errors.As(err, &e) {
		return ie.exitStatus() // stopped by a signal before there was anything to keep
	}
	return exitCode(err)
}

// exitError is an error that carries the exit status the process should end with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitUsage is the status for input the command cannot accept, as for a shell builtin's misuse.
const exitUsage = 2

// usageError marks err as the caller's mistake: the process exits with status 2.
func usageError(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitUsage, err: err}
}

// usageErrorf is usageError with a formatted message.
func usageErrorf(format string, args ...any) error {
	return usageError(fmt.Errorf(format, args...))
}

// exitCode returns the status an error ends the process with: the one it carries, or 1.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}
