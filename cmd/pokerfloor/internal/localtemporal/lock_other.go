//go:build !unix

package localtemporal

// lockDataDir does nothing where there is no flock: the caller keeps one run to a folder.
func lockDataDir(string) (func(), error) { return func() {}, nil }
