// media.mjs: the example blog's media in a real browser: Debian's chromium
// driven by playwright-core (never a browser of Playwright's own). It builds
// and serves nothing: tests/cli/test_browser.sh builds examples/techblog,
// serves it and sets BASE_URL (e.g. http://127.0.0.1:8123).
//
// Environment:
//   BASE_URL     where the built example blog is served (required)
//   TEST_OUTPUT  folder for the screenshots (default: tests/browser/out)
//   CHROMIUM     the browser (default: /usr/bin/chromium)
//
// Each check prints "ok NAME" or "FAIL NAME: why"; the last line is
// "N passed, N failed", and the exit status is 0 only if none failed.
// Every page step is bounded (PAGE_TIMEOUT_MS) and so is the whole run
// (RUN_TIMEOUT_MS): the script always stops by itself.
import { join } from 'node:path';
import { check, openPage, outDir, runAll, watchdog } from './lib.mjs';

const PAGE_TIMEOUT_MS = 30_000;
watchdog(180_000);

const base = (process.env.BASE_URL || '').replace(/\/+$/, '');
if (!base) {
  console.log('media.mjs: set BASE_URL to where the example blog is served');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
let context;

// open PATH: a new page at base + PATH, loaded, with its uncaught errors
// collected in page.errors.
async function open(path) {
  return openPage(context, base + path, PAGE_TIMEOUT_MS);
}

async function shot(page, name) {
  await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true, timeout: PAGE_TIMEOUT_MS });
}

// sized LOCATOR: scrolls the element into view (without waiting for it to
// stand still, as a <model-viewer> never may), then true if its box is not
// empty, else what it is.
async function sized(locator) {
  const r = await locator.evaluate((el) => {
    el.scrollIntoView({ block: 'center' });
    const b = el.getBoundingClientRect();
    return { w: b.width, h: b.height };
  });
  return r.w > 0 && r.h > 0 ? true : `box ${r.w}x${r.h}`;
}

// loaded PAGE LOCATOR: scrolls an <img> into view (it may load lazily) and
// waits until it has loaded.
async function loaded(page, locator) {
  const h = await locator.elementHandle();
  await h.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, h, { timeout: PAGE_TIMEOUT_MS });
}

async function mathAndFigure() {
  const path = '/posts/gpu-systems-08-profiling-and-the-roofline-view/';
  let page;
  await check('GPU Systems 08 opens', async () => {
    page = await open(path);
    return true;
  });
  if (!page) return;
  await check('inline <math> has a size', async () => sized(page.locator('span.math.inline math').first()));
  await check('display <math> has a size', async () => sized(page.locator('span.math.display math').first()));
  await check('every <math> is laid out', async () => {
    const n = await page.locator('math').count();
    const empty = await page.locator('math').evaluateAll((els) =>
      els.filter((m) => {
        const r = m.getBoundingClientRect();
        return !(r.width > 0 && r.height > 0);
      }).length);
    return n > 0 && empty === 0 ? true : `${empty} of ${n} without a size`;
  });
  await check('the figure image loads (naturalWidth > 0)', async () => {
    await loaded(page, page.locator('figure img').first());
    return true;
  });
  await check('the figure image is shown at its width/height ratio', async () => {
    const r = await page.locator('figure img').first().evaluate((el) => {
      const b = el.getBoundingClientRect();
      return { w: b.width, h: b.height, aw: +el.getAttribute('width'), ah: +el.getAttribute('height') };
    });
    if (!(r.w > 0 && r.h > 0 && r.aw > 0 && r.ah > 0)) return `box ${r.w}x${r.h}, attributes ${r.aw}x${r.ah}`;
    return Math.abs(r.w / r.h - r.aw / r.ah) < 0.02 ? true : `box ${r.w}x${r.h}, attributes ${r.aw}x${r.ah}`;
  });
  await check('the figure has its caption', async () => {
    const t = (await page.locator('figure figcaption').first().textContent()) || '';
    return t.trim().length > 0 ? true : 'empty figcaption';
  });
  await check('GPU Systems 08 has no uncaught script errors', async () =>
    page.errors.length === 0 ? true : page.errors.join('; '));
  await page.evaluate(() => window.scrollTo(0, 0));
  await check('GPU Systems 08 screenshot', async () => {
    await shot(page, 'gpu-systems-08');
    return true;
  });
  await page.close();
}

