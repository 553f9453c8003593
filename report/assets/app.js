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
    if (check.packages_readable < check.packages_scanned) {
      // As check's text says it.
      var readable = check.packages_readable + ' of ' + check.packages_scanned;
      if (check.git_lfs_pointers > 0) readable += ' (' + check.git_lfs_pointers + ' Git LFS pointers: fetch the files with git lfs pull)';
      fact('Readable', readable, 'sum-readable');
    }
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

    // Fix first: the three findings the text report leads with.
    if ((s.fix_first || []).length) {
      var ff = el('ol', { id: 'fix-first' });
      s.fix_first.forEach(function (r) {
        ff.appendChild(el('li', null, sevBadge(r.severity), ' ',
          el('a', { href: makeHash('findings', '', { kind: r.kind }) }, r.kind), ': ', linkify(r.package), ' (' + r.why + ')'));
      });
      sec.appendChild(el('h3', null, 'Fix first'));
      sec.appendChild(ff);
    }

    // The game's own missing packages are the stock_missing finding's:
    // listed there, apart from the others (as the text report does).
    var stock = {};
    findings.forEach(function (f) {
      if (f.kind === 'stock_missing') (f.packages || []).forEach(function (p) { stock[p.toLowerCase()] = true; });
    });
    var missing = findings.filter(function (f) { return f.kind === 'missing_package' && !stock[f.package.toLowerCase()]; });
    var need = function (f) { return (f.needed_by || []).length + (f.roots || []).length; };
    missing = missing.map(function (f, k) { return [f, k]; }).sort(function (a, b) { return need(b[0]) - need(a[0]) || a[1] - b[1]; });
    if (missing.length) {
      var ol = el('ol', { id: 'most-needed' });
      missing.slice(0, 10).forEach(function (fk) {
        ol.appendChild(el('li', null, linkify(fk[0].package), ' (' + need(fk[0]) + ')'));
      });
      sec.appendChild(el('h3', null, 'Most needed missing packages' + (Object.keys(stock).length ? " (not the game's own)" : '')));
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
      if (evidence) {
        var ol = el('ol', { 'class': 'evidence-list' });
        f.chain.forEach(function (c) { ol.appendChild(el('li', null, linkify(c))); });
        box.appendChild(ol);
      } else {
        box.appendChild(chainDiagram(f.chain));
      }
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

  // ---- graph drawing: dagre lays out, the page draws ------------------------
  // layoutGraph lays out nodes ({key, width, height}) and edges ({v, w},
  // keys of nodes) with dagre (assets/vendor/dagre.min.js, a layered
  // Sugiyama layout: ranks, crossing reduction, coordinates, edge routes).
  // It returns the drawing's size, each node's box by key ({x, y} its top
  // left) and each edge's route, in the edges' order. The tight-tree
  // ranker: network simplex, dagre's default, took 0.3 s for a star of 200
  // nodes, tight-tree 40 ms, with the same ranks on our views. Dagre's
  // time grows with the edges (Core's two hops on a 665-package install,
  // 632 nodes and 4,596 edges, took 6-7 s): past LAYOUT_EDGES edges it
  // lays out only those marked tree (each node's edge from the package
  // that reached it, so the ranks stay the hops), and the others go
  // straight from box to box (rankdir LR only).
  var LAYOUT_EDGES = 400;
  function layoutGraph(nodes, edges, opt) {
    var g = new dagre.graphlib.Graph({ multigraph: true });
    g.setGraph({ rankdir: opt.rankdir, ranker: 'tight-tree', nodesep: opt.nodesep, ranksep: opt.ranksep, edgesep: 10, marginx: 10, marginy: 10 });
    nodes.forEach(function (n) { g.setNode(n.key, { width: n.width, height: n.height }); });
    var some = edges.length > LAYOUT_EDGES && opt.rankdir === 'LR';
    // dagre's first ordering follows the edges as given, and a column of
    // equals comes out in the reverse order: aToZ gives them last first,
    // so that a column sorted by name reads A to Z from the top.
    for (var k = 0; k < edges.length; k++) {
      var kk = opt.aToZ ? edges.length - 1 - k : k, e = edges[kk];
      if (!some || e.tree) g.setEdge(e.v, e.w, {}, String(kk));
    }
    dagre.layout(g);
    var boxes = new Map();
    nodes.forEach(function (n) {
      var d = g.node(n.key);
      boxes.set(n.key, { x: d.x - n.width / 2, y: d.y - n.height / 2, width: n.width, height: n.height });
    });
    var routes = edges.map(function (e, k) {
      if (!some || e.tree) return g.edge(e.v, e.w, String(k)).points;
      var a = boxes.get(e.v), b = boxes.get(e.w), y1 = a.y + a.height / 2, y2 = b.y + b.height / 2, x1 = a.x + a.width, x2 = b.x, mx = (x1 + x2) / 2;
      return [{ x: x1, y: y1 }, { x: mx, y: y1 }, { x: mx, y: y2 }, { x: x2, y: y2 }];
    });
    return { width: Math.ceil(g.graph().width), height: Math.ceil(g.graph().height), boxes: boxes, routes: routes };
  }
  // routePath draws a route through dagre's points as a smooth curve
  // (quadratic segments through the midpoints); bend moves its middle
  // sideways, so that A->B and B->A stay apart.
  function routePath(pts, bend) {
    pts = pts.map(function (p) { return { x: p.x, y: p.y }; });
    if (bend && pts.length >= 2) {
      var a = pts[0], b = pts[pts.length - 1], len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      var mid = pts.length === 2 ? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } : pts[Math.floor(pts.length / 2)];
      var m = { x: mid.x + bend * (b.y - a.y) / len, y: mid.y - bend * (b.x - a.x) / len };
      pts = pts.length === 2 ? [a, m, b] : pts.map(function (p) { return p === mid ? m : p; });
    }
    var d = 'M' + pts[0].x.toFixed(1) + ',' + pts[0].y.toFixed(1);
    for (var i = 1; i < pts.length - 1; i++) {
      var mx = (pts[i].x + pts[i + 1].x) / 2, my = (pts[i].y + pts[i + 1].y) / 2;
      d += ' Q' + pts[i].x.toFixed(1) + ',' + pts[i].y.toFixed(1) + ' ' + (i === pts.length - 2 ? pts[i + 1].x.toFixed(1) + ',' + pts[i + 1].y.toFixed(1) : mx.toFixed(1) + ',' + my.toFixed(1));
    }
    if (pts.length === 2) d += ' L' + pts[1].x.toFixed(1) + ',' + pts[1].y.toFixed(1);
    return d;
  }
  var markers = 0;
  // graphSVG draws a laid-out graph: edges under nodes, each node a link
  // (or text) box with a tooltip, each edge a path with its classes.
  function graphSVG(lay, nodes, edges, attrs, arrow) {
    attrs.width = lay.width; attrs.height = lay.height; attrs.viewBox = '0 0 ' + lay.width + ' ' + lay.height; attrs.role = 'group';
    var s = svg('svg', attrs);
    var marker = null;
    if (arrow) {
      marker = 'arrow-' + (++markers);
      s.appendChild(svg('defs', null, svg('marker', { id: marker, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
        svg('path', { d: 'M0,0 L10,5 L0,10 z', 'class': arrow }))));
    }
    var edgesG = svg('g', { 'class': 'edges' }), nodesG = svg('g', { 'class': 'nodes' });
    s.appendChild(edgesG); s.appendChild(nodesG);
    edges.forEach(function (e, k) {
      edgesG.appendChild(svg('path', { d: routePath(lay.routes[k], e.bend), 'class': e.cls, 'marker-end': marker ? 'url(#' + marker + ')' : null },
        e.tip ? svg('title', null, e.tip) : null));
    });
    nodes.forEach(function (n) {
      var b = lay.boxes.get(n.key);
      nodesG.appendChild(svg(n.href ? 'a' : 'g', { href: n.href, 'class': n.cls, 'data-name': n.name },
        svg('title', null, n.tip),
        svg('rect', { x: b.x, y: b.y, width: b.width, height: b.height, rx: 4 }),
        svg('text', { x: b.x + 6, y: b.y + 15 }, n.label)));
    });
    return s;
  }
  // clip shortens a label to n characters.
  function clip(label, n) { return label.length > n ? label.slice(0, n - 1) + '\u2026' : label; }
  var measure = null;
  // labelWidth is the width of a node that shows label in 12px text.
  function labelWidth(label) {
    if (!measure) { measure = document.createElement('canvas').getContext('2d'); measure.font = '12px ' + getComputedStyle(document.body).fontFamily; }
    return Math.ceil(measure.measureText(label).width) + 14;
  }

  // neighbourhoodView draws the neighbourhood of package f: the packages
  // of neighbourhood() as nodes, the imports between adjacent hops as
  // edges (importer to import, so importers come left), laid out by dagre.
  var BOX_W = 170, BOX_H = 22;
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
    var nodes = [], edges = [];
    var drawn = new Set();
    Object.keys(nb.layers).map(Number).sort(function (a, b) { return a - b; }).forEach(function (k) {
      nb.layers[k].forEach(function (n, j) {
        var href, label, cls, tip, key;
        if (n.id !== undefined) {
          var pk = P[n.id];
          key = 'p' + n.id;
          drawn.add(n.id);
          href = pkgHash(n.id, base);
          label = pk.name;
          cls = 'node kind-' + pk.kind + (n.id === f ? ' focus' : '') + (isHub(n.id) ? ' hub' : '') + (cycleOf[n.id] ? ' in-cycle' : '');
          tip = pk.name + (pk.kind === 'missing' ? ' (missing)' : ' (' + pk.file + ')') + ': ' + out[n.id].length + ' imports, ' + inc[n.id].length + ' importers';
        } else if (n.hub) {
          key = 'c' + k + '.' + j;
          href = withParam('hubs', '1');
          label = n.hub.length === 1 ? P[n.hub[0]].name + ' (hub)' : n.hub.length + ' hubs';
          cls = 'node collapsed';
          tip = 'Hubs: ' + n.hub.map(function (q) { return P[q].name + ' (' + inc[q].length + ' importers)'; }).join(', ') + ': click to show';
        } else {
          key = 'c' + k + '.' + j;
          href = withParam('all', '1');
          label = '+' + n.more + ' more';
          cls = 'node collapsed';
          tip = n.more + ' more packages: click to show up to ' + PER_LAYER_ALL + ' per column';
        }
        nodes.push({ key: key, width: BOX_W, height: BOX_H, href: href, label: clip(label, 24), cls: cls, tip: tip, name: n.id !== undefined ? P[n.id].name : null });
        // A collapsed node is wired to the packages that reached it.
        if (n.id === undefined) {
          n.parents.forEach(function (q) {
            edges.push(k > 0 ? { v: 'p' + q, w: key, cls: 'edge collapsed', tree: true } : { v: key, w: 'p' + q, cls: 'edge collapsed', tree: true });
          });
        }
      });
    });
    // Imports between drawn packages in adjacent hops, importer to import;
    // each package's first edge towards the focus is its tree edge.
    var reached = new Set([f]);
    drawn.forEach(function (p) {
      out[p].forEach(function (k) {
        var q = G.imports[k][1];
        if (!drawn.has(q) || nb.layerOf.get(q) !== nb.layerOf.get(p) + 1) return;
        var far = nb.layerOf.get(q) > 0 ? q : p, tree = !reached.has(far);
        reached.add(far);
        edges.push({ v: 'p' + p, w: 'p' + q, cls: P[q].kind === 'missing' ? 'edge to-missing' : sameCycle(p, q) ? 'edge in-cycle' : 'edge', tree: tree,
          tip: P[p].name + ' imports ' + G.imports[k][2] + ' object(s) of ' + P[q].name });
      });
    });
    var lay = layoutGraph(nodes, edges, { rankdir: 'LR', nodesep: 8, ranksep: 40, aToZ: true });
    var s = graphSVG(lay, nodes, edges, { id: 'nb-svg', 'aria-label': 'Neighbourhood of ' + P[f].name }, false);
    sec.appendChild(el('div', { 'class': 'diagram' }, s));
    sec.appendChild(el('p', { 'class': 'legend' }, 'Importers on the left, what they import on the right. Red dashed: missing. Red outline and bold red edges: an import cycle. Grey: collapsed hubs or more packages (click to open). Click a package to move there.'));
    return sec;
  }

  // cycleDiagram draws a cycle's packages with the imports between them
  // as arrows (laid out by dagre, which breaks the cycle to rank it); each
  // package links to its page.
  var CYCLE_DRAWN = 24;
  function cycleDiagram(c, ci) {
    var inCycle = new Set(c), nodes = [], edges = [], pairs = new Set();
    c.forEach(function (p) {
      nodes.push({ key: 'p' + p, width: BOX_W, height: BOX_H, href: pkgHash(p), cls: 'node in-cycle kind-' + P[p].kind, name: P[p].name,
        label: clip(P[p].name, 24), tip: P[p].name + (P[p].file ? ' (' + P[p].file + ')' : ' (missing)') });
      out[p].forEach(function (k) {
        var q = G.imports[k][1];
        if (inCycle.has(q) && q !== p) pairs.add(p + '>' + q);
      });
    });
    c.forEach(function (p) {
      out[p].forEach(function (k) {
        var q = G.imports[k][1];
        if (!inCycle.has(q) || q === p) return;
        edges.push({ v: 'p' + p, w: 'p' + q, cls: 'edge in-cycle', bend: pairs.has(q + '>' + p) ? 18 : 0,
          tip: P[p].name + ' imports ' + G.imports[k][2] + ' object(s) of ' + P[q].name });
      });
    });
    var lay = layoutGraph(nodes, edges, { rankdir: 'TB', nodesep: 30, ranksep: 60 });
    return el('div', { 'class': 'diagram' }, graphSVG(lay, nodes, edges, { 'class': 'cycle-svg', id: 'cycle-svg-' + (ci + 1), 'aria-label': 'Import cycle ' + (ci + 1) }, 'arrow'));
  }

  // chainDiagram draws a why-chain top to bottom: the ini line or package
  // that starts it, each package it goes through, arrows between; package
  // names link to their pages.
  function chainDiagram(chain) {
    var nodes = chain.map(function (c, j) {
      var m = /^([^ ]+) \((.*)\)$/.exec(c), p = lookup(m ? m[1] : c), label = clip(c, 70);
      return { key: 'n' + j, width: labelWidth(label), height: BOX_H, label: label, tip: c, name: p >= 0 ? P[p].name : null,
        href: p >= 0 ? pkgHash(p) : null, cls: 'node' + (p >= 0 ? ' kind-' + P[p].kind : ' text') };
    });
    var edges = chain.slice(1).map(function (c, j) { return { v: 'n' + j, w: 'n' + (j + 1), cls: 'edge' }; });
    var lay = layoutGraph(nodes, edges, { rankdir: 'TB', nodesep: 20, ranksep: 18 });
    return el('div', { 'class': 'diagram chain' }, graphSVG(lay, nodes, edges, { 'class': 'chain-svg', 'aria-label': 'Chain' }, 'arrow plain'));
  }
  // ---- Downloads -----------------------------------------------------------
  // treemap draws every package a client may download once, as a tile of
  // its size in a box per folder (d3-hierarchy's squarified treemap,
  // assets/vendor/d3-hierarchy.min.js); the packages the page does not
  // list are one tile of the rest, so the tiles add up to the total. The
  // more roots need a package, the stronger its colour.
  var TREEMAP_W = 920, TREEMAP_H = 330;
  // With compressed, a tile is the package's compressed file where the
  // redirect folder has one, else the server's copy (its tooltip says
  // which); the rest tile is the rest of the compressed total.
  function treemap(dl, compressed) {
    var groups = new Map(), listed = 0;
    function size(p) { return compressed && p.compressed_bytes >= 0 ? p.compressed_bytes : p.bytes; }
    dl.packages.forEach(function (p) {
      var f = folder(p.file || '');
      if (!groups.has(f)) groups.set(f, []);
      groups.get(f).push({ name: p.name, pkg: p, bytes: size(p) });
      listed += size(p);
    });
    var children = Array.from(groups.keys()).map(function (f) { return { name: f, children: groups.get(f) }; });
    var rest = dl.package_count - dl.packages.length;
    // The rest is a tile of its own, not in a padded folder box that a
    // thin slice would leave no room in.
    var total = compressed ? Math.max(dl.total.compressed_bytes, 0) + dl.packages.reduce(function (n, p) { return n + (p.compressed_bytes >= 0 ? 0 : p.bytes); }, 0) : dl.total.bytes;
    if (rest > 0) children.push({ name: rest + ' more packages', more: rest, bytes: Math.max(0, total - listed) });
    var root = d3.hierarchy({ name: '', children: children })
      .sum(function (d) { return d.children ? 0 : Math.max(0, d.bytes); })
      .sort(function (a, b) { return b.value - a.value || (a.data.name < b.data.name ? -1 : a.data.name > b.data.name ? 1 : 0); });
    d3.treemap().size([TREEMAP_W, TREEMAP_H]).paddingOuter(2).paddingTop(function (d) { return d.depth ? 17 : 2; }).paddingInner(1).round(true)(root);
    var s = svg('svg', { id: 'dl-treemap', width: TREEMAP_W, height: TREEMAP_H, viewBox: '0 0 ' + TREEMAP_W + ' ' + TREEMAP_H, role: 'group',
      'aria-label': 'Packages clients download, by size' });
    (root.children || []).forEach(function (g) {
      if (g.data.more) return;
      s.appendChild(svg('rect', { 'class': 'folder', x: g.x0, y: g.y0, width: g.x1 - g.x0, height: g.y1 - g.y0 }));
      if (g.x1 - g.x0 > 40) s.appendChild(svg('text', { 'class': 'folder-label', x: g.x0 + 4, y: g.y0 + 13 }, clip(g.data.name + ' ' + fmtSize(g.value), Math.floor((g.x1 - g.x0 - 8) / 7))));
    });
    root.leaves().forEach(function (t) {
      var w = t.x1 - t.x0, h = t.y1 - t.y0;
      if (!(t.depth === 2 || t.data.more) || w < 1 || h < 1) return; // no package, or too small to see: counted in its folder
      var d = t.data, p = d.pkg ? lookup(d.name) : -1;
      var tip = d.more ? d.more + ' packages not listed in the page: ' + fmtSize(d.bytes) : d.name + ' (' + d.pkg.file + '): ' + fmtSize(d.bytes) +
        (compressed ? (d.pkg.compressed_bytes >= 0 ? ' compressed (' + fmtSize(d.pkg.bytes) + ' raw)' : ' (no compressed file: raw size)') : '') + ', needed by ' + d.pkg.roots + ' of ' + dl.roots.length + ' roots';
      var share = d.pkg && dl.roots.length ? d.pkg.roots / dl.roots.length : 0;
      var tile = svg(p >= 0 ? 'a' : 'g', { href: p >= 0 ? pkgHash(p) : null, 'class': 'tile' + (d.more ? ' more' : ''), 'data-name': d.more ? null : d.name, 'data-bytes': String(d.bytes) },
        svg('title', null, tip),
        svg('rect', { x: t.x0, y: t.y0, width: w, height: h, 'fill-opacity': (0.3 + 0.7 * share).toFixed(2) }));
      if (w > 36 && h > 15) tile.appendChild(svg('text', { x: t.x0 + 3, y: t.y0 + 12 }, clip(d.name, Math.floor((w - 6) / 7))));
      if (w > 36 && h > 30) tile.appendChild(svg('text', { x: t.x0 + 3, y: t.y0 + 26, 'class': 'size' }, clip(fmtSize(d.bytes), Math.floor((w - 6) / 7))));
      s.appendChild(tile);
    });
    return el('div', { 'class': 'diagram' }, s);
  }
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
      ' maps and for joining at all (ServerPackages): every package once by size, then each map, heaviest first, then the packages most of them share. The same numbers as ', el('code', null, 'upkdeps downloads --json'), '.'));
    var dlist = el('dl', { 'class': 'facts' });
    dlist.appendChild(el('dt', null, 'Every package once'));
    dlist.appendChild(el('dd', null, el('span', { id: 'dl-total-count' }, String(dl.total.count)), ' packages, ',
      el('span', { id: 'dl-total-bytes', 'data-bytes': String(dl.total.bytes) }, fmtSize(dl.total.bytes)),
      dl.total.compressed_count ? ' (' + fmtSize(dl.total.compressed_bytes) + ' compressed, ' + dl.total.compressed_count + ' files)' : ''));
    sec.appendChild(dlist);
    if (dl.total.count) {
      sec.appendChild(el('h3', null, 'What clients download, by size'));
      // The raw/compressed switch, where the redirect folder's compressed
      // sizes are known (report --redirect DIR).
      var compressed = dl.total.compressed_count > 0 && st.params.size === 'compressed';
      if (dl.total.compressed_count > 0) {
        var sw = function (v, label) {
          var cur = (v === 'compressed') === compressed;
          return el('a', { href: makeHash('downloads', '', { all: st.params.all, size: v }), 'aria-current': cur ? 'true' : null, 'class': cur ? 'current' : null }, label);
        };
        sec.appendChild(el('div', { 'class': 'controls' }, el('span', { 'class': 'switch', role: 'group', 'aria-label': 'sizes', id: 'dl-size' }, 'sizes: ',
          sw('', 'raw'), ' ', sw('compressed', 'compressed (' + dl.total.compressed_count + ' of ' + dl.total.count + ' files)'))));
      }
      sec.appendChild(treemap(dl, compressed));
      sec.appendChild(el('p', { 'class': 'legend' }, 'Each package once, its area its size, in a box per folder; the stronger the colour, the more maps need it. Click a package to open it.'));
    }
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
      sec.appendChild(el('p', null, el('a', { href: makeHash('downloads', '', { all: '1', size: st.params.size }) }, 'Show all rows')));
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
    // The sentence order prints (graph.OrderResult.Verdict), and its note
    // on the names not checked.
    var total = o.checked + (o.unchecked ? o.unchecked.length : 0);
    sec.appendChild(el('p', { id: 'order-checked' }, 'Checked ' + o.checked + ' of ' + total + ' entries.'));
    sec.appendChild(el('p', { id: 'order-valid', 'class': o.valid ? 'ok' : 'bad' }, o.verdict));
    if (o.unchecked_names) sec.appendChild(el('p', { id: 'order-note' }, 'Note: ' + o.unchecked_names.message));
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

  // ---- Overview: the whole server by group (graph --overview) -------------
  // groupOf: package index -> its group's index in data.overview.groups.
  var OV = data.overview, groupOf = new Int32Array(N).fill(-1);
  if (OV) OV.groups.forEach(function (g, gi) { g.members.concat(g.missing).forEach(function (p) { groupOf[p] = gi; }); });
  function groupHash(g) { return makeHash('group', g.name); }
  function groupTip(g) {
    return g.name + ' (' + g.kind + '): ' + g.members.length + ' package(s)' + (g.missing.length ? '; missing: ' + g.missing.map(function (p) { return P[p].name; }).join(', ') : '') +
      (g.base ? '; imported by ' + g.imported_by + ' groups (those edges are not drawn)' : '');
  }
  function viewOverview() {
    var sec = el('section', { 'aria-labelledby': 'h-overview' }, el('h2', { id: 'h-overview' }, 'Overview'));
    if (!OV) { sec.appendChild(el('p', null, 'This page was written without the overview.')); return sec; }
    sec.appendChild(el('p', null, 'The whole server as ' + OV.groups.length + ' groups of its ' + N + ' packages, as ', el('code', null, 'upkdeps graph --overview'),
      ' draws it: a mod is a code package with the packages named like it and the maps and packages only it uses; stock packages and the rest by folder. Each edge stands for package imports (an import another chain implies is left out); a group most others import is drawn once, without its incoming edges. Red: the group holds missing packages. Click a group to open it.'));
    var nodes = OV.groups.map(function (g, gi) {
      var label = clip(g.name, 28) + ' (' + g.members.length + (g.missing.length ? ', ' + g.missing.length + ' missing' : '') + ')';
      return { key: 'g' + gi, width: labelWidth(label), height: BOX_H, href: groupHash(g), label: label, name: g.name, tip: groupTip(g),
        cls: 'node group ' + (g.kind === 'mod' ? 'kind-code' : 'collapsed') + (g.missing.length ? ' has-missing' : '') + (g.base ? ' hub' : '') };
    });
    var edges = OV.edges.map(function (e) {
      return { v: 'g' + e[0], w: 'g' + e[1], cls: 'edge', tip: OV.groups[e[0]].name + ' \u2192 ' + OV.groups[e[1]].name + ': ' + e[2] + ' package import(s) of ' + e[3] + ' object(s)' };
    });
    var lay = layoutGraph(nodes, edges, { rankdir: 'LR', nodesep: 10, ranksep: 50 });
    sec.appendChild(el('div', { 'class': 'diagram' }, graphSVG(lay, nodes, edges, { id: 'overview-svg', 'aria-label': 'Overview by group' }, 'arrow')));
    return sec;
  }
  // viewGroup lists a group's packages and missing packages, and the
  // imports between it and the other groups (all of them, not reduced).
  function viewGroup(st) {
    var gi = -1;
    if (OV) OV.groups.forEach(function (g, i) { if (g.name.toLowerCase() === st.arg.toLowerCase()) gi = i; });
    if (gi < 0) return el('section', null, el('h2', null, 'No group ' + st.arg), el('p', null, el('a', { href: '#/overview' }, 'The overview')));
    var g = OV.groups[gi];
    var sec = el('section', { 'aria-labelledby': 'h-group', id: 'group', 'data-group': g.name },
      el('h2', { id: 'h-group' }, g.name, ' ', el('span', { 'class': 'kind' }, g.kind)), el('p', null, el('a', { href: '#/overview' }, 'Back to the overview')));
    function list(id, caption, ps) {
      var ul = el('ul', { id: id, 'class': 'columns' });
      ps.forEach(function (p) { ul.appendChild(el('li', null, pkgLink(p), ' ', el('span', { 'class': 'kind' }, P[p].kind))); });
      sec.appendChild(el('h3', null, caption + ' (' + ps.length + ')'));
      sec.appendChild(ps.length ? ul : el('p', null, 'none'));
    }
    list('group-members', 'Packages', g.members);
    list('group-missing', 'Missing packages', g.missing);
    var to = new Map(), from = new Map();
    G.imports.forEach(function (im) {
      var a = groupOf[im[0]], b = groupOf[im[1]];
      if (a === b) return;
      if (a === gi) to.set(b, (to.get(b) || 0) + 1);
      if (b === gi) from.set(a, (from.get(a) || 0) + 1);
    });
    function table(caption, m) {
      var tb = el('tbody');
      Array.from(m.keys()).sort(function (x, y) { return m.get(y) - m.get(x) || x - y; }).forEach(function (k) {
        tb.appendChild(el('tr', null, el('td', null, el('a', { href: groupHash(OV.groups[k]) }, OV.groups[k].name)), el('td', { 'class': 'num' }, String(m.get(k)))));
      });
      sec.appendChild(el('table', { 'class': 'edges' }, el('caption', null, caption + ' (' + m.size + ' groups)'),
        el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'Group'), el('th', { scope: 'col' }, 'Package imports'))), tb));
    }
    table('Imports from', to);
    table('Imported by', from);
    return sec;
  }

  // ---- Unused: what nothing uses, what each ServerPackages line costs ------
  function viewUnused() {
    var sec = el('section', { 'aria-labelledby': 'h-unused' }, el('h2', { id: 'h-unused' }, 'Unused'));
    var U = data.unused;
    if (!U) { sec.appendChild(el('p', null, 'This page was written without the unused packages.')); return sec; }
    sec.appendChild(el('p', null, 'The same as ', el('code', null, 'upkdeps unused --json'), ': the package files nothing reaches (no map, ini line, native code or used package) and, per ServerPackages line, what a new client downloads for it and what needs it.'));
    sec.appendChild(el('h3', null, 'Packages nothing uses (' + U.unused.length + ', ' + fmtSize(U.unused_bytes) + ')'));
    if (!U.unused.length) sec.appendChild(el('p', { 'class': 'ok' }, 'Every package is used.'));
    else {
      var tb = el('tbody');
      U.unused.forEach(function (u) {
        tb.appendChild(el('tr', { 'data-name': u.name }, el('td', null, linkify(u.name)), el('td', null, u.folder), el('td', null, u.kind),
          el('td', { 'class': 'num' }, fmtSize(u.bytes)),
          el('td', null, u.through.length ? ['imported only by unused packages: naming ', u.through.map(function (n, j) { return [j ? ' or ' : '', linkify(n)]; }), ' would reach it'] : 'nothing imports it')));
      });
      sec.appendChild(el('table', { id: 'unused-packages', 'class': 'edges' }, el('thead', null, el('tr', null,
        el('th', { scope: 'col' }, 'Package'), el('th', { scope: 'col' }, 'Folder'), el('th', { scope: 'col' }, 'Kind'), el('th', { scope: 'col' }, 'Size'), el('th', { scope: 'col' }, 'What would reach it'))), tb));
    }
    if (U.stock_unused) sec.appendChild(el('p', null, U.stock_unused + ' stock package(s) nothing uses are not listed: the game ships them.'));
    sec.appendChild(el('h3', null, 'ServerPackages lines (' + U.server_packages.length + ')'));
    var lb = el('tbody');
    U.server_packages.forEach(function (sp) {
      var need = sp.nothing_needs_it ? el('strong', { 'class': 'bad' }, 'nothing on this server needs it') :
        el('span', null, sp.needed_by.slice(0, 5).map(function (n, j) { return [j ? ', ' : '', linkify(n)]; }), sp.needed_by.length > 5 ? ', and ' + (sp.needed_by.length - 5) + ' more' : '');
      lb.appendChild(el('tr', { 'data-package': sp.package }, el('td', null, sp.line),
        el('td', { 'class': 'num' }, sp.missing ? 'missing' : sp.download.count + ' packages, ' + fmtSize(sp.download.bytes)),
        el('td', { 'class': 'num' }, sp.only.count + ' packages, ' + fmtSize(sp.only.bytes)), el('td', null, need)));
    });
    sec.appendChild(el('table', { id: 'unused-lines', 'class': 'edges' }, el('thead', null, el('tr', null,
      el('th', { scope: 'col' }, 'Line'), el('th', { scope: 'col' }, 'New clients download'), el('th', { scope: 'col' }, 'For this line alone'), el('th', { scope: 'col' }, 'Needed by'))), lb));
    return sec;
  }

  var views = { summary: viewSummary, findings: viewFindings, packages: viewPackages, pkg: viewPackage, cycles: viewCycles, order: viewOrder, downloads: viewDownloads, overview: viewOverview, group: viewGroup, unused: viewUnused };
  function render() {
    var st = parseHash();
    var v = views[st.view] || viewSummary;
    main.textContent = '';
    main.appendChild(v(st));
    document.body.setAttribute('data-view', views[st.view] ? st.view : 'summary');
    document.querySelectorAll('nav a').forEach(function (a) {
      var cur = a.getAttribute('href') === '#/' + st.view || (st.view === 'pkg' && a.getAttribute('href') === '#/packages') || (st.view === 'group' && a.getAttribute('href') === '#/overview');
      if (cur) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
  }
  window.addEventListener('hashchange', function () { render(); main.focus({ preventScroll: true }); });
  render();
  document.documentElement.setAttribute('data-ready', String(Math.round(performance.now())));
})();
