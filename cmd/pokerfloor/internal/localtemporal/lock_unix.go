//go:build unix

package localtemporal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDataDir takes an exclusive lock on dir for as long as the server runs: two servers on one
// SQLite file would fight over its one history shard. The lock goes with the process, so a crash
// leaves nothing to clean up.
func lockDataDir(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock the data folder: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &InUseError{Dir: dir}
		}
		return nil, fmt.Errorf("lock the data folder: %w", err)
	}
	return func() { _ = f.Close() }, nil
}
