# Shared by hack/setup-envtest.sh and hack/setup-cluster.sh (sourced, not run): building commands
# of k8s.io/kubernetes from the Go module proxy.
#
# kubernetes' go.mod requires its staging modules (k8s.io/api, k8s.io/apiserver, ...) at v0.0.0 and
# replaces them with ./staging paths, so `go install k8s.io/kubernetes/cmd/...@v1.x` cannot work.
# build_kubernetes makes a throw-away module that requires k8s.io/kubernetes, points each staging
# module at its published v0.<minor>.<patch>, takes kubernetes' own pins for everything else, and
# builds the commands in one `go build` (which shares the work between them), under nice -n 19:
# the machine is shared.

# build_kubernetes VERSION WORKDIR OUTDIR CMD... builds k8s.io/kubernetes/cmd/CMD for each CMD into
# OUTDIR, in a module made in WORKDIR.
build_kubernetes() {
  local version=$1 work=$2 out=$3
  shift 3
  local staging="v0.${version#1.}"
  (
    set -euo pipefail
    export GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0
    mkdir -p "$work/module" "$out"
    cd "$work/module"
    go mod init pokerfloor.local/kubernetes-commands >/dev/null 2>&1
    go mod edit -go=1.26
    go mod download -json "k8s.io/kubernetes@v${version}" >"$work/k8s.json"
    local gomod info
    gomod=$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' "$work/k8s.json")
    [[ -f "$gomod" ]] || { echo "could not find kubernetes' go.mod in the module cache" >&2; exit 1; }
    go mod edit -require="k8s.io/kubernetes@v${version}"
    local m
    for m in $(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" {print $1}' "$gomod" | sort -u); do
      go mod edit -replace="$m=$m@${staging}"
    done
    # kubernetes' own pins for everything else: the build sees the versions it was released with.
    awk '/^require \(/{r=1;next} r&&/^\)/{r=0} r&&NF>=2&&$1!~/^k8s\.io\/(kubernetes)$/ && $2!="v0.0.0" {print $1"@"$2}' "$gomod" |
      while read -r req; do go mod edit -require="$req"; done
    local pkgs=() c
    {
      echo '//go:build tools'
      echo
      echo 'package tools'
      echo
      for c in "$@"; do
        echo "import _ \"k8s.io/kubernetes/cmd/$c\""
        pkgs+=("k8s.io/kubernetes/cmd/$c")
      done
    } >tools.go
    go mod tidy >/dev/null 2>&1 || true
    # Stamp the version as kubernetes' own build does (hack/lib/version.sh), or the binaries report
    # v0.0.0-master (discovery's /version, anything checking kubeVersion). The build date is the
    # release's, from the module proxy, so two builds of one release are the same.
    info=$(sed -n 's/.*"Info": "\(.*\)".*/\1/p' "$work/k8s.json")
    local build_date minor ldflags="-s -w" pkg
    build_date=$(sed -n 's/.*"Time":"\([^"]*\)".*/\1/p' "$info" 2>/dev/null || true)
    minor=${version#*.}
    minor=${minor%%.*}
    for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
      ldflags+=" -X $pkg.gitVersion=v${version} -X $pkg.gitMajor=${version%%.*} -X $pkg.gitMinor=${minor}"
      ldflags+=" -X $pkg.buildDate=${build_date:-1970-01-01T00:00:00Z}"
    done
    mkdir -p "$work/bin"
    nice -n 19 go build -trimpath -ldflags="$ldflags" -o "$work/bin/" "${pkgs[@]}"
    # Moved in whole, under this run's own name first (the work folder may be on another file
    # system): a cache folder never holds half a binary.
    for c in "$@"; do
      mv "$work/bin/$c" "$out/$c.tmp.$$"
      mv "$out/$c.tmp.$$" "$out/$c"
    done
  )
}
