// search_browser.mjs: folio's search page and Pagefind's UI in headless
// chromium, for bench/search_bench.py. Prints one JSON object.
//
// Environment:
//   BASE_URL    where the output (with both indexes) is served
//   PLAYWRIGHT  playwright-core's index.mjs
//   QUERIES     a file of "query<TAB>kind<TAB>page" lines
//   FIRST, SECOND  the words of the first and the second query
//   KEYS        words typed one after the other, for keypress-to-results
//   PAGEFIND    the path of the page with Pagefind's UI ("" to skip)
import { readFileSync } from 'node:fs';

const { chromium } = await import(process.env.PLAYWRIGHT);
const base = process.env.BASE_URL.replace(/\/+$/, '');
const lines = readFileSync(process.env.QUERIES, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
const keys = process.env.KEYS.split(' ');
const out = {};
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

// metered PAGE: what was received (the bytes as sent: compressed, with
// headers), by URL, since the last take; the page's own requests and its
// workers' (Pagefind searches in a worker), as Playwright reports them
async function metered(context) {
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  page.log = [];
  page.pending = 0;
  context.on('request', () => { page.pending++; });
  const done = async (req) => {
    const s = await req.sizes().catch(() => null);
    page.log.push({ url: req.url(), bytes: s ? s.responseBodySize + s.responseHeadersSize : 0 });
    page.pending--;
  };
  context.on('requestfinished', done);
  context.on('requestfailed', () => { page.pending--; });
  page.take = (skip) => {
    const l = page.log.filter((x) => !skip(x.url));
    const images = page.log.filter((x) => /^data:|\.(png|jpe?g|webp|gif|svg)$/.test(x.url));
    page.log = [];
    return { bytes: l.reduce((s, x) => s + x.bytes, 0), files: l.length, urls: l.map((x) => x.url.replace(base, '') + ' ' + x.bytes),
      images: images.reduce((s, x) => s + x.bytes, 0) };
  };
  return page;
}

const median = (v) => { const s = [...v].sort((a, b) => a - b); return s.length ? s[(s.length - 1) >> 1] : null; };
const quiet = async (page, ms = 400) => {
  let n = -1;
  while (n !== page.log.length || page.pending > 0) { n = page.log.length; await page.waitForTimeout(ms); }
};
// the page itself, the theme's files and images (Pagefind's UI shows the
// posts' pictures; folio's page none): not the search's
const pageFiles = (u) => !u || /\/(index\.html)?(\?.*)?$/.test(u) || /style\.css|favicon|pagefind-bench/.test(u) ||
  /^data:|\.(png|jpe?g|webp|gif|svg)$/.test(u);

// ---- folio ----
{
  const context = await browser.newContext();
  const page = await metered(context);
  const drawn = (q) => page.waitForFunction((w) => document.getElementById('search-results').dataset.q === w, q);
  await page.goto(base + '/search/', { waitUntil: 'load' });
  await page.fill('#search-q', process.env.FIRST);
  await drawn(process.env.FIRST);
  await quiet(page);
  out.folio_first = page.take(pageFiles);
  await page.fill('#search-q', process.env.SECOND);
  await drawn(process.env.SECOND);
  await quiet(page);
  out.folio_second = page.take(pageFiles);
  // keypress to results: the last letter of each word, after the rest
  await page.evaluate(() => {
    const list = document.getElementById('search-results');
    window.__t = {};
    document.addEventListener('keydown', () => { window.__t.down = performance.now(); }, true);
    new MutationObserver(() => { window.__t[list.dataset.q] = performance.now(); })
      .observe(list, { attributes: true, attributeFilter: ['data-q'] });
  });
  const times = [];
  for (const w of keys) {
    await page.fill('#search-q', w.slice(0, -1));
    await drawn(w.slice(0, -1));
    await page.press('#search-q', w.slice(-1));
    await drawn(w);
    times.push(await page.evaluate((q) => window.__t[q] - window.__t.down, w));
  }
  out.folio_keypress_ms = times;
  out.folio_keypress_median = median(times);
  const rel = [];
  for (const l of lines) {
    const [q, kind, want] = l.split('\t');
    await page.fill('#search-q', q);
    await drawn(q);
    const top = await page.$$eval('#search-results .search-result-title', (as) => as.slice(0, 3).map((a) => new URL(a.href).pathname));
    rel.push({ q, kind, want, top, hit: top.includes(want) });
  }
  out.folio_relevance = rel;
  await context.close();
}

// ---- Pagefind, its default UI ----
if (process.env.PAGEFIND) {
  const context = await browser.newContext();
  const page = await metered(context);
  const input = '.pagefind-ui__search-input';
  // drawn: the message names the query and the results are there
  const drawn = (q) => page.waitForFunction((w) => {
    const m = document.querySelector('.pagefind-ui__message');
    return m && m.textContent.includes(w) && document.querySelectorAll('.pagefind-ui__result-link').length > 0;
  }, q);
  await page.goto(base + process.env.PAGEFIND, { waitUntil: 'load' });
  await page.fill(input, process.env.FIRST);
  await drawn(process.env.FIRST);
  await quiet(page);
  out.pagefind_first = page.take(pageFiles);
  await page.fill(input, process.env.SECOND);
  await drawn(process.env.SECOND);
  await quiet(page);
  out.pagefind_second = page.take(pageFiles);
  await page.evaluate(() => {
    window.__t = {};
    document.addEventListener('keydown', () => { window.__t.down = performance.now(); }, true);
    new MutationObserver(() => {
      const m = document.querySelector('.pagefind-ui__message');
      if (m && document.querySelector('.pagefind-ui__result-link')) window.__t[m.textContent] = performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const times = [];
  for (const w of keys) {
    await page.fill(input, w.slice(0, -1));
    await drawn(w.slice(0, -1));
    await page.press(input, w.slice(-1));
    await drawn(w);
    times.push(await page.evaluate((q) => {
      const k = Object.keys(window.__t).find((x) => x.includes(q) && x !== 'down' && window.__t[x] > window.__t.down);
      return k ? window.__t[k] - window.__t.down : null;
    }, w));
  }
  out.pagefind_keypress_ms = times;
  out.pagefind_keypress_median = median(times.filter((t) => t !== null));
  // relevance through Pagefind's API (its ranking, as its UI shows it)
  const rel = await page.evaluate(async (ls) => {
    const pf = await import('/pagefind/pagefind.js');
    await pf.init();
    const r = [];
    for (const l of ls) {
      const [q, kind, want] = l.split('\t');
      const res = await pf.search(q);
      const top = await Promise.all(res.results.slice(0, 3).map(async (x) => new URL((await x.data()).url, location.href).pathname));
      r.push({ q, kind, want, top, hit: top.includes(want) });
    }
    return r;
  }, lines);
  out.pagefind_relevance = rel;
  await context.close();
}
await browser.close();
console.log(JSON.stringify(out));
