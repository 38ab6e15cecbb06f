// report/html/report.js - the page script of `tpuprof-report html`.
//
// Reads the JSON in #tpuprof-data and draws the summary, the timeline (a
// canvas: one lane per device/thread, nested records one row deeper), the op
// table, the IR pane and the diff. Every string from the data reaches the page
// through textContent or canvas text, never as markup. Embedded into the
// library at build time (report/html/embed.cmake).
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('tpuprof-data').textContent);
  const $ = (id) => document.getElementById(id);
  const rows = data.rows;
  const totals = data.totals;

  // ---- helpers -------------------------------------------------------------
  /** An element with text children (strings become text nodes). */
  function el(tag, cls, ...children) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }
  const us = (ns) => (ns / 1000).toFixed(2);
  /** A time in us, or "< N ns" below what the clock and correction resolve. */
  const usOr = (ns, floorNs) => (floorNs && ns < floorNs ? `< ${fmtDur(floorNs)}` : us(ns));
  const runs = data.runs;
  const runsApart = data.runsApart;
  /** How a run is named beside its lanes and rows: a job's rank, or its number. */
  const runName = (run) => (runs[run].rank !== undefined ? `rank ${runs[run].rank}` : `run ${run + 1}`);
  /** What a row's Percent is of: its run's window when runs are apart. */
  const totalOf = (r) => (runsApart ? runs[r.run].totalNs : totals.total_ns);
  const pct = (part, whole) => (whole ? (100 * part / whole) : 0).toFixed(2);
  function fmtDur(ns) {
    if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    if (ns >= 1e3) return (ns / 1e3).toFixed(2) + ' us';
    return Math.round(ns) + ' ns';
  }
  function hashString(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
    return h >>> 0;
  }
  // One colour per op name, stable across runs and pages.
  const rowColor = rows.map((r) => `hsl(${hashString(r.name) % 360}, 62%, ${r.kind === 'launch' ? 44 : 56}%)`);
  const kindColors = { op: '#2f6fde', launch: '#e07b22', user: '#12a594', comm: '#b5489a', unknown: '#98a2b3', idle: '#eef0f3' };
  /** Scrolls `container` (only it, not the page) so that `child` is visible. */
  function scrollWithin(container, child, center) {
    const c = container.getBoundingClientRect(), r = child.getBoundingClientRect();
    if (!center && r.top >= c.top && r.bottom <= c.bottom) return;
    container.scrollTop += r.top - c.top - (center ? (c.height - r.height) / 2 : 30);
  }
  const locationOf = (r) => (r.locations.length ? r.locations[0] + (r.locations.length > 1 ? ` (+${r.locations.length - 1} more)` : '') : '-');

  // ---- selection -----------------------------------------------------------
  let selectedRow = -1;
  const listeners = [];
  function selectRow(i, from) {
    selectedRow = selectedRow === i && from === 'table' ? -1 : i;
    for (const f of listeners) f(selectedRow, from);
  }

