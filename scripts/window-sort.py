#!/usr/bin/env python3
"""Sort a Singer stream's RECORD lines by stream inside windows of W lines.

Usage: window-sort.py W IN OUT

Any other line (SCHEMA, STATE, ...) ends the current window and stays in
place. The sort is stable, so each stream's records keep their order. Used
to measure the best case of grouping records by stream (docs/performance.md,
"Records grouped by stream"): the output is what a target that grouped for
free would see.
"""
import re
import sys


def main():
    width, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    stream = re.compile(r'"stream": *"([^"]*)"')
    window = []
    with open(src) as inp, open(dst, "w") as out:
        def flush():
            window.sort(key=lambda line: stream.search(line).group(1))
            out.writelines(window)
            window.clear()

        for line in inp:
            if '"type": "RECORD"' in line[:30]:
                window.append(line)
                if len(window) >= width:
                    flush()
            else:
                flush()
                out.write(line)
        flush()


if __name__ == "__main__":
    main()
