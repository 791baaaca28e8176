// images.mjs: what a reader downloads of an image-heavy post, in a real
// browser (Debian's chromium driven by playwright-core): the post is read
// to its end at a phone's width (390 px) and a laptop's (1280 px), and the
// bytes of its images that came over the network are summed and compared
// with the images' own files. tests/cli/test_browser.sh builds the post's
// site, serves it and sets:
//   BASE_URL    where the site is served (required)
//   POST_PATH   the post's address ("/posts/photos/")
//   ORIG_BYTES  the bytes of the images the post names, as the author
//               wrote them (the originals)
// Goals (issue 38): at most 40% of the original bytes at 390 px, 60% at
// 1280 px. Each check prints "ok NAME" or "FAIL NAME: why"; the last line
// is "N passed, N failed".
import { check, openPage, runAll, watchdog } from './lib.mjs';

const PAGE_TIMEOUT_MS = 30_000;
watchdog(120_000);

const base = (process.env.BASE_URL || '').replace(/\/+$/, '');
const post = process.env.POST_PATH || '/';
const orig = Number(process.env.ORIG_BYTES || 0);
if (!base || !orig) {
  console.log('images.mjs: set BASE_URL, POST_PATH and ORIG_BYTES');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// read WIDTH: the post read to its end at WIDTH CSS pixels (device pixel
// ratio 1); the image bytes the network carried, and the images' count.
async function read(context, width) {
  const bytes = new Map();
  const page = await openPage(context, `${base}${post}`, PAGE_TIMEOUT_MS, async (p) => {
    await p.setViewportSize({ width, height: 900 });
    p.on('response', async (res) => {
      if (res.request().resourceType() !== 'image') return;
      const body = await res.body().catch(() => null);
      if (body) bytes.set(res.url(), body.length);
    });
  });
  // to the end, a screen at a time, so that every lazy image is fetched
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: PAGE_TIMEOUT_MS });
  await page.waitForTimeout(300);
  const images = await page.evaluate(() => document.images.length);
  const chosen = await page.evaluate(() => [...document.images].map((i) => i.currentSrc.replace(/^.*\//, '')));
  await page.close();
  let sum = 0;
  for (const v of bytes.values()) sum += v;
  return { sum, images, files: bytes.size, chosen };
}

await runAll({ timeout: PAGE_TIMEOUT_MS }, async (context) => {
  for (const [width, goal] of [[390, 0.4], [1280, 0.6]]) {
    const r = await read(context, width);
    const share = r.sum / orig;
    console.log(`note: at ${width} px: ${r.sum} of ${orig} bytes (${(100 * share).toFixed(1)}%), ` +
      `${r.files} files for ${r.images} images: ${r.chosen.join(' ')}`);
    await check(`at ${width} px every image of the post is fetched (${r.images})`, async () =>
      r.files >= r.images ? true : `${r.files} fetched`);
    await check(`at ${width} px the post's images weigh at most ${100 * goal}% of their originals`, async () =>
      share <= goal ? true : `${(100 * share).toFixed(1)}%`);
  }
});
