#!/usr/bin/env python3
"""Build a platform wheel that installs the target-oracle binary as a command.

This is the pattern ruff and uv use: the wheel holds no Python code, only the
static binary under {dist}-{version}.data/scripts/, which pip copies into the
environment's bin/ (Scripts\\ on Windows) with its executable bit. Meltano
installs plugins with pip, so a wheel makes `pip_url` work for a Go binary.

Standard library only: the wheel is a zip with METADATA, WHEEL and RECORD
written here (PEP 427, PEP 491, core metadata 2.1), so no build backend has
to be downloaded. Output is reproducible: entries are sorted and dated
SOURCE_DATE_EPOCH (default 1980-01-01).

Usage:
  build_wheel.py --binary PATH --goos linux --goarch amd64 --version 0.1.0 --out DIR
"""

import argparse
import base64
import hashlib
import os
import re
import stat
import sys
import time
import zipfile

# The distribution is target-oracle-go: "target-oracle" on PyPI belongs to
# another project's package (radbrt's Singer SDK target-oracle, the Meltano
# Hub variant, distributes under that name). The command stays target-oracle.
NAME = "target-oracle-go"
DIST = "target_oracle_go"  # the distribution name as wheel file names spell it
COMMAND = "target-oracle"
SUMMARY = "Singer target for Oracle Database (static Go binary)"
HOME = "https://github.com/target-oracle/target-oracle"

# Platform tags per GOOS/GOARCH. The binary is static (CGO_ENABLED=0), so a
# Linux wheel runs on glibc and musl alike: it carries both tag families.
# Go 1.25 and later need macOS 12 or later.
PLATFORMS = {
    ("linux", "amd64"): ["manylinux_2_17_x86_64", "manylinux2014_x86_64", "musllinux_1_1_x86_64"],
    ("linux", "arm64"): ["manylinux_2_17_aarch64", "manylinux2014_aarch64", "musllinux_1_1_aarch64"],
    ("darwin", "amd64"): ["macosx_12_0_x86_64"],
    ("darwin", "arm64"): ["macosx_12_0_arm64"],
    ("windows", "amd64"): ["win_amd64"],
    ("windows", "arm64"): ["win_arm64"],
}

# A public PEP 440 version in normal form.
PEP440 = re.compile(
    r"^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*"
    r"((a|b|rc)(0|[1-9][0-9]*))?(\.post(0|[1-9][0-9]*))?(\.dev(0|[1-9][0-9]*))?$"
)

# SemVer pre-releases that map onto PEP 440 (1.2.3-rc.1 is 1.2.3rc1).
SEMVER_PRE = re.compile(r"^(\d+\.\d+\.\d+)-(alpha|a|beta|b|rc)\.?(\d+)$")


def pep440_version(v):
    """Return v as a PEP 440 version; accept a leading v and SemVer pre-releases."""
    v = v[1:] if v.startswith("v") else v
    if PEP440.match(v):
        return v
    m = SEMVER_PRE.match(v)
    if m:
        pre = {"alpha": "a", "a": "a", "beta": "b", "b": "b", "rc": "rc"}[m.group(2)]
        return f"{m.group(1)}{pre}{m.group(3)}"
    raise ValueError(f"version {v!r} is not PEP 440 (like 0.1.0, 0.1.0rc1, 0.1.0.dev0)")


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def metadata(version):
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {version}\n"
        f"Summary: {SUMMARY}\n"
        f"Home-page: {HOME}\n"
        f"Project-URL: Documentation, {HOME}/blob/main/docs/meltano.md\n"
        "Classifier: Programming Language :: Go\n"
        "Classifier: Topic :: Database\n"
        "Description-Content-Type: text/markdown\n"
        "\n"
        "The `target-oracle` command: a Singer target, written in Go, that loads any tap's\n"
        "output into Oracle Database. This wheel only carries the static binary;\n"
        "see the project's docs/meltano.md for use with Meltano.\n"
    )


def wheel_file(tags):
    lines = ["Wheel-Version: 1.0", "Generator: target-oracle build_wheel.py", "Root-Is-Purelib: false"]
    lines += [f"Tag: py3-none-{t}" for t in tags]
    return "\n".join(lines) + "\n"


def build(binary, goos, goarch, version, out):
    """Write the wheel into out and return its path."""
    tags = PLATFORMS.get((goos, goarch))
    if tags is None:
        raise ValueError(f"no wheel platform tag for {goos}/{goarch}")
    version = pep440_version(version)
    with open(binary, "rb") as f:
        exe = f.read()
    if not exe:
        raise ValueError(f"{binary} is empty")

    exe_name = COMMAND + (".exe" if goos == "windows" else "")
    info = f"{DIST}-{version}.dist-info"
    files = [  # (archive path, bytes, executable)
        (f"{DIST}-{version}.data/scripts/{exe_name}", exe, True),
        (f"{info}/METADATA", metadata(version).encode(), False),
        (f"{info}/WHEEL", wheel_file(tags).encode(), False),
    ]
    record = "".join(f"{p},{record_hash(d)},{len(d)}\n" for p, d, _ in files)
    record += f"{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode(), False))  # RECORD last, as pip expects

    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{DIST}-{version}-py3-none-{'.'.join(tags)}.whl")
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01
    date = time.gmtime(max(epoch, 315532800))[:6]
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, executable in files:
            zi = zipfile.ZipInfo(name, date_time=date)
            zi.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if executable else 0o644
            zi.external_attr = (stat.S_IFREG | mode) << 16
            z.writestr(zi, data)
    os.replace(tmp, path)
    return path


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--binary", required=True, help="the target-oracle binary to wrap")
    p.add_argument("--goos", required=True)
    p.add_argument("--goarch", required=True)
    p.add_argument("--version", required=True, help="PEP 440 version (a leading v is dropped)")
    p.add_argument("--out", required=True, help="directory for the .whl")
    a = p.parse_args(argv)
    try:
        print(build(a.binary, a.goos, a.goarch, a.version, a.out))
    except (OSError, ValueError) as e:
        print(f"build_wheel: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
