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
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, finish, launch, outDir, executablePath, report, watchdog } from './lib.mjs';

const STEP_TIMEOUT_MS = 20_000;
watchdog(120_000);

const base = (process.env.BASE_URL || '').replace(/\/+$/, '');
const postFile = process.env.POST_FILE || '';
const postPath = process.env.POST_PATH || '';
if (!base || !postFile || !postPath) {
  console.log('reload.mjs: set BASE_URL, POST_FILE and POST_PATH');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const original = readFileSync(postFile, 'utf8');
let context;
let page;

// loads: resolves with the time of the page's next load event.
function nextLoad() {
  return page.waitForEvent('load', { timeout: STEP_TIMEOUT_MS }).then(() => Date.now());
}

try {
  await check(`chromium starts (${executablePath})`, async () => {
    context = await launch({ timeout: STEP_TIMEOUT_MS, viewport: { width: 1280, height: 800 } });
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
  if (context) await context.closeAll();
}
process.exit(finish() === 0 ? 0 : 1);
