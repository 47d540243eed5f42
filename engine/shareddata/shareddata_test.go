package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDirFindsSharedData(t *testing.T) {
	dir := Dir(t)
	if !isDir(filepath.Join(dir, "phh")) {
		t.Fatalf("Dir() = %s, which holds no phh/ folder", dir)
	}
}

func TestDirHonoursEnvVar(t *testing.T) {
	want := t.TempDir()
	t.Setenv(EnvVar, want)
	if got := Dir(t); got != want {
		t.Fatalf("Dir() = %q with %s=%q, want %q", got, EnvVar, want, want)
	}
}

func TestFindReportsMissingEnvFolder(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	t.Setenv(EnvVar, missing)
	dir, tried := find()
	if dir != "" || tried == "" {
		t.Fatalf("find() = %q, %q for a missing folder; want \"\" and where it looked", dir, tried)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("find created the folder")
	}
}
