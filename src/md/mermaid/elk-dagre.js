// elk-dagre.js: the part of elkjs's API beautiful-mermaid calls, laid out
// by dagre instead (elkjs takes 0.7-1.6 s for 50 nodes in QuickJS, dagre
// some 50 ms). beautiful-mermaid builds an ELK graph (children with width
// and height, nested children for subgraphs, edges with sources, targets
// and labels, layoutOptions) and hands it to the "worker" synchronously:
// new ELK().worker.worker.dispatcher.saveDispatch({data: {id, cmd:
// 'layout', graph}}) answers through worker.onmessage({data: {data}}). The
// graph comes back with ELK's coordinates: each child's x/y its top-left
// corner relative to its parent, an edge's one section (startPoint,
// bendPoints, endPoint) relative to the node whose edges list holds it,
// a label's x/y its top-left corner; the root's width and height include
// its padding. Edges are routed orthogonally (ELK's ORTHOGONAL routing:
// beautiful-mermaid otherwise detours diagonal segments around the
// drawing). Subgraph ports (direction overrides) become plain edges
// between the nodes they stand for; a subgraph's own direction is the
// drawing's (dagre has one).
import dagre from 'dagre';

var RANKDIR = {DOWN: 'TB', UP: 'BT', RIGHT: 'LR', LEFT: 'RL'};

// padding: ELK's "[top=T,left=L,bottom=B,right=R]" as numbers
function padding(s, fallback) {
  var p = {top: fallback, left: fallback, bottom: fallback, right: fallback};
  if (typeof s !== 'string') return p;
  s.replace(/(top|left|bottom|right)\s*=\s*(-?[0-9.]+)/g, function (m, k, v) {
    p[k] = Number(v);
    return m;
  });
  return p;
}

function num(v, fallback) {
  var n = Number(v);
  return isFinite(n) && v !== undefined && v !== '' ? n : fallback;
}

// collect: every node of the tree (by id), its parent's id, and every edge
// with the node that holds it, in document order.
function collect(node, parent, st) {
  var kids = node.children || [];
  for (var i = 0; i < kids.length; i++) {
    var c = kids[i];
    st.nodes.set(c.id, c);
    st.parent.set(c.id, parent);
    if (c.children && c.children.length) st.clusters.add(c.id);
    (c.ports || []).forEach(function (p) { st.ports.set(p.id, c.id); });
    collect(c, c.id, st);
  }
  (node.edges || []).forEach(function (e) { st.edges.push({e: e, holder: node}); });
}

// leaf: a node dagre can connect an edge to (dagre draws no edge to a
// cluster): a subgraph stands for its first node where an edge enters it,
// for its last where one leaves it, so that what it points to is laid out
// after it, not beside its first node.
function leaf(st, id, last) {
  var seen = 0;
  while (st.clusters.has(id) && seen++ < 1000) {
    var kids = st.nodes.get(id).children;
    id = kids[last ? kids.length - 1 : 0].id;
  }
  return id;
}

// endpoint: what an edge's end names, with a port resolved through the
// edge inside its subgraph that joins it to a node.
function endpoint(st, id) {
  if (st.ports.has(id)) return st.portNode.get(id);
  return id;
}

// The side of rect r facing point p along the drawing's main axis: the
// middle of that side.
function side(r, p, vertical) {
  if (vertical)
    return {x: r.x, y: p.y < r.y ? r.y - r.height / 2 : r.y + r.height / 2};
  return {x: p.x < r.x ? r.x - r.width / 2 : r.x + r.width / 2, y: r.y};
}

// size: a node's width and height; an empty subgraph (children, none of
// them) is as big as its padding and its title, as ELK makes it
function size(n) {
  if (n.width || !Array.isArray(n.children)) return {width: n.width || 0, height: n.height || 0};
  var p = padding((n.layoutOptions || {})['elk.padding'], 12);
  var title = n.labels && n.labels[0] && n.labels[0].text ? String(n.labels[0].text).length : 0;
  return {width: Math.max(p.left + p.right, 7 * title + 32), height: p.top + p.bottom};
}

