#!/usr/bin/env bash
# Check that a release tag matches the version the shipped Meltano
# definition pins, so that a release never publishes wheels that
# meltano/target-oracle.yml does not install.
#
#   packaging/check-release-version.sh v0.1.0
#
# Exit 0 when internal/about/VERSION (the source tree's version, which
# internal/meltano pins) and the pip_url of meltano/target-oracle.yml both
# name the tag's version; 1 otherwise, saying
# what to bump. Called by .github/workflows/release.yml; tested by .ci/run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 1 ]; then
	echo "usage: $0 vX.Y.Z" >&2
	exit 2
fi
tag=$1
case $tag in
v[0-9]*) ;;
*) echo "check-release-version: tag '$tag' does not look like vX.Y.Z" >&2; exit 1 ;;
esac
# The wheel's PEP 440 version, as packaging/wheel/build_wheel.py derives it.
version=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import build_wheel; print(build_wheel.pep440_version(sys.argv[2]))' \
	"$root/packaging/wheel" "$tag") || { echo "check-release-version: '$tag' is not a PEP 440 version" >&2; exit 1; }
pinned=$(tr -d '[:space:]' <"$root/internal/about/VERSION")
if [ "$pinned" != "$version" ]; then
	echo "check-release-version: tag $tag is version $version, but internal/about/VERSION is '$pinned';" >&2
	echo "  write $version there and run: go test ./internal/meltano -run TestPluginDefinitionUpToDate -update" >&2
	exit 1
fi
if ! grep -qx "pip_url: target-oracle-go==$version" "$root/meltano/target-oracle.yml"; then
	echo "check-release-version: meltano/target-oracle.yml does not pin target-oracle-go==$version; regenerate it:" >&2
	echo "  go test ./internal/meltano -run TestPluginDefinitionUpToDate -update" >&2
	exit 1
fi
echo "check-release-version: $tag is version $version, pinned by the Meltano definition"
