#!/usr/bin/env bash
# Cross-build the static target-oracle binaries. Needs only Go and the Go
# module proxy (CGO_ENABLED=0: no C toolchain, no Oracle client).
#
#   packaging/crossbuild.sh            all five release targets into dist/
#   packaging/crossbuild.sh --wheels   the same, plus a pip wheel per target in dist/wheels/
#   packaging/crossbuild.sh --ci       CI budget mode: build linux/arm64 only, and
#                                      type-check darwin/arm64 and windows/amd64 with go vet
#
# Environment: VERSION (default: internal/about/VERSION's development release,
# e.g. 0.1.0.dev0) is stamped into --version;
# DIST (default dist) is the output folder.
set -euo pipefail
cd "$(dirname "$0")/.."

version=${VERSION:-$(tr -d '[:space:]' <internal/about/VERSION).dev0}
dist=${DIST:-dist}
mode=${1:-full}
targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64"
ldflags="-s -w -X github.com/target-oracle/target-oracle/internal/about.BuildVersion=$version"

build() { # GOOS GOARCH -> prints the binary's path
	local goos=$1 goarch=$2 ext=""
	[ "$goos" = windows ] && ext=.exe
	local out=$dist/target-oracle_${goos}_${goarch}/target-oracle$ext
	CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -ldflags "$ldflags" -o "$out" ./cmd/target-oracle
	echo "$out"
}

case $mode in
--ci)
	echo "== build linux/arm64" >&2
	build linux arm64 >/dev/null
	for t in darwin/arm64 windows/amd64; do
		echo "== go vet $t" >&2
		CGO_ENABLED=0 GOOS=${t%/*} GOARCH=${t#*/} go vet ./...
	done
	;;
full | --wheels)
	for t in $targets; do
		goos=${t%/*} goarch=${t#*/}
		bin=$(build "$goos" "$goarch")
		echo "$bin"
		if [ "$mode" = --wheels ]; then
			python3 packaging/wheel/build_wheel.py --binary "$bin" --goos "$goos" --goarch "$goarch" \
				--version "$version" --out "$dist/wheels"
		fi
	done
	;;
*)
	echo "usage: $0 [--ci | --wheels]" >&2
	exit 2
	;;
esac