// selfLoop: an edge from r (a node's centre and size) back to itself: out
// of one side and back in, beside the drawing's main axis
function selfLoop(r, vertical) {
  var x = r.x + r.width / 2, y = r.y + r.height / 2;
  if (vertical)
    return [{x: x, y: r.y - r.height / 4}, {x: x + 20, y: r.y - r.height / 4},
      {x: x + 20, y: r.y + r.height / 4}, {x: x, y: r.y + r.height / 4}];
  return [{x: r.x - r.width / 4, y: y}, {x: r.x - r.width / 4, y: y + 20},
    {x: r.x + r.width / 4, y: y + 20}, {x: r.x + r.width / 4, y: y}];
}

// orthogonal: the points joined by horizontal and vertical segments only,
// a step halfway along the main axis between two points that differ in
// both coordinates; collinear points dropped.
function orthogonal(pts, vertical) {
  var out = [pts[0]];
  for (var i = 1; i < pts.length; i++) {
    var a = out[out.length - 1], b = pts[i];
    if (Math.abs(a.x - b.x) > 0.5 && Math.abs(a.y - b.y) > 0.5) {
      if (vertical) {
        var my = (a.y + b.y) / 2;
        out.push({x: a.x, y: my}, {x: b.x, y: my});
      } else {
        var mx = (a.x + b.x) / 2;
        out.push({x: mx, y: a.y}, {x: mx, y: b.y});
      }
    }
    out.push(b);
  }
  var r = [out[0]];
  for (var j = 1; j < out.length; j++) {
    var p = r[r.length - 1], q = out[j];
    if (Math.abs(p.x - q.x) < 0.01 && Math.abs(p.y - q.y) < 0.01) continue;
    if (j + 1 < out.length) {
      var n = out[j + 1];
      var sameX = Math.abs(p.x - q.x) < 0.01 && Math.abs(q.x - n.x) < 0.01;
      var sameY = Math.abs(p.y - q.y) < 0.01 && Math.abs(q.y - n.y) < 0.01;
      if (sameX || sameY) continue;
    }
    r.push(q);
  }
  return r;
}

// crosses: whether two edges between neighbouring layers of the layout
// graph g (after dagre's ordering: each node's rank and order set) cross.
function crosses(g) {
  var layers = [];
  g.nodes().forEach(function (v) {
    var n = g.node(v);
    if (n.rank === undefined) return;
    (layers[n.rank] = layers[n.rank] || []).push(v);
  });
  for (var r = 0; r + 1 < layers.length; r++) {
    var segs = [];
    (layers[r] || []).forEach(function (v) {
      (g.outEdges(v) || []).forEach(function (e) {
        var w = g.node(e.w);
        if (w.rank === r + 1) segs.push([g.node(v).order, w.order]);
      });
    });
    for (var i = 0; i < segs.length; i++)
      for (var j = i + 1; j < segs.length; j++)
        if ((segs[i][0] - segs[j][0]) * (segs[i][1] - segs[j][1]) < 0) return true;
  }
  return false;
}

// initOrder: dagre's first ordering (order/init-order.js: each layer in the
// order of a depth-first walk from the nodes of the lowest rank, each
// node's successors in the graph's order) given to the layout graph g, as
// dagre's order(g, {disableOptimalOrderHeuristic: true}) gives it, without
// the layer graphs that call builds first for the sweeps it then skips.
function initOrder(g) {
  var seen = new Set(), layers = [];
  var visit = function (v) {
    if (seen.has(v)) return;
    seen.add(v);
    var r = g.node(v).rank;
    (layers[r] = layers[r] || []).push(v);
    (g.successors(v) || []).slice().sort(function () { return 0; }).forEach(visit);
  };
  g.nodes().filter(function (v) { return !g.children(v).length; })
    .sort(function (a, b) { return g.node(a).rank - g.node(b).rank; }).forEach(visit);
  layers.forEach(function (l) {
    l.forEach(function (v, i) { g.node(v).order = i; });
  });
}

