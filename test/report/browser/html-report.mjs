// test/report/browser/html-report.mjs - the HTML report in headless Chromium.
//
//   node html-report.mjs --page REPORT.html --rows N --hostile HOSTILE.html
//                        --screenshot OUT.png [--copy-screenshot PATH]
//                        [--buckets BUCKETED.html]
//                        [--runs TWO_RUNS.html --runs-screenshot OUT.png
//                         [--copy-runs-screenshot PATH]]
//                        [--memory MEMORY.html --memory-screenshot OUT.png]
//
// Loads the pages from file:// through the DevTools protocol (playwright-core
// driving Debian's /usr/bin/chromium) and checks what a person would: no
// console or page errors and no network request; the op table has N rows;
// clicking a header sorts; clicking a row highlights its line in the IR pane
// and clicking a shaded IR line selects its row; wheel zooms and drag pans
// the timeline and hovering shows a record; the diff panel has rows; on a
// bucketed page hovering shows a bucket's busy share and top op. On the
// hostile page no injected script runs (window.__pwned stays undefined, no
// dialog opens) and the hostile strings show as text. On a page of two runs
// each run has its own time axis above its lanes, starting at its own 0, and
// the op table says which run a row is from. Prints one "ok" line, or
// "FAIL: ..." and exits 1.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) throw new Error(`bad argument ${argv[i]}`);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  for (const k of ['page', 'rows', 'hostile', 'screenshot'])
    if (!(k in out)) throw new Error(`missing --${k}`);
  return out;
}

let failures = 0;
function check(cond, what) {
  if (!cond) {
    failures++;
    console.log(`FAIL: ${what}`);
  }
}

const args = parseArgs(process.argv.slice(2));
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpuprof-chromium-'));
const context = await chromium.launchPersistentContext(profileDir, {
  executablePath: process.env.TPUPROF_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
});

/** Opens `file` and records every console error, page error, dialog and
 *  request that is not for the file itself. */
async function open(file) {
  const page = await context.newPage();
  const log = { errors: [], dialogs: [], requests: [] };
  page.on('console', (m) => { if (m.type() === 'error') log.errors.push(m.text()); });
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('dialog', async (d) => { log.dialogs.push(d.message()); await d.dismiss(); });
  const url = pathToFileURL(path.resolve(file)).href;
  page.on('request', (r) => { if (r.url() !== url) log.requests.push(r.url()); });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.tpuprofReport !== undefined, null, { timeout: 10000 })
    .catch(() => log.errors.push('the page script did not finish (window.tpuprofReport unset)'));
  await page.waitForTimeout(200);
  return { page, log };
}

/** The op table's column titled `title` (columns come and go with the data). */
const columnOf = (page, title) => page.$$eval('#ops thead th', (ths, t) => ths.findIndex((th) => th.textContent === t), title);
const cellTexts = (page, col) => page.$$eval('#ops tbody tr', (trs, c) => trs.map((tr) => tr.cells[c].textContent), col);
const sortedBy = (xs, cmp) => xs.every((x, i) => i === 0 || cmp(xs[i - 1], x) <= 0);

