#!/usr/bin/python3
"""Writes the figures of a microbenchmark file (stcsim-ubench/1) that a predicate keeps,
for the calibration scripts to fit or check one group of parameters at a time.

  scripts/ubench_subset.py SOURCE OUT PREDICATE
PREDICATE is a Python expression over one result `r` (a dict: name, metric, params, ...),
e.g. 'r["name"] == "l2_read" and r["metric"] == "throughput"'."""
import json
import sys

if len(sys.argv) != 4:
    sys.exit(__doc__)
source, out, predicate = sys.argv[1:]
doc = json.load(open(source))
doc["results"] = [r for r in doc["results"] if eval(predicate, {"r": r})]
doc["errors"] = []
if not doc["results"]:
    sys.exit(f"{source}: no figure matches {predicate}")
json.dump(doc, open(out, "w"), indent=1)
names = sorted({r["name"] + " " + r["metric"] for r in doc["results"]})
print(out.split("/")[-1], "fits", ", ".join(names))
