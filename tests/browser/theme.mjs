// theme.mjs: the default theme as readers meet it, in Debian's chromium
// (playwright-core): one page of every type of the example blog, light and
// dark, at 1280 and 390 px wide, checked by axe-core (0 violations), for
// horizontal overflow at 320, 360 and 390 px, and for what the theme
// promises (recent posts high on the home page, the contents beside the
// text on wide screens, code that is focusable and copyable, footnotes
// opened in place, a 3D model's still without JavaScript; issue 36: a
// measure on every page, /search/ without a shift and with one box, one
// date format, the phone layout of posts, the colour toggle, figures
// without a plate, the math font on pages with math only, no clipped
// formula; sidenotes in the margin when wide, at the end when narrow).
// Screenshots of
// every page type (light and dark at 1280 px, and at 390 px) go to
// TEST_OUTPUT.
//
// Environment: BASE_URL (required), TEST_OUTPUT, CHROMIUM, as media.mjs.
// Prints "ok NAME" or "FAIL NAME: why" and ends with "N passed, N failed".
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { check, launch, openPage, outDir, runAll, watchdog } from './lib.mjs';

const PAGE_TIMEOUT_MS = 30_000;
watchdog(420_000);
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const base = (process.env.BASE_URL || '').replace(/\/+$/, '');
if (!base) {
  console.log('theme.mjs: set BASE_URL to where the example blog is served');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// one page of every type the theme has
const pages = [
  ['home', '/'],
  ['home-page-2', '/page/2/'],
  ['post', '/posts/gpu-systems-08-profiling-and-the-roofline-view/'],
  ['post-footnotes', '/posts/gpu-systems-13-reduction-kernels-in-depth/'],
  ['post-model', '/posts/gpu-systems-02-the-thread-warp-and-block-execution-model/'],
  ['series-guide', '/series/gpu-systems/'],
  ['series-index', '/series/'],
  ['archive', '/archive/'],
  ['year', '/archive/2026/'],
  ['tags', '/tags/'],
  ['tag', '/tags/gpu/'],
  ['categories', '/categories/'],
  ['category', '/categories/gpu-architecture/'],
  ['page', '/about/'],
  ['start-here', '/start-here/'],
  ['best-of', '/best-of/'],
  ['search', '/search/'],
  ['post-math', '/posts/gpu-systems-15-layernorm-and-rmsnorm-kernel-structure/'],
  ['post-diagram', '/posts/computer-architecture-07-memory-hierarchy/'],
  ['post-mermaid', '/posts/automata-and-compilers-05-compiler-overview-phases/'],
  ['post-photo', '/posts/amd-mi350-gpu-architecture-deep-dive/'],
  ['post-xref', '/posts/gpu-systems-13-reduction-kernels-in-depth/'],
  ['post-citations', '/posts/attention-reading-list/'],
  ['post-code-file', '/posts/gpu-systems-10-tiled-matrix-multiplication-and-shared-memory/'],
  ['post-notebook', '/posts/softmax-in-a-notebook/'],
  ['post-sidenotes', '/posts/linux-internals-04-memory-management/'],
  ['not-found', '/404.html'],
];

let context;

async function open(path, { width = 1280, height = 800, scheme = 'light' } = {}) {
  return openPage(context, base + path, PAGE_TIMEOUT_MS, async (page) => {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
  });
}

// axe PAGE: the violations axe-core finds, as "rule (n nodes: where)".
async function axe(page) {
  await page.addScriptTag({ path: axePath });
  const v = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((x) => `${x.id} (${x.nodes.length}: ${x.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')})`);
  });
  return v.length === 0 ? true : v.join('; ');
}

async function overflow(page) {
  const r = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
  return r.sw <= r.w ? true : `the page is ${r.sw} px wide in a ${r.w} px window`;
}

async function shot(page, name) {
  await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true, timeout: PAGE_TIMEOUT_MS });
}

