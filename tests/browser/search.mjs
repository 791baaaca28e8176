// search.mjs: the example blog's search in a real browser (Debian's
// chromium driven by playwright-core). It builds and serves nothing:
// tests/cli/test_search.sh builds examples/techblog, serves it and sets
// BASE_URL.
//
// Environment:
//   BASE_URL   where the built example blog is served (required)
//   RELEVANCE  the relevance set (default: tests/search/techblog.tsv):
//              lines "query<TAB>kind<TAB>page"; page must be among the
//              first three results of query
//   AXE        axe-core's axe.min.js (default: from node_modules)
//
// Each check prints "ok NAME" or "FAIL NAME: why"; the last line is
// "N passed, N failed", and the exit status is 0 only if none failed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { check, finish, launch, openPage, report, watchdog } from './lib.mjs';

const PAGE_TIMEOUT_MS = 30_000;
watchdog(200_000);

const base = (process.env.BASE_URL || '').replace(/\/+$/, '');
if (!base) {
  console.log('search.mjs: set BASE_URL to where the example blog is served');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const relevance = process.env.RELEVANCE || fileURLToPath(new URL('../search/techblog.tsv', import.meta.url));
const axePath = process.env.AXE || createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function open(context, path) {
  return openPage(context, base + path, PAGE_TIMEOUT_MS);
}

// drawn PAGE Q: waits until the results of query Q are drawn.
async function drawn(page, q) {
  await page.waitForFunction((want) => document.getElementById('search-results').dataset.q === want, q);
}

// query PAGE Q: Q typed into the box at once (as a paste); the results' paths.
async function query(page, q) {
  await page.fill('#search-q', q);
  await drawn(page, q);
  return results(page);
}

async function results(page) {
  return page.$$eval('#search-results .search-result-title', (as) => as.map((a) => new URL(a.href).pathname));
}

const js = await launch();
let page;
try {
  await check('the search page loads without errors and shows its form', async () => {
    page = await open(js, '/search/');
    const hidden = await page.$eval('.search-form', (f) => f.hidden);
    return !hidden && page.errors.length === 0 ? true : `hidden=${hidden} errors=${page.errors.join('; ')}`;
  });

  await check('results come as the words are typed, the last one a prefix', async () => {
    await page.focus('#search-q');
    await page.keyboard.type('warp shuf', { delay: 20 });
    await drawn(page, 'warp shuf');
    const r = await results(page);
    return r[0] === '/posts/gpu-systems-12-warp-shuffle-and-warp-level-primitives/' ? true : `first: ${r[0]}`;
  });

  await check('excerpts and titles mark the words matched', async () => {
    const marks = await page.$$eval('#search-results mark', (ms) => ms.map((m) => m.textContent.toLowerCase()));
    const ok = marks.length > 0 && marks.every((m) => m.startsWith('warp') || m.startsWith('shuf'));
    return ok ? true : `marks: ${marks.slice(0, 8).join(', ')}`;
  });

  await check('the address bar holds the query, to be shared', async () => {
    const u = new URL(page.url());
    return u.searchParams.get('q') === 'warp shuf' ? true : page.url();
  });

  await check('the status tells how many results', async () => {
    const s = await page.textContent('#search-status');
    const n = (await results(page)).length;
    return /\d+ results?/.test(s) && n > 0 ? true : `status "${s}", ${n} shown`;
  });

  await check('down and up arrows move through the results, Escape back to the box', async () => {
    await page.focus('#search-q');
    const where = () => page.evaluate(() => {
      const a = document.activeElement;
      return a.id || new URL(a.href).pathname;
    });
    const r = await results(page);
    await page.keyboard.press('ArrowDown');
    const first = await where();
    await page.keyboard.press('ArrowDown');
    const second = await where();
    await page.keyboard.press('ArrowUp');
    const back = await where();
    await page.keyboard.press('Escape');
    const box = await where();
    const ok = first === r[0] && second === r[1] && back === r[0] && box === 'search-q';
    return ok ? true : `${first} ${second} ${back} ${box}`;
  });

  await check('Enter on a result opens it', async () => {
    await page.focus('#search-q');
    await page.keyboard.press('ArrowDown');
    const want = (await results(page))[0];
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    return new URL(page.url()).pathname === want ? true : page.url();
  });

  await check('a shared address shows its results', async () => {
    page = await open(js, '/search/?q=bank+conflicts');
    await drawn(page, 'bank conflicts');
    const v = await page.inputValue('#search-q');
    const r = await results(page);
    return v === 'bank conflicts' && r[0] === '/posts/gpu-systems-11-shared-memory-bank-conflicts/' ? true : `${v}: ${r[0]}`;
  });

  await check('the series filter keeps the posts of that series only', async () => {
    page = await open(js, '/search/?q=memory');
    await drawn(page, 'memory');
    const all = (await results(page)).length;
    await page.selectOption('#search-series', 'GPU Systems');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('series') === 'GPU Systems');
    // the list is emptied before it is drawn again: an empty one is not yet the answer
    await page.waitForFunction(() => {
      const t = [...document.querySelectorAll('.search-result-title')];
      return t.length > 0 && t.every((a) => a.href.includes('/gpu-systems-'));
    });
    const r = await results(page);
    return r.length > 0 && r.every((p) => p.includes('/gpu-systems-')) && all > 0 ? true : r.join(' ');
  });

  await check('the tag filter keeps the posts of that tag only', async () => {
    page = await open(js, '/search/?q=reduction&tag=warp');
    await drawn(page, 'reduction');
    const r = await results(page);
    const tagged = await page.evaluate(async () => {
      const html = await (await fetch('/tags/warp/')).text();
      return [...new DOMParser().parseFromString(html, 'text/html').querySelectorAll('main a')].map((a) => new URL(a.href, location.href).pathname);
    });
    const sel = await page.inputValue('#search-tag');
    return sel === 'warp' && r.length > 0 && r.every((p) => tagged.includes(p)) ? true : `${sel}: ${r.join(' ')}`;
  });

  await check('ten results at first, ten more on demand', async () => {
    page = await open(js, '/search/?q=memory');
    await drawn(page, 'memory');
    const first = (await results(page)).length;
    const label = await page.textContent('.search-more');
    await page.click('.search-more');
    await page.waitForFunction(() => document.querySelectorAll('.search-result').length > 10);
    const now = await results(page);
    const focused = await page.evaluate(() => new URL(document.activeElement.href).pathname);
    return first === 10 && /Show 10 more/.test(label) && now.length > 10 && focused === now[10] ? true : `${first}, "${label}", ${now.length}, ${focused}`;
  });

  await check('a query without results says so', async () => {
    page = await open(js, '/search/?q=zzzqqxv');
    await drawn(page, 'zzzqqxv');
    const s = await page.textContent('#search-status');
    return (await results(page)).length === 0 && s.includes('zzzqqxv') ? true : s;
  });

  await check('the header search box leads to the search page with results', async () => {
    page = await open(js, '/');
    await page.fill('#search-box-q', 'softmax');
    await Promise.all([page.waitForNavigation(), page.press('#search-box-q', 'Enter')]);
    await drawn(page, 'softmax');
    const r = await results(page);
    return r[0] === '/posts/gpu-systems-14-why-softmax-is-such-a-good-kernel-exercise/' ? true : `${page.url()}: ${r[0]}`;
  });

  await check('axe finds no violations on /search/ with results', async () => {
    page = await open(js, '/search/?q=warp');
    await drawn(page, 'warp');
    await page.addScriptTag({ content: readFileSync(axePath, 'utf8') });
    const v = await page.evaluate(async () => (await window.axe.run(document)).violations);
    return v.length === 0 ? true : v.map((x) => `${x.id} (${x.nodes.length})`).join(', ');
  });

  // the relevance set: each page among the first three of its query
  const lines = readFileSync(relevance, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  page = await open(js, '/search/');
  let hits = 0;
  for (const line of lines) {
    const [q, kind, want] = line.split('\t');
    await check(`relevance (${kind}): "${q}" has ${want} in its first three`, async () => {
      const r = (await query(page, q)).slice(0, 3);
      if (r.includes(want)) {
        hits++;
        return true;
      }
      return `got ${r.join(' ')}`;
    });
  }
  console.log(`relevance: ${hits} of ${lines.length} in the first three`);
  report('the relevance set has at least 30 queries', lines.length >= 30, `${lines.length}`);
} finally {
  await js.closeAll();
}

const nojs = await launch({ javaScriptEnabled: false });
try {
  await check('without JavaScript the search page says so and links to the archive', async () => {
    const p = await open(nojs, '/search/?q=warp');
    const text = await p.textContent('.search-nojs');
    const href = await p.getAttribute('.search-nojs a', 'href');
    const visible = await p.isVisible('.search-form');
    return /JavaScript/.test(text) && /archive\/$/.test(href) && !visible ? true : `${text} ${href} form shown: ${visible}`;
  });
} finally {
  await nojs.closeAll();
}
process.exit(finish() ? 1 : 0);
