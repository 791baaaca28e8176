// glue.js: run just after viz.js 2.1.2's full.render.js (itself
// after bench/dot/pre.js); defines __folio_dot(src), which renders DOT
// source with Graphviz 2.40.1's dot layout and returns the SVG as a string,
// or throws an Error whose message is Graphviz's ("syntax error in line 3
// near '->'") and whose .line is the DOT line it names (0 when none).
//
// One Emscripten instance per interpreter, made at the first call (70 ms
// with a native atob, 150 ms with the one below), whose heap is put back as
// it was after instantiation before every later render: Graphviz orders
// some output by heap address (clusters, for one), so without this a
// graph's SVG would depend on the graphs drawn before it in the same
// thread, and neither the cache nor the output would be reproducible. Only
// the heap in use (below sbrk) is saved and restored.
//
// Graphviz's own errors leave the instance usable (the next call restores
// its heap); anything else (a QuickJS stack overflow or out of memory, an
// Emscripten abort, which throws a string, such as running out of its fixed
// 16 MB) leaves its stack pointer or state unknown: the instance is dropped
// and the next call makes a new one.

// The Emscripten runtime decodes its 150 KB memory image with atob when
// there is one; its fallback builds the string a character at a time,
// which costs QuickJS ~110 ms per instance. The embedder may define a
// native atob instead (saves another ~80 ms); it returns a string of code
// units 0-255.
if (typeof globalThis.atob !== 'function') {
  globalThis.atob = function (s) {
    var t = [], d = [], i, n = 0, acc = 0, bits = 0, out = '';
    var a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (i = 0; i < 256; i++) t[i] = -1;
    for (i = 0; i < 64; i++) t[a.charCodeAt(i)] = i;
    for (i = 0; i < s.length; i++) {
      var v = t[s.charCodeAt(i)];
      if (v === undefined || v < 0) continue;
      acc = (acc << 6 | v) & 0xffffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        d[n++] = acc >> bits & 255;
        if (n === 8192) {
          out += String.fromCharCode.apply(null, d);
          n = 0;
        }
      }
    }
    d.length = n;
    return out + String.fromCharCode.apply(null, d);
  };
}

var __folio_dot = (function (Viz) {
  var inst = null, snap = null;
  var opts = {format: 'svg', engine: 'dot', files: [], yInvert: false, nop: 0};
  function noop() {}
  function start() {
    inst = Viz.Module({TOTAL_MEMORY: 16 << 20, print: noop, printErr: noop});
    snap = inst.HEAPU8.slice(0, inst._sbrk(0));
  }
  function restore() {
    var top = inst._sbrk(0);
    inst.HEAPU8.set(snap, 0);
    if (top > snap.length) inst.HEAPU8.fill(0, snap.length, top);
  }
  return function (src) {
    if (inst === null) start();
    else restore();
    try {
      return Viz.render(inst, String(src), opts);
    } catch (e) {
      // Viz.render throws a plain Error holding Graphviz's message
      var graphviz = e instanceof Error && e.constructor === Error;
      if (!graphviz) inst = null;
      if (!graphviz && e instanceof Error) throw e;
      var msg = String(graphviz ? e.message : e).replace(/^Error: /, '').replace(/\s+$/, '');
      if (!graphviz)
        msg = /Cannot enlarge memory/.test(msg) ? 'the graph needs more than Graphviz\'s 16 MB of memory'
                                                 : 'Graphviz stopped: ' + msg.slice(0, 200);
      var m = /\bline (\d+)/.exec(msg);
      var err = new Error(msg);
      err.line = m ? +m[1] : 0;
      throw err;
    }
  };
})(Viz);
