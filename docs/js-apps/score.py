#!/usr/bin/env python3
"""score.py recall APP_ROOT K R TRUTH EXPORT.json [-v]
score.py prec NAME M R LABELS EXPORT.json...

recall: the sites sites.mjs samples (index i with i % K == R) against the
hand truth (TRUTH: index, callees, reason; a callee is @file:line, the
project function defined there, `~anon` for the unnamed one on a line
that has a named one too, a|b for either; `-` is no project function,
`?` cannot be named: both count for neither). A wanted callee is found
when the export has an edge into it from the site's file on a line
from the call's first to its last. -v lists what was missed.

prec: the edges of any of the exports whose md5 of "file:line caller ->
callee" is R modulo M (so an edge is in the sample or not whatever else
any export has), judged by LABELS (edge TAB 1 right or 0 wrong);
prints unlabelled sampled edges first."""
import hashlib, json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))


def sites(root, K, R):
    out = subprocess.run(["node", os.path.join(here, "sites.mjs"), root, str(K), str(R)],
                         capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        i, loc, _caller, callee, end = line.split("\t")
        f, l, _c = loc.rsplit(":", 2)
        res[i] = (f, int(l), int(end), callee)
    return res


def targets(g, want):
    """the qualified names of the nodes one truth item names"""
    anon = want.endswith("~anon")
    f, l = want[1:].removesuffix("~anon").rsplit(":", 1)
    at = [n["qualified"] for n in g["nodes"]
          if n["file"] == f and n["line"] == int(l) and n["kind"] not in ("module", "object")]
    named = [q for q in at if "<" not in q.rsplit(".", 1)[-1] and "<" not in q]
    unnamed = [q for q in at if q not in named]
    return set(unnamed if anon else (named or at))


def recall(root, K, R, truth, export, verbose):
    ss = sites(root, int(K), int(R))
    g = json.load(open(export))
    want, hit = 0, 0
    for line in open(truth):
        i, names = line.rstrip("\n").split("\t")[:2]
        if names in ("-", "?"):
            continue
        f, lo, hi, _ = ss[i]
        for item in names.split(","):
            want += 1
            ts = set().union(*(targets(g, alt) for alt in item.split("|")))
            ok = any(e["file"] == f and lo <= e["line"] <= hi and e["callee"] in ts for e in g["edges"])
            hit += ok
            if not ok and verbose:
                print(f"  missed {i} {f}:{lo} -> {item}")
    print(f"{os.path.basename(root.rstrip('/'))}: recall {hit}/{want} = {hit / want:.3f}")


def prec(name, M, R, labels, *exports):
    lab = {}
    for line in open(labels):
        if "\t" in line and not line.startswith("#"):
            e, v = line.rstrip("\n").split("\t")[:2]
            lab[e] = v == "1"
    E = lambda g: {f"{e['file']}:{e['line']} {e['caller']} -> {e['callee']}" for e in g["edges"]}
    es = [E(json.load(open(x))) for x in exports]
    sample = sorted(e for e in set().union(*es) if int(hashlib.md5(e.encode()).hexdigest(), 16) % int(M) == int(R))
    for e in sample:
        if e not in lab:
            print("UNLABELLED", e)
    for x, got in zip(exports, es):
        s = [e for e in sample if e in got and e in lab]
        ok = sum(lab[e] for e in s)
        print(f"{name} {os.path.basename(x)}: precision {ok}/{len(s)} = {ok / max(len(s), 1):.3f}")


if __name__ == "__main__":
    if sys.argv[1] == "recall":
        recall(*sys.argv[2:7], verbose="-v" in sys.argv[7:])
    else:
        prec(*sys.argv[2:])
