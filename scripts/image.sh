#!/usr/bin/env bash
# Builds the container image of deploy/Containerfile from this checkout:
#   scripts/image.sh IMAGE [CONTEXT_DIR]
# `make image` runs it with LDFLAGS (the version stamp) set. The static
# binary is built here on the host and copied in with the host's CA bundle,
# laid out as goreleaser's dockers_v2 lays out its context, so the build
# pulls no base image and needs no registry. podman is used, else docker.
# Under podman the image is written in docker format (the OCI format has
# no HEALTHCHECK) and without intermediate images, which would only cache
# the COPY steps and pile up. Where podman's overlay storage does not work (some nested
# containers), STORAGE_DRIVER=vfs selects its slower, always-working driver.
set -euo pipefail
cd "$(dirname "$0")/.."

image=${1:?usage: scripts/image.sh IMAGE [CONTEXT_DIR]}
ctx=${2:-bin/image}
ca=/etc/ssl/certs/ca-certificates.crt
arch=$(go env GOARCH)

if command -v podman >/dev/null; then
	builder=(podman build --format docker --layers=false)
elif command -v docker >/dev/null; then
	builder=(docker build)
else
	echo "image: neither podman nor docker is installed" >&2
	exit 1
fi
if [ ! -s "$ca" ]; then
	echo "image: no CA bundle at $ca (Debian and Ubuntu: apt-get install ca-certificates)" >&2
	exit 1
fi

rm -rf "$ctx"
mkdir -p "$ctx/linux/$arch" "$ctx/etc/ssl/certs" "$ctx/deploy"
CGO_ENABLED=0 GOOS=linux GOARCH="$arch" go build -trimpath -ldflags "${LDFLAGS:-}" -o "$ctx/linux/$arch/vds" ./cmd/vds
cp -L "$ca" "$ctx/etc/ssl/certs/ca-certificates.crt"
cp -R deploy/data "$ctx/deploy/data"
"${builder[@]}" --platform "linux/$arch" -f deploy/Containerfile -t "$image" "$ctx"
