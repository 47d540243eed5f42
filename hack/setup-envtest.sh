#!/usr/bin/env bash
# Builds the envtest binaries (kube-apiserver and etcd) from the Go module proxy, once, and caches them.
#
# envtest needs a real kube-apiserver and etcd. They cannot be downloaded as release binaries here, so
# this script builds them from source modules:
#   - kube-apiserver from k8s.io/kubernetes, in a throw-away module that replaces every staging module
#     (listed as v0.0.0 in kubernetes' own go.mod) with its published v0.<minor>.<patch> release;
#   - etcd from go.etcd.io/etcd/server/v3.
# The binaries go to ${XDG_CACHE_HOME:-$HOME/.cache}/pokerfloor/envtest/<version>; a second run finds
# them there and builds nothing. The last line printed is that folder, for KUBEBUILDER_ASSETS.
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-1.37.2}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pokerfloor/envtest/${K8S_VERSION}"
staging="v0.${K8S_VERSION#1.}"

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
  mkdir -p "$work/apiserver"
  cd "$work/apiserver"
  go mod init pokerfloor.local/envtest-apiserver >/dev/null 2>&1
  go mod edit -go=1.26
  # kubernetes' go.mod requires its staging modules at v0.0.0 and replaces them with ./staging paths;
  # read that list and point each at the published release instead.
  go mod download -json "k8s.io/kubernetes@v${K8S_VERSION}" >"$work/k8s.json"
  gomod=$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' "$work/k8s.json")
  [[ -f "$gomod" ]] || { log "could not find kubernetes' go.mod in the module cache"; exit 1; }
  go mod edit -require="k8s.io/kubernetes@v${K8S_VERSION}"
  for m in $(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" {print $1}' "$gomod" | sort -u); do
    go mod edit -replace="$m=$m@${staging}"
  done
  # Use kubernetes' own pins for everything else, so the build sees the versions it was released with.
  awk '/^require \(/{r=1;next} r&&/^\)/{r=0} r&&NF>=2&&$1!~/^k8s\.io\/(kubernetes)$/ && $2!="v0.0.0" {print $1"@"$2}' "$gomod" |
    while read -r req; do go mod edit -require="$req"; done
  cat >tools.go <<'GO'
//go:build tools

package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
GO
  go mod tidy >/dev/null 2>&1 || true
  # Stamp the version as kubernetes' own build does (hack/lib/version.sh), or the server reports
  # v0.0.0-master. envtest itself does not read it (the API server then falls back to its built-in
  # 1.<minor> compatibility version), but discovery's /version and anything checking kubeVersion do.
  # The build date is the release's, from the module proxy, so two builds of one release are the same.
  info=$(sed -n 's/.*"Info": "\(.*\)".*/\1/p' "$work/k8s.json")
  build_date=$(sed -n 's/.*"Time":"\([^"]*\)".*/\1/p' "$info" 2>/dev/null || true)
  minor=${K8S_VERSION#*.}
  minor=${minor%%.*}
  ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=v${K8S_VERSION} -X $pkg.gitMajor=${K8S_VERSION%%.*} -X $pkg.gitMinor=${minor}"
    ldflags+=" -X $pkg.buildDate=${build_date:-1970-01-01T00:00:00Z}"
  done
  go build -trimpath -ldflags="$ldflags" -o "$cache/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver
  mv "$cache/kube-apiserver.tmp" "$cache/kube-apiserver"
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
  go build -trimpath -ldflags="-s -w" -o "$cache/etcd.tmp" .
  mv "$cache/etcd.tmp" "$cache/etcd"
fi

log "envtest binaries ready"
echo "$cache"
