# peer.py ranks documents with SQLite FTS5 (porter + unicode61 tokenizer,
# bm25 ordering over title, path and text columns) for fileinfo's
# benchmarks. It reads one JSON object on stdin,
# {"docs":[{"id","title","path","text"}],"queries":[str],"k":int,
# "weights":[title,path,text]}, and writes
# {"results":[[id,...]],"index_ms":float,"query_ms":[float]}.
import json
import re
import sqlite3
import sys
import time

WORD = re.compile(r"\w+", re.UNICODE)
PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def with_words(name):
    # A name and the words of its identifiers: "registerBlueprint
    # register Blueprint".
    parts = [p for w in WORD.findall(name) for p in PART.findall(w) if p != w]
    return name + (" " + " ".join(parts) if parts else "")


def match_expr(query):
    # Every word of the query, quoted, joined by OR: FTS5's own syntax
    # (AND, NEAR, column filters, quotes) never leaks from the question.
    words = [w for w in WORD.findall(query.lower())]
    return " OR ".join('"%s"' % w for w in words)


def main():
    req = json.load(sys.stdin)
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE d USING fts5(id UNINDEXED, title, path, text, tokenize='porter unicode61')")
    start = time.perf_counter()
    db.executemany("INSERT INTO d(id, title, path, text) VALUES (?, ?, ?, ?)",
                   ((d["id"], with_words(d.get("title", "")), with_words(d.get("path", "")), d.get("text", "")) for d in req["docs"]))
    db.commit()
    index_ms = (time.perf_counter() - start) * 1000
    k = int(req.get("k", 10))
    w = [float(x) for x in req.get("weights") or [1, 1, 1]]
    results, query_ms = [], []
    for q in req["queries"]:
        expr = match_expr(q)
        start = time.perf_counter()
        rows = []
        if expr:
            rows = db.execute("SELECT id FROM d WHERE d MATCH ? ORDER BY bm25(d, 0, ?, ?, ?) LIMIT ?", (expr, w[0], w[1], w[2], k)).fetchall()
        query_ms.append((time.perf_counter() - start) * 1000)
        results.append([r[0] for r in rows])
    json.dump({"results": results, "index_ms": index_ms, "query_ms": query_ms}, sys.stdout)


if __name__ == "__main__":
    main()
