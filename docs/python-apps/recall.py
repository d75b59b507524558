#!/usr/bin/env python3
"""recall.py APP K R TRUTH EXPORT.json: recall of the hand truth for the
sampled sites (sites.py APP K R), all edges and without <builtin>..."""
import json, os, subprocess, sys
app, K, R, truth, export = sys.argv[1:6]
sites = {}
for line in subprocess.run(["python3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "sites.py"), app, K, R], capture_output=True, text=True).stdout.splitlines():
    i, loc, caller, callee = line.split("\t")
    sites[i] = caller
got = json.load(open(export))
want = []
for line in open(truth):
    i, names = line.rstrip("\n").split("\t")
    if names in ("-", "?"):
        continue
    for n in names.split(","):
        want.append((sites[i], n))
hit = [w for w in want if w[1] in got.get(w[0], [])]
nb = [w for w in want if not w[1].startswith("<builtin>")]
hitnb = [w for w in hit if not w[1].startswith("<builtin>")]
print(f"{app}: recall {len(hit)}/{len(want)} = {len(hit)/len(want):.3f}; without <builtin>: {len(hitnb)}/{len(nb)} = {len(hitnb)/len(nb):.3f}")
if len(sys.argv) > 6:
    for w in want:
        if w not in hit:
            print("  missed", w)
