#!/usr/bin/env python3
"""Writes the golden values of internal/config/testdata/dotenv/*.env.

Each NAME.env is read with python-dotenv's dotenv_values (interpolate=True,
as Meltano reads .env), with only the variables of environ.txt as the
process environment, and the result is written to NAME.json: the keys with
a value, in file order. Run it after changing a .env case:

    pip install python-dotenv==1.2.2 && scripts/dotenv-golden.py
"""
import glob
import importlib.metadata
import json
import os
import pathlib

import dotenv

here = pathlib.Path(__file__).resolve().parent.parent / "internal/config/testdata/dotenv"
environ = dict(line.split("=", 1) for line in (here / "environ.txt").read_text().splitlines() if line)
os.environ.clear()
os.environ.update(environ)
for path in sorted(glob.glob(str(here / "*.env"))):
    values = dotenv.dotenv_values(path)
    pairs = [[k, v] for k, v in values.items() if v is not None]
    lines = [json.dumps(p, ensure_ascii=False) for p in pairs]
    version = json.dumps(importlib.metadata.version("python-dotenv"))
    text = '{"python-dotenv": %s, "values": [\n %s\n]}\n' % (version, ",\n ".join(lines))
    pathlib.Path(path[:-4] + ".json").write_text(text)
