// upkdeps graph --format html: lays out the drawing in #upkdeps-graph with
// dagre (assets/vendor/dagre.min.js) and draws it as SVG with the look
// of the DOT (each node and edge carries its Graphviz attributes), and
// saves that SVG on request. Names only ever reach the DOM through
// textContent and setAttribute, so a hostile package name stays text.
'use strict';
(function () {
  var data = JSON.parse(document.getElementById('upkdeps-graph').textContent);
  var SVGNS = 'http://www.w3.org/2000/svg';
  var FONT = 'Helvetica,Arial,sans-serif', SIZE = 14, LINE = 17;

  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, String(attrs[k]));
    });
    for (var k = 2; k < arguments.length; k++) if (arguments[k]) e.appendChild(arguments[k]);
    return e;
  }
  function title(text) { var t = svg('title'); t.textContent = text || ''; return t; }

  var ctx = document.createElement('canvas').getContext('2d');
  function textWidth(s, size) { ctx.font = (size || SIZE) + 'px ' + FONT; return ctx.measureText(s).width; }
  function lines(a) { return String(a.label || '').split('\n'); }
  function has(a, style) { return (a.style || '').split(',').indexOf(style) >= 0; }

  // Node sizes follow Graphviz's: at least 54 by 36, the label inside the
  // shape (an ellipse's is about 1.4 times wider and taller), 4 more on
  // each side for a second periphery.
  function nodeSize(a) {
    var ls = lines(a), w = Math.max.apply(null, ls.map(function (l) { return textWidth(l); })), h = ls.length * LINE;
    var ww, hh;
    switch (a.shape) {
      case 'ellipse': ww = w * 1.42 + 8; hh = h * 1.42 + 4; break;
      case 'house': ww = w + 24; hh = h + 22; break;
      case 'hexagon': ww = w + 36; hh = h + 12; break;
      default: ww = w + 18; hh = h + 12;
    }
    var extra = a.peripheries === '2' ? 8 : 0;
    return { width: Math.ceil(Math.max(54, ww) + extra), height: Math.ceil(Math.max(36, hh) + extra) };
  }

  // shape returns the outline of a node's shape in box (x, y its top left).
  function shape(kind, b, attrs) {
    var x0 = b.x, y0 = b.y, x1 = b.x + b.width, y1 = b.y + b.height, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    function poly(pts) { return svg('polygon', Object.assign({ points: pts.map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join(' ') }, attrs)); }
    switch (kind) {
      case 'ellipse': return svg('ellipse', Object.assign({ cx: cx, cy: cy, rx: b.width / 2, ry: b.height / 2 }, attrs));
      case 'house': return poly([[x0, y0 + b.height * 0.35], [cx, y0], [x1, y0 + b.height * 0.35], [x1, y1], [x0, y1]]);
      case 'hexagon': return poly([[x0, cy], [x0 + 12, y0], [x1 - 12, y0], [x1, cy], [x1 - 12, y1], [x0 + 12, y1]]);
      case 'folder': return poly([[x0, y0 + 6], [x1 - 22, y0 + 6], [x1 - 18, y0], [x1 - 4, y0], [x1, y0 + 6], [x1, y1], [x0, y1]]);
      default: return svg('rect', Object.assign({ x: x0, y: y0, width: b.width, height: b.height }, attrs));
    }
  }

  // route draws an edge through dagre's points as a smooth curve, ending
  // short of the last point by the arrowhead's length.
  function route(pts, cut) {
    pts = pts.map(function (p) { return { x: p.x, y: p.y }; });
    var n = pts.length, a = pts[n - 2], b = pts[n - 1], len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    var end = { x: b.x - cut * (b.x - a.x) / len, y: b.y - cut * (b.y - a.y) / len };
    pts[n - 1] = end;
    var d = 'M' + pts[0].x.toFixed(1) + ',' + pts[0].y.toFixed(1);
    for (var i = 1; i < n - 1; i++) {
      var last = i === n - 2, mx = last ? pts[i + 1].x : (pts[i].x + pts[i + 1].x) / 2, my = last ? pts[i + 1].y : (pts[i].y + pts[i + 1].y) / 2;
      d += ' Q' + pts[i].x.toFixed(1) + ',' + pts[i].y.toFixed(1) + ' ' + mx.toFixed(1) + ',' + my.toFixed(1);
    }
    if (n === 2) d += ' L' + end.x.toFixed(1) + ',' + end.y.toFixed(1);
    return { d: d, tip: b, dir: { x: (b.x - a.x) / len, y: (b.y - a.y) / len } };
  }

  function draw() {
    var g = new dagre.graphlib.Graph({ multigraph: true });
    g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 30, edgesep: 8, marginx: 8, marginy: 8 });
    var sizes = data.nodes.map(function (n) { return nodeSize(n.attrs); });
    data.nodes.forEach(function (n, i) { g.setNode('n' + i, { width: sizes[i].width, height: sizes[i].height }); });
    data.edges.forEach(function (e, k) {
      var label = e.attrs.label ? { width: Math.ceil(textWidth(e.attrs.label, 10)) + 4, height: 14, labelpos: 'c' } : {};
      g.setEdge('n' + e.from, 'n' + e.to, label, String(k));
    });
    dagre.layout(g);
    var W = Math.ceil(g.graph().width), H = Math.ceil(g.graph().height);
    var s = svg('svg', { xmlns: SVGNS, width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'Dependency graph: ' + data.nodes.length + ' nodes, ' + data.edges.length + ' edges',
      'font-family': FONT, 'font-size': SIZE });
    s.appendChild(svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#ffffff' }));
    var edgesG = svg('g', { 'class': 'edges' }), nodesG = svg('g', { 'class': 'nodes' });
    s.appendChild(edgesG);
    s.appendChild(nodesG);
    data.edges.forEach(function (e, k) {
      var a = e.attrs, le = g.edge('n' + e.from, 'n' + e.to, String(k)), color = a.color || '#000000';
      var width = parseFloat(a.penwidth || (has(a, 'bold') ? '2' : '1')), head = 10 * parseFloat(a.arrowsize || '1');
      var r = route(le.points, head);
      var ge = svg('g', { 'class': 'edge', 'data-from': data.nodes[e.from].id, 'data-to': data.nodes[e.to].id }, title(a.tooltip),
        svg('path', { d: r.d, fill: 'none', stroke: color, 'stroke-width': width, 'stroke-dasharray': has(a, 'dashed') ? '5,2' : null }));
      var t = r.tip, dx = r.dir.x, dy = r.dir.y, hw = head * 0.35;
      ge.appendChild(svg('polygon', { points: [[t.x, t.y], [t.x - head * dx - hw * dy, t.y - head * dy + hw * dx], [t.x - head * dx + hw * dy, t.y - head * dy - hw * dx]]
        .map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join(' '), fill: color, stroke: color }));
      if (a.label) {
        var lt = svg('text', { x: le.x, y: le.y + 4, 'text-anchor': 'middle', 'font-size': a.fontsize || 10, fill: a.fontcolor || '#000000' });
        lt.textContent = a.label;
        ge.appendChild(lt);
      }
      edgesG.appendChild(ge);
    });
    data.nodes.forEach(function (n, i) {
      var a = n.attrs, d = g.node('n' + i), sz = sizes[i];
      var b = { x: d.x - sz.width / 2, y: d.y - sz.height / 2, width: sz.width, height: sz.height };
      var stroke = { fill: has(a, 'filled') ? a.fillcolor || '#d3d3d3' : '#ffffff', stroke: a.color || '#000000',
        'stroke-width': a.penwidth || 1, 'stroke-dasharray': has(a, 'dashed') ? '5,2' : null };
      var gn = svg('g', { 'class': 'node', 'data-id': n.id }, title(a.tooltip));
      if (a.peripheries === '2') {
        gn.appendChild(shape(a.shape, b, stroke));
        b = { x: b.x + 4, y: b.y + 4, width: b.width - 8, height: b.height - 8 };
        stroke = Object.assign({}, stroke, { fill: 'none' });
      }
      gn.appendChild(shape(a.shape, b, stroke));
      var ls = lines(a), top = d.y - (ls.length - 1) * LINE / 2 + 5 + (a.shape === 'house' ? sz.height * 0.12 : 0);
      ls.forEach(function (l, j) {
        var t = svg('text', { x: d.x, y: (top + j * LINE).toFixed(1), 'text-anchor': 'middle', fill: a.fontcolor || '#000000' });
        t.textContent = l;
        gn.appendChild(t);
      });
      nodesG.appendChild(gn);
    });
    return s;
  }

  var main = document.getElementById('drawing'), status = document.getElementById('status');
  var picture = draw();
  main.textContent = '';
  main.appendChild(picture);

  // Saving: the drawing as a standalone SVG file (every colour and font
  // is an attribute, no style sheet), downloaded from a data: URL, which
  // the page's policy allows and which makes no request.
  var button = document.getElementById('save-svg');
  button.addEventListener('click', function () {
    var text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(picture) + '\n';
    var a = document.createElement('a');
    a.setAttribute('download', 'upkdeps-graph.svg');
    a.setAttribute('href', 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text));
    document.body.appendChild(a);
    a.click();
    a.remove();
    status.textContent = 'Saved upkdeps-graph.svg (' + text.length + ' bytes).';
  });
  button.disabled = false;
  document.documentElement.setAttribute('data-ready', String(Math.round(performance.now())));
})();
