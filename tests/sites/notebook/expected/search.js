/* search.js: folio's search page. Reads the index folio writes under
 * search/ (folio-site(5), SEARCH INDEX): index.json first, then only the
 * shards of the words typed and the records of the results shown. */
(function () {
  'use strict';
  var root = document.getElementById('search');
  if (!root || !window.fetch || !window.TextDecoder) return;
  var D = root.dataset;
  var form = root.querySelector('form');
  var input = document.getElementById('search-q');
  var selS = document.getElementById('search-series');
  var selT = document.getElementById('search-tag');
  var status = document.getElementById('search-status');
  var list = document.getElementById('search-results');
  var dir = D.index.replace(/[^/]*$/, '');
  var PAGE = 10, K1 = 1.2;
  var cache = {}, parsed = {}, meta = null, seq = 0, shown = 0, ranked = [], marks = null;
  var dec = new TextDecoder();
  var CJK = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])/;

  function get(url, bin) {
    if (!cache[url])
      cache[url] = fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url + ': ' + r.status);
        return bin ? r.arrayBuffer() : r.json();
      });
    return cache[url];
  }

  /* norm: as folio normalises a word (NFKC, case folded) */
  function norm(w) {
    return w.normalize('NFKC').toLowerCase().replace(/ß/g, 'ss').replace(/ς/g, 'σ');
  }
  function words(s) {
    var out = [];
    (norm(s).match(/[\p{L}\p{M}\p{N}]+/gu) || []).forEach(function (w) {
      w.split(CJK).forEach(function (x) { if (x) out.push(x); });
    });
    return out;
  }

  function Reader(buf) { this.b = new Uint8Array(buf); this.i = 0; }
  Reader.prototype.v = function () {
    var x = 0, m = 1, c;
    do { c = this.b[this.i++]; x += (c & 127) * m; m *= 128; } while (c & 128);
    return x;
  };
  Reader.prototype.take = function (n) { var r = this.b.subarray(this.i, this.i + n); this.i += n; return r; };

  /* a shard: its stems' postings and its words, each with its stem (the
   * stems are words too; the low bit that tells them is not needed here) */
  function parse(buf) {
    var r = new Reader(buf), ns = r.v(), stems = [], words = [], k, j;
    for (k = 0; k < ns; k++) {
      var df = r.v(), docs = new Uint32Array(df), d = 0;
      for (j = 0; j < df; j++) docs[j] = d += r.v();
      stems.push({ docs: docs, q: r.take(df) });
    }
    var nw = r.v(), last = new Uint8Array(0);
    for (k = 0; k < nw; k++) {
      var c = r.v(), n = r.v(), b = new Uint8Array(c + n);
      b.set(last.subarray(0, c));
      b.set(r.take(n), c);
      var x = r.v();
      words.push({ w: dec.decode(b), s: stems[x >> 1] });
      last = b;
    }
    return words;
  }
  function shard(hash) {
    var url = dir + 't/' + hash + '.bin';
    return get(url, 1).then(function (b) {
      return parsed[url] || (parsed[url] = parse(b));
    });
  }

  /* the shards that may hold w: the longest key w begins with, and for a
   * prefix, the keys that begin with w */
  function shardsFor(w, prefix) {
    var best = '', more = [];
    for (var k in meta.shards) {
      if (w.lastIndexOf(k, 0) === 0) { if (k.length > best.length) best = k; }
      else if (prefix && k.lastIndexOf(w, 0) === 0) more.push(k);
    }
    var keys = (best ? [best] : []).concat(more.slice(0, 12));
    return Promise.all(keys.map(function (k) { return shard(meta.shards[k]); }));
  }

  function filterSet(sel, list_) {
    var v = sel.value;
    if (!v) return null;
    for (var i = 0; i < list_.length; i++)
      if (list_[i][0] === v)
        return get(dir + 'f/' + list_[i][1] + '.bin', 1).then(function (b) {
          var r = new Reader(b), n = r.v(), s = new Set(), d = 0;
          while (n--) s.add(d += r.v());
          return s;
        });
    return Promise.resolve(new Set());
  }

  function idf(df) { return Math.log(1 + (meta.docs - df + 0.5) / (df + 0.5)); }

  /* stemmed: a word no page has, looked up as the longest stem it begins
   * with (of at least half its letters): "spilled" finds "spill" */
  function stemmed(w, shards) {
    var has = shards.some(function (wl) {
      return wl.some(function (e) { return e.w === w; });
    });
    var cs = Array.from(w), n = cs.length - 1;
    if (has || n < 3) return shards;
    return (function next() {
      if (n < Math.max(3, cs.length / 2)) return shards;
      var p = cs.slice(0, n--).join('');
      return shardsFor(p, false).then(function (more) {
        var e = null;
        more.forEach(function (wl) { wl.forEach(function (x) { if (x.w === p) e = x; }); });
        return e ? shards.concat(more, [[{ w: w, s: e.s }]]) : next();
      });
    })();
  }

  /* pairs: the documents with each two words of the query side by side in
   * a heading (folio indexes a heading's pairs as words: "warp shuffle") */
  function pairs(ws) {
    var ps = [];
    for (var i = 0; i + 1 < ws.length; i++) ps.push(ws[i] + ' ' + ws[i + 1]);
    return Promise.all(ps.map(function (p) {
      return shardsFor(p, false).then(function (sh) {
        var ds = [];
        sh.forEach(function (wl) { wl.forEach(function (e) { if (e.w === p) ds = e.s.docs; }); });
        return ds;
      });
    }));
  }

  /* search: each word's best score in each document, summed; documents
   * with the most of the words first, then with the most pairs of them
   * side by side in a heading, then with the most of them in their title,
   * headings, tags or series (an impact's high bit), then in their title
   * (the next bit) */
  function search(q) {
    var ws = words(q);
    var prefix = ws.length && !/\s$/.test(q) && Array.from(ws[ws.length - 1]).length > 1;
    return get(D.index).then(function (m) {
      meta = m;
      return Promise.all(ws.map(function (w, i) {
        return shardsFor(w, prefix && i === ws.length - 1).then(function (sh) { return stemmed(w, sh); });
      }).concat([pairs(ws)]));
    }).then(function (found) {
      var score = new Map(), hits = new Map(), strong = new Map(), titled = new Map(), side = new Map();
      found.pop().forEach(function (ds) {
        for (var j = 0; j < ds.length; j++) side.set(ds[j], (side.get(ds[j]) || 0) + 1);
      });
      marks = new Set();
      found.forEach(function (shards, i) {
        var w = ws[i], last = prefix && i === ws.length - 1, best = new Map(), top = new Set(), tt = new Set(),
          seen = new Set();
        shards.forEach(function (wl) {
          wl.forEach(function (e) {
            var exact = e.w === w;
            if (!exact && !(last && e.w.lastIndexOf(w, 0) === 0)) return;
            if (seen.has(e.s)) return;
            seen.add(e.s);
            var f = idf(e.s.docs.length) * (exact ? 1 : 0.8) * (K1 + 1) / 63;
            for (var j = 0; j < e.s.docs.length; j++) {
              var d = e.s.docs[j], v = f * (e.s.q[j] & 63);
              if (!(best.get(d) >= v)) best.set(d, v);
              if (e.s.q[j] & 128) top.add(d);
              if (e.s.q[j] & 64) tt.add(d);
            }
          });
          wl.forEach(function (e) { if (seen.has(e.s)) marks.add(e.w); });
        });
        best.forEach(function (v, d) {
          score.set(d, (score.get(d) || 0) + v);
          hits.set(d, (hits.get(d) || 0) + 1);
          if (top.has(d)) strong.set(d, (strong.get(d) || 0) + 1);
          if (tt.has(d)) titled.set(d, (titled.get(d) || 0) + 1);
        });
      });
      return Promise.all([filterSet(selS, meta.series), filterSet(selT, meta.tags)]).then(function (f) {
        var out = [];
        score.forEach(function (v, d) {
          if ((!f[0] || f[0].has(d)) && (!f[1] || f[1].has(d))) out.push(d);
        });
        out.sort(function (a, b) {
          return hits.get(b) - hits.get(a) || (side.get(b) || 0) - (side.get(a) || 0) ||
            (strong.get(b) || 0) - (strong.get(a) || 0) ||
            (titled.get(b) || 0) - (titled.get(a) || 0) || score.get(b) - score.get(a) || a - b;
        });
        return out;
      });
    });
  }

  function record(d) {
    var c = Math.floor(d / meta.chunk);
    return get(dir + 'd/' + meta.records[c] + '.json').then(function (r) { return r[d % meta.chunk]; });
  }

  /* marked: text with the words of the query in <mark> */
  function marked(el, text) {
    var re = /[\p{L}\p{M}\p{N}]+/gu, at = 0, m;
    while ((m = re.exec(text))) {
      if (!marks.has(norm(m[0]))) continue;
      el.appendChild(document.createTextNode(text.slice(at, m.index)));
      el.appendChild(document.createElement('mark')).textContent = m[0];
      at = m.index + m[0].length;
    }
    el.appendChild(document.createTextNode(text.slice(at)));
    return el;
  }
  function el(tag, cls, parent) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (parent) parent.appendChild(e);
    return e;
  }
  function fill(s, k, v) { return s.split('{' + k + '}').join(v); }

  /* date: an index's date (YYYY-MM-DD...) in the language's format, as
   * the pages write it (t.date_format: strftime's %Y %m %d %e %B %b %A
   * %a, with %-m and %-d for no leading zero) */
  function date(iso) {
    var m = /^(\d{4})-(\d\d)-(\d\d)/.exec(iso);
    if (!m || !D.date) return iso;
    var y = +m[1], mo = +m[2], d = +m[3], wd = new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
    var names = { B: D.months, b: D.monthsShort, A: D.days, a: D.daysShort };
    return D.date.replace(/%(-?)([YmdeBbAa%])/g, function (all, dash, c) {
      if (c === '%') return '%';
      if (names[c]) return (names[c] || '').split('|')[c === 'A' || c === 'a' ? wd : mo - 1] || all;
      var v = c === 'Y' ? y : c === 'm' ? mo : d;
      return c === 'Y' || dash ? String(v) : c === 'e' ? (v < 10 ? ' ' : '') + v : (v < 10 ? '0' : '') + v;
    });
  }

  function draw(recs, q, more) {
    recs.forEach(function (r) {
      var li = el('li', 'search-result', list);
      var a = el('a', 'search-result-title', el('h2', '', li));
      a.href = D.base + r[0];
      marked(a, r[1]);
      if (r[2] || r[3]) {
        var p = el('p', 'search-result-meta', li);
        if (r[2]) { var t = el('time', '', p); t.dateTime = r[2]; t.textContent = date(r[2]); }
        if (r[3]) p.appendChild(document.createTextNode((r[2] ? ' · ' : '') + fill(D['in'], 'series', r[3])));
      }
      if (r[4]) marked(el('p', 'search-result-excerpt', li), r[4]);
    });
    var n = ranked.length;
    status.textContent = n ? (n === 1 ? D.one : fill(D.results, 'n', n)) : fill(D.none, 'q', q.trim());
    var old = root.querySelector('.search-more');
    if (old) old.remove();
    if (more) {
      var b = el('button', 'search-more', root);
      b.type = 'button';
      b.textContent = fill(D.more, 'n', Math.min(PAGE, n - shown));
      b.onclick = function () { page(q, true); };
    }
    list.dataset.q = q;
  }

  function page(q, focus) {
    var s = seq, from = shown, ids = ranked.slice(from, from + PAGE);
    shown += ids.length;
    return Promise.all(ids.map(record)).then(function (recs) {
      if (s !== seq) return;
      draw(recs, q, shown < ranked.length);
      if (focus && list.children[from]) list.children[from].querySelector('a').focus();
    });
  }

  function run() {
    var q = input.value, s = ++seq;
    var u = new URLSearchParams();
    if (q) u.set('q', q);
    if (selS.value) u.set('series', selS.value);
    if (selT.value) u.set('tag', selT.value);
    var qs = u.toString();
    history.replaceState(null, '', location.pathname + (qs ? '?' + qs : ''));
    if (!words(q).length) {
      list.textContent = status.textContent = '';
      ranked = [];
      list.dataset.q = q;
      return Promise.resolve();
    }
    return search(q).then(function (r) {
      if (s !== seq) return;
      ranked = r;
      shown = 0;
      list.textContent = '';
      return page(q);
    }).catch(function () {
      if (s === seq) status.textContent = D.failed;
    });
  }

  function options(sel, items, want) {
    items.forEach(function (it) {
      var o = el('option', '', sel);
      o.value = o.textContent = it[0];
      if (it[0] === want) o.selected = true;
    });
  }

  form.addEventListener('submit', function (e) { e.preventDefault(); run(); });
  input.addEventListener('input', run);
  selS.addEventListener('change', run);
  selT.addEventListener('change', run);
  /* keys: down and up move through the results, Escape back to the box */
  root.addEventListener('keydown', function (e) {
    var links = Array.prototype.slice.call(list.querySelectorAll('.search-result-title'));
    var i = links.indexOf(document.activeElement);
    if (e.key === 'ArrowDown' && (document.activeElement === input || i >= 0)) {
      if (links[i + 1]) links[i + 1].focus();
    } else if (e.key === 'ArrowUp' && i >= 0) {
      (i ? links[i - 1] : input).focus();
    } else if (e.key === 'Escape' && i >= 0) {
      input.focus();
    } else {
      return;
    }
    e.preventDefault();
  });
  var params = new URLSearchParams(location.search);
  input.value = params.get('q') || '';
  get(D.index).then(function (m) {
    meta = m;
    options(selS, m.series, params.get('series'));
    options(selT, m.tags, params.get('tag'));
    if (input.value) run();
  }).catch(function () { status.textContent = D.failed; });
  input.focus();
})();
