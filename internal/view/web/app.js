// fileinfo's web view: hash routes #/file, #/graph, #/search, #/doc over
// the JSON API of internal/view. No framework; the graph is graph.js.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = { tree: null, version: "", open: new Set([""]), opened: false, docsSeen: false, route: "", selected: "" };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
}

async function api(path, params) {
  const u = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== "") u.searchParams.set(k, v);
  const r = await fetch(u, { headers: { Accept: "application/json" } });
  const body = await r.json().catch(() => ({ error: r.status + " " + r.statusText }));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

function href(route, params) {
  return "#/" + route + "?" + new URLSearchParams(params).toString();
}

// ---- file tree ----

function buildTree(files) {
  const root = { name: "", path: "", dirs: new Map(), files: [] };
  for (const f of files) {
    const parts = f.path.split("/");
    let d = root;
    const tally = (d) => { d.total = (d.total || 0) + 1; if (f.status === "enriched") d.enriched = (d.enriched || 0) + 1; if (f.status === "stale") d.stale = (d.stale || 0) + 1; };
    tally(d);
    for (let i = 0; i < parts.length - 1; i++) {
      let next = d.dirs.get(parts[i]);
      if (!next) {
        next = { name: parts[i], path: parts.slice(0, i + 1).join("/"), dirs: new Map(), files: [] };
        d.dirs.set(parts[i], next);
      }
      d = next;
      tally(d);
    }
    d.files.push(f);
  }
  return root;
}

function fileRow(f, label) {
  return el("a", { class: "file" + (f.path === state.selected ? " sel" : ""), href: href("file", { path: f.path }), title: f.path + " — " + f.status, "data-path": f.path },
    el("span", { class: "dot " + f.status }),
    el("span", { class: "name", text: label }),
    el("span", { class: "lang", text: f.language }));
}

function renderDir(d, into) {
  const dirs = [...d.dirs.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const sub of dirs) {
    // A chain of single directories shows as one row: a/b/c.
    let s = sub, label = sub.name;
    while (s.files.length === 0 && s.dirs.size === 1) { s = [...s.dirs.values()][0]; label += "/" + s.name; }
    const tip = `${s.path}: ${s.enriched || 0} of ${s.total} files enriched` + (s.stale ? `, ${s.stale} stale` : "");
    const det = el("details", { class: "dir" }, el("summary", { title: tip }, el("span", { class: "name", text: label }),
      el("span", { class: "tally" + (s.stale ? " stale" : ""), text: `${s.enriched || 0}/${s.total}` })));
    const kids = el("div", { class: "kids" });
    det.append(kids);
    const fill = () => { if (!kids.hasChildNodes()) renderDir(s, kids); };
    if (state.open.has(s.path)) { det.open = true; fill(); }
    det.addEventListener("toggle", () => {
      if (det.open) { state.open.add(s.path); fill(); } else state.open.delete(s.path);
    });
    into.append(det);
  }
  for (const f of d.files) into.append(fileRow(f, f.path.slice(f.path.lastIndexOf("/") + 1)));
}

function docRow(d, label) {
  return el("a", { class: "file doc", href: href("doc", { path: d.path }), title: d.path + (d.title ? " — " + d.title : ""), "data-doc": d.path },
    el("span", { class: "dot doc" }),
    el("span", { class: "name", text: label }),
    el("span", { class: "lang", text: "doc" }));
}

// renderDocs lists the project's documents in a folder of their own,
// open while there are few enough to read at a glance.
function renderDocs(docs, into) {
  if (!docs || !docs.length) return;
  const det = el("details", { class: "dir docs" }, el("summary", { title: docs.length + " documents of the doc index" },
    el("span", { class: "name", text: "Docs" }), el("span", { class: "tally", text: String(docs.length) })));
  const kids = el("div", { class: "kids" });
  det.append(kids);
  const fill = () => { if (!kids.hasChildNodes()) for (const d of docs) kids.append(docRow(d, d.path)); };
  if (!state.docsSeen) { // first seen: open while short
    state.docsSeen = true;
    if (docs.length <= 50) state.open.add("\u0000docs");
  }
  if (state.open.has("\u0000docs")) { det.open = true; fill(); }
  det.addEventListener("toggle", () => {
    if (det.open) { state.open.add("\u0000docs"); fill(); } else state.open.delete("\u0000docs");
  });
  into.append(det);
}

// maxOpened bounds the files whose folders open by themselves.
const maxOpened = 200;

// openArtifacts opens, once, the folders that hold a file with an
// artifact, so that what has been documented is in sight.
function openArtifacts(files) {
  if (state.opened) return;
  state.opened = true;
  let n = 0;
  for (const f of files) {
    if (f.status === "missing") continue;
    openTo(f.path);
    if (++n >= maxOpened) break;
  }
}