async function model() {
  const path = '/posts/gpu-systems-02-the-thread-warp-and-block-execution-model/';
  let page;
  await check('GPU Systems 02 opens', async () => {
    page = await open(path);
    return true;
  });
  if (!page) return;
  // model-viewer's script (a megabyte) is loaded when the reader asks for
  // it, with the button over the still
  await page.locator('model-viewer').first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await check('the viewer is not loaded before the reader asks for it', async () => {
    const n = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('model-viewer')).length);
    return n === 0 ? true : `${n} requests`;
  });
  await page.locator('.model-load').first().click();
  await check("customElements.get('model-viewer') is defined", async () => {
    await page.waitForFunction(() => customElements.get('model-viewer') !== undefined, null, {
      timeout: PAGE_TIMEOUT_MS,
    });
    return true;
  });
  await check('the <model-viewer> is upgraded', async () =>
    (await page.locator('model-viewer').first().evaluate((el) => el.shadowRoot !== null)) ? true : 'no shadow root');
  await check('the <model-viewer> has a size', async () => sized(page.locator('model-viewer').first()));
  // In view, the model loads: sm.glb fetched, parsed and drawn (WebGL in
  // software, without a GPU: this takes seconds).
  await check('the model loads (sm.glb)', async () => {
    await page.waitForFunction(() => document.querySelector('model-viewer').loaded === true, null, {
      timeout: PAGE_TIMEOUT_MS,
    });
    return true;
  });
  await check('GPU Systems 02 has no uncaught script errors', async () =>
    page.errors.length === 0 ? true : page.errors.join('; '));
  await check('GPU Systems 02 screenshot (the model in view)', async () => {
    await page.screenshot({ path: join(outDir, 'gpu-systems-02-model.png'), timeout: PAGE_TIMEOUT_MS });
    return true;
  });
  await page.close();
}

async function animation() {
  const path = '/posts/gpu-systems-13-reduction-kernels-in-depth/';
  for (const reducedMotion of ['no-preference', 'reduce']) {
    let page;
    await check(`GPU Systems 13 opens (prefers-reduced-motion: ${reducedMotion})`, async () => {
      page = await context.newPage();
      page.setDefaultTimeout(PAGE_TIMEOUT_MS);
      await page.emulateMedia({ reducedMotion });
      const res = await page.goto(base + path, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
      return res && res.ok() ? true : `status ${res ? res.status() : 'none'}`;
    });
    if (!page) continue;
    const want = reducedMotion === 'reduce' ? 'tree-reduction-still.svg' : 'tree-reduction.svg';
    await check(`the animation shows ${want} (${reducedMotion})`, async () => {
      const img = page.locator('figure.media picture img').first();
      await loaded(page, img);
      const src = await img.evaluate((el) => el.currentSrc);
      return src.endsWith('/' + want) ? true : `currentSrc ${src}`;
    });
    if (reducedMotion === 'reduce') {
      await check('GPU Systems 13 screenshot (reduced motion)', async () => {
        await shot(page, 'gpu-systems-13-reduced-motion');
        return true;
      });
    }
    await page.close();
  }
}

async function code() {
  const path = '/posts/gpu-systems-06-triton-and-the-practical-shape-of-kernel/';
  let page;
  await check('GPU Systems 06 opens', async () => {
    page = await open(path);
    return true;
  });
  if (!page) return;
  const block = page.locator('pre code').first();
  await check('the code block is shown with its code', async () => {
    const t = (await block.textContent()) || '';
    if (!t.includes('@triton.jit')) return `code text: ${JSON.stringify(t.slice(0, 60))}`;
    return sized(block);
  });
  const hl = page.locator('pre code [class^="hl-"], pre code [class*=" hl-"]');
  const n = await hl.count().catch(() => 0);
  if (n === 0) {
    console.log('note: no hl- spans (highlighting not built in): colour check skipped');
  } else {
    await check(`highlighted spans have a colour of their own (${n} spans)`, async () => {
      const r = await page.evaluate(() => {
        const code = document.querySelector('pre code');
        const base = getComputedStyle(code).color;
        const spans = [...code.querySelectorAll('[class^="hl-"], [class*=" hl-"]')];
        const coloured = spans.filter((s) => getComputedStyle(s).color !== base);
        return { base, coloured: coloured.length, classes: [...new Set(spans.map((s) => s.className))].slice(0, 8) };
      });
      return r.coloured > 0 ? true : `every hl- span has the code's colour ${r.base} (${r.classes.join(' ')})`;
    });
  }
  await check('GPU Systems 06 screenshot', async () => {
    await block.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, 'gpu-systems-06-code');
    return true;
  });
  await page.close();
}

await runAll({ timeout: PAGE_TIMEOUT_MS, viewport: { width: 1280, height: 900 } }, async (c) => {
  context = c;
  await mathAndFigure();
  await model();
  await animation();
  await code();
});
