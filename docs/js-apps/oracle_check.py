#!/usr/bin/env python3
"""oracle_check.py APP_ROOT K R TRUTH ORACLE: the sampled sites where the
TypeScript checker (callgraph/testdata/tsoracle/oracle.mjs APP_ROOT >
ORACLE) resolves a call into the project, against the hand truth: agree,
or both sides printed. The checker's site is the called name's line,
within the call's lines; and its name the callee
expression's last; its callee is placed by its first line."""
import json, sys
from score import sites

root, K, R, truth, oracle = sys.argv[1:6]
ss = sites(root, int(K), int(R))
tr = {}
for line in open(truth):
    i, names = line.rstrip("\n").split("\t")[:2]
    tr[i] = names
orc = [json.loads(l) for l in open(oracle)]
agree = differ = 0
for i, (f, lo, hi, callee) in sorted(ss.items(), key=lambda x: int(x[0])):
    name = callee.removeprefix("new ").rsplit(".", 1)[-1]
    got = [o for o in orc if o["file"] == f and lo <= o["line"] <= hi and o["status"] == "project"
           and o["name"] in (name, "()")]
    if not got:
        continue
    mine = set(x.split("~")[0] for it in tr[i].split(",") for x in it.split("|"))
    theirs = set(f"@{c['file']}:{c['start']}" for o in got for c in o["callees"])
    if mine & theirs:
        agree += 1
    else:
        differ += 1
        print(f"{i} {f}:{lo} truth {tr[i]} checker {sorted(theirs)}")
print(f"# {root}: checker resolves {agree + differ} sampled sites into the project; truth agrees on {agree}")
