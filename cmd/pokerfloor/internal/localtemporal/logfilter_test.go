package localtemporal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// The server's error lines about an aborted Update or a caller's cancellation come out at warn level;
// every other error line stays an error.
func TestExpectedErrorsAreWarnings(t *testing.T) {
	var buf bytes.Buffer
	core := expectedCore{zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(&buf), zapcore.InfoLevel)}
	l := zap.New(core).With(zap.String("service", "history"))
	l.Error("service failures", zap.Error(errors.New("workflow update was aborted")))
	l.Error("Update workflow execution operation failed.", zap.Error(fmt.Errorf("store: %w", context.Canceled)))
	l.Error("Update workflow execution operation failed.", zap.String("error", "context canceled"))
	l.Error("service failures", zap.Error(errors.New("Frontend is not healthy yet")))
	l.Error("persistence failure", zap.Error(errors.New("database is locked")))
	l.Error("no error field")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{"warn", "warn", "warn", "warn", "error", "error"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, l := range lines {
		if !strings.Contains(l, `"level":"`+want[i]+`"`) {
			t.Errorf("line %d: want level %s: %s", i+1, want[i], l)
		}
	}
}
