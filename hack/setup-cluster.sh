#!/usr/bin/env bash
# Builds, once, the parts of a Kubernetes cluster without containers (ARCHITECTURE.md, "Tests
# against real parts") and caches them beside the envtest binaries:
#   - kube-scheduler and kube-controller-manager from k8s.io/kubernetes, by build_kubernetes
#     (hack/lib.sh), as hack/setup-envtest.sh builds kube-apiserver; both in one `go build`;
#   - kwok and kwokctl from sigs.k8s.io/kwok (its go.mod has no replace directives, so `go install
#     module@version` builds it as released): kwok plays the kubelet's part (Pods scheduled onto
#     fake nodes become Running without containers), kwokctl assembles the cluster from local binaries.
# kube-apiserver and etcd come from hack/setup-envtest.sh. Every build runs under `nice -n 19`: the
# machine is shared. The last line printed is the folder holding all seven binaries and kwok-stages.yaml.
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-1.37.2}"
KWOK_VERSION="${KWOK_VERSION:-v0.8.0}"
here=$(cd "$(dirname "$0")" && pwd)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/pokerfloor/cluster/${K8S_VERSION}-kwok-${KWOK_VERSION}"
# shellcheck source=hack/lib.sh
source "$here/lib.sh"

log() { printf 'setup-cluster: %s\n' "$*" >&2; }

envtest=$("$here/setup-envtest.sh" | tail -n 1)
mkdir -p "$cache"
for b in kube-apiserver etcd; do ln -sf "$envtest/$b" "$cache/$b"; done

export GOFLAGS="-mod=mod -buildvcs=false"
export CGO_ENABLED=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ ! -x "$cache/kube-scheduler" || ! -x "$cache/kube-controller-manager" ]]; then
  log "building kube-scheduler and kube-controller-manager ${K8S_VERSION} (3 minutes here with kube-apiserver's build in Go's cache, once)"
  build_kubernetes "$K8S_VERSION" "$work/k8s" "$cache" kube-scheduler kube-controller-manager
fi

if [[ ! -x "$cache/kwok" || ! -x "$cache/kwokctl" ]]; then
  log "building kwok and kwokctl ${KWOK_VERSION} (a few minutes, once)"
  GOBIN="$work/bin" nice -n 19 go install -trimpath -ldflags="-s -w" \
    "sigs.k8s.io/kwok/cmd/kwok@${KWOK_VERSION}" "sigs.k8s.io/kwok/cmd/kwokctl@${KWOK_VERSION}"
  mv "$work/bin/kwok" "$work/bin/kwokctl" "$cache/"
fi

# kwok moves nodes and Pods through stages; kwokctl passes its "fast" ones, a kwok started alone
# (the scale test) reads them from this file: nodes become Ready, Pods Running and Ready, deleted
# Pods go at once.
if [[ ! -s "$cache/kwok-stages.yaml" ]]; then
  kwok_dir=$(cd "$work" && go mod download -json "sigs.k8s.io/kwok@${KWOK_VERSION}" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  for f in node/fast/node-initialize pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete; do
    echo "---"
    cat "$kwok_dir/kustomize/stage/$f.yaml"
  done >"$cache/kwok-stages.yaml.tmp.$$" # this run's own name (two runs at once share no file)
  mv "$cache/kwok-stages.yaml.tmp.$$" "$cache/kwok-stages.yaml"
fi

log "cluster binaries ready"
echo "$cache"
