// glue.js: folio's side of beautiful-mermaid (src/md/mermaid.c loads it
// last): a deterministic runtime, and __folio_mermaid(src, prefix), the
// drawing made fit for a page. mermaid.c checks what this returns.
import {renderMermaidSVG} from 'beautiful-mermaid';

// The same source gives the same bytes: no clock, no randomness (neither
// beautiful-mermaid nor dagre should need them; if one does, a constant).
(function () {
  var seed = 1;
  Math.random = function () {
    seed = seed * 16807 % 2147483647;
    return (seed - 1) / 2147483646;
  };
})();
Date.now = function () { return 0; };
globalThis.console = {log() {}, info() {}, debug() {}, warn() {}, error() {}};
// dagre clones its graph's label and orders with structuredClone, which
// QuickJS lacks: plain data (objects, arrays, numbers, strings)
globalThis.structuredClone = function clone(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(clone);
  var o = {};
  for (var k in v) if (Object.prototype.hasOwnProperty.call(v, k)) o[k] = clone(v[k]);
  return o;
};

// __folio_mermaid: src drawn as one <svg> (beautiful-mermaid's, with no
// background) whose ids (markers, the nodes' ids) and references to them
// start with prefix + '-' (two diagrams on a page never share one), whose
// colours are the page's (--bg and --fg, the default theme's variables,
// white and currentColor without them: a dark theme draws it light on
// dark), and without its <style> (a Google Fonts @import, a font of its
// own for every <text> of the page, and the colours it derives from --bg
// and --fg): those derived colours go in the root's style attribute, the
// text takes the page's fonts. Throws beautiful-mermaid's errors.
globalThis.__folio_mermaid = function (src, prefix) {
  var svg = renderMermaidSVG(src, {transparent: true});
  var vars = '';
  svg = svg.replace(/<style>([^]*?)<\/style>\n?/, function (m, css) {
    var d = /(^|\s)svg\s*\{([^}]*)\}/.exec(css);
    if (d) vars = d[2].replace(/\/\*[^]*?\*\//g, '').replace(/\s+/g, ' ').replace(/: /g, ':')
      .replace(/; /g, ';').trim();
    return '';
  });
  svg = svg.replace(/var\(--bg\)/g, 'var(--bg,#fff)').replace(/var\(--fg\)/g, 'var(--fg,currentColor)');
  // the monospaced text of class and ER diagrams (class="mono")
  svg = svg.replace(/ class="mono"/g,
    ' class="mono" style="font-family:var(--fm,ui-monospace,monospace)"');
  vars = vars.replace(/var\(--bg\)/g, 'var(--bg,#fff)').replace(/var\(--fg\)/g, 'var(--fg,currentColor)');
  svg = svg.replace(/ id="([^"]*)"/g, ' id="' + prefix + '-$1"')
    .replace(/url\(#([^)]*)\)/g, 'url(#' + prefix + '-$1)')
    .replace(/ href="#([^"]*)"/g, ' href="#' + prefix + '-$1"');
  // the root's style: the derived colours only (mermaid.c adds its own)
  return svg.replace(/^(<svg [^>]*?) style="[^"]*"/, function (m, tag) {
    return tag + ' style="' + vars.replace(/"/g, '') + '"';
  });
};