// orderLayers: dagre's ordering, its crossing-reduction sweeps (two thirds of
// a 50-node layout's time) run only when the first ordering has crossings:
// a tree, which most flowcharts are, comes out of it without any.
function orderLayers(g, dagreOrder) {
  initOrder(g);
  if (crosses(g)) dagreOrder(g, {});
}

// treeRanks: a ranker for dagre (graph().ranker) when the drawn graph is
// one tree (a root, every other node the target of one edge, all reached
// from the root): each node ranked its parent's rank plus the edge's
// minlen, which is what network simplex finds (every edge tight is the
// least total length, and a connected graph has one such ranking up to a
// shift), without its 8 ms. g is dagre's ranking graph: the nesting root
// it adds (weight-0 edges to every node) goes one rank above the rest.
function treeRanks(g) {
  var top = g.graph().nestingRoot, min = Infinity;
  var visit = function (v, r) {
    g.node(v).rank = r;
    if (r < min) min = r;
    (g.outEdges(v) || []).forEach(function (e) { visit(e.w, r + g.edge(e).minlen); });
  };
  g.sources().forEach(function (v) {
    if (v === top) {
      (g.successors(v) || []).forEach(function (w) {
        if ((g.inEdges(w) || []).length === 1) visit(w, 0);
      });
    } else {
      visit(v, 0);
    }
  });
  if (top !== undefined && g.hasNode(top)) g.node(top).rank = min - 1;
}

// rankGaps: for the laid-out graph g, a function of two neighbouring ranks
// giving the middle of the space between them along the main axis (where
// dagre puts the dummy nodes of the rank it makes between them), or
// undefined for other ranks.
function rankGaps(g, vertical) {
  var lo = [], hi = [];
  g.nodes().forEach(function (v) {
    var n = g.node(v), c = vertical ? n.y : n.x, h = (vertical ? n.height : n.width) / 2;
    if (typeof n.rank !== 'number') return;
    lo[n.rank] = Math.min(lo[n.rank] === undefined ? Infinity : lo[n.rank], c - h);
    hi[n.rank] = Math.max(hi[n.rank] === undefined ? -Infinity : hi[n.rank], c + h);
  });
  return function (a, b) {
    if (Math.abs(a - b) !== 1 || lo[a] === undefined || lo[b] === undefined) return undefined;
    return hi[a] <= lo[b] ? (hi[a] + lo[b]) / 2 : (hi[b] + lo[a]) / 2;
  };
}

// isTree: whether the edges [[s, t]...] over the n nodes of ids make one
// tree: n - 1 edges, one root, every other node the target of one edge
// and reached from the root.
function isTree(ids, edges) {
  if (edges.length !== ids.length - 1) return false;
  var into = new Map(), out = new Map();
  for (var i = 0; i < edges.length; i++) {
    var s = edges[i][0], t = edges[i][1];
    if (into.has(t)) return false;
    into.set(t, s);
    if (!out.has(s)) out.set(s, []);
    out.get(s).push(t);
  }
  var roots = ids.filter(function (v) { return !into.has(v); });
  if (roots.length !== 1) return false;
  var seen = new Set(), stack = [roots[0]];
  while (stack.length) {
    var v = stack.pop();
    if (seen.has(v)) return false;
    seen.add(v);
    (out.get(v) || []).forEach(function (w) { stack.push(w); });
  }
  return seen.size === ids.length;
}

