// lib.mjs: what the browser tests share: checks that print "ok NAME" or
// "FAIL NAME: why" and the closing "N passed, N failed", a watchdog that
// bounds the whole run, and Debian's chromium launched headless in a fresh
// profile (never a browser of Playwright's own).
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const outDir = resolve(process.env.TEST_OUTPUT || fileURLToPath(new URL('./out/', import.meta.url)));
export const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

let passed = 0;
let failed = 0;

export function report(name, ok, why) {
  if (ok) {
    passed++;
    console.log(`ok ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${why ? `: ${why}` : ''}`);
  }
}

// check NAME FN: one check; FN returns true, or a string saying what is
// wrong (or throws: a timeout, a missing element). Returns whether it passed.
export async function check(name, fn) {
  try {
    const r = await fn();
    report(name, r === true, r === true ? '' : String(r));
    return r === true;
  } catch (e) {
    report(name, false, String(e && e.message ? e.message : e).split('\n')[0]);
    return false;
  }
}

export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

// watchdog MS: ends the run (as a failure) if it takes longer than MS, even
// if the browser hangs in a way no step's timeout catches.
export function watchdog(ms) {
  const t = setTimeout(() => {
    report(`the run ends within ${ms / 1000} s`, false, 'stopped');
    finish();
    process.exit(1);
  }, ms);
  t.unref();
}

// launch OPTIONS: chromium in a new profile folder, as a persistent
// context; close() closes it and deletes the profile.
export async function launch(options) {
  mkdirSync(outDir, { recursive: true });
  const userDataDir = mkdtempSync(join(tmpdir(), 'folio-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      ...options,
    });
  } catch (e) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
  context.closeAll = async () => {
    await context.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return context;
}

// runAll OPTIONS FN: chromium launched with OPTIONS (a check of its own),
// FN(context) run with it, the browser closed whatever happens, and the
// process ended with the counts (exit 0 only if none failed).
export async function runAll(options, fn) {
  let context;
  try {
    await check(`chromium starts (${executablePath})`, async () => {
      context = await launch(options);
      return true;
    });
    if (context) await fn(context);
  } finally {
    if (context) await context.closeAll();
  }
  process.exit(finish() === 0 ? 0 : 1);
}

// openPage: a new page of context at url, loaded (an error unless it
// answers 2xx), with its uncaught errors collected in page.errors; setup
// (optional) is awaited with the page before it loads (its size, scheme).
export async function openPage(context, url, timeoutMs, setup) {
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e.message || e)));
  page.setDefaultTimeout(timeoutMs);
  if (setup) await setup(page);
  const res = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
  if (!res || !res.ok()) throw new Error(`GET ${url}: ${res ? res.status() : 'no response'}`);
  return page;
}
