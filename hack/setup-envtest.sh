#!/usr/bin/env bash
# Builds the envtest binaries (kube-apiserver and etcd) from the Go module proxy, once, and caches them.
#
# envtest needs a real kube-apiserver and etcd. They cannot be downloaded as release binaries here, so
# this script builds them from source modules:
#   - kube-apiserver from k8s.io/kubernetes (build_kubernetes in hack/lib.sh: a throw-away module
#     that points every staging module at its published v0.<minor>.<patch> release);
#   - etcd from go.etcd.io/etcd/server/v3.
# The binaries go to ${XDG_CACHE_HOME:-$HOME/.cache}/pokerfloor/envtest/<version>; a second run finds
# them there and builds nothing. The last line printed is that folder, for KUBEBUILDER_ASSETS.
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-1.37.2}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pokerfloor/envtest/${K8S_VERSION}"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=hack/lib.sh
source "$here/lib.sh"

log() { printf 'setup-envtest: %s\n' "$*" >&2; }

if [[ -x "$cache/kube-apiserver" && -x "$cache/etcd" ]]; then
  echo "$cache"
  exit 0
fi
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOFLAGS="-mod=mod -buildvcs=false"
export CGO_ENABLED=0

if [[ ! -x "$cache/kube-apiserver" ]]; then
  log "building kube-apiserver ${K8S_VERSION} (about 10 minutes on 2 cores, once)"
  build_kubernetes "$K8S_VERSION" "$work/apiserver" "$cache" kube-apiserver
fi

if [[ ! -x "$cache/etcd" ]]; then
  log "building etcd ${ETCD_VERSION} (a few minutes, once)"
  mkdir -p "$work/etcd"
  cd "$work/etcd"
  go mod init pokerfloor.local/envtest-etcd >/dev/null 2>&1
  go mod edit -go=1.26
  go mod edit -require="go.etcd.io/etcd/server/v3@${ETCD_VERSION}"
  cat >tools.go <<'GO'
//go:build tools

package tools

import _ "go.etcd.io/etcd/server/v3/etcdmain"
GO
  cat >main.go <<'GO'
// Command etcd is etcd's own main, built from go.etcd.io/etcd/server/v3.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  go mod tidy >/dev/null
  # Built beside its place under this run's own name, then renamed: the cache never holds half a
  # binary, and two runs building at once (two suites side by side on a fresh machine) do not
  # share a file.
  nice -n 19 go build -trimpath -ldflags="-s -w" -o "$cache/etcd.tmp.$$" .
  mv "$cache/etcd.tmp.$$" "$cache/etcd"
fi

log "envtest binaries ready"
echo "$cache"
