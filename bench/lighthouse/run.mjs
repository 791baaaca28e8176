// run.mjs: Lighthouse (pinned in package.json) on one page of every type
// of a served site, as a phone (Lighthouse's default mobile settings:
// Moto G Power, simulated slow 4G), RUNS times each, in Debian's chromium.
// Prints, for each page, the median of each category's score and of CLS;
// exits 1 if a median is under MIN (but the 404 page's SEO: it is noindex). bench/lighthouse/run.sh builds and
// serves the sites and calls it (make lighthouse).
//
// Usage: node run.mjs NAME BASE_URL PATH... (after "--": another site)
// Environment: RUNS (3), MIN (98), CHROMIUM (/usr/bin/chromium), OUT (a
// JSON file for every run's figures).
import { writeFileSync } from 'node:fs';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const runs = +(process.env.RUNS || 3);
const min = +(process.env.MIN || 98);
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];

// the sites: NAME BASE PATH... separated by "--"
const sites = [];
for (const a of process.argv.slice(2)) {
  if (a === '--' || sites.length === 0) sites.push([]);
  if (a !== '--') sites[sites.length - 1].push(a);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// each run in a new chromium with a new profile, as the lighthouse command
// runs: Lighthouse clears the HTTP cache between runs in one browser but
// keeps localStorage, a return visit with an empty cache no reader has
let chrome;
const launch = () => chromeLauncher.launch({
  chromePath: process.env.CHROMIUM || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => (chrome ? chrome.kill() : Promise.resolve()).finally(() => process.exit(1)));
const all = [];
let low = 0;
try {
  for (const [name, base, ...paths] of sites) {
    for (const path of paths) {
      const got = [];
      for (let i = 0; i < runs; i++) {
        chrome = await launch();
        let r;
        try {
          r = await lighthouse(base.replace(/\/$/, '') + path,
            { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories });
        } finally {
          await chrome.kill();
          chrome = null;
        }
        const lhr = r.lhr;
        got.push({
          scores: categories.map((c) => Math.round((lhr.categories[c].score || 0) * 100)),
          cls: lhr.audits['cumulative-layout-shift'].numericValue,
          lcp: lhr.audits['largest-contentful-paint'].numericValue,
          failing: Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 0.9 &&
            a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual').map((a) => a.id),
        });
      }
      const med = categories.map((_, k) => median(got.map((g) => g.scores[k])));
      const cls = median(got.map((g) => g.cls));
      const lcp = median(got.map((g) => g.lcp));
      // the 404 page is noindex on purpose, which Lighthouse's SEO counts against it
      const bad = med.some((s, k) => s < min && !(categories[k] === 'seo' && path.endsWith('404.html'))) || cls > 0;
      if (bad) low++;
      const failing = [...new Set(got.flatMap((g) => g.failing))];
      console.log(`${bad ? 'LOW ' : 'ok  '}${name} ${path}: ${categories.map((c, k) => `${c} ${med[k]}`).join(', ')}, ` +
        `CLS ${cls.toFixed(3)}, LCP ${Math.round(lcp)} ms${failing.length ? ` (audits under 0.9: ${failing.join(' ')})` : ''}`);
      all.push({ site: name, path, runs: got, median: Object.fromEntries(categories.map((c, k) => [c, med[k]])), cls, lcp });
    }
  }
} finally {
  if (chrome) await chrome.kill();
}
if (process.env.OUT) writeFileSync(process.env.OUT, JSON.stringify(all, null, 1));
console.log(`${all.length - low} pages at ${min} or more in every category with CLS 0, ${low} under (median of ${runs})`);
process.exit(low ? 1 : 0);
