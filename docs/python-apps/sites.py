#!/usr/bin/env python3
"""List the call sites of a package, sampled by rule: every call in
source order (file path, line, column), caller named as PyCG names it;
keep sites whose index i satisfies i % K == R."""
import ast, os, sys

root, K, R = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sites = []
for dp, dns, fns in os.walk(root):
    dns.sort()
    for fn in sorted(fns):
        if not fn.endswith('.py'):
            continue
        path = os.path.join(dp, fn)
        rel = os.path.relpath(path, root)
        mod = rel[:-3].replace(os.sep, '.')
        if mod.endswith('.__init__'):
            mod = mod[:-9]
        src = open(path).read()
        tree = ast.parse(src)
        lines = src.splitlines()
        def walk(node, scope):
            for ch in ast.iter_child_nodes(node):
                if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    for d in ch.decorator_list:
                        walk_expr(d, scope)
                    walk(ch, scope + '.' + ch.name if not isinstance(ch, ast.ClassDef) else scope + '.' + ch.name)
                else:
                    walk_expr_or_stmt(ch, scope)
        def walk_expr_or_stmt(n, scope):
            if isinstance(n, ast.Call):
                cls_scope = scope
                sites.append((rel, n.lineno, n.col_offset, scope, ast.unparse(n.func)))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                walk(n, scope + '.' + n.name)
                return
            for ch in ast.iter_child_nodes(n):
                walk_expr_or_stmt(ch, scope)
        walk_expr = walk_expr_or_stmt
        walk(tree, mod)
sites.sort()
for i, s in enumerate(sites):
    if i % K == R:
        print(f"{i}\t{s[0]}:{s[1]}\t{s[3]}\t{s[4]}")
print(f"# {len(sites)} sites", file=sys.stderr)
