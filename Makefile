# Sztab. `make demo` and `make test` install what they need (Debian packages
# through apt, Go modules through the module proxy) and then run.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
export GOTOOLCHAIN ?= auto
GO ?= go

.PHONY: nats-server drills demo test test-full test-screens test-amd64 test-race test-arm64 test-matleak test-deb bench fuzz build pi deb deps-demo deps-test deps-deb vet fmt-check

demo: deps-demo build
	./bin/sztab demo

# The whole suite on this machine, then the cgo-free packages for the
# Raspberry Pi's arm64 under qemu-aarch64.
test: deps-test nats-server fmt-check vet test-amd64 test-race test-matleak test-arm64

test-amd64:
	$(GO) test -count=1 -timeout 30m ./...

# The drivers, engines and commands under the race detector. Not companion/:
# the embedded broker, mochi v2.7.9 (the newest the module proxy serves),
# reads a retained topic's path without the lock its writer holds when a
# wildcard subscription arrives as a retained message is published
# (TopicsIndex.scanMessages vs RetainMessage; mochi-mqtt/server#200), so the
# detector fails our tests there at random. Run `go test -race ./companion/...`
# by hand and read any report outside mochi. The venue's packages that do not
# run it (the hub, the tournament, the signed record, the wire format) are
# in. The camera's OpenCV code is left to the plain run.
test-race:
	$(GO) test -count=1 -race -timeout 30m ./hardware/... ./rules/... ./cmd/... \
		./companion/hub/ ./companion/tournament/ ./companion/record/ ./companion/wire/

# gocv's Mat profile exists only with this build tag: no Mat left alive after
# 1,000 frames through the camera pipeline.
test-matleak:
	$(GO) test -count=1 -tags matprofile -run TestNoMatLeak ./vision/

test-arm64:
	scripts/test-arm64.sh

# The Debian packages, each with the camera: build/deb/sztab_VERSION_amd64.deb
# and sztab_VERSION_arm64.deb (the Raspberry Pi's, cross-built with cgo
# against Debian's arm64 OpenCV). scripts/deb.sh; docs/operations.md.
deb: deps-deb
	scripts/deb.sh amd64 arm64

# The packages checked: lintian, the unit and udev rules they carry, the
# arm64 binary reading a frame through OpenCV under qemu-aarch64, install,
# upgrade and purge in a throw-away root (scripts/test-deb.sh).
test-deb: deb
	scripts/test-deb.sh

# The cgo-free daemon for a Raspberry Pi (no camera; `make deb` has it).
pi:
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -trimpath -o bin/sztab-arm64 ./cmd/sztab

# Every benchmark, then one report beside the goals and the machine:
# test-artifacts/bench.md and .json.
# BenchmarkVenueLoadNATS runs on both nats-servers (SZTAB_NATS=both).
bench: deps-test nats-server
	set -o pipefail; SZTAB_NATS=both $(GO) test -run '^$$' -bench . -benchmem ./... | $(GO) run ./scripts/benchreport -out test-artifacts/bench

# The long forms of the property tests: ten times more random games
# (SZTAB_FULL=1; twoworlds.Games), the two-worlds proof of hidden
# information included.
test-full: deps-test
	SZTAB_FULL=1 $(GO) test -count=1 -timeout 60m -run 'TwoWorlds' ./...

# Every game's table, referee and player pages on a 1080p and a 720p TV
# and a phone, in both languages, mid-game and at the end, checked in
# headless Chromium (internal/pagecheck; make test runs the short form).
test-screens: deps-test
	SZTAB_FULL=1 $(GO) test -count=1 -timeout 30m -run 'TestScreens' ./companion/... ./internal/pagecheck/

# The drills at full length: 50 power cuts, a 10-minute broker outage at
# 10 actions a second, the venue's NATS cluster losing a node under 20
# tables (make test runs them short), that one on both nats-servers, each
# with and without the tables' live copies.
drills: deps-test nats-server
	SZTAB_DRILLS=full SZTAB_NATS=both SZTAB_DRILL_LIVE=both $(GO) test -count=1 -timeout 60m -run '^TestDrill' -v ./companion/ ./companion/fleet/

# Every fuzz target, FUZZTIME each, one after another (scripts/fuzz.sh;
# their seeds run in `make test` already): make fuzz FUZZTIME=5m
FUZZTIME ?= 30s
fuzz: deps-test
	FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

build:
	$(GO) build -o bin/sztab ./cmd/sztab

# The venue cluster's nats-server: the Go module go.mod pins as a tool,
# built into bin/nats-server-<version> once (internal/brokertest builds it
# there too when a test finds it missing). Debian's 2.9.10 stays installed
# for the comparison in make bench and make drills.
nats-server:
	@v=$$($(GO) list -m -f '{{.Version}}' github.com/nats-io/nats-server/v2) && \
	test -x bin/nats-server-$$v || $(GO) build -o bin/nats-server-$$v github.com/nats-io/nats-server/v2

deps-demo:
	@scripts/deps.sh demo

deps-test:
	@scripts/deps.sh test

deps-deb:
	@scripts/deps.sh deb

vet:
	$(GO) vet ./...

fmt-check:
	@out="$$(gofmt -l .)"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