// treeOptions: dagre's options set on g for a drawn graph that is one tree
// (most flowcharts): ranked by treeRanks. dagre doubles every edge's
// minlen and halves ranksep, a rank between two of nodes for the edges'
// labels, with a dummy node on each edge in it: for a tree without edge
// labels, half of minlen and twice ranksep give the same ranks' places
// without those dummies, which ordering and positioning (half a layout's
// time) would handle; the caller then puts an edge's bend where its dummy
// would have been (rankGaps). Not for other graphs: the dummies keep an
// edge that goes back (a cycle) or across a subgraph's border apart from
// the others. Returns whether minlen was halved.
function treeOptions(g, st, drawn) {
  if (globalThis.__folio_no_shortcut) // folio's tests: dagre's own way, to compare
    return false;
  if (st.clusters.size || !isTree(g.nodes(), drawn.map(function (d) { return [d.s, d.t]; })))
    return false;
  g.graph().ranker = treeRanks;
  var edges = drawn.map(function (d) { return g.edge({v: d.s, w: d.t, name: d.name}); });
  if (edges.some(function (e) { return e.width; })) return false;
  g.graph().ranksep *= 2;
  edges.forEach(function (e) { e.minlen = 0.5; });
  return true;
}

// layout: graph laid out in place (ELK's coordinates); returns it.
export function layout(graph) {
  var o = graph.layoutOptions || {};
  var dir = RANKDIR[o['elk.direction']] || 'TB';
  var vertical = dir === 'TB' || dir === 'BT';
  var pad = padding(o['elk.padding'], 12);
  var st = {nodes: new Map(), parent: new Map(), clusters: new Set(), ports: new Map(),
    portNode: new Map(), edges: []};
  collect(graph, null, st);
  st.edges.forEach(function (x) {
    var e = x.e, s = e.sources[0], t = e.targets[0];
    if (st.ports.has(s) && !st.ports.has(t)) st.portNode.set(s, t);
    if (st.ports.has(t) && !st.ports.has(s)) st.portNode.set(t, s);
  });
  var g = new dagre.graphlib.Graph({compound: st.clusters.size > 0, multigraph: true});
  g.setGraph({rankdir: dir, nodesep: num(o['elk.spacing.nodeNode'], 20),
    ranksep: num(o['elk.layered.spacing.nodeNodeBetweenLayers'], 20), edgesep: 12,
    marginx: 0, marginy: 0});
  st.nodes.forEach(function (n, id) {
    if (st.ports.has(id)) return;
    g.setNode(id, st.clusters.has(id) ? {} : size(n));
  });
  if (st.clusters.size)
    st.parent.forEach(function (p, id) { if (p !== null) g.setParent(id, p); });
  var drawn = [];
  st.edges.forEach(function (x, k) {
    var e = x.e;
    if (/_internal$/.test(e.id)) return; // its part is drawn with the edge it continues
    var s = leaf(st, endpoint(st, e.sources[0]), true), t = leaf(st, endpoint(st, e.targets[0]), false);
    if (!g.hasNode(s) || !g.hasNode(t)) return;
    var lab = e.labels && e.labels[0];
    var attrs = {minlen: 1, weight: 1};
    if (lab && lab.width) {
      attrs.width = lab.width;
      attrs.height = lab.height || 0;
      attrs.labelpos = 'c';
    }
    g.setEdge(s, t, attrs, 'e' + k);
    drawn.push({x: x, s: s, t: t, name: 'e' + k});
  });
  var half = treeOptions(g, st, drawn);
  dagre.layout(g, {customOrder: orderLayers});
  var gaps = half ? rankGaps(g, vertical) : null;
  // absolute top-left corners, padding added
  var abs = new Map();
  st.nodes.forEach(function (n, id) {
    if (!g.hasNode(id)) return;
    var d = g.node(id);
    abs.set(id, {x: d.x - d.width / 2 + pad.left, y: d.y - d.height / 2 + pad.top,
      width: d.width, height: d.height});
  });
  // a subgraph is drawn around its nodes with its own padding (its title
  // above them); dagre's box for it is only a lower bound
  var inner = [];
  st.clusters.forEach(function (id) { inner.push(id); });
  inner.reverse().forEach(function (id) {
    var n = st.nodes.get(id), cp = padding((n.layoutOptions || {})['elk.padding'], 12);
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    n.children.forEach(function (c) {
      var b = abs.get(c.id);
      if (!b) return;
      x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
      x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
    });
    if (x0 === Infinity) return;
    abs.set(id, {x: x0 - cp.left, y: y0 - cp.top, width: x1 - x0 + cp.left + cp.right,
      height: y1 - y0 + cp.top + cp.bottom});
  });
  var W = 0, H = 0;
  abs.forEach(function (b) { W = Math.max(W, b.x + b.width); H = Math.max(H, b.y + b.height); });
  st.nodes.forEach(function (n, id) {
    var b = abs.get(id);
    if (!b) return;
    var p = st.parent.get(id), pb = p !== null ? abs.get(p) : {x: 0, y: 0};
    n.x = b.x - pb.x;
    n.y = b.y - pb.y;
    n.width = b.width;
    n.height = b.height;
  });
  drawn.forEach(function (d) {
    var de = g.edge({v: d.s, w: d.t, name: d.name}), e = d.x.e, h = d.x.holder;
    var off = h === graph ? {x: 0, y: 0} : abs.get(h.id) || {x: 0, y: 0};
    var pts = de.points.map(function (p) { return {x: p.x + pad.left, y: p.y + pad.top}; });
    var sr = g.node(d.s), tr = g.node(d.t);
    var sc = {x: sr.x + pad.left, y: sr.y + pad.top, width: sr.width, height: sr.height};
    var tc = {x: tr.x + pad.left, y: tr.y + pad.top, width: tr.width, height: tr.height};
    if (d.s === d.t) {
      pts = selfLoop(sc, vertical);
    } else if (pts.length >= 2) {
      pts[0] = side(sc, pts[1], vertical);
      pts[pts.length - 1] = side(tc, pts[pts.length - 2], vertical);
      var mid = gaps && pts.length === 2 ? gaps(sr.rank, tr.rank) : undefined;
      if (mid !== undefined) // where the edge's dummy node would have been
        pts.splice(1, 0, vertical ? {x: tc.x, y: mid + pad.top} : {x: mid + pad.left, y: tc.y});
    }
    pts = orthogonal(pts, vertical);
    pts.forEach(function (p) {
      W = Math.max(W, p.x);
      H = Math.max(H, p.y);
    });
    e.sections = [{id: e.id + '_s0', startPoint: {x: pts[0].x - off.x, y: pts[0].y - off.y},
      endPoint: {x: pts[pts.length - 1].x - off.x, y: pts[pts.length - 1].y - off.y},
      bendPoints: pts.slice(1, -1).map(function (p) { return {x: p.x - off.x, y: p.y - off.y}; })}];
    var lab = e.labels && e.labels[0];
    if (lab && (d.s === d.t || typeof de.x === 'number')) {
      var at = d.s === d.t ? {x: (pts[1].x + pts[2].x) / 2 + (vertical ? 4 + (lab.width || 0) / 2 : 0),
        y: (pts[1].y + pts[2].y) / 2 + (vertical ? 0 : 4 + (lab.height || 0) / 2)} :
        {x: de.x + pad.left, y: de.y + pad.top};
      lab.x = at.x - (lab.width || 0) / 2 - off.x;
      lab.y = at.y - (lab.height || 0) / 2 - off.y;
    }
  });
  graph.x = 0;
  graph.y = 0;
  graph.width = W + pad.right;
  graph.height = H + pad.bottom;
  return graph;
}

// ELK: elkjs's default export, as far as beautiful-mermaid uses it.
export default class ELK {
  constructor() {
    var w = {onmessage: null};
    w.dispatcher = {
      saveDispatch: function (msg) {
        var d = msg.data, answer;
        try {
          answer = {id: d.id, data: layout(d.graph)};
        } catch (err) {
          answer = {id: d.id, error: err};
        }
        if (w.onmessage) w.onmessage({data: answer});
      }
    };
    this.worker = {worker: w};
  }
  layout(graph) {
    return new Promise(function (ok) { ok(layout(graph)); });
  }
}
