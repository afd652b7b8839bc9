#!/usr/bin/env python3
"""Writes glyph jobs and their curve-exact answers (Tests/InkJobsTests/Fixtures/NAME-jobs.jsonl and
NAME-expected.jsonl) as plain lines that scripts/c-tests/curve_exact_test.c reads without a JSON parser:

    job ID RADIUS A B C D TX TY      one per job (the transform layout -> view; identity when the job has none)
    font INDEX PATH                  the job's fonts in order (PATH to the end of the line)
    glyph FONT ID X Y SIZE           the job's glyphs in order (layout px; SIZE px per em: the glyph's or the job's)
    point X Y HIT GLYPH              the points whose boundary margin is at least 0.05 px (view px), with the
                                     reference's answer (HIT 0/1, GLYPH the glyph's position in the job or -1)
    end

Numbers are written with repr(), so the C program reads the same doubles. The jobs must be plain glyph jobs (no
styles, variations or text): the sets example, heldout, stress and cff.

Usage: curve_exact_input.py FIXTURES_DIR NAME... > input.txt
"""
import json
import os
import sys

MARGIN = 0.05


def main() -> int:
    folder, names = sys.argv[1], sys.argv[2:]
    out = sys.stdout
    for name in names:
        with open(os.path.join(folder, name + "-expected.jsonl"), encoding="utf-8") as f:
            expected = {}
            for line in f:
                e = json.loads(line)
                expected.setdefault(e["job"], {})[e["i"]] = e
        with open(os.path.join(folder, name + "-jobs.jsonl"), encoding="utf-8") as f:
            for line in f:
                job = json.loads(line)
                unknown = set(job) - {"id", "fonts", "size", "transform", "radius", "glyphs", "points", "note"}
                if unknown:
                    sys.exit("%s: job %s has keys this converter does not translate: %s" % (name, job["id"], sorted(unknown)))
                t = job.get("transform", [1.0, 0.0, 0.0, 1.0, 0.0, 0.0])
                out.write("job %s %r %s\n" % (job["id"], float(job.get("radius", 0.0)), " ".join(repr(float(v)) for v in t)))
                for font in job["fonts"]:
                    if set(font) - {"path", "index"}:
                        sys.exit("%s: job %s: a font with more than path and index" % (name, job["id"]))
                    out.write("font %d %s\n" % (font.get("index", 0), font["path"]))
                for g in job["glyphs"]:
                    if set(g) - {"font", "id", "x", "y", "cluster", "size"}:
                        sys.exit("%s: job %s: a glyph with a style" % (name, job["id"]))
                    out.write("glyph %d %d %r %r %r\n" % (g["font"], g["id"], float(g["x"]), float(g["y"]),
                                                         float(g.get("size", job["size"]))))
                answers = expected[job["id"]]
                for i, (x, y) in enumerate(job["points"]):
                    e = answers[i]
                    if e["boundary_margin"] < MARGIN:
                        continue
                    out.write("point %r %r %d %d\n" % (float(x), float(y), 1 if e["hit"] else 0,
                                                       -1 if e["glyph"] is None else e["glyph"]))
                out.write("end\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
