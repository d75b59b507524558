# peer.py ranks documents with SQLite FTS5 (porter + unicode61 tokenizer,
# bm25 ordering) for fileinfo's benchmarks. It reads one JSON object on
# stdin, {"docs":[{"id","title","text"}],"queries":[str],"k":int}, and
# writes {"results":[[id,...]],"index_ms":float,"query_ms":[float]}.
import json
import re
import sqlite3
import sys
import time

WORD = re.compile(r"\w+", re.UNICODE)


def match_expr(query):
    # Every word of the query, quoted, joined by OR: FTS5's own syntax
    # (AND, NEAR, column filters, quotes) never leaks from the question.
    words = [w for w in WORD.findall(query.lower())]
    return " OR ".join('"%s"' % w for w in words)


def main():
    req = json.load(sys.stdin)
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE d USING fts5(id UNINDEXED, title, text, tokenize='porter unicode61')")
    start = time.perf_counter()
    db.executemany("INSERT INTO d(id, title, text) VALUES (?, ?, ?)",
                   ((d["id"], d.get("title", ""), d.get("text", "")) for d in req["docs"]))
    db.commit()
    index_ms = (time.perf_counter() - start) * 1000
    k = int(req.get("k", 10))
    results, query_ms = [], []
    for q in req["queries"]:
        expr = match_expr(q)
        start = time.perf_counter()
        rows = []
        if expr:
            rows = db.execute("SELECT id FROM d WHERE d MATCH ? ORDER BY bm25(d) LIMIT ?", (expr, k)).fetchall()
        query_ms.append((time.perf_counter() - start) * 1000)
        results.append([r[0] for r in rows])
    json.dump({"results": results, "index_ms": index_ms, "query_ms": query_ms}, sys.stdout)


if __name__ == "__main__":
    main()
