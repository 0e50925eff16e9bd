#!/usr/bin/env bash
# Build the target-oracle binary for one platform and wrap it in a pip wheel.
#
#   packaging/build-wheel.sh GOOS GOARCH OUTDIR
#
# Environment:
#   VERSION       PEP 440 version for the wheel and --version (default: the development
#                 release of internal/about/VERSION, e.g. 0.1.0.dev0, as an unstamped build reports;
#                 a leading v and SemVer pre-releases like 1.2.3-rc.1 are accepted).
#   WHEEL_BINARY  wrap this prebuilt binary instead of running go build.
# Needs Go (unless WHEEL_BINARY is set) and python3 (standard library only).
# Prints the wheel's path on stdout.
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: $0 GOOS GOARCH OUTDIR" >&2
	exit 2
fi
goos=$1 goarch=$2 out=$3
root=$(cd "$(dirname "$0")/.." && pwd)
version=${VERSION:-$(tr -d '[:space:]' <"$root/internal/about/VERSION").dev0}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bin=${WHEEL_BINARY:-}
if [ -z "$bin" ]; then
	ext=""
	[ "$goos" = windows ] && ext=.exe
	bin=$work/target-oracle$ext
	(cd "$root" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath \
		-ldflags "-s -w -X github.com/target-oracle/target-oracle/internal/about.BuildVersion=$version" \
		-o "$bin" ./cmd/target-oracle)
fi

python3 "$root/packaging/wheel/build_wheel.py" --binary "$bin" --goos "$goos" --goarch "$goarch" \
	--version "$version" --out "$out"
