// graph.js draws a symbol's neighbourhood with cytoscape: callers in
// columns to the left of the symbol, callees to the right, one column per
// call of distance; edges styled by how the call was resolved.
"use strict";

// Resolution labels of callgraph, with colour and line style.
window.fiGraphStyles = [
  ["local", "#57606a", "solid"],
  ["import", "#0969da", "solid"],
  ["receiver", "#1a7f37", "solid"],
  ["constructor", "#bc4c00", "dashed"],
  ["inherited", "#8250df", "dashed"],
  ["interface", "#cf222e", "dotted"],
  ["name", "#8c959f", "dotted"],
];

// columnHeight is the most nodes stacked in one column before it wraps
// into another beside it.
const columnHeight = 24;

// place returns preset positions: x by side (callers < 0 < callees), the
// nodes of a side in rows sorted by name, wrapped every columnHeight.
function place(nodes) {
  const bySide = new Map();
  nodes.forEach((n, i) => {
    if (!bySide.has(n.side)) bySide.set(n.side, []);
    bySide.get(n.side).push(i);
  });
  const sides = [...bySide.keys()].sort((a, b) => a - b);
  const pos = new Array(nodes.length);
  // Columns a side needs, to lay sides out without overlap.
  const cols = new Map(sides.map((s) => [s, Math.max(1, Math.ceil(bySide.get(s).length / columnHeight))]));
  const colW = 230, rowH = 46;
  let offset = new Map(), x = 0;
  // Side 0 sits at x = 0; callers extend left, callees right.
  for (const s of sides.filter((s) => s > 0)) { offset.set(s, x + colW); x += cols.get(s) * colW; }
  x = 0;
  for (const s of sides.filter((s) => s < 0).reverse()) { offset.set(s, x - cols.get(s) * colW); x -= cols.get(s) * colW; }
  offset.set(0, 0);
  for (const s of sides) {
    const ids = bySide.get(s).sort((a, b) => nodes[a].name.localeCompare(nodes[b].name));
    const rows = Math.min(ids.length, columnHeight);
    ids.forEach((id, k) => {
      const col = Math.floor(k / columnHeight), row = k % columnHeight;
      pos[id] = { x: offset.get(s) + (s < 0 ? (cols.get(s) - 1 - col) : col) * colW, y: (row - (rows - 1) / 2) * rowH };
    });
  }
  return pos;
}

window.fiGraph = function (container, g, on) {
  const pos = place(g.nodes);
  const elements = [];
  g.nodes.forEach((n, i) => {
    elements.push({ group: "nodes", data: { id: "n" + i, label: n.name, i, w: 16 + 7.3 * n.name.length }, position: pos[i], classes: i === 0 ? "center" : (n.side < 0 ? "caller" : "callee") });
  });
  g.edges.forEach((e, k) => {
    elements.push({ group: "edges", data: { id: "e" + k, source: "n" + e.from, target: "n" + e.to, res: e.resolution } });
  });
  const style = [
    { selector: "node", style: {
      "label": "data(label)", "shape": "round-rectangle", "width": "data(w)", "height": 26,
      "background-color": "#f6f8fa", "border-width": 1, "border-color": "#d0d7de", "color": "#1f2328",
      "font-size": 12, "font-family": "ui-monospace, Menlo, monospace", "text-valign": "center", "text-halign": "center" } },
    { selector: "node.center", style: { "background-color": "#ddf4ff", "border-color": "#0969da", "border-width": 2, "font-weight": "bold" } },
    { selector: "node.caller", style: { "background-color": "#fff8f0" } },
    { selector: "node:selected", style: { "border-color": "#bf8700", "border-width": 2 } },
    { selector: "edge", style: { "width": 1.5, "curve-style": "bezier", "target-arrow-shape": "triangle", "arrow-scale": 0.9, "opacity": 0.85 } },
  ];
  for (const [res, color, line] of window.fiGraphStyles) {
    style.push({ selector: `edge[res = "${res}"]`, style: { "line-color": color, "target-arrow-color": color, "line-style": line } });
  }
  const cy = cytoscape({
    container, elements, style, layout: { name: "preset", fit: true, padding: 30 },
    minZoom: 0.1, maxZoom: 3, wheelSensitivity: 0.3, boxSelectionEnabled: false,
    textureOnViewport: g.nodes.length > 200, hideEdgesOnViewport: g.edges.length > 600,
  });
  if (cy.zoom() > 1.2) { cy.zoom(1.2); cy.center(); }
  let clickTimer = null;
  cy.on("tap", "node", (ev) => {
    const n = g.nodes[ev.target.data("i")];
    clearTimeout(clickTimer);
    clickTimer = setTimeout(() => on.center(n), 250);
  });
  cy.on("dbltap", "node", (ev) => {
    clearTimeout(clickTimer);
    on.open(g.nodes[ev.target.data("i")]);
  });
  cy.on("mouseover", "node", (ev) => {
    const n = g.nodes[ev.target.data("i")];
    container.title = `${n.kind} ${n.qualified}\n${n.file}:${n.line}`;
  });
  window.fiCy = cy; // for tests and the console
  return cy;
};