try {
  // ---- the report of a real run ------------------------------------------
  const { page, log } = await open(args.page);
  const expectedRows = Number(args.rows);
  const rowCount = await page.$$eval('#ops tbody tr', (trs) => trs.length);
  check(rowCount === expectedRows, `op table has ${rowCount} rows, expected ${expectedRows}`);

  // Default order: Duration descending.
  // "< N ns": below what the clock and correction resolve, under every figure shown.
  const durations = (await cellTexts(page, 1)).map((t) => (t.startsWith('<') ? 0 : Number(t)));
  check(sortedBy(durations, (a, b) => b - a), `rows start sorted by duration descending: ${durations}`);
  // Name header: ascending, then descending.
  const nameHeader = page.locator('#ops thead th', { hasText: /^Name$/ });
  await nameHeader.click();
  let names = await cellTexts(page, 0);
  check(sortedBy(names, (a, b) => a.localeCompare(b)), `Name click sorts ascending: ${names}`);
  check(await nameHeader.getAttribute('aria-sort') === 'ascending', 'Name header shows ascending');
  await nameHeader.click();
  names = await cellTexts(page, 0);
  check(sortedBy(names, (a, b) => b.localeCompare(a)), `second Name click sorts descending: ${names}`);
  const countHeader = page.locator('#ops thead th', { hasText: /^Count$/ });
  await countHeader.click();
  const counts = (await cellTexts(page, 5)).map(Number);
  check(sortedBy(counts, (a, b) => b - a), `Count click sorts descending: ${counts}`);

  // Filter.
  await page.fill('#filter', 'fully_connected');
  const filtered = await cellTexts(page, 0);
  check(filtered.length > 0 && filtered.length < expectedRows && filtered.every((n) => n.includes('fully_connected')),
    `filter keeps only fully_connected rows: ${filtered}`);
  await page.fill('#filter', '');

  // Row click -> its IR line is highlighted (and scrolled to).
  const irVisible = await page.isVisible('#ir-panel');
  check(irVisible, 'IR pane is shown');
  const target = page.locator('#ops tbody tr', { hasText: 'tosa.reduce_sum' }).first();
  const locationCol = await columnOf(page, 'Location');
  const location = await target.locator('td').nth(locationCol).textContent();
  const wantLine = Number((location.match(/:(\d+):\d+$/) || [])[1]);
  await target.click();
  check(await target.getAttribute('class') === 'selected', 'clicked row is selected');
  const selectedLines = await page.$$eval('#ir .ir-line.selected', (ds) => ds.map((d) => Number(d.dataset.line)));
  check(selectedLines.length === 1 && selectedLines[0] === wantLine,
    `row click highlights IR line ${wantLine} (${location}); highlighted: ${selectedLines}`);
  const hotLines = await page.$$eval('#ir .ir-line.hot', (ds) => ds.length);
  check(hotLines >= expectedRows, `IR pane shades ${hotLines} lines, expected at least ${expectedRows}`);

  // IR line click -> its row is selected.
  const line = page.locator('#ir .ir-line.hot', { hasText: 'tosa.exp' }).first();
  const lineNo = Number(await line.getAttribute('data-line'));
  await line.click();
  const selName = await page.$eval('#ops tbody tr.selected', (tr, c) => [tr.cells[0].textContent, tr.cells[c].textContent], locationCol)
    .catch(() => ['', '']);
  check(selName[0] === 'tosa.exp' && selName[1].includes(`:${lineNo}:`),
    `IR line ${lineNo} click selects its row; selected: ${selName}`);

  // Timeline: hover shows a record, wheel zooms, drag pans.
  const box = await page.locator('#timeline').boundingBox();
  await page.click('#zoom-reset');
  let tip = '';
  for (let x = box.x + 160; x < box.x + box.width - 4 && !tip; x += 3) {
    await page.mouse.move(x, box.y + 22 + 9);
    tip = await page.$eval('#tooltip', (t) => (t.hidden ? '' : t.textContent));
  }
  check(/hash[0-9a-f]{16}/.test(tip) && /duration/.test(tip) && /location/.test(tip),
    `hovering a record shows its name, hash, duration and location: '${tip}'`);
  const v0 = await page.evaluate(() => window.tpuprofReport.view());
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  await page.mouse.wheel(0, -400);
  await page.waitForTimeout(100);
  const v1 = await page.evaluate(() => window.tpuprofReport.view());
  check(v1.t1 - v1.t0 < (v0.t1 - v0.t0) * 0.9, `wheel zooms in: ${JSON.stringify(v0)} -> ${JSON.stringify(v1)}`);
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 200, box.y + 40, { steps: 5 });
  await page.mouse.up();
  const v2 = await page.evaluate(() => window.tpuprofReport.view());
  check(v2.t0 > v1.t0 && Math.abs((v2.t1 - v2.t0) - (v1.t1 - v1.t0)) < 1e-6 * (v1.t1 - v1.t0) + 1,
    `dragging left pans right at the same zoom: ${JSON.stringify(v1)} -> ${JSON.stringify(v2)}`);

  // Selecting an op whose records are out of view brings one into view.
  // (Zoomed onto the run's first microseconds: the first op of the first
  // repetition, never tosa.mul, the last op.)
  await page.click('#zoom-reset');
  await page.mouse.move(box.x + 151, box.y + 40);
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -400);
  const v3 = await page.evaluate(() => window.tpuprofReport.view());
  await page.locator('#ops tbody tr', { hasText: 'tosa.mul' }).first().click();
  const v4 = await page.evaluate(() => window.tpuprofReport.view());
  check(v4.t0 !== v3.t0, `selecting tosa.mul, out of view, pans to it: ${JSON.stringify(v3)} -> ${JSON.stringify(v4)}`);

  // Diff panel against the baseline.
  const diffRows = await page.$$eval('#diff tbody tr', (trs) => trs.length);
  check(await page.isVisible('#diff-panel') && diffRows === expectedRows,
    `diff panel shows ${diffRows} rows, expected ${expectedRows}`);

  // Screenshot: the longest op selected, the timeline zoomed onto the last
  // repetitions, a record hovered.
  await page.click('#zoom-reset');
  await page.locator('#ops thead th', { hasText: /^Duration \(us\)$/ }).click();
  await page.locator('#ops tbody tr').first().click();
  await page.mouse.move(box.x + box.width - 3, box.y + 40);
  for (let i = 0; i < 9; i++) await page.mouse.wheel(0, -300);
  await page.waitForTimeout(100);
  for (let x = box.x + box.width * 0.5; x < box.x + box.width - 4; x += 3) {
    await page.mouse.move(x, box.y + 22 + 9);
    if (await page.$eval('#tooltip', (t) => !t.hidden)) break;
  }
  await page.screenshot({ path: args.screenshot, fullPage: true });
  if (args['copy-screenshot']) {
    fs.mkdirSync(path.dirname(args['copy-screenshot']), { recursive: true });
    fs.copyFileSync(args.screenshot, args['copy-screenshot']);
  }
  check(log.errors.length === 0, `console/page errors: ${JSON.stringify(log.errors)}`);
  check(log.requests.length === 0, `network requests: ${JSON.stringify(log.requests)}`);
  check(log.dialogs.length === 0, `dialogs: ${JSON.stringify(log.dialogs)}`);

  // ---- a bucketed timeline (--max-events below the record count) ----------
  if (args.buckets) {
    const b = await open(args.buckets);
    check(await b.page.evaluate(() => window.tpuprofReport.timelineMode) === 'buckets', 'bucketed page draws buckets');
    const bbox = await b.page.locator('#timeline').boundingBox();
    let btip = '';
    for (let x = bbox.x + 152; x < bbox.x + bbox.width - 4 && !btip; x += 2) {
      await b.page.mouse.move(x, bbox.y + 22 + 30);
      btip = await b.page.$eval('#tooltip', (t) => (t.hidden ? '' : t.textContent));
    }
    check(/busy/.test(btip) && /top op/.test(btip), `hovering a bucket shows its busy share and top op: '${btip}'`);
    check(b.log.errors.length === 0, `bucketed page console/page errors: ${JSON.stringify(b.log.errors)}`);
    await b.page.close();
  }

  // ---- two runs of one directory: kept apart ---------------------------------
  if (args.runs) {
    const r = await open(args.runs);
    const axes = await r.page.evaluate(() => window.tpuprofReport.runAxes());
    check(axes.length === 2 && axes[0].run === 0 && axes[1].run === 1,
      `two runs get two time axes: ${JSON.stringify(axes)}`);
    check(axes.length === 2 && axes[0].end <= axes[1].axisY, 'the second run\'s axis is below the first run\'s lanes');
    // Each run's records count from its own start: its first record begins
    // within the run, not after the other run's whole span.
    const starts = await r.page.evaluate(() => {
      const d = JSON.parse(document.getElementById('tpuprof-data').textContent);
      return d.timeline.lanes.map((l, i) => ({ run: d.lanes[i].run, first: l.begin[0], window: d.lanes[i].windowNs }));
    });
    check(starts.length === 2 && starts.every((s) => s.first <= s.window),
      `each run's first record lies within its own window: ${JSON.stringify(starts)}`);
    const heads = await r.page.$$eval('#ops thead th', (ths) => ths.map((t) => t.textContent));
    const runCol = heads.indexOf('Run');
    check(runCol >= 0, `the op table has a Run column: ${heads.join(', ')}`);
    const runCells = runCol >= 0 ? new Set(await cellTexts(r.page, runCol)) : new Set();
    check(runCells.has('1') && runCells.has('2'), `rows of both runs: ${[...runCells].join(', ')}`);
    const cards = await r.page.$eval('#cards', (c) => c.innerText);
    check(/2 runs, kept apart/i.test(cards), `the summary says "2 runs": ${cards.replace(/\n/g, ' ')}`);
    const labels = await r.page.$eval('#lanes-summary', (e) => e.innerText);
    check(/run 1 · dev 0/.test(labels) && /run 2 · dev 1/.test(labels), `lanes name their run: ${labels.replace(/\n/g, ' ')}`);
    const tops = await r.page.$$eval('#top-ops .bar-row .label', (ls) => ls.map((l) => l.textContent));
    check(tops.length > 0 && tops.every((t) => /^run [12] · /.test(t)) && tops.some((t) => t.startsWith('run 2')),
      `top ops name their run: ${tops.join(', ')}`);
    await r.page.screenshot({ path: args['runs-screenshot'], fullPage: true });
    if (args['copy-runs-screenshot']) {
      fs.mkdirSync(path.dirname(args['copy-runs-screenshot']), { recursive: true });
      fs.copyFileSync(args['runs-screenshot'], args['copy-runs-screenshot']);
    }
    check(r.log.errors.length === 0, `two-run page console/page errors: ${JSON.stringify(r.log.errors)}`);
    check(r.log.requests.length === 0, `two-run page made requests: ${JSON.stringify(r.log.requests)}`);
    await r.page.close();
  }

  // ---- memory tracking: columns, the live-bytes lane, the buffer view ------
  if (args.memory) {
    const m = await open(args.memory);
    const heads = await m.page.$$eval('#ops thead th', (ths) => ths.map((t) => t.textContent));
    for (const t of ['Alloc (B)', 'Self Alloc (B)', 'Freed (B)', 'Peak (B)'])
      check(heads.includes(t), `the op table has ${t}: ${heads.join(', ')}`);
    const lanes = await m.page.evaluate(() => window.tpuprofReport.memoryLanes());
    check(lanes.length === 1 && lanes[0].buffers > 0 && lanes[0].peak > 0, `one memory lane with buffers: ${JSON.stringify(lanes)}`);
    if (lanes.length) {
      const box = await m.page.locator('#timeline').boundingBox();
      await m.page.mouse.move(box.x + lanes[0].bufferX, box.y + lanes[0].bufferY);
      await m.page.waitForTimeout(100);
      const tip = await m.page.$eval('#tooltip', (t) => (t.hidden ? '' : t.innerText));
      check(/tosa\./.test(tip) && /size/.test(tip) && /lifetime/.test(tip),
        `hovering a buffer names the op that allocated it: '${tip.replace(/\n/g, ' ')}'`);
      await m.page.screenshot({ path: args['memory-screenshot'], fullPage: true });
      await m.page.mouse.move(box.x + box.width / 2, box.y + lanes[0].liveY);
      await m.page.waitForTimeout(100);
      const live = await m.page.$eval('#tooltip', (t) => (t.hidden ? '' : t.innerText));
      check(/live/.test(live) && /peak/.test(live), `hovering the memory lane shows the live bytes: '${live.replace(/\n/g, ' ')}'`);
    }
    check(m.log.errors.length === 0, `memory page console/page errors: ${JSON.stringify(m.log.errors)}`);
    await m.page.close();
  }

  // ---- the hostile page ----------------------------------------------------
  const hostile = await open(args.hostile);
  await hostile.page.waitForTimeout(300);
  const pwned = await hostile.page.evaluate(() => window.__pwned);
  check(pwned === undefined, `hostile page ran injected script: window.__pwned = ${pwned}`);
  check(hostile.log.dialogs.length === 0, `hostile page opened dialogs: ${JSON.stringify(hostile.log.dialogs)}`);
  check(hostile.log.errors.length === 0, `hostile page console/page errors: ${JSON.stringify(hostile.log.errors)}`);
  check(hostile.log.requests.length === 0, `hostile page made requests: ${JSON.stringify(hostile.log.requests)}`);
  const injected = await hostile.page.$$eval('body script, body img, body svg, body iframe', (es) => es.length);
  check(injected === 2, `hostile page has ${injected} script/img/svg/iframe elements in its body, expected its own 2 scripts`);
  const text = await hostile.page.evaluate(() => document.body.innerText);
  check(text.includes('<script>window.__pwned=1</script>'), 'hostile location shows as text');
  const title = await hostile.page.title();
  check(title.includes('<svg onload=window.__pwned=3>'), `hostile title shows as text: ${title}`);

  console.log(failures ? `html-report: ${failures} check(s) failed` :
    `html-report: ok: ${rowCount} rows, sorting, row/IR selection, zoom, pan, hover, diff, hostile page inert` +
    (args.runs ? ', two runs on two axes' : '') + (args.memory ? ', memory lanes' : ''));
} catch (e) {
  failures++;
  console.log(`FAIL: ${e && e.stack ? e.stack : e}`);
} finally {
  await context.close();
  fs.rmSync(profileDir, { recursive: true, force: true });
}
process.exit(failures ? 1 : 0);
