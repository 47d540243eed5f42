package localtemporal

import (
	"context"
	"errors"
	"strings"

	"go.uber.org/zap/zapcore"
)

// expectedCore logs at warn level, not error, the server's lines about things a client asked for and
// the platform expects: an Update aborted because its workflow closed or continued as new while the
// Update waited (the table's reporter retries it and is answered by the next run), an operation whose
// caller cancelled it (a run ending with a call in flight), and a call answered "Frontend is not
// healthy yet" while the server starts (the SDK's client retries it). None is a fault of the server
// or of the tournament; at error level they read as one in `--verbose` and fail the checks that a
// normal run logs no error.
type expectedCore struct{ zapcore.Core }

func (c expectedCore) With(fields []zapcore.Field) zapcore.Core {
	return expectedCore{c.Core.With(fields)}
}

func (c expectedCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c expectedCore) Write(e zapcore.Entry, fields []zapcore.Field) error {
	if e.Level == zapcore.ErrorLevel && expected(fields) {
		e.Level = zapcore.WarnLevel
	}
	return c.Core.Write(e, fields)
}

// expected reports whether the line's error is one of those expectedCore demotes.
func expected(fields []zapcore.Field) bool {
	for _, f := range fields {
		if f.Key != "error" {
			continue
		}
		var msg string
		switch f.Type {
		case zapcore.ErrorType:
			err, _ := f.Interface.(error)
			if err == nil {
				continue
			}
			if errors.Is(err, context.Canceled) {
				return true
			}
			msg = err.Error()
		case zapcore.StringType:
			msg = f.String
		default:
			continue
		}
		if strings.Contains(msg, "workflow update was aborted") || strings.Contains(msg, "Frontend is not healthy yet") ||
			msg == context.Canceled.Error() {
			return true
		}
	}
	return false
}