function renderTree() {
  const t = state.tree, body = $("#treebody");
  if (!t) return;
  body.replaceChildren();
  if (t.loading) { body.append(el("p", { class: "muted", text: "Loading the workspace…" })); return; }
  const q = $("#filter").value.trim().toLowerCase();
  if (q) {
    const hits = t.files.filter((f) => f.path.toLowerCase().includes(q));
    const docHits = (t.docs || []).filter((d) => d.path.toLowerCase().includes(q) || (d.title || "").toLowerCase().includes(q));
    for (const f of hits.slice(0, 500)) body.append(fileRow(f, f.path));
    for (const d of docHits.slice(0, 100)) body.append(docRow(d, d.path));
    if (hits.length > 500) body.append(el("p", { class: "muted", text: (hits.length - 500) + " more; narrow the filter" }));
    if (!hits.length && !docHits.length) body.append(el("p", { class: "muted", text: "No file matches." }));
    return;
  }
  renderDocs(t.docs, body);
  if (!t.files.length) { body.append(el("p", { class: "muted", text: "No source files." })); return; }
  openArtifacts(t.files);
  renderDir(buildTree(t.files), body);
}

function openTo(path) {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) state.open.add(parts.slice(0, i).join("/"));
}

async function loadTree() {
  state.tree = await api("/api/tree");
  $("#root").textContent = "\u200e" + state.tree.root + "\u200e"; // keeps the slashes in place under direction: rtl
  $("#root").title = state.tree.root;
  const c = state.tree.counts || {};
  $("#counts").textContent = state.tree.loading ? "loading…" :
    `${state.tree.files.length} files · ${c.enriched || 0} enriched · ${c.partial || 0} partial · ${c.basic || 0} basic · ${c.stale || 0} stale · ${c.missing || 0} missing`;
  renderTree();
}

// ---- views ----

function show(...nodes) { $("#main").replaceChildren(...nodes); $("#main").scrollTop = 0; }
function fail(err) { show(el("p", { class: "error", text: String(err.message || err) })); }

async function fileView(p) {
  const path = p.get("path"), line = +p.get("line") || 0;
  state.selected = path;
  openTo(path);
  renderTree();
  document.querySelector("#treebody a.file.sel")?.scrollIntoView({ block: "nearest" });
  const f = await api("/api/file", { path });
  const syms = el("div", { class: "symbols" });
  for (const s of f.symbols) {
    if (s.kind === "module") continue;
    syms.append(el("a", { href: href("graph", { file: s.file, line: s.line, symbol: s.qualified }), title: s.kind + " " + s.qualified + " — callers and callees" }, s.name));
  }
  const art = el("div", { class: "pane markdown" }, el("h3", { text: "Artifact" }));
  if (f.artifact_html) { const d = el("div"); d.innerHTML = f.artifact_html; art.append(d); }
  else art.append(el("p", { class: "hint", text: "No artifact yet. Ask your agent to run file_info on this file and report it; the page updates when it is written." }));
  const code = el("div", { class: "pane code" }, el("h3", { text: "Symbols — click for callers and callees" }), syms);
  const src = el("div");
  src.innerHTML = f.source_html;
  // Line numbers link to #L<n>: keep the route, with the line.
  src.addEventListener("click", (e) => {
    const a = e.target.closest("a.lnlinks");
    if (!a) return;
    e.preventDefault();
    history.replaceState(null, "", href("file", { path, line: a.getAttribute("href").slice(2) }));
    src.querySelectorAll(".target").forEach((x) => x.classList.remove("target"));
    a.closest("span").classList.add("target");
  });
  code.append(src);
  show(el("div", { class: "fileview" },
    el("div", { class: "filehead" }, el("h2", { text: f.path }), el("span", { class: "badge " + f.status, text: f.status }), el("span", { class: "lang", text: f.language })),
    el("div", { class: "split" }, art, code)));
  if (line) {
    const target = document.getElementById("L" + line);
    if (target) {
      const row = target.closest("span.line") || target;
      target.scrollIntoView({ block: "center" });
      row.classList.add("target");
    }
  }
}

async function docView(p) {
  const d = await api("/api/doc", { path: p.get("path") });
  const body = el("div", { class: "pane markdown" });
  body.innerHTML = d.html;
  show(el("div", { class: "filehead" }, el("h2", { text: d.path }), el("span", { class: "lang", text: "doc" })), body);
}

async function searchView(p) {
  const q = p.get("q") || "";
  $("#q").value = q;
  show(el("div", { class: "results" }, el("p", { class: "muted", text: "Searching…" })));
  const r = await api("/api/search", { q });
  const out = el("div", { class: "results" });
  const groups = [["code", "Code"], ["artifacts", "Artifacts"], ["docs", "Docs"]];
  let any = false;
  for (const [kind, title] of groups) {
    const hits = r.hits.filter((h) => h.kind === kind);
    if (!hits.length) continue;
    any = true;
    out.append(el("h3", { text: `${title} (${hits.length})` }));
    for (const h of hits) out.append(hitRow(h));
  }
  if (!any) out.append(el("p", { class: "muted", text: `Nothing found for “${q}”. Try other words or an identifier.` }));
  show(out);
}

