#!/usr/bin/env bash
# Check a release's dist/ folder before anything is published: a wheel for
# each of the five platforms, all of one version, each a well-formed wheel
# whose RECORD hashes match, and checksums.txt covering every wheel with the
# right SHA-256.
#
#   packaging/verify-dist.sh DIST VERSION
#
# Called by .github/workflows/release.yml after GoReleaser; tested by
# .ci/run on a dist/ it builds from a stand-in binary. Needs python3 and
# sha256sum.
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: $0 DIST VERSION" >&2
	exit 2
fi
dist=$1 version=${2#v}
fail() { echo "verify-dist: FAIL: $*" >&2; exit 1; }
[ -f "$dist/checksums.txt" ] || fail "no $dist/checksums.txt"
n=0
for tag in manylinux_2_17_x86_64 manylinux_2_17_aarch64 macosx_12_0_x86_64 macosx_12_0_arm64 win_amd64; do
	set -- "$dist"/wheels/target_oracle_go-*-py3-none-*"$tag"*.whl
	[ -f "$1" ] || fail "no wheel for $tag in $dist/wheels"
	[ $# -eq 1 ] || fail "more than one wheel for $tag: $*"
	n=$((n + 1))
done
python3 - "$dist/wheels" "$version" <<'PY' || fail "a wheel is malformed"
import base64, hashlib, os, sys, zipfile
folder, version = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(folder)):
    if not name.endswith(".whl"):
        continue
    if not name.startswith(f"target_oracle_go-{version}-py3-none-"):
        sys.exit(f"{name}: not version {version} of target_oracle_go")
    with zipfile.ZipFile(os.path.join(folder, name)) as z:
        record = z.read(f"target_oracle_go-{version}.dist-info/RECORD").decode()
        scripts = [n for n in z.namelist() if "/scripts/target-oracle" in n]
        if len(scripts) != 1:
            sys.exit(f"{name}: no target-oracle command in the wheel")
        for line in record.splitlines():
            path, digest, _ = line.rsplit(",", 2)
            if not digest:
                continue
            got = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(z.read(path)).digest()).rstrip(b"=").decode()
            if got != digest:
                sys.exit(f"{name}: {path} does not match RECORD")
PY
for whl in "$dist"/wheels/*.whl; do
	base=$(basename "$whl")
	line=$(grep -F "  $base" "$dist/checksums.txt" || true)
	[ -n "$line" ] || fail "checksums.txt does not list $base"
	want=${line%% *}
	got=$(sha256sum "$whl"); got=${got%% *}
	[ "$want" = "$got" ] || fail "$base: checksum $got, checksums.txt says $want"
done
echo "verify-dist: ok ($n wheels of $version, checksums match)"
