# pokerfloor's commands. `make test` and `make run` do all their own set-up on a fresh machine: Go
# fetches the modules, hack/setup-envtest.sh builds the envtest binaries once and caches them, and
# hack/setup-cluster.sh the rest of a cluster without containers.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

# Every package. (./... leaves out folders named testdata: no package may live in one.) Not the
# slowest first: that saved about two minutes of a warm suite alone, but with a second suite
# beside it the four heaviest packages (two workflows, two controllers) ran at once and both
# 100,000-entry tests missed their deadline.
PKGS := ./...
# Flags for `make run` (pokerfloor run --help lists them).
RUN_ARGS ?=
# Generous: the evaluator's tests enumerate every 7-card hand, and the first build of the
# Kubernetes packages is slow on 2 cores.
TEST_TIMEOUT ?= 80m
# `make bench BENCH=Eval7 PKG=./eval` runs a subset.
BENCH ?= .
PKG ?= ./...
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)

.PHONY: build test run demo bench generate lint envtest cluster cluster-down clean

## build: the binaries, into bin/
build:
	go build -ldflags "-X main.version=$(VERSION)" -o bin/ ./cmd/...

## test: every test, the envtest (kube-apiserver and etcd) ones included, and the scale test on a
## cluster without containers (hack/setup-cluster.sh: kube-scheduler, kube-controller-manager, kwok)
test:
	hack/setup-chromium.sh >/dev/null
	hack/setup-prometheus.sh >/dev/null
	assets=$$(hack/setup-envtest.sh | tail -n 1); \
	cluster=$$(hack/setup-cluster.sh | tail -n 1); \
	KUBEBUILDER_ASSETS="$$assets" POKERFLOOR_CLUSTER_ASSETS="$$cluster" go test -timeout $(TEST_TIMEOUT) $(PKGS)

## run: a whole 180-player tournament on this machine (embedded Temporal, in-process bot tables);
## RUN_ARGS passes flags: make run RUN_ARGS="--players 1000 --output json"
run: build
	bin/pokerfloor run $(RUN_ARGS)

## demo: rank a hand and compute an equity from the command line
demo: build
	bin/pokerfloor eval Ah Kh Qh Jh Th 2c 3d
	bin/pokerfloor equity AsKs QdQc

## bench: the benchmarks, with allocations
bench:
	go test -run '^$$' -bench '$(BENCH)' -benchmem $(PKG)

## generate: regenerate every generated file (controller-gen writes api/v1alpha1's deepcopy and
## config/crd/bases from the kubebuilder markers: the go:generate line in api/v1alpha1/doc.go)
generate:
	go generate ./...
	go generate ./charts # the chart's copies of config/, after controllers' role

## lint: gofmt, go vet and staticcheck must all be silent
lint:
	unformatted=$$(gofmt -l .); \
	if [[ -n "$$unformatted" ]]; then echo "gofmt -l: these files need gofmt -w:"; echo "$$unformatted"; exit 1; fi
	go vet $(PKGS)
	go run $(STATICCHECK) $(PKGS)

## envtest: build (once) the kube-apiserver and etcd the controller tests run against
envtest:
	hack/setup-envtest.sh

## cluster: a local cluster without containers (kube-apiserver, etcd, kube-scheduler,
## kube-controller-manager as processes, kwok as the kubelet), built once by hack/setup-cluster.sh,
## with the CRDs applied; prints the kubeconfig: export KUBECONFIG=$$(make -s cluster | tail -n 1)
cluster:
	hack/cluster.sh

## cluster-down: delete it
cluster-down:
	hack/cluster.sh down

clean:
	rm -rf bin/
