// Package shareddata finds the shared test data (real hand histories and the like) that pokerfloor's
// tests read but the repository never holds: it lives beside the checkout, at ../shared/testdata
// from the repository root, or wherever POKERFLOOR_TESTDATA points.
//
// It is for tests only. It never copies or downloads data.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the environment variable that, when set, is the test data folder.
const EnvVar = "POKERFLOOR_TESTDATA"

// Dir returns the shared test data folder (the one holding phh/). It looks at $POKERFLOOR_TESTDATA
// first, then walks up from the test's working directory looking for shared/testdata, which finds
// ../shared/testdata from the repository root. When the folder is missing the test fails if CI=true
// (data that CI expects must not silently vanish) and is skipped otherwise.
func Dir(t testing.TB) string {
	t.Helper()
	dir, tried := find()
	if dir != "" {
		return dir
	}
	const msg = "shared test data not found (looked at %s); set %s to the folder that holds phh/"
	if os.Getenv("CI") == "true" {
		t.Fatalf(msg, tried, EnvVar)
	}
	t.Skipf(msg, tried, EnvVar)
	return ""
}

// Find returns the shared test data folder as Dir finds it, or ok false when there is none; for
// callers that can do without it, such as fuzz targets adding seeds.
func Find() (dir string, ok bool) {
	dir, _ = find()
	return dir, dir != ""
}

// find returns the test data folder, or "" and a description of where it looked.
func find() (dir, tried string) {
	if env := os.Getenv(EnvVar); env != "" {
		if isDir(env) {
			return env, ""
		}
		return "", "$" + EnvVar + "=" + env
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", "the working directory (" + err.Error() + ")"
	}
	for d := wd; ; {
		if c := filepath.Join(d, "shared", "testdata"); isDir(c) {
			return c, ""
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "shared/testdata in every folder above " + wd
		}
		d = parent
	}
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
