#!/usr/bin/env python3
"""prec.py APP M R before.json after.json: precision of each export on the
edges of their union sampled by rule (those whose md5 is R modulo M, so
that an edge is in the sample or not whatever else either export has),
by the hand labels in labels.txt; prints unlabelled sampled edges."""
import hashlib, json, os, sys
app, M, R, bf, af = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
lab = {}
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'labels.txt')):
    if '\t' in line:
        e, v = line.rstrip('\n').split('\t'); lab[e] = v == '1'
E = lambda g: {f"{k} -> {v}" for k, vs in g.items() for v in vs}
eb, ea = E(json.load(open(bf))), E(json.load(open(af)))
sample = sorted(e for e in eb | ea if int(hashlib.md5(e.encode()).hexdigest(), 16) % M == R)
todo = [e for e in sample if e not in lab]
for e in todo: print("UNLABELLED", e)
for name, es in (("before", eb), ("after", ea)):
    s = [e for e in sample if e in es and e in lab]
    nb = [e for e in s if not e.split(' -> ')[1].startswith('<builtin>')]
    ok = sum(lab[e] for e in s); okn = sum(lab[e] for e in nb)
    print(f"{app} {name}: precision {ok}/{len(s)} = {ok/len(s):.3f}; without <builtin>: {okn}/{len(nb)} = {okn/len(nb):.3f}")
