#!/usr/bin/env bash
# End-to-end test of the pip wheel, offline: build the wheel for this Linux
# machine's architecture, install it into a fresh virtualenv with
# `pip install --no-index --no-deps`, and run the installed command.
# Checks: the command is on the venv's bin/ and executable, --version and
# --about --format json name target-oracle and the built version, and
# `pip uninstall` removes the command again (RECORD is right).
# Needs Go and python3 with venv and ensurepip; no network. About 10-20 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1
export VERSION=${VERSION:-$(tr -d '[:space:]' <"$root/internal/about/VERSION").dev0}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-wheel: FAIL: $*" >&2; exit 1; }

goarch=$(cd "$root" && go env GOARCH)
wheel=$("$root/packaging/build-wheel.sh" linux "$goarch" "$work/dist")
[ -f "$wheel" ] || fail "no wheel built"
case $(basename "$wheel") in
target_oracle_go-"$VERSION"-py3-none-*.whl) ;;
*) fail "wheel $(basename "$wheel") is not named target_oracle_go-$VERSION-…" ;;
esac
echo "built $(basename "$wheel")"

python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-index --no-deps "$wheel"
exe=$work/venv/bin/target-oracle
[ -x "$exe" ] || fail "$exe missing or not executable"

out=$("$exe" --version) || fail "--version exited $?"
[ "$out" = "target-oracle $VERSION" ] || fail "--version printed '$out', want 'target-oracle $VERSION'"

"$exe" --about --format json >"$work/about.json" || fail "--about exited $?"
"$work/venv/bin/python" - "$work/about.json" "$VERSION" <<'PY' || fail "--about --format json"
import json, sys
about = json.load(open(sys.argv[1]))
assert about["name"] == "target-oracle", about["name"]
assert about["version"] == sys.argv[2], about["version"]
assert "about" in about["capabilities"], about["capabilities"]
assert "password" in about["settings"]["properties"], "no password setting"
PY

"$work/venv/bin/python" -m pip uninstall --quiet --yes target-oracle-go
[ ! -e "$exe" ] || fail "pip uninstall left $exe behind"
echo "test-wheel: ok ($(basename "$wheel") installs, runs and uninstalls)"