// the widest line of text in main: no paragraph or list item of a
// page's text wider than the measure (46rem, about 75 characters)
async function measure(page) {
  const r = await page.evaluate(() => {
    const limit = 46 * parseFloat(getComputedStyle(document.documentElement).fontSize) + 1;
    const wide = [...document.querySelectorAll('main :is(p,li,dd,blockquote)')]
      .filter((e) => !e.closest('pre,table,figure,.code') && e.getClientRects().length > 0)
      .map((e) => [e, e.getBoundingClientRect().width]).filter(([, w]) => w > limit);
    return wide.slice(0, 2).map(([e, w]) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(w)} px`);
  });
  return r.length === 0 ? true : `wider than the measure: ${r.join(', ')}`;
}

async function search() {
  await check('search: no layout shift while the page and its index load (CLS 0)', async () => {
    const page = await open('/search/', { width: 390 });
    await page.waitForFunction(() => document.getElementById('search-series').options.length > 1);
    const shifts = await page.evaluate(() => new Promise((done) => {
      new PerformanceObserver((l) => done(l.getEntries().map((e) => e.value)))
        .observe({ type: 'layout-shift', buffered: true });
      setTimeout(() => done([]), 500);
    }));
    await page.close();
    return shifts.reduce((a, b) => a + b, 0) === 0 ? true : `shifts ${shifts.join(', ')}`;
  });
  const page = await open('/search/', { width: 390 });
  await check('search: one search box on the page', async () => {
    const n = await page.locator('input[type=search]').count();
    return n === 1 ? true : `${n} boxes`;
  });
  await check('search: the two selects side by side, aligned, at 390 px', async () => {
    const r = await page.$$eval('.search-form select', (ss) => ss.map((s) => {
      const b = s.getBoundingClientRect();
      return [Math.round(b.top), Math.round(b.height), Math.round(b.right)];
    }));
    return r.length === 2 && r[0][0] === r[1][0] && r[0][1] === r[1][1] && r[1][2] <= 390 ? true : JSON.stringify(r);
  });
  await check('search: results dated as the posts are (one date format)', async () => {
    await page.fill('#search-q', 'roofline');
    await page.waitForFunction(() => document.getElementById('search-results').dataset.q === 'roofline');
    const d = await page.locator('.search-result-meta time').first().textContent();
    return /^[A-Z][a-z]+ \d{1,2}, \d{4}$/.test(d) ? true : JSON.stringify(d);
  });
  await page.close();
}

// a post on a phone: the contents closed, the series box near the top, the
// series cards' buttons each one box
async function phone() {
  const page = await open('/posts/gpu-systems-08-profiling-and-the-roofline-view/', { width: 390, height: 844 });
  await check('post at 390 px: the contents are closed', async () => {
    const open_ = await page.$eval('.toc details', (d) => d.open);
    const h = await page.$eval('.toc', (e) => e.getBoundingClientRect().height);
    return !open_ && h < 80 ? true : `open=${open_}, ${Math.round(h)} px high`;
  });
  await check('post at 390 px: the series box within the first screen', async () => {
    const top = await page.$eval('.series-box', (e) => e.getBoundingClientRect().top);
    return top < 844 ? true : `at ${Math.round(top)} px`;
  });
  await page.close();
  const home_ = await open('/', { width: 390, height: 844 });
  await check('home at 390 px: each series card button is one box on one line', async () => {
    const r = await home_.$$eval('.featured .button', (bs) => bs.map((b) => [b.getClientRects().length, Math.round(b.getBoundingClientRect().height)]));
    const bad = r.filter(([n, h]) => n !== 1 || h > 32);
    return r.length > 0 && bad.length === 0 ? true : JSON.stringify(r);
  });
  await home_.close();
}

// the colour toggle: system, then the other scheme, then the system's
// own; the choice kept across pages, applied before the first paint
async function colours() {
  const page = await open('/', { scheme: 'light' });
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bg();
  await check('the colour toggle switches to dark and back', async () => {
    await page.click('.theme-toggle');
    const dark = await bg();
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    return dark !== light && theme === 'dark' ? true : `${light} -> ${dark} (${theme})`;
  });
  await check('the choice is kept on the next page, from its first paint', async () => {
    await page.goto(base + '/archive/');
    const r = await page.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]);
    return r[0] === 'dark' && r[1] !== light ? true : JSON.stringify(r);
  });
  await check('the toggle comes back to the system\'s colours', async () => {
    await page.click('.theme-toggle');
    await page.click('.theme-toggle');
    const r = await page.evaluate(() => [document.documentElement.dataset.theme || '', localStorage.getItem('folio-colours')]);
    return r[0] === '' && r[1] === null && (await bg()) === light ? true : JSON.stringify(r);
  });
  await page.close();
}

// figures and math
async function figures() {
  const page = await open('/posts/gpu-systems-08-profiling-and-the-roofline-view/', { scheme: 'dark' });
  await check('dark: a figure has no plate of its own', async () => {
    const r = await page.$eval('figure img', (i) => [getComputedStyle(i).backgroundColor, getComputedStyle(i.closest('figure')).backgroundColor]);
    return r.every((c) => c === 'rgba(0, 0, 0, 0)') ? true : JSON.stringify(r);
  });
  await page.close();
  const home_ = await open('/');
  await check('a page without math does not load the math font', async () => {
    const n = await home_.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('stix-two-math')).length);
    return n === 0 ? true : `${n} requests`;
  });
  await home_.close();
  const m = await open('/posts/gpu-systems-15-layernorm-and-rmsnorm-kernel-structure/', { width: 390 });
  await check('a page with math fetches the math font after its load and its first paint', async () => {
    await m.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('stix-two-math')));
    const r = await m.evaluate(() => {
      const font = performance.getEntriesByType('resource').find((e) => e.name.includes('stix-two-math')).startTime;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0].startTime;
      const load = performance.getEntriesByType('navigation')[0].loadEventStart;
      return { font, fcp, load };
    });
    return r.font > r.fcp && r.font > r.load ? true : JSON.stringify(r);
  });
  await check('the next page with math uses the math font from its first paint', async () => {
    await m.waitForFunction(() => localStorage.getItem('folio-math') === '1');
    await m.reload();
    const r = await m.evaluate(async () => {
      await document.fonts.ready;
      return [document.documentElement.classList.contains('math-font'), document.fonts.check('1em "folio math"'),
        [...document.fonts].some((f) => f.family.includes('folio math') && f.status === 'loaded')];
    });
    return r.every(Boolean) ? true : JSON.stringify(r);
  });
  await check('no display formula is clipped at 390 px', async () => {
    const r = await m.$$eval('.math.display', (ds) => ds.map((d) => [d.scrollHeight, d.clientHeight]).filter(([s, c]) => s > c));
    return r.length === 0 ? true : JSON.stringify(r);
  });
  await m.close();
  // a pikchr diagram, inline SVG: its ink is the text's colour and its white
  // the page's background, in light and in dark
  for (const scheme of ['light', 'dark']) {
    const d = await open('/posts/computer-architecture-07-memory-hierarchy/', { scheme, width: 390 });
    await check(`${scheme}: a diagram draws in the text's colour on the page's background`, async () => {
      const r = await d.$eval('figure.diagram svg', (svg) => {
        const body = getComputedStyle(document.body);
        const ink = [...svg.querySelectorAll('path,circle,ellipse,polygon,text')].map((e) => {
          const s = getComputedStyle(e);
          return e.tagName === 'text' || e.tagName === 'polygon' ? s.fill : s.stroke;
        });
        const white = [...svg.querySelectorAll('path')].map((e) => getComputedStyle(e).fill).filter((f) => f !== 'none');
        return { color: body.color, bg: body.backgroundColor, ink: [...new Set(ink)], white: [...new Set(white)],
          fits: svg.getBoundingClientRect().right <= document.documentElement.clientWidth };
      });
      return r.ink.length === 1 && r.ink[0] === r.color && r.white.length === 1 && r.white[0] === r.bg && r.fits
        ? true : JSON.stringify(r);
    });
    await d.close();
    // a Mermaid flowchart: its labels in the text's colour, its boxes on a
    // shade of the page's background, not white on dark
    const mm = await open('/posts/automata-and-compilers-05-compiler-overview-phases/', { scheme, width: 390 });
    await check(`${scheme}: a Mermaid flowchart's labels are the text's colour, its boxes near the background`, async () => {
      const r = await mm.$eval('figure.diagram svg', (svg) => {
        const body = getComputedStyle(document.body);
        // rgb(R, G, B) or, from color-mix(), color(srgb r g b): 0 to 1
        const lum = (c) => {
          const m = c.replace(/^color\(srgb/, '').match(/[\d.]+/g).map(Number);
          return (m[0] + m[1] + m[2]) / (c.startsWith('color(') ? 3 : 765);
        };
        const text = [...new Set([...svg.querySelectorAll('text')].map((e) => getComputedStyle(e).fill))];
        const box = [...svg.querySelectorAll('rect')].map((e) => getComputedStyle(e).fill).find((f) => f !== 'none');
        return { color: body.color, bg: body.backgroundColor, text, box,
          near: box ? Math.abs(lum(box) - lum(body.backgroundColor)) < 0.2 : false,
          fits: svg.getBoundingClientRect().right <= document.documentElement.clientWidth };
      });
      return r.text.length === 1 && r.text[0] === r.color && r.near && r.fits ? true : JSON.stringify(r);
    });
    await mm.close();
  }
}

async function everyPage() {
  for (const [name, path] of pages) {
    for (const scheme of ['light', 'dark']) {
      for (const width of [1280, 390]) {
        let page;
        const what = `${name} (${scheme}, ${width} px)`;
        await check(`${what} opens`, async () => {
          page = await open(path, { width, scheme });
          return true;
        });
        if (!page) continue;
        await check(`${what}: axe-core finds no violations`, () => axe(page));
        if (width === 1280 && scheme === 'light') await check(`${name}: its text within the measure`, () => measure(page));
        if (width === 390 && scheme === 'light') {
          for (const w of [320, 360, 390]) {
            await page.setViewportSize({ width: w, height: 800 });
            await check(`${name}: no horizontal overflow at ${w} px`, () => overflow(page));
          }
        }
        await check(`${what}: screenshot`, async () => {
            await shot(page, `${name}-${scheme}-${width}`);
            return true;
          });
        await check(`${what}: no uncaught script errors`, async () =>
          page.errors.length === 0 ? true : page.errors.join('; '));
        await page.close();
      }
    }
  }
}

async function home() {
  const page = await open('/');
  await check('home: the way to the recent posts is in the first screen at 1280 px', async () => {
    const top = await page.locator('.entry-points a[href="#recent-heading"]').evaluate((el) => el.getBoundingClientRect().bottom);
    return top <= 800 ? true : `at ${Math.round(top)} px`;
  });
  await check('home: the seed\'s order (intro, Start here, Best of, featured series, every series, recent posts)', async () => {
    const order = await page.evaluate(() => {
      const at = (sel) => {
        const el = document.querySelector(sel);
        return el ? el.getBoundingClientRect().top + scrollY : -1;
      };
      return [at('.hero'), at('.entry-points li:nth-child(1)'), at('.featured'), at('.series-overview'), at('.recent')];
    });
    return order.every((y, i) => y >= 0 && (i === 0 || y > order[i - 1])) ? true : `tops ${order.join(', ')}`;
  });
  await check('home: each series is shown once', async () => {
    const dup = await page.evaluate(() => {
      const seen = {};
      for (const a of document.querySelectorAll('.featured .card-title a')) seen[a.href] = (seen[a.href] || 0) + 1;
      return Object.entries(seen).filter(([, n]) => n > 1).map(([h]) => h);
    });
    return dup.length === 0 ? true : `twice: ${dup.join(' ')}`;
  });
  await check('home: the recent posts have their count and pagination', async () => {
    const t = await page.locator('#recent-heading').textContent();
    const next = await page.locator('.recent .pagination a[rel=next]').count();
    return /\d+ posts/.test(t) && next === 1 ? true : `heading ${JSON.stringify(t)}, ${next} next link`;
  });
  await check("home: the series cards' buttons line up (3 in a row at 1280 px)", async () => {
    const tops = await page.evaluate(() => [...document.querySelectorAll('.featured .card-actions')]
      .map((e) => Math.round(e.getBoundingClientRect().top)));
    return tops.length === 3 && tops.every((t) => t === tops[0]) ? true : `tops ${tops.join(', ')}`;
  });
  await page.close();
}

// the space between the header, the page and the footer
async function spacing() {
  const page = await open('/posts/gpu-systems-08-profiling-and-the-roofline-view/');
  await check('post: a gap between the header and the title, and above the footer', async () => {
    const r = await page.evaluate(() => {
      const y = (el, side) => el.getBoundingClientRect()[side] + scrollY;
      const last = [...document.querySelector('main').children].filter((e) => e.tagName !== 'SCRIPT').pop();
      return {
        top: y(document.querySelector('h1'), 'top') - y(document.querySelector('.site-header'), 'bottom'),
        bottom: y(document.querySelector('.site-footer'), 'top') - y(last, 'bottom'),
      };
    });
    return r.top >= 16 && r.bottom >= 16 ? true : JSON.stringify(r);
  });
  await page.close();
}

async function post() {
  const page = await open('/posts/gpu-systems-08-profiling-and-the-roofline-view/');
  await check('post: the contents stay beside the text at 1280 px', async () => {
    const r = await page.evaluate(() => {
      const toc = document.querySelector('.toc');
      const body = document.querySelector('.post-body');
      window.scrollTo(0, document.body.scrollHeight / 2);
      const t = toc.getBoundingClientRect();
      return { left: t.left, bodyRight: body.getBoundingClientRect().right, top: t.top, h: t.height };
    });
    return r.left >= r.bodyRight && r.top >= 0 && r.top < 800 ? true : JSON.stringify(r);
  });
  await check('post: the series box is there once, and the next part at the end', async () => {
    const boxes = await page.locator('.series-box').count();
    const next = await page.locator('.series-next a[rel=next]').count();
    const newer = await page.locator('.post-nav').count();
    return boxes === 1 && next === 1 && newer === 0 ? true : `${boxes} boxes, ${next} next cards, ${newer} newer/older`;
  });
  await check('post: a scrolling code block is focusable and labelled with its language', async () => {
    const r = await page.evaluate(() => [...document.querySelectorAll('pre')].map((p) => ({
      scrolls: p.scrollWidth > p.clientWidth, tab: p.tabIndex, lang: getComputedStyle(p, '::before').content,
    })));
    const bad = r.filter((x) => x.scrolls && x.tab < 0);
    const labelled = r.filter((x) => x.lang && x.lang !== 'none' && x.lang !== 'normal');
    return r.length > 0 && bad.length === 0 && labelled.length > 0 ? true : JSON.stringify(r.slice(0, 3));
  });
  await check('post: each code block has a copy button that copies its code', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const n = await page.locator('pre').count();
    const b = await page.locator('.code > .copy').count();
    if (n === 0 || b !== n) return `${n} blocks, ${b} buttons`;
    await page.locator('.code > .copy').first().click();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    const code = await page.locator('pre code').first().innerText();
    return text.trim() === code.trim() ? true : `copied ${JSON.stringify(text.slice(0, 40))}`;
  });
  await page.close();
  const fn = await open('/posts/gpu-systems-13-reduction-kernels-in-depth/');
  await check('post: a footnote opens beside its reference, without a jump', async () => {
    const before = await fn.evaluate(() => scrollY);
    const ref = fn.locator('a[data-footnote-ref]').first();
    await ref.scrollIntoViewIfNeeded();
    const y = await fn.evaluate(() => scrollY);
    await ref.click();
    const r = await fn.evaluate(() => {
      const n = document.querySelector('.fn-note');
      return { note: n ? n.textContent.trim() : '', y: scrollY, hash: location.hash };
    });
    void before;
    return r.note.length > 0 && r.y === y && r.hash === '' ? true : JSON.stringify(r);
  });
  await check('post: the animation has its width and height', async () => {
    const r = await fn.locator('figure.media img').first().evaluate((el) => [el.getAttribute('width'), el.getAttribute('height')]);
    return +r[0] > 0 && +r[1] > 0 ? true : JSON.stringify(r);
  });
  await fn.close();
}

// without JavaScript: the model's still is shown, the post reads as ever
async function noScript() {
  const ctx2 = await launch({ timeout: PAGE_TIMEOUT_MS, viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
  try {
    const page = await ctx2.newPage();
    await page.goto(base + '/posts/gpu-systems-02-the-thread-warp-and-block-execution-model/', { waitUntil: 'load' });
    await check('without JavaScript, the 3D figure shows its still', async () => {
      const img = page.locator('model-viewer img').first();
      await img.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const i = document.querySelector('model-viewer img');
        return i && i.complete && i.naturalWidth > 0;
      }, null, { timeout: PAGE_TIMEOUT_MS });
      const b = await img.evaluate((el) => el.getBoundingClientRect());
      return b.width > 100 && b.height > 50 ? true : `box ${b.width}x${b.height}`;
    });
    await check('without JavaScript, model-viewer\'s script is not loaded', async () => {
      const n = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('model-viewer')).length);
      return n === 0 ? true : `${n} requests`;
    });
    await check('screenshot of the still (no JavaScript)', async () => {
      await page.locator('figure.model3d').first().screenshot({ path: join(outDir, 'post-model-nojs.png') });
      return true;
    });
  } finally {
    await ctx2.closeAll();
  }
  const page = await open('/posts/gpu-systems-02-the-thread-warp-and-block-execution-model/');
  await check('model-viewer is not loaded before the reader asks for it (the button over the still)', async () => {
    const n = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('model-viewer')).length);
    const b = await page.locator('.model-load').count();
    return n === 0 && b === 1 ? true : `${n} requests, ${b} buttons`;
  });
  await page.close();
}

// sidenotes: wide, each note of one paragraph in the margin beside its
// reference and not again at the end; narrow, at the end only (one copy
// shown at any width, so a screen reader reads it once)
async function sidenotes() {
  const path = '/posts/linux-internals-04-memory-management/';
  for (const scheme of ['light', 'dark']) {
    const wide = await open(path, { width: 1280, scheme });
    await check(`sidenotes (${scheme}, 1280 px): in the margin beside their references, not again at the end`, async () => {
      const r = await wide.evaluate(() => {
        const body = document.querySelector('.post-body').getBoundingClientRect();
        const notes = [...document.querySelectorAll('.sidenote')].map((n) => {
          const b = n.getBoundingClientRect(), ref = n.previousElementSibling.getBoundingClientRect();
          return { left: Math.round(b.left - body.right), dy: Math.round(b.top - ref.top), w: Math.round(b.width) };
        });
        const hidden = [...document.querySelectorAll('.footnotes li.sidenoted')].every((li) => li.getClientRects().length === 0);
        const shown = [...document.querySelectorAll('.footnotes li:not(.sidenoted)')].every((li) => li.getClientRects().length > 0);
        return { notes, hidden, shown, right: Math.max(...notes.map((n) => n.left + n.w)) };
      });
      const ok = r.notes.length >= 3 && r.notes.every((n) => n.left >= 16 && Math.abs(n.dy) < 40 && n.w >= 200) &&
        r.hidden && r.shown && r.right < 1280;
      return ok ? true : JSON.stringify(r);
    });
    await wide.close();
    const narrow = await open(path, { width: 390, scheme });
    await check(`sidenotes (${scheme}, 390 px): at the end only`, async () => {
      const r = await narrow.evaluate(() => ({
        notes: [...document.querySelectorAll('.sidenote')].filter((n) => n.getClientRects().length > 0).length,
        items: [...document.querySelectorAll('.footnotes li')].filter((li) => li.getClientRects().length > 0).length,
        all: document.querySelectorAll('.footnotes li').length,
      }));
      return r.notes === 0 && r.items === r.all && r.all >= 4 ? true : JSON.stringify(r);
    });
    await narrow.close();
  }
}

await runAll({ timeout: PAGE_TIMEOUT_MS, viewport: { width: 1280, height: 800 } }, async (c) => {
  context = c;
  await home();
  await spacing();
  await post();
  await noScript();
  await search();
  await phone();
  await colours();
  await figures();
  await sidenotes();
  await everyPage();
});
