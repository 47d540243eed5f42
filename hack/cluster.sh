#!/usr/bin/env bash
# Starts (or, with "down", deletes) a local Kubernetes cluster without containers: etcd,
# kube-apiserver, kube-scheduler and kube-controller-manager as processes, kwok playing the kubelet
# (fake nodes; Pods scheduled onto them become Running), assembled by kwokctl from the binaries that
# hack/setup-cluster.sh builds and caches. pokerfloor's CRDs and roles are applied, and the last line
# printed is the kubeconfig to use:
#   export KUBECONFIG=$(hack/cluster.sh | tail -n 1); kubectl apply -f config/samples/tournament-home-game.yaml
# NODES (default 10) fake nodes; CLUSTER_NAME (pokerfloor); state in ${XDG_CACHE_HOME:-~/.cache}/pokerfloor/kwok.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
name="${CLUSTER_NAME:-pokerfloor}"
export KWOK_WORKDIR="${KWOK_WORKDIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pokerfloor/kwok}"
bin=$("$here/setup-cluster.sh" | tail -n 1)
log() { printf 'cluster: %s\n' "$*" >&2; }

if [[ "${1:-up}" == down ]]; then
  "$bin/kwokctl" delete cluster --name "$name" >&2
  exit 0
fi

kubeconfig="$KWOK_WORKDIR/clusters/$name/kubeconfig.pokerfloor"
if ! "$bin/kwokctl" get clusters 2>/dev/null | grep -qx "$name"; then
  log "creating cluster $name (binaries from $bin)"
  "$bin/kwokctl" create cluster --name "$name" --runtime binary \
    --kube-apiserver-binary "$bin/kube-apiserver" --etcd-binary "$bin/etcd" \
    --kube-scheduler-binary "$bin/kube-scheduler" --kube-controller-manager-binary "$bin/kube-controller-manager" \
    --kwok-controller-binary "$bin/kwok" >&2
  "$bin/kwokctl" scale node --name "$name" --replicas "${NODES:-10}" >&2
else
  "$bin/kwokctl" start cluster --name "$name" >&2 || true
fi
"$bin/kwokctl" get kubeconfig --name "$name" >"$kubeconfig"
if command -v kubectl >/dev/null; then
  KUBECONFIG="$kubeconfig" kubectl apply -k "$here/../config" >&2
else
  log "kubectl not found: apply the CRDs yourself (kubectl apply -k config)"
fi
log "cluster $name is up; stop it with: hack/cluster.sh down"
echo "$kubeconfig"
