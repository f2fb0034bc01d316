#!/usr/bin/env bash
# Validates .goreleaser.yaml with the pinned goreleaser, run through the module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
go run github.com/goreleaser/goreleaser/v2@v2.16.0 check
