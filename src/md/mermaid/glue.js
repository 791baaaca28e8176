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
// dagre clones its graph's label and orderings with structuredClone,
// which QuickJS lacks: plain data (numbers, strings, arrays, objects) that
// JSON carries, and faster so than a clone written in JavaScript
globalThis.structuredClone = function (v) {
  return v === undefined ? v : JSON.parse(JSON.stringify(v));
};

// __folio_mermaid: src drawn as one <svg> (beautiful-mermaid's, with no
// background) whose ids (markers, the nodes' ids) and references to them
// start with prefix + '-' (two diagrams on a page never share one), whose
// colours are the page's (--bg and --fg, the default theme's variables,
// white and currentColor without them: a dark theme draws it light on
// dark), and without its first <style> (a Google Fonts @import, a font of
// its own for every <text> of the page, and the colours it derives from
// --bg and --fg): those derived colours go in the root's style attribute,
// the text takes the page's fonts; the rules of another <style> apply to
// this drawing only. Throws beautiful-mermaid's errors.
globalThis.__folio_mermaid = function (src, prefix) {
  var svg = renderMermaidSVG(src, {transparent: true});
  var vars = '';
  var a = svg.indexOf('<style>'), b = svg.indexOf('</style>', a);
  if (a >= 0 && b > a) {
    var d = /(^|\s)svg\s*\{([^}]*)\}/.exec(svg.slice(a + 7, b));
    if (d) vars = d[2].replace(/\/\*[^]*?\*\//g, '').replace(/\s+/g, ' ').replace(/: /g, ':')
      .replace(/; /g, ';').trim();
    b += 8;
    if (svg[b] === '\n') b++;
    svg = svg.slice(0, a) + svg.slice(b);
  }
  // another <style> (an XY chart's classes): each rule made the drawing's
  // own (#prefix before its selectors; "svg" is the drawing itself)
  svg = svg.replace(/<style>([^<]*)<\/style>/g, function (m, css) {
    return '<style>' + css.replace(/\/\*[^]*?\*\//g, '').replace(/([^{}]*)\{([^{}]*)\}/g, function (r, sel, body) {
      return sel.split(',').map(function (x) {
        x = x.trim();
        return x === 'svg' ? '#' + prefix : '#' + prefix + ' ' + x;
      }).join(',') + '{' + body.replace(/\s+/g, ' ').trim() + '}';
    }).replace(/\s+$/, '').replace(/^\s+/, '') + '</style>';
  });
  // one pass over the drawing (it is some 1 KB a node): the colours, the
  // monospaced text of class and ER diagrams (class="mono"), the ids and
  // the references to them
  var seen = {
    'var(--bg)': 'var(--bg,#fff)',
    'var(--fg)': 'var(--fg,currentColor)',
    ' class="mono"': ' class="mono" style="font-family:var(--fm,ui-monospace,monospace)"',
    ' id="': ' id="' + prefix + '-',
    'url(#': 'url(#' + prefix + '-',
    ' href="#': ' href="#' + prefix + '-'
  };
  var swap = function (m) { return seen[m]; };
  var all = /var\(--[bf]g\)| class="mono"| id="|url\(#| href="#/g;
  svg = svg.replace(all, swap);
  vars = vars.replace(all, swap);
  // the root's style: the derived colours only (mermaid.c adds its own)
  return svg.replace(/^(<svg [^>]*?) style="[^"]*"/, function (m, tag) {
    return tag + ' style="' + vars.replace(/"/g, '') + '"';
  });
};
