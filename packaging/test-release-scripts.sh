#!/usr/bin/env bash
# Tests the scripts .github/workflows/release.yml calls, on this machine
# (the workflow itself cannot run here): check-release-version.sh accepts
# the pinned version and refuses another; verify-dist.sh accepts a complete
# dist/ of five wheels with GoReleaser-style checksums.txt, and refuses one
# with a missing platform, a wrong checksum or a tampered wheel.
# Wheels wrap a stand-in binary, so no cross-build is needed. About 10-20 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-release-scripts: FAIL: $*" >&2; exit 1; }

pinned=$(tr -d '[:space:]' <"$root/internal/about/VERSION")
[ -n "$pinned" ] || fail "internal/about/VERSION is empty"
"$root/packaging/check-release-version.sh" "v$pinned" >/dev/null || fail "check-release-version refuses v$pinned"
if "$root/packaging/check-release-version.sh" "v$pinned.post99" 2>/dev/null; then
	fail "check-release-version accepts a version the definition does not pin"
fi
if "$root/packaging/check-release-version.sh" "main" 2>/dev/null; then
	fail "check-release-version accepts a tag that is no version"
fi

make_dist() { # DIR VERSION
	local d=$1 v=$2
	printf '#!/bin/sh\necho stand-in\n' >"$work/bin"
	for t in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
		python3 "$root/packaging/wheel/build_wheel.py" --binary "$work/bin" --goos "${t%/*}" --goarch "${t#*/}" \
			--version "$v" --out "$d/wheels" >/dev/null
	done
	(cd "$d/wheels" && sha256sum ./*.whl | sed 's#  \./#  #') >"$d/checksums.txt"
}

make_dist "$work/ok" 1.2.3
"$root/packaging/verify-dist.sh" "$work/ok" v1.2.3 >/dev/null || fail "verify-dist refuses a complete dist"

make_dist "$work/missing" 1.2.3
rm "$work/missing"/wheels/*win_amd64.whl
if "$root/packaging/verify-dist.sh" "$work/missing" 1.2.3 2>/dev/null; then fail "verify-dist accepts a missing platform"; fi

make_dist "$work/sum" 1.2.3
sed -i '1s/^[0-9a-f]*/0000000000000000000000000000000000000000000000000000000000000000/' "$work/sum/checksums.txt"
if "$root/packaging/verify-dist.sh" "$work/sum" 1.2.3 2>/dev/null; then fail "verify-dist accepts a wrong checksum"; fi

make_dist "$work/version" 1.2.3
if "$root/packaging/verify-dist.sh" "$work/version" 1.2.4 2>/dev/null; then fail "verify-dist accepts another version"; fi

make_dist "$work/tamper" 1.2.3
whl=$(ls "$work/tamper"/wheels/*win_amd64.whl)
python3 - "$whl" <<'PY'
import sys, zipfile
src = sys.argv[1]
items = [(i, zipfile.ZipFile(src).read(i.filename)) for i in zipfile.ZipFile(src).infolist()]
with zipfile.ZipFile(src, "w") as z:
    for info, data in items:
        z.writestr(info, b"evil" if "/scripts/" in info.filename else data)
PY
(cd "$work/tamper/wheels" && sha256sum ./*.whl | sed 's#  \./#  #') >"$work/tamper/checksums.txt"
if "$root/packaging/verify-dist.sh" "$work/tamper" 1.2.3 2>/dev/null; then fail "verify-dist accepts a wheel whose RECORD does not match"; fi

echo "test-release-scripts: ok"
