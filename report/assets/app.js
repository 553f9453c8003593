// upkdeps report page: builds every view from the JSON in #upkdeps-data.
// Data only ever reaches the DOM through textContent and setAttribute
// (never by parsing a string as markup), so a hostile package name stays text.
'use strict';
(function () {
  var data = JSON.parse(document.getElementById('upkdeps-data').textContent);
  var check = data.check, G = data.graph, P = G.packages, N = P.length;
  var main = document.getElementById('main');
  var SVGNS = 'http://www.w3.org/2000/svg';

  // Adjacency by package index: lists of import indexes, sorted by name
  // since the imports are sorted by importer, then target.
  var out = [], inc = [], byLower = new Map(), byFile = new Map();
  for (var i = 0; i < N; i++) {
    out.push([]); inc.push([]);
    byLower.set(P[i].name.toLowerCase(), i);
    if (P[i].file) byFile.set(P[i].file, i);
  }
  var totalObjects = 0;
  // objectsOf: an import's object names (the JSON lists each name once in
  // object_names; an import holds indexes into it).
  function objectsOf(im, max) { return im[3].slice(0, max).map(function (n) { return G.object_names[n]; }); }
  G.imports.forEach(function (im, k) {
    out[im[0]].push(k); inc[im[1]].push(k);
    totalObjects += im[2];
  });
  var findings = check.findings || [];
  // cycleOf: package index -> 1-based cycle number (0: none).
  var cycleOf = new Int32Array(N);
  G.cycles.forEach(function (c, ci) { c.forEach(function (p) { cycleOf[p] = ci + 1; }); });
  function sameCycle(a, b) { return cycleOf[a] !== 0 && cycleOf[a] === cycleOf[b]; }

  // A hub is imported by so many packages that drawing its importers
  // would hide everything else: Core, Engine and any package with at
  // least HUB importers.
  var HUB = 100;
  function isHub(p) {
    var n = P[p].name.toLowerCase();
    return inc[p].length >= HUB || ((n === 'core' || n === 'engine') && inc[p].length > 1);
  }

  // ---- DOM helpers -------------------------------------------------------
  function el(tag, attrs) {
    var e = document.createElement(tag);
    setAttrs(e, attrs);
    for (var k = 2; k < arguments.length; k++) add(e, arguments[k]);
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    setAttrs(e, attrs);
    for (var k = 2; k < arguments.length; k++) add(e, arguments[k]);
    return e;
  }
  function setAttrs(e, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (k) {
      if (attrs[k] !== undefined && attrs[k] !== null && attrs[k] !== false) e.setAttribute(k, String(attrs[k]));
    });
  }
  function add(e, c) {
    if (c === undefined || c === null || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { add(e, x); }); return; }
    if (typeof c === 'string' || typeof c === 'number') { e.appendChild(document.createTextNode(String(c))); return; }
    e.appendChild(c);
  }

  // ---- routing: the state is the URL fragment, so Back works ------------
  function parseHash() {
    var h = location.hash.replace(/^#\/?/, '');
    var q = '', qi = h.indexOf('?');
    if (qi >= 0) { q = h.slice(qi + 1); h = h.slice(0, qi); }
    var parts = h.split('/');
    var params = {};
    q.split('&').forEach(function (kv) {
      if (!kv) return;
      var j = kv.indexOf('=');
      var k = decodeURIComponent(j < 0 ? kv : kv.slice(0, j));
      params[k] = j < 0 ? '' : decodeURIComponent(kv.slice(j + 1));
    });
    return { view: parts[0] || 'summary', arg: parts.length > 1 ? decodeURIComponent(parts.slice(1).join('/')) : '', params: params };
  }
  function makeHash(view, arg, params) {
    var h = '#/' + view + (arg ? '/' + encodeURIComponent(arg) : '');
    var q = Object.keys(params || {}).filter(function (k) { return params[k] !== '' && params[k] !== undefined; })
      .map(function (k) { return encodeURIComponent(k) + '=' + encodeURIComponent(params[k]); });
    return q.length ? h + '?' + q.join('&') : h;
  }
  function pkgHash(p, params) { return makeHash('pkg', P[p].name, params); }

  function pkgLink(p) {
    var a = el('a', { href: pkgHash(p), 'class': 'pkg' + (P[p].kind === 'missing' ? ' missing' : '') }, P[p].name);
    return a;
  }
  function lookup(name) {
    var p = byLower.get(String(name).toLowerCase());
    return p === undefined ? -1 : p;
  }
  // linkify turns a package name, a file of the install, or "Name (file)"
  // into a link to the package; anything else stays text.
  function linkify(text) {
    var p = lookup(text);
    if (p >= 0) return pkgLink(p);
    if (byFile.has(text)) return el('a', { href: pkgHash(byFile.get(text)), 'class': 'pkg' }, text);
    var m = /^([^ ]+) \((.*)\)$/.exec(text);
    if (m && (p = lookup(m[1])) >= 0) return el('span', null, pkgLink(p), ' (' + m[2] + ')');
    return el('span', null, text);
  }
  function fmtSize(n) {
    if (n < 0) return 'unknown';
    if (n < 1024) return n + ' B';
    if (n < 1048576) return (n / 1024).toFixed(1) + ' KiB';
    return (n / 1048576).toFixed(1) + ' MiB';
  }
  function folder(file) {
    var j = file.lastIndexOf('/');
    return j < 0 ? '.' : file.slice(0, j);
  }
  function sevBadge(s) { return el('span', { 'class': 'sev ' + s }, s); }

  // ---- views ---------------------------------------------------------------
  function viewSummary() {
    var s = check.summary || { errors: 0, warnings: 0, by_kind: {} };
    var sec = el('section', { 'aria-labelledby': 'h-summary' }, el('h2', { id: 'h-summary' }, 'Summary'));
    var dl = el('dl', { 'class': 'facts' });
    function fact(k, v, id) { dl.appendChild(el('dt', null, k)); dl.appendChild(el('dd', id ? { id: id } : null, v)); }
    fact('Game', check.game);
    fact('Ini', check.ini);
    if (check.platform) fact('Platform', check.platform + ' rules' + (check.platform_reason ? ': ' + check.platform_reason : ''));
    fact('Packages scanned', String(check.packages_scanned), 'sum-scanned');
    fact('Errors', String(s.errors), 'sum-errors');
    fact('Warnings', String(s.warnings), 'sum-warnings');
    fact('Graph', N + ' packages (' + P.filter(function (p) { return p.kind === 'missing'; }).length + ' missing), ' +
      G.imports.length + ' imports of ' + totalObjects + ' objects, ' + G.cycles.length + ' import cycle(s)');
    if (check.missing_paths && check.missing_paths.length) fact('Paths folders that do not exist', check.missing_paths.join(', '));
    (check.case_notes || []).forEach(function (n) { fact('Case of ' + n.setting, n.message); });
    if (check.with_cache) {
      fact('Download cache', check.with_cache.cache + ': ' + check.with_cache.packages_in_cache + ' usable packages, ' +
        check.with_cache.resolved_from_cache.length + ' used, ' + check.with_cache.findings_removed.length + ' finding(s) it removes');
    }
    if (check.index) {
      var found = check.index.candidates.filter(function (c) { return c.candidates.length; }).length;
      fact('Package index', check.index.db + ': copies of ' + found + ' of ' + check.index.candidates.length + ' missing package(s) and object(s)', 'sum-index');
    }
    fact('Written by', data.generator);
    sec.appendChild(dl);

    // Counts per kind and severity, from the findings themselves.
    var kinds = Object.keys(s.by_kind || {}).sort();
    if (kinds.length) {
      var per = {};
      findings.forEach(function (f) {
        per[f.kind] = per[f.kind] || { error: 0, warning: 0 };
        per[f.kind][f.severity] = (per[f.kind][f.severity] || 0) + 1;
      });
      var tb = el('tbody');
      kinds.forEach(function (k) {
        var c = per[k] || { error: 0, warning: 0 };
        tb.appendChild(el('tr', { 'data-kind': k },
          el('th', { scope: 'row' }, el('a', { href: makeHash('findings', '', { kind: k }) }, k)),
          el('td', { 'class': 'num' }, String(c.error || 0)),
          el('td', { 'class': 'num' }, String(c.warning || 0)),
          el('td', { 'class': 'num by-kind' }, String(s.by_kind[k]))));
      });
      sec.appendChild(el('table', { 'class': 'kinds' },
        el('caption', null, 'Findings by kind'),
        el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'Kind'), el('th', { scope: 'col' }, 'Errors'),
          el('th', { scope: 'col' }, 'Warnings'), el('th', { scope: 'col' }, 'Total'))),
        tb));
    } else {
      sec.appendChild(el('p', { 'class': 'ok' }, 'No problems found.'));
    }

    var missing = findings.filter(function (f) { return f.kind === 'missing_package'; });
    var need = function (f) { return (f.needed_by || []).length + (f.roots || []).length; };
    missing = missing.map(function (f, k) { return [f, k]; }).sort(function (a, b) { return need(b[0]) - need(a[0]) || a[1] - b[1]; });
    if (missing.length) {
      var ol = el('ol', { id: 'most-needed' });
      missing.slice(0, 10).forEach(function (fk) {
        ol.appendChild(el('li', null, linkify(fk[0].package), ' (' + need(fk[0]) + ')'));
      });
      sec.appendChild(el('h3', null, 'Most needed missing packages'));
      sec.appendChild(ol);
    }
    return sec;
  }

  // candidatesOf returns what check --index found for a finding.
  function candidatesOf(f) {
    if (!check.index) return [];
    return check.index.candidates.filter(function (c) {
      return c.kind === f.kind && c.package.toLowerCase() === f.package.toLowerCase();
    });
  }

  function findingDetails(f) {
    var box = el('div', { 'class': 'evidence' }, el('p', null, f.message));
    function list(label, items, link) {
      if (!items || !items.length) return;
      box.appendChild(el('h4', null, label + ' (' + items.length + ')'));
      var ul = el('ul');
      items.forEach(function (x) { ul.appendChild(el('li', null, link ? linkify(x) : x)); });
      box.appendChild(ul);
    }
    list('Objects', f.objects, false);
    list('Needed by', f.needed_by, true);
    list('Named in the ini', f.roots, false);
    list('Packages', f.packages, true);
    var cands = candidatesOf(f);
    if (cands.length) {
      box.appendChild(el('h4', null, 'Copies in the package index'));
      var cl = el('ul', { 'class': 'candidates' });
      cands.forEach(function (c) {
        var what = c.package + (c.object ? '.' + c.object : '') + (c.class ? ' (' + c.class + ')' : '');
        var archive = c.archive || [];
        if (!c.candidates.length && !archive.length) { cl.appendChild(el('li', null, what + ': no copy indexed')); return; }
        var inner = el('ul');
        c.candidates.forEach(function (p) {
          inner.appendChild(el('li', null, (p.path || '(described only)') + (p.member ? '!' + p.member : '') +
            ' \u2014 GUID ' + p.guid + ', version ' + p.version + '/' + p.licensee + ', ' + fmtSize(p.size) + ', from ' + p.source_kind + ' ' + p.source));
        });
        // The Unreal Archive's versions: downloads are shown as text, the
        // page never links out.
        archive.forEach(function (v) {
          var best = v.items[0];
          inner.appendChild(el('li', null, 'Unreal Archive: ' + v.file + ' (' + fmtSize(v.size) + (v.unfit ? ', cannot hold what is imported' : '') + ')' +
            (best ? ' in ' + best.name + ' (' + best.archive_name + ')' + (best.download ? ', download ' + best.download : ', no working download') : '') +
            (v.items.length > 1 ? ', and ' + (v.items.length - 1) + ' other item(s)' : '')));
        });
        cl.appendChild(el('li', null, what + ': ' + c.candidates.length + ' copy(ies)' + (archive.length ? ', ' + archive.length + ' Unreal Archive version(s)' : '') +
          (c.guid ? ', the cache pins GUID ' + c.guid : ''), inner));
      });
      box.appendChild(cl);
    }
    if (f.chain && f.chain.length) {
      var evidence = f.kind === 'cycle' || f.kind === 'edit_order' || f.kind === 'edit_missing' || f.kind === 'unknown_class';
      box.appendChild(el('h4', null, evidence ? 'Evidence' : 'Chain'));
      var ol = el('ol', { 'class': evidence ? 'evidence-list' : 'chain' });
      f.chain.forEach(function (c) { ol.appendChild(el('li', null, linkify(c))); });
      box.appendChild(ol);
    }
    return box;
  }

  var ROWS = 500;
  function viewFindings(st) {
    var sec = el('section', { 'aria-labelledby': 'h-findings' }, el('h2', { id: 'h-findings' }, 'Findings'));
    var kinds = Array.from(new Set(findings.map(function (f) { return f.kind; }))).sort();
    var sev = el('select', { id: 'f-severity', 'aria-label': 'Severity' },
      ['', 'error', 'warning'].map(function (v) { return el('option', { value: v, selected: st.params.severity === v }, v || 'any severity'); }));
    var kind = el('select', { id: 'f-kind', 'aria-label': 'Kind' },
      [''].concat(kinds).map(function (v) { return el('option', { value: v, selected: st.params.kind === v }, v || 'any kind'); }));
    var text = el('input', { id: 'f-text', type: 'search', placeholder: 'filter text', 'aria-label': 'Filter text', value: st.params.q || '' });
    var count = el('p', { id: 'f-count', role: 'status' });
    var tbody = el('tbody');
    sec.appendChild(el('div', { 'class': 'controls' }, sev, kind, text));
    sec.appendChild(count);
    sec.appendChild(el('table', { 'class': 'findings', id: 'findings' },
      el('thead', null, el('tr', null, el('th', { scope: 'col' }, ''), el('th', { scope: 'col' }, 'Severity'),
        el('th', { scope: 'col' }, 'Kind'), el('th', { scope: 'col' }, 'Package'), el('th', { scope: 'col' }, 'Message'))),
      tbody));
    function fill() {
      var q = text.value.toLowerCase();
      var shown = findings.filter(function (f) {
        if (sev.value && f.severity !== sev.value) return false;
        if (kind.value && f.kind !== kind.value) return false;
        if (!q) return true;
        return [f.package, f.message, f.kind].concat(f.objects || [], f.needed_by || [], f.packages || [], f.chain || [], f.roots || [])
          .some(function (x) { return String(x).toLowerCase().indexOf(q) >= 0; });
      });
      tbody.textContent = '';
      shown.slice(0, ROWS).forEach(function (f) {
        var btn = el('button', { type: 'button', 'aria-expanded': 'false', 'aria-label': 'Show evidence' }, '\u25b8');
        var row = el('tr', { 'class': 'finding ' + f.severity },
          el('td', null, btn), el('td', null, sevBadge(f.severity)), el('td', null, f.kind),
          el('td', null, linkify(f.package)), el('td', null, f.message));
        var detail = null;
        btn.addEventListener('click', function () {
          if (detail) { detail.remove(); detail = null; btn.setAttribute('aria-expanded', 'false'); btn.textContent = '\u25b8'; return; }
          detail = el('tr', { 'class': 'detail' }, el('td', { colspan: 5 }, findingDetails(f)));
          row.after(detail);
          btn.setAttribute('aria-expanded', 'true'); btn.textContent = '\u25be';
        });
        tbody.appendChild(row);
      });
      count.textContent = shown.length + ' of ' + findings.length + ' findings' + (shown.length > ROWS ? ' (the first ' + ROWS + ' are listed: narrow the filter)' : '');
      history.replaceState(null, '', makeHash('findings', '', { severity: sev.value, kind: kind.value, q: text.value }));
    }
    sev.addEventListener('change', fill);
    kind.addEventListener('change', fill);
    text.addEventListener('input', fill);
    fill();
    return sec;
  }

  var LIST = 200;
  function searchPackages(q) {
    q = q.toLowerCase();
    var exact = [], prefix = [], sub = [];
    for (var p = 0; p < N; p++) {
      var n = P[p].name.toLowerCase();
      if (n === q) exact.push(p);
      else if (n.indexOf(q) === 0) prefix.push(p);
      else if (n.indexOf(q) > 0) sub.push(p);
    }
    return exact.concat(prefix, sub);
  }
  function viewPackages(st) {
    var sec = el('section', { 'aria-labelledby': 'h-packages' }, el('h2', { id: 'h-packages' }, 'Packages'));
    var input = el('input', { id: 'pkg-search', type: 'search', placeholder: 'package name (any case)', 'aria-label': 'Search packages', value: st.params.q || '' });
    var count = el('p', { id: 'pkg-count', role: 'status' });
    var ul = el('ul', { id: 'pkg-results', 'class': 'columns' });
    sec.appendChild(el('form', { 'class': 'controls', role: 'search' }, input));
    sec.appendChild(count);
    sec.appendChild(ul);
    function fill() {
      var hits = searchPackages(input.value);
      ul.textContent = '';
      hits.slice(0, LIST).forEach(function (p) { ul.appendChild(el('li', null, pkgLink(p), ' ', el('span', { 'class': 'kind' }, P[p].kind))); });
      count.textContent = hits.length + ' of ' + N + ' packages' + (hits.length > LIST ? ' (the first ' + LIST + ' are listed)' : '');
      history.replaceState(null, '', makeHash('packages', '', { q: input.value }));
    }
    input.addEventListener('input', fill);
    sec.querySelector('form').addEventListener('submit', function (ev) {
      ev.preventDefault();
      var hits = searchPackages(input.value);
      if (hits.length) location.hash = pkgHash(hits[0]);
    });
    fill();
    return sec;
  }

  function involves(f, name) {
    var n = name.toLowerCase();
    var hit = function (x) { return String(x).toLowerCase() === n; };
    return hit(f.package) || (f.packages || []).some(hit) || (f.needed_by || []).some(hit);
  }

  var EDGE_ROWS = 200;
  // edgeTable lists imports (the first EDGE_ROWS, then on demand: a hub
  // such as Engine has thousands of importers).
  function edgeTable(caption, ids, other) {
    if (!ids.length) return el('p', null, caption + ': none.');
    var tb = el('tbody');
    function row(k) {
      var im = G.imports[k];
      var objs = null;
      if (im[2] > 0) {
        // Objects on demand: built when opened.
        objs = el('details', null, el('summary', null, im[2] + ' object(s)'));
        objs.addEventListener('toggle', function () {
          if (!objs.open || objs.querySelector('ul')) return;
          var ul = el('ul', { 'class': 'objects' });
          objectsOf(im).forEach(function (o) { ul.appendChild(el('li', null, o)); });
          objs.appendChild(ul);
          if (im[3].length < im[2]) objs.appendChild(el('p', null, 'and ' + (im[2] - im[3].length) + ' more: upkdeps why --json ' + P[im[0]].name + ' ' + P[im[1]].name + ' lists them'));
        });
      }
      tb.appendChild(el('tr', null, el('td', null, pkgLink(im[other])), el('td', { 'class': 'num' }, String(im[2])), el('td', null, objs || 'the package only')));
    }
    ids.slice(0, EDGE_ROWS).forEach(row);
    var table = el('table', { 'class': 'edges' }, el('caption', null, caption + ' (' + ids.length + ')'),
      el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'Package'), el('th', { scope: 'col' }, 'Objects'), el('th', { scope: 'col' }, ''))), tb);
    if (ids.length <= EDGE_ROWS) return table;
    var more = el('button', { type: 'button' }, 'List all ' + ids.length);
    more.addEventListener('click', function () { ids.slice(EDGE_ROWS).forEach(row); more.remove(); });
    return el('div', null, table, more);
  }

  function viewPackage(st) {
    var p = lookup(st.arg);
    if (p < 0) {
      return el('section', null, el('h2', null, 'No package ' + st.arg), el('p', null, el('a', { href: makeHash('packages', '', { q: st.arg }) }, 'Search for it')));
    }
    var pk = P[p];
    var sec = el('section', { 'aria-labelledby': 'h-pkg', id: 'package', 'data-package': pk.name },
      el('h2', { id: 'h-pkg' }, pk.name, ' ', el('span', { 'class': 'kind' }, pk.kind)));
    var dl = el('dl', { 'class': 'facts' });
    function fact(k, v) { dl.appendChild(el('dt', null, k)); dl.appendChild(el('dd', null, v)); }
    if (pk.kind === 'missing') {
      fact('File', 'none: no file resolves for this name through Paths');
    } else {
      fact('File', pk.file);
      fact('Folder', folder(pk.file));
      fact('Version / licensee', pk.version + ' / ' + pk.licensee);
      fact('GUID', pk.guid);
      fact('Flags', pk.flags.length ? pk.flags.join(', ') : 'none');
      fact('Size', fmtSize(pk.size));
      if (pk.from_cache) fact('From', 'the download cache');
    }
    if (pk.error) fact('Cannot be read', pk.error);
    var roots = G.roots.filter(function (r) { return r.package === p; }).map(function (r) { return r.evidence; });
    if (roots.length) fact('Named in the ini', roots.join('; '));
    sec.appendChild(dl);
    sec.appendChild(neighbourhoodView(p, st.params));

    var mine = findings.filter(function (f) { return involves(f, pk.name); });
    sec.appendChild(el('h3', null, 'Findings (' + mine.length + ')'));
    if (mine.length) {
      var ul = el('ul', { 'class': 'pkg-findings' });
      mine.forEach(function (f) {
        var d = el('details', null, el('summary', null, sevBadge(f.severity), ' ' + f.kind + ': ' + f.message), findingDetails(f));
        ul.appendChild(el('li', null, d));
      });
      sec.appendChild(ul);
    }
    sec.appendChild(edgeTable('Imports from', out[p], 1));
    sec.appendChild(edgeTable('Imported by', inc[p], 0));
    return sec;
  }

  // ---- neighbourhood diagram ------------------------------------------------
  var PER_LAYER = 25, PER_LAYER_ALL = 400;
  // neighbourhood returns the nodes around focus f in layers: imports at
  // +1..+depth, importers at -1..-depth. Hubs other than the focus are
  // not walked through and, unless showHubs, are merged into one node per
  // layer; a layer holding more than PER_LAYER packages keeps the first
  // and merges the rest into a "more" node unless showAll.
  function neighbourhood(f, depth, dir, showHubs, showAll) {
    var layerOf = new Map([[f, 0]]);
    var layers = { 0: [{ id: f }] };
    function walk(sign, next, end) {
      var frontier = [f];
      for (var d = 1; d <= depth; d++) {
        var found = [], hubs = [], parent = new Map();
        frontier.forEach(function (q) {
          if (q !== f && isHub(q)) return;
          next[q].forEach(function (k) {
            var r = G.imports[k][end];
            if (layerOf.has(r)) return;
            layerOf.set(r, sign * d);
            parent.set(r, q);
            if (isHub(r) && !showHubs) hubs.push(r); else found.push(r);
          });
        });
        var cap = showAll ? PER_LAYER_ALL : PER_LAYER;
        var nodes = found.slice(0, cap).map(function (r) { return { id: r }; });
        var rest = found.slice(cap);
        rest.forEach(function (r) { layerOf.delete(r); });
        // A collapsed node is wired to the packages that reached it.
        var parents = function (list) { return Array.from(new Set(list.map(function (r) { return parent.get(r); }))); };
        if (hubs.length) nodes.push({ hub: hubs, layer: sign * d, parents: parents(hubs) });
        if (rest.length) nodes.push({ more: rest.length, layer: sign * d, parents: parents(rest) });
        if (nodes.length) layers[sign * d] = nodes;
        frontier = found.slice(0, cap);
        if (!frontier.length) break;
      }
    }
    if (dir !== 'importers') walk(1, out, 1);
    if (dir !== 'imports') walk(-1, inc, 0);
    return { layers: layers, layerOf: layerOf };
  }

  // layout places the layers as columns (importers left, imports right)
  // and orders each column by the barycentre of its neighbours in the
  // column nearer the focus, names breaking ties: a one-pass Sugiyama
  // ordering, enough for trees of one or two hops.
  function layout(nb) {
    var keys = Object.keys(nb.layers).map(Number).sort(function (a, b) { return a - b; });
    var pos = new Map(); // package index -> row in its column
    var order = [0].concat(keys.filter(function (k) { return k > 0; }), keys.filter(function (k) { return k < 0; }).reverse());
    order.forEach(function (k) {
      var nodes = nb.layers[k];
      if (k !== 0) {
        var prev = k > 0 ? k - 1 : k + 1;
        nodes.forEach(function (n, idx) {
          n.bary = idx / 1e6 + 1e6; // collapsed nodes go last
          if (n.id === undefined) return;
          var sum = 0, cnt = 0;
          var edges = k > 0 ? inc[n.id] : out[n.id];
          edges.forEach(function (e) {
            var q = G.imports[e][k > 0 ? 0 : 1];
            if (nb.layerOf.get(q) === prev && pos.has(q)) { sum += pos.get(q); cnt++; }
          });
          n.bary = cnt ? sum / cnt + idx / 1e6 : idx / 1e3;
        });
        nodes.sort(function (a, b) { return a.bary - b.bary; });
      }
      nodes.forEach(function (n, idx) { n.row = idx; if (n.id !== undefined) pos.set(n.id, idx); });
    });
    var tallest = Math.max.apply(null, keys.map(function (k) { return nb.layers[k].length; }));
    var colW = 210, rowH = 30, boxW = 170, boxH = 22, pad = 10;
    keys.forEach(function (k, c) {
      var nodes = nb.layers[k];
      var off = (tallest - nodes.length) * rowH / 2;
      nodes.forEach(function (n) { n.x = pad + c * colW; n.y = pad + off + n.row * rowH; });
    });
    return { keys: keys, width: pad * 2 + keys.length * colW - (colW - boxW), height: pad * 2 + tallest * rowH, boxW: boxW, boxH: boxH };
  }

  function neighbourhoodView(f, params) {
    var depth = params.d === '2' ? 2 : 1;
    var dir = params.dir === 'imports' || params.dir === 'importers' ? params.dir : 'both';
    var showHubs = params.hubs === '1', showAll = params.all === '1';
    var base = { d: depth === 2 ? '2' : '', dir: dir === 'both' ? '' : dir, hubs: showHubs ? '1' : '', all: showAll ? '1' : '' };
    function withParam(k, v) { var o = Object.assign({}, base); o[k] = v; return pkgHash(f, o); }
    var sec = el('section', { 'aria-labelledby': 'h-nb', 'class': 'neighbourhood' }, el('h3', { id: 'h-nb' }, 'Neighbourhood'));
    function choice(label, cur, opts) {
      return el('span', { 'class': 'switch', role: 'group', 'aria-label': label }, label + ': ', opts.map(function (o) {
        return el('a', { href: withParam(o[0], o[1]), 'aria-current': o[2] === cur ? 'true' : null, 'class': o[2] === cur ? 'current' : null }, o[3]);
      }));
    }
    sec.appendChild(el('div', { 'class': 'controls' },
      choice('hops', String(depth), [['d', '', '1', '1 hop'], ['d', '2', '2', '2 hops']]), ' ',
      choice('show', dir, [['dir', '', 'both', 'both'], ['dir', 'imports', 'imports', 'what it needs'], ['dir', 'importers', 'importers', 'what needs it']]), ' ',
      choice('hubs', showHubs ? '1' : '', [['hubs', '', '', 'collapsed'], ['hubs', '1', '1', 'shown']])));

    var nb = neighbourhood(f, depth, dir, showHubs, showAll);
    var lay = layout(nb);
    var s = svg('svg', { id: 'nb-svg', width: lay.width, height: lay.height, viewBox: '0 0 ' + lay.width + ' ' + lay.height, role: 'group', 'aria-label': 'Neighbourhood of ' + P[f].name });
    var edgesG = svg('g', { 'class': 'edges' }), nodesG = svg('g', { 'class': 'nodes' });
    s.appendChild(edgesG); s.appendChild(nodesG);
    var at = new Map();
    lay.keys.forEach(function (k) { nb.layers[k].forEach(function (n) { if (n.id !== undefined) at.set(n.id, n); }); });
    function curve(a, b) {
      var x1 = a.x + lay.boxW, y1 = a.y + lay.boxH / 2, x2 = b.x, y2 = b.y + lay.boxH / 2, mx = (x1 + x2) / 2;
      return 'M' + x1 + ',' + y1 + ' C' + mx + ',' + y1 + ' ' + mx + ',' + y2 + ' ' + x2 + ',' + y2;
    }
    // Edges between drawn packages in adjacent columns, importer to the
    // left of what it imports, so every edge points right.
    at.forEach(function (a, p) {
      out[p].forEach(function (k) {
        var b = at.get(G.imports[k][1]);
        if (!b) return;
        if (nb.layerOf.get(G.imports[k][1]) !== nb.layerOf.get(p) + 1) return;
        var cls = P[G.imports[k][1]].kind === 'missing' ? 'edge to-missing' : sameCycle(p, G.imports[k][1]) ? 'edge in-cycle' : 'edge';
        edgesG.appendChild(svg('path', { d: curve(a, b), 'class': cls },
          svg('title', null, P[p].name + ' imports ' + G.imports[k][2] + ' object(s) of ' + P[G.imports[k][1]].name)));
      });
    });
    lay.keys.forEach(function (k) {
      nb.layers[k].forEach(function (n) {
        var href, label, cls, tip;
        if (n.id !== undefined) {
          var pk = P[n.id];
          href = pkgHash(n.id, base);
          label = pk.name;
          cls = 'node kind-' + pk.kind + (n.id === f ? ' focus' : '') + (isHub(n.id) ? ' hub' : '') + (cycleOf[n.id] ? ' in-cycle' : '');
          tip = pk.name + (pk.kind === 'missing' ? ' (missing)' : ' (' + pk.file + ')') + ': ' + out[n.id].length + ' imports, ' + inc[n.id].length + ' importers';
        } else if (n.hub) {
          href = withParam('hubs', '1');
          label = n.hub.length === 1 ? P[n.hub[0]].name + ' (hub)' : n.hub.length + ' hubs';
          cls = 'node collapsed';
          tip = 'Hubs: ' + n.hub.map(function (q) { return P[q].name + ' (' + inc[q].length + ' importers)'; }).join(', ') + ': click to show';
        } else {
          href = withParam('all', '1');
          label = '+' + n.more + ' more';
          cls = 'node collapsed';
          tip = n.more + ' more packages: click to show up to ' + PER_LAYER_ALL + ' per column';
        }
        var shown = label.length > 24 ? label.slice(0, 23) + '\u2026' : label;
        var a = svg('a', { href: href, 'class': cls, 'data-name': n.id !== undefined ? P[n.id].name : null },
          svg('title', null, tip),
          svg('rect', { x: n.x, y: n.y, width: lay.boxW, height: lay.boxH, rx: 4 }),
          svg('text', { x: n.x + 6, y: n.y + 15 }, shown));
        nodesG.appendChild(a);
        if (n.id === undefined) {
          n.parents.forEach(function (q) {
            var pa = at.get(q);
            if (pa) edgesG.appendChild(svg('path', { d: k > 0 ? curve(pa, n) : curve(n, pa), 'class': 'edge collapsed' }));
          });
        }
      });
    });
    sec.appendChild(el('div', { 'class': 'diagram' }, s));
    sec.appendChild(el('p', { 'class': 'legend' }, 'Importers on the left, what they import on the right. Red dashed: missing. Red outline and bold red edges: an import cycle. Grey: collapsed hubs or more packages (click to open). Click a package to move there.'));
    return sec;
  }

  // cycleDiagram draws a cycle's packages on a circle with the imports
  // between them as arrows; each package links to its page.
  var CYCLE_DRAWN = 24;
  function cycleDiagram(c, ci) {
    var boxW = 150, boxH = 22, n = c.length;
    var r = Math.max(70, n * (boxH + 14) / Math.PI), w = 2 * r + boxW + 20, h = 2 * r + boxH + 20;
    var at = new Map();
    c.forEach(function (p, j) {
      var a = -Math.PI / 2 + 2 * Math.PI * j / n;
      at.set(p, { x: w / 2 + r * Math.cos(a), y: h / 2 + r * Math.sin(a) });
    });
    var s = svg('svg', { 'class': 'cycle-svg', id: 'cycle-svg-' + (ci + 1), width: w, height: h, viewBox: '0 0 ' + w + ' ' + h, role: 'group', 'aria-label': 'Import cycle ' + (ci + 1) });
    s.appendChild(svg('defs', null, svg('marker', { id: 'arrow-' + ci, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      svg('path', { d: 'M0,0 L10,5 L0,10 z', 'class': 'arrow' }))));
    var edgesG = svg('g', { 'class': 'edges' }), nodesG = svg('g', { 'class': 'nodes' });
    s.appendChild(edgesG); s.appendChild(nodesG);
    // The point where the line from a's centre to b's leaves b's box.
    function border(a, b) {
      var dx = a.x - b.x, dy = a.y - b.y;
      var t = Math.min(Math.abs(dx) > 0 ? (boxW / 2 + 4) / Math.abs(dx) : Infinity, Math.abs(dy) > 0 ? (boxH / 2 + 4) / Math.abs(dy) : Infinity);
      return { x: b.x + dx * t, y: b.y + dy * t };
    }
    c.forEach(function (p) {
      out[p].forEach(function (k) {
        var q = G.imports[k][1];
        if (!at.has(q)) return;
        var a = border(at.get(q), at.get(p)), b = border(at.get(p), at.get(q));
        // Bend each arrow to its right, so that A->B and B->A stay apart.
        var mx = (a.x + b.x) / 2 - (b.y - a.y) * 0.15, my = (a.y + b.y) / 2 + (b.x - a.x) * 0.15;
        edgesG.appendChild(svg('path', { d: 'M' + a.x + ',' + a.y + ' Q' + mx + ',' + my + ' ' + b.x + ',' + b.y, 'class': 'edge in-cycle', 'marker-end': 'url(#arrow-' + ci + ')' },
          svg('title', null, P[p].name + ' imports ' + G.imports[k][2] + ' object(s) of ' + P[q].name)));
      });
    });
    c.forEach(function (p) {
      var o = at.get(p), label = P[p].name.length > 20 ? P[p].name.slice(0, 19) + '\u2026' : P[p].name;
      nodesG.appendChild(svg('a', { href: pkgHash(p), 'class': 'node in-cycle kind-' + P[p].kind, 'data-name': P[p].name },
        svg('title', null, P[p].name + (P[p].file ? ' (' + P[p].file + ')' : ' (missing)')),
        svg('rect', { x: o.x - boxW / 2, y: o.y - boxH / 2, width: boxW, height: boxH, rx: 4 }),
        svg('text', { x: o.x, y: o.y + 4, 'text-anchor': 'middle' }, label)));
    });
    return el('div', { 'class': 'diagram' }, s);
  }

  // ---- Downloads -----------------------------------------------------------
  var DL_ROWS = 40;
  function bars(id, caption, rows, total, label) {
    var tb = el('tbody');
    var most = Math.max.apply(null, [1].concat(rows.map(function (r) { return r.bytes; })));
    rows.forEach(function (r) {
      var pct = Math.max(0.5, 100 * r.bytes / most);
      tb.appendChild(el('tr', { 'data-name': r.name },
        el('th', { scope: 'row' }, r.link || r.name),
        el('td', { 'class': 'num' }, label(r)),
        el('td', { 'class': 'num' }, fmtSize(r.bytes) + (r.compressed_bytes >= 0 ? ' (' + fmtSize(r.compressed_bytes) + ' compressed)' : '')),
        el('td', { 'class': 'bar-cell' }, el('span', { 'class': 'bar', 'data-pct': pct.toFixed(1) }))));
    });
    var t = el('table', { id: id, 'class': 'bars' }, el('caption', null, caption), tb);
    // Widths go in through the CSSOM: the page's policy forbids inline style attributes.
    t.querySelectorAll('.bar').forEach(function (b) { b.style.width = b.getAttribute('data-pct') + '%'; });
    return t;
  }
  function viewDownloads(st) {
    var sec = el('section', { 'aria-labelledby': 'h-downloads' }, el('h2', { id: 'h-downloads' }, 'Downloads'));
    var dl = data.downloads;
    if (!dl || !dl.roots.length) { sec.appendChild(el('p', null, 'No map and no ServerPackages: clients download nothing from this server.')); return sec; }
    var maps = dl.roots.filter(function (r) { return r.kind === 'map'; }).length;
    sec.appendChild(el('p', null, 'What a client downloads from the redirect (what redirect build publishes: no stock, ServerSideOnly or not-downloadable package) for each of ' + maps +
      ' maps and for joining at all (ServerPackages), heaviest first; then the packages most of them share. The same numbers as ', el('code', null, 'upkdeps downloads --json'), '.'));
    var dlist = el('dl', { 'class': 'facts' });
    dlist.appendChild(el('dt', null, 'Every package once'));
    dlist.appendChild(el('dd', null, el('span', { id: 'dl-total-count' }, String(dl.total.count)), ' packages, ',
      el('span', { id: 'dl-total-bytes', 'data-bytes': String(dl.total.bytes) }, fmtSize(dl.total.bytes)),
      dl.total.compressed_count ? ' (' + fmtSize(dl.total.compressed_bytes) + ' compressed, ' + dl.total.compressed_count + ' files)' : ''));
    sec.appendChild(dlist);
    var all = st.params.all === '1';
    var roots = all ? dl.roots : dl.roots.slice(0, DL_ROWS);
    sec.appendChild(bars('dl-roots', 'Heaviest maps (' + dl.roots.length + ' roots)', roots.map(function (r) {
      var p = lookup(r.name);
      return { name: r.name, bytes: r.bytes, compressed_bytes: r.compressed_bytes, count: r.count, link: p < 0 ? null : pkgLink(p) };
    }), dl.total.bytes, function (r) { return r.count + ' packages'; }));
    var shared = all ? dl.packages : dl.packages.slice(0, DL_ROWS);
    sec.appendChild(bars('dl-shared', 'Shared by the most roots (' + (dl.packages.length < dl.package_count ? 'the first ' + dl.packages.length + ' of ' : '') + dl.package_count + ' packages)', shared.map(function (p) {
      var q = lookup(p.name);
      return { name: p.name, bytes: p.bytes, compressed_bytes: p.compressed_bytes, roots: p.roots, link: q < 0 ? null : pkgLink(q) };
    }), dl.total.bytes, function (r) { return r.roots + ' of ' + dl.roots.length; }));
    if (!all && (dl.roots.length > DL_ROWS || dl.packages.length > DL_ROWS)) {
      sec.appendChild(el('p', null, el('a', { href: makeHash('downloads', '', { all: '1' }) }, 'Show all rows')));
    }
    return sec;
  }

  function viewCycles() {
    var sec = el('section', { 'aria-labelledby': 'h-cycles' }, el('h2', { id: 'h-cycles' }, 'Cycles'));
    if (!G.cycles.length) sec.appendChild(el('p', { 'class': 'ok' }, 'No package imports from another that imports it back.'));
    G.cycles.forEach(function (c, ci) {
      var inCycle = new Set(c);
      var box = el('div', { 'class': 'cycle' }, el('h3', null, 'Import cycle ' + (ci + 1) + ' (' + c.length + ' packages)'));
      box.appendChild(el('p', null, c.map(function (p, j) { return [j ? ', ' : '', pkgLink(p)]; })));
      if (c.length <= CYCLE_DRAWN) box.appendChild(cycleDiagram(c, ci));
      var ul = el('ul');
      c.forEach(function (p) {
        out[p].forEach(function (k) {
          var im = G.imports[k];
          if (inCycle.has(im[1])) ul.appendChild(el('li', null, pkgLink(p), ' imports ' + im[2] + ' object(s) of ', pkgLink(im[1]), im[3].length ? ': ' + objectsOf(im, 3).join(', ') : ''));
        });
      });
      box.appendChild(ul);
      sec.appendChild(box);
    });
    var ep = findings.filter(function (f) { return f.kind === 'cycle' && /EditPackages/.test(f.message); });
    if (ep.length) {
      sec.appendChild(el('h3', null, 'EditPackages cycles'));
      ep.forEach(function (f) { sec.appendChild(findingDetails(f)); });
    }
    return sec;
  }

  function viewOrder() {
    var sec = el('section', { 'aria-labelledby': 'h-order' }, el('h2', { id: 'h-order' }, 'EditPackages order'));
    var o = data.order;
    if (!o || !o.edit_packages.length) { sec.appendChild(el('p', null, 'The ini lists no EditPackages.')); return sec; }
    sec.appendChild(el('p', { id: 'order-valid', 'class': o.valid ? 'ok' : 'bad' }, o.valid ? 'The order is valid.' : 'The order is NOT valid: ucc make fails.'));
    var cur = el('ol', { id: 'order-current' });
    o.edit_packages.forEach(function (n) { cur.appendChild(el('li', null, linkify(n))); });
    var cols = el('div', { 'class': 'order-cols' }, el('div', null, el('h3', null, 'Current'), cur));
    if (o.suggested) {
      var sug = el('ol', { id: 'order-suggested' });
      o.suggested.forEach(function (n, j) {
        sug.appendChild(el('li', { 'class': o.edit_packages[j] === n ? null : 'moved' }, linkify(n)));
      });
      cols.appendChild(el('div', null, el('h3', null, 'Suggested'), sug,
        el('pre', { 'class': 'paste' }, o.suggested.map(function (n) { return 'EditPackages=' + n; }).join('\n'))));
    } else {
      cols.appendChild(el('div', null, el('h3', null, 'Suggested'), el('p', null, 'No order works until the cycle is broken.')));
    }
    sec.appendChild(cols);
    if (o.findings.length) {
      sec.appendChild(el('h3', null, 'Problems'));
      o.findings.forEach(function (f) { sec.appendChild(el('div', { 'class': 'order-finding' }, sevBadge(f.severity), ' ' + f.kind, findingDetails(f))); });
    }
    if (o.constraints.length) {
      var tb = el('tbody');
      o.constraints.forEach(function (c) { tb.appendChild(el('tr', null, el('td', null, linkify(c.package)), el('td', null, linkify(c.on)), el('td', null, c.source), el('td', null, c.evidence))); });
      sec.appendChild(el('table', { 'class': 'constraints' }, el('caption', null, 'Constraints (' + o.constraints.length + ')'),
        el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'Package'), el('th', { scope: 'col' }, 'needs'), el('th', { scope: 'col' }, 'from'), el('th', { scope: 'col' }, 'evidence'))), tb));
    }
    return sec;
  }

  var views = { summary: viewSummary, findings: viewFindings, packages: viewPackages, pkg: viewPackage, cycles: viewCycles, order: viewOrder, downloads: viewDownloads };
  function render() {
    var st = parseHash();
    var v = views[st.view] || viewSummary;
    main.textContent = '';
    main.appendChild(v(st));
    document.body.setAttribute('data-view', views[st.view] ? st.view : 'summary');
    document.querySelectorAll('nav a').forEach(function (a) {
      var cur = a.getAttribute('href') === '#/' + st.view || (st.view === 'pkg' && a.getAttribute('href') === '#/packages');
      if (cur) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
  }
  window.addEventListener('hashchange', function () { render(); main.focus({ preventScroll: true }); });
  render();
  document.documentElement.setAttribute('data-ready', String(Math.round(performance.now())));
})();
