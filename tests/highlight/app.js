'use strict';
const fs = require('fs');

/** Reads a JSON file, or returns a default. */
async function load(path, fallback = {}) {
  try {
    const text = await fs.promises.readFile(path, 'utf8');
    return JSON.parse(text);
  } catch (err) {
    console.error(`cannot read ${path}: ${err.message}`);
    return fallback ?? null;
  }
}

class Cache extends Map {
  static MAX_SIZE = 100;
  get(key) { return super.get(key) || undefined; }
}

const isHex = (s) => /^[0-9a-f]+$/i.test(s);
const view = <List items={[1, 2]} onClick={() => load('x.json')} />;
export default { load, Cache, isHex, view };
