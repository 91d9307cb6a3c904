# Sztab. `make demo` and `make test` install what they need (Debian packages
# through apt, Go modules through the module proxy) and then run.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
export GOTOOLCHAIN ?= auto
GO ?= go

.PHONY: demo test bench build deps-demo deps-test vet fmt-check

demo: deps-demo build
	./bin/sztab demo

test: deps-test fmt-check vet
	$(GO) test -count=1 ./...

bench: deps-test
	$(GO) test -run '^$$' -bench . -benchmem ./...

build:
	$(GO) build -o bin/sztab ./cmd/sztab

deps-demo:
	@scripts/deps.sh demo

deps-test:
	@scripts/deps.sh test

vet:
	$(GO) vet ./...

fmt-check:
	@out="$$(gofmt -l .)"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
