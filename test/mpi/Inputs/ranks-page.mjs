// test/mpi/Inputs/ranks-page.mjs - a job's HTML page in headless Chromium.
//
//   node ranks-page.mjs --browser-dir DIR --page JOB.html --ranks N
//                       --screenshot OUT.png
//
// Loads the page from file:// (playwright-core from DIR, the HTML report's
// browser test, driving Debian's /usr/bin/chromium) and checks that it runs
// without a console or page error, says its axis is shared, and draws one
// lane group per rank, headed in rank order, below the one axis on top; the
// op table names each row's rank.
// Prints one "ok" line, or "FAIL: ..." lines and exits 1.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = {};
const argv = process.argv.slice(2);
for (let i = 0; i + 1 < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];
const require = createRequire(path.join(path.resolve(args['browser-dir']), 'package.json'));
const { chromium } = require('playwright-core');

let failures = 0;
function check(cond, what) {
  if (!cond) {
    failures++;
    console.log(`FAIL: ${what}`);
  }
}

const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpuprof-chromium-'));
const context = await chromium.launchPersistentContext(profileDir, {
  executablePath: process.env.TPUPROF_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(path.resolve(args.page)).href);
  await page.waitForFunction(() => window.tpuprofReport !== undefined, null, { timeout: 20000 });
  const state = await page.evaluate(() => ({
    shared: window.tpuprofReport.sharedAxis,
    axes: window.tpuprofReport.runAxes(),
    runs: JSON.parse(document.getElementById('tpuprof-data').textContent).runs,
    headers: [...document.querySelectorAll('th')].map((th) => th.textContent),
  }));
  const n = Number(args.ranks);
  check(errors.length === 0, `console or page errors: ${errors.join(' | ')}`);
  check(state.shared === true, 'the page says its axis is not shared');
  check(state.axes.length === n, `${state.axes.length} lane groups, expected ${n}`);
  check(state.axes.every((g) => g.shared), `groups not on the shared axis: ${JSON.stringify(state.axes)}`);
  const ranks = state.axes.map((g) => state.runs[g.run].rank);
  check(JSON.stringify(ranks) === JSON.stringify([...Array(n).keys()]),
    `groups in rank order: ${ranks.join(',')}`);
  check(state.axes.every((g, i) => i === 0 || g.axisY > state.axes[i - 1].axisY) && state.axes[0].axisY > 0,
    `groups below the one axis, top to bottom: ${JSON.stringify(state.axes)}`);
  check(state.headers.some((h) => /^Rank/.test(h)), `the op table names rows by rank: ${state.headers.join(', ')}`);
  await page.screenshot({ path: args.screenshot, fullPage: true });
} finally {
  await context.close();
  fs.rmSync(profileDir, { recursive: true, force: true });
}
if (failures) process.exit(1);
console.log(`ranks-page: ok: ${args.ranks} ranks, one axis`);
