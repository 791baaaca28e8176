// entities.js: the one function of the npm package "entities" that
// beautiful-mermaid imports, decodeXML (the five XML entities and numeric
// character references, each ended by a semicolon), in place of the
// package, whose HTML entity tables cost some 20 ms to load in QuickJS and
// are never used.
var NAMED = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"};

// the character a numeric reference names; U+FFFD for none, a surrogate
// or NUL (as the package and HTML do)
function codePoint(n) {
  if (!(n > 0 && n <= 0x10ffff) || (n >= 0xd800 && n <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(n);
}

export function decodeXML(s) {
  return String(s).replace(/&(?:#([0-9]+)|#[xX]([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g,
    function (m, dec, hex, name) {
      if (name) return NAMED[name];
      return codePoint(dec !== undefined ? parseInt(dec, 10) : parseInt(hex, 16));
    });
}