function hitRow(h) {
  let link, extra = null;
  if (h.kind === "code" && h.symbol) {
    link = href("file", { path: h.symbol.file, line: h.symbol.line });
    extra = el("a", { class: "more", href: href("graph", { file: h.symbol.file, line: h.symbol.line, symbol: h.symbol.qualified }) }, "callers/callees");
  } else if (h.kind === "code") link = href("file", { path: h.path, line: h.line || "" });
  else if (h.kind === "artifacts" && h.source) link = href("file", { path: h.source });
  else link = href("doc", { path: h.path });
  return el("div", { class: "hit" },
    el("a", { class: "t", href: link, text: h.title }), extra,
    el("div", { class: "p", text: h.path + (h.line ? ":" + h.line : "") + (h.heading ? " — " + h.heading : "") }),
    h.summary ? el("div", { class: "s", text: h.summary }) : null);
}

async function graphView(p) {
  const q = { file: p.get("file") || "", line: p.get("line") || "", symbol: p.get("symbol") || "", depth: p.get("depth") || "1", dir: p.get("dir") || "both" };
  const g = await api("/api/graph", q);
  const c = g.nodes[0];
  const sel = (name, opts, cur) => el("select", { "aria-label": name, onchange: (e) => { location.hash = href("graph", { ...q, [name]: e.target.value }); } },
    ...opts.map(([v, t]) => { const o = el("option", { value: v, text: t }); if (v === cur) o.selected = true; return o; }));
  const shown = g.nodes.length, left = g.total - shown;
  const bar = el("div", { class: "graphbar" },
    el("h2", { text: c.qualified }),
    el("a", { href: href("file", { path: c.file, line: c.line }), text: `${c.file}:${c.line}` }),
    sel("dir", [["both", "callers and callees"], ["callers", "callers"], ["callees", "callees"]], q.dir),
    sel("depth", [["1", "depth 1"], ["2", "depth 2"], ["3", "depth 3"], ["4", "depth 4"]], q.depth),
    el("span", { class: "muted", text: `${shown} symbols, ${g.edges.length} calls` }),
    left > 0 ? el("span", { class: "note", text: `${left} more symbols within depth ${q.depth} left out (the farthest first)` }) : null);
  const legend = el("div", { class: "legend" });
  for (const [res, color, style] of window.fiGraphStyles || []) {
    legend.append(el("span", {}, el("i", { style: `border-top-color:${color};border-top-style:${style}` }), res));
  }
  bar.append(legend);
  const box = el("div", { id: "cy" });
  show(el("div", { class: "graphview" }, bar, box, el("p", { class: "hint", style: "margin:4px 16px", text: "Click a symbol to center the graph on it; double-click to open its source. Callers on the left, callees on the right." })));
  window.fiGraph(box, g, {
    center: (n) => { location.hash = href("graph", { file: n.file, line: n.line, symbol: n.qualified, depth: q.depth, dir: q.dir }); },
    open: (n) => { location.hash = href("file", { path: n.file, line: n.line }); },
  });
}

async function route() {
  const h = location.hash.slice(2);
  const [name, qs] = [h.split("?")[0], h.includes("?") ? h.slice(h.indexOf("?") + 1) : ""];
  const p = new URLSearchParams(qs);
  state.route = location.hash;
  try {
    if (name === "file") await fileView(p);
    else if (name === "graph") await graphView(p);
    else if (name === "search") await searchView(p);
    else if (name === "doc") await docView(p);
    else { state.selected = ""; renderTree(); }
  } catch (err) { fail(err); }
  document.body.dataset.view = name || "home";
}

// ---- following changes ----

async function poll() {
  try {
    const v = (await api("/api/version")).version;
    $("#live").classList.add("on");
    $("#live").title = "following changes to the workspace";
    if (v !== state.version) {
      const first = !state.version;
      state.version = v;
      await loadTree();
      if (first && !state.tree.loading) performance.mark("fileinfo-tree");
      document.body.dataset.ready = state.tree.loading ? "" : "1";
      if (!first && /^#\/(file|graph)/.test(location.hash)) await route();
      document.body.dataset.version = v;
    }
  } catch (err) {
    $("#live").classList.remove("on");
    $("#live").title = "not connected: " + err.message;
    if (!state.tree) $("#treebody").replaceChildren(el("p", { class: "error", text: err.message }));
  }
}

window.addEventListener("DOMContentLoaded", () => {
  // A ?token= link has set the cookie: drop the token from the address bar.
  if (location.search) history.replaceState(null, "", location.pathname + location.hash);
  $("#search").addEventListener("submit", (e) => {
    e.preventDefault();
    const q = $("#q").value.trim();
    if (q) location.hash = href("search", { q });
  });
  $("#filter").addEventListener("input", renderTree);
  window.addEventListener("hashchange", route);
  route();
  poll();
  setInterval(() => { if (!document.hidden) poll(); }, 2000);
});
