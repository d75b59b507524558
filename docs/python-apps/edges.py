#!/usr/bin/env python3
"""edges.py ROOT M R before.json after.json: the edges of either export,
sorted, every M-th from R; each with the lines of its caller that name
the callee (to label by hand), and which export has it."""
import ast, json, os, sys
root, M, R, bf, af = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
b, a = json.load(open(bf)), json.load(open(af))
E = lambda g: {(k, v) for k, vs in g.items() for v in vs}
eb, ea = E(b), E(a)
alle = sorted(eb | ea)
# caller source by PyCG name
src = {}
for dp, dns, fns in os.walk(root):
    for fn in fns:
        if not fn.endswith('.py'): continue
        p = os.path.join(dp, fn); rel = os.path.relpath(p, root); mod = rel[:-3].replace(os.sep, '.')
        if mod.endswith('.__init__'): mod = mod[:-9]
        text = open(p).read(); lines = text.splitlines()
        src[mod] = (p, 1, len(lines), lines)
        def walk(n, q):
            for c in ast.iter_child_nodes(n):
                if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    src[q + '.' + c.name] = (p, c.lineno, c.end_lineno, lines); walk(c, q + '.' + c.name)
                else: walk(c, q)
        walk(ast.parse(text), mod)
for i, (c, d) in enumerate(alle):
    if i % M != R: continue
    tag = ('B' if (c, d) in eb else '-') + ('A' if (c, d) in ea else '-')
    segs = d.split('.'); name = segs[-2] if segs[-1] == '__init__' else segs[-1]
    name = name.split('>')[-1]
    hits = []
    if c in src:
        p, s, e, lines = src[c]
        for ln in range(s, e + 1):
            if name in lines[ln - 1]: hits.append(f"{ln}: {lines[ln-1].strip()[:90]}")
    print(f"{i}\t{tag}\t{c} -> {d}")
    for h in hits[:3]: print("      ", h)
print(len(alle), "edges", file=sys.stderr)
