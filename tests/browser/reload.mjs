// reload.mjs: folio serve's live reload in a real browser (Debian's
// chromium, driven by playwright-core). tests/cli/test_browser.sh starts
// `folio serve` on a copy of the example blog and sets:
//   BASE_URL     where folio serve listens (required)
//   POST_FILE    the Markdown file of a post in that copy (required)
//   POST_PATH    that post's address, e.g. /posts/x/ (required)
//   TEST_OUTPUT  folder for the screenshots (default: tests/browser/out)
//   CHROMIUM     the browser (default: /usr/bin/chromium)
//
// The page is opened and scrolled; the Markdown is edited on disk; the tab
// must reload by itself, show the new text and come back to where it was
// scrolled. Then the file is broken: the error overlay must appear with
// the file's path; the fix must remove it. Each check prints "ok NAME" or
// "FAIL NAME: why"; the last line is "N passed, N failed". Every step is
// bounded, and so is the run.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const STEP_TIMEOUT_MS = 20_000;
const RUN_TIMEOUT_MS = 120_000;

const base = (process.env.BASE_URL || '').replace(/\/+$/, '');
const postFile = process.env.POST_FILE || '';
const postPath = process.env.POST_PATH || '';
if (!base || !postFile || !postPath) {
  console.log('reload.mjs: set BASE_URL, POST_FILE and POST_PATH');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const outDir = resolve(process.env.TEST_OUTPUT || fileURLToPath(new URL('./out/', import.meta.url)));
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

let passed = 0;
let failed = 0;
function report(name, ok, why) {
  if (ok) {
    passed++;
    console.log(`ok ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${why ? `: ${why}` : ''}`);
  }
}
async function check(name, fn) {
  try {
    const r = await fn();
    report(name, r === true, r === true ? '' : String(r));
    return r === true;
  } catch (e) {
    report(name, false, String(e && e.message ? e.message : e).split('\n')[0]);
    return false;
  }
}
function finish() {
  console.log(`${passed} passed, ${failed} failed`);
}
const watchdog = setTimeout(() => {
  report(`the run ends within ${RUN_TIMEOUT_MS / 1000} s`, false, 'stopped');
  finish();
  process.exit(1);
}, RUN_TIMEOUT_MS);
watchdog.unref();

mkdirSync(outDir, { recursive: true });
const userDataDir = mkdtempSync(join(tmpdir(), 'folio-chromium-'));
const original = readFileSync(postFile, 'utf8');
let context;
let page;

// loads: resolves with the time of the page's next load event.
function nextLoad() {
  return page.waitForEvent('load', { timeout: STEP_TIMEOUT_MS }).then(() => Date.now());
}

try {
  await check(`chromium starts (${executablePath})`, async () => {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      timeout: STEP_TIMEOUT_MS,
      viewport: { width: 1280, height: 800 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    return true;
  });
  if (!context) throw new Error('no browser');
  page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  let streams = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/__folio/events')) streams++;
  });

  await check('the post opens through folio serve', async () => {
    const res = await page.goto(base + postPath, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS });
    return res && res.ok() ? true : `status ${res ? res.status() : 'none'}`;
  });
  await check('the page listens for rebuilds (it opened /__folio/events)', async () => {
    // the injected script opens the stream at once
    for (let i = 0; i < 100 && streams === 0; i++) await page.waitForTimeout(100);
    return streams > 0 ? true : 'no request for /__folio/events';
  });

  const scrolled = await page.evaluate(() => {
    window.scrollTo(0, Math.min(600, document.documentElement.scrollHeight - window.innerHeight));
    return window.scrollY;
  });

  // an edit on disk, as an editor saves it (write in place)
  const marker = `Reloaded by the browser test ${process.pid}-${Date.now()}`;
  const load = nextLoad();
  const saved = Date.now();
  writeFileSync(postFile, `${original}\n\n${marker}.\n`);
  let reloadedAt = 0;
  await check('the tab reloads by itself after the Markdown is saved', async () => {
    reloadedAt = await load;
    return true;
  });
  await check('the reloaded page shows the new text', async () => {
    await page.waitForFunction((m) => document.body.innerText.includes(m), marker, { timeout: STEP_TIMEOUT_MS });
    return true;
  });
  if (reloadedAt) console.log(`note: saved to reloaded in ${reloadedAt - saved} ms`);
  await check(`the scroll position is kept (${scrolled} px)`, async () => {
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, scrolled, { timeout: STEP_TIMEOUT_MS });
    return true;
  });
  await check('screenshot after the reload', async () => {
    await page.screenshot({ path: join(outDir, 'serve-reloaded.png'), timeout: STEP_TIMEOUT_MS });
    return true;
  });

  // a broken front matter: the overlay, with the file's path
  writeFileSync(postFile, original.replace(/^title: /m, 'title: [unclosed '));
  await check('a build error shows the overlay with the file and line', async () => {
    const box = page.locator('#folio-serve-error');
    await box.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
    const t = (await box.textContent()) || '';
    const name = postFile.split('/').pop();
    return t.includes(name) && /:\d+:\d+: error:/.test(t) ? true : `overlay text: ${JSON.stringify(t.slice(0, 120))}`;
  });
  await check('screenshot of the error overlay', async () => {
    await page.screenshot({ path: join(outDir, 'serve-error-overlay.png'), timeout: STEP_TIMEOUT_MS });
    return true;
  });

  // the fix: the tab reloads and the overlay is gone
  const fixed = nextLoad();
  writeFileSync(postFile, original);
  await check('fixing the error reloads the tab', async () => {
    await fixed;
    return true;
  });
  await check('the overlay is gone and the edit is undone', async () => {
    await page.waitForFunction((m) => !document.getElementById('folio-serve-error')
      && !document.body.innerText.includes(m), marker, { timeout: STEP_TIMEOUT_MS });
    return true;
  });
} catch (e) {
  report('the run', false, String(e && e.message ? e.message : e).split('\n')[0]);
} finally {
  writeFileSync(postFile, original);
  if (context) await context.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
}
finish();
process.exit(failed === 0 ? 0 : 1);
