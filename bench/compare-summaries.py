#!/usr/bin/env python3
"""Compares every run of every summary.json under BASELINE with the same run under CANDIDATE.

A run is keyed by (folder, trace, load, seed, policy); every field but wall_s must be equal (floats are written
with a fixed format, so equality is exact). Prints one line per difference and a total; exit 1 on any difference
or on a run present on one side only. A field that only the candidate has is a column added since the baseline:
it is listed once, not counted as a difference (a field the baseline has and the candidate lacks still is).
"""
import json
import pathlib
import sys

IGNORED = {"wall_s"}


def runs(root):
    out = {}
    for f in sorted(pathlib.Path(root).glob("*/summary.json")):
        for r in json.loads(f.read_text())["runs"]:
            out[(f.parent.name, r["trace"], r["load"], r["seed"], r["policy"])] = r
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare-summaries.py BASELINE_DIR CANDIDATE_DIR")
    base, cand = runs(sys.argv[1]), runs(sys.argv[2])
    if not base:
        sys.exit("no summary.json under " + sys.argv[1])
    problems = 0
    added = set()
    for key in sorted(set(base) | set(cand), key=str):
        if key not in cand or key not in base:
            print("only in %s: %s" % ("baseline" if key in base else "candidate", key))
            problems += 1
            continue
        b, c = base[key], cand[key]
        added |= set(c) - set(b)
        diffs = [f for f in sorted(set(b) | set(c)) if f not in IGNORED and f in b and b.get(f) != c.get(f)]
        for f in diffs:
            print("%s %s: %r -> %r" % (key, f, b.get(f), c.get(f)))
        problems += 1 if diffs else 0
    if added:
        print("new fields, not in the baseline (not compared): " + ", ".join(sorted(added)))
    print("%d/%d runs identical (all fields but %s)" % (max(0, len(base) - problems), len(base),
                                                        ", ".join(sorted(IGNORED))))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
