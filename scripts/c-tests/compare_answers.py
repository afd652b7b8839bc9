#!/usr/bin/env python3
"""Compares two files of answer lines ({"job", "i", "hit", "glyph", "distance"}): the C interface's (full
precision) and `ink-hit query`'s (distances printed to 4 decimals). Hits and glyphs must be equal; distances
equal to within the printed precision. Exits 1 on any difference. Usage: compare_answers.py C.jsonl INKHIT.jsonl"""
import json
import sys


def load(path):
    answers = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            a = json.loads(line)
            if "error" in a:
                sys.exit(f"{path}: job {a.get('job')}: {a['error']}")
            answers[(a["job"], a["i"])] = a
    return answers


c, ink = load(sys.argv[1]), load(sys.argv[2])
if c.keys() != ink.keys():
    sys.exit(f"the files answer different points: {len(c)} vs {len(ink)}")
bad = 0
for key, a in c.items():
    b = ink[key]
    same = a["hit"] == b["hit"] and a["glyph"] == b["glyph"]
    if same and a["hit"]:
        same = abs(a["distance"] - b["distance"]) <= 0.5e-4 + 1e-12
    if not same:
        bad += 1
        if bad <= 5:
            print(f"{key}: C {a}, ink-hit {b}", file=sys.stderr)
hits = sum(1 for a in c.values() if a["hit"])
print(f"{len(c)} answers ({hits} hits): {bad} differ from ink-hit query's")
sys.exit(1 if bad else 0)
