  // ---- timeline --------------------------------------------------------------
  const tl = data.timeline;
  const sites = data.sites;
  const bucketed = tl.mode === 'buckets';
  $('timeline-mode').textContent = bucketed
    ? `${tl.events.toLocaleString('en-US')} records: aggregated into buckets of ${fmtDur(tl.bucketNs)} (busy share and top op per bucket)`
    : `${tl.events.toLocaleString('en-US')} records`;
  const ROW_H = 18, LANE_GAP = 8, AXIS_H = 22, GUTTER = 150, BUCKET_H = 34;
  // Decode the columnar lanes; per depth an index list sorted by begin (ends
  // too: records of one depth on one thread never overlap).
  const lanes = data.lanes.map((info, li) => {
    const cols = tl.lanes[li];
    const lane = { info, depths: 1 };
    if (bucketed) {
      lane.busy = cols.busy; lane.count = cols.count; lane.top = cols.top; lane.topNs = cols.topNs;
    } else {
      const n = cols.dur.length;
      lane.begin = new Float64Array(n); lane.end = new Float64Array(n);
      lane.depth = Uint16Array.from(cols.depth); lane.site = Int32Array.from(cols.site);
      lane.unfinished = new Set(cols.unfinished);
      lane.counters = cols.counters;
      lane.corrected = cols.corrected; // Probe overhead taken off, per record.
      let t = 0;
      for (let i = 0; i < n; i++) { t += cols.begin[i]; lane.begin[i] = t; lane.end[i] = t + cols.dur[i]; }
      lane.depths = info.maxDepth + 1;
      lane.byDepth = Array.from({ length: lane.depths }, () => []);
      for (let i = 0; i < n; i++) lane.byDepth[lane.depth[i]].push(i);
    }
    return lane;
  });
  // Runs kept apart each get their own time axis (times count from the
  // run's start) above their lanes; otherwise one axis on top. A job's
  // ranks (sharedAxis) are one lane group each, headed by the rank, under
  // the one axis on top: their clocks are aligned onto one another's.
  const sharedAxis = !!tl.sharedAxis;
  const groups = [];
  let y = runsApart && !sharedAxis ? 0 : AXIS_H;
  for (const lane of lanes) {
    if (runsApart && (!groups.length || groups[groups.length - 1].run !== lane.info.run)) {
      groups.push({ run: lane.info.run, axisY: y, end: y, shared: sharedAxis });
      y += AXIS_H;
    }
    lane.y = y;
    lane.h = bucketed ? BUCKET_H : lane.depths * ROW_H;
    y += lane.h + LANE_GAP;
    if (groups.length) groups[groups.length - 1].end = y;
  }
  // Device queues (docs/device.md): one lane each under the host threads,
  // a slice per kernel or copy, and a flow line from its launch.
  const devLanes = (data.device || []).map((d) => {
    const dl = { d, y, h: ROW_H, end: Float64Array.from(d.begin, (b, i) => b + d.dur[i]) };
    y += ROW_H + LANE_GAP;
    if (groups.length) groups[groups.length - 1].end = y;
    return dl;
  });
  const hostLaneOf = (dl, tid) => lanes.find((l) => l.info.run === dl.d.run && l.info.device === dl.d.device && l.info.pid === dl.d.pid && l.info.tid === tid);
  /** The y of the launch record that began at `t` on `lane` (its depth's row). */
  function launchY(lane, t) {
    if (bucketed) return lane.y + lane.h / 2;
    let lo = 0, hi = lane.begin.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (lane.begin[mid] < t) lo = mid + 1; else hi = mid; }
    let d = 0;
    for (let i = lo; i < lane.begin.length && lane.begin[i] === t; i++) d = Math.max(d, lane.depth[i]);
    return lane.y + d * ROW_H + ROW_H / 2;
  }
  // Memory tracking: per process window, the live bytes over time and the
  // buffer view under the op lanes (each buffer from its allocation to its
  // free, as high as its size, on the live bytes below it when allocated).
  const MEM_LIVE_H = 56, MEM_BUF_H = 120;
  const memLanes = (data.memory || []).map((m) => {
    const ml = { m, yLive: y, yBuf: y + MEM_LIVE_H + 4, peak: Math.max(1, m.peak) };
    y += MEM_LIVE_H + 4 + MEM_BUF_H + LANE_GAP;
    return ml;
  });
  const canvas = $('timeline');
  const cssHeight = Math.max(y, AXIS_H + 30);
  canvas.style.height = `${cssHeight}px`;
  const ctx = canvas.getContext('2d');
  const view = { t0: 0, t1: tl.spanNs };
  let width = 0;

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    width = canvas.clientWidth;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(cssHeight * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    draw();
  }
  const plotW = () => Math.max(1, width - GUTTER);
  const xOf = (t) => GUTTER + (t - view.t0) / (view.t1 - view.t0) * plotW();
  const tOf = (x) => view.t0 + (x - GUTTER) / plotW() * (view.t1 - view.t0);

  function niceStep(span, px) {
    const raw = span / Math.max(1, px / 90);
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
    return 10 * p;
  }
  /** First index in sorted `idx` whose end is >= t. */
  function firstEnding(lane, idx, t) {
    let lo = 0, hi = idx.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (lane.end[idx[mid]] < t) lo = mid + 1; else hi = mid; }
    return lo;
  }
  const rowOfSite = (s) => (s >= 0 ? sites[s][0] : -1);

  function draw() {
    ctx.clearRect(0, 0, width, cssHeight);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    // Axes: one on top, or one per run (its own zero) above its lanes.
    const step = niceStep(view.t1 - view.t0, plotW());
    const axes = groups.length && !sharedAxis ? groups : [{ axisY: 0, end: cssHeight }];
    for (const g of axes) {
      ctx.fillStyle = '#667085';
      ctx.strokeStyle = '#e2e5ea';
      ctx.beginPath();
      for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
        const x = Math.round(xOf(t)) + 0.5;
        ctx.moveTo(x, g.axisY + AXIS_H - 4); ctx.lineTo(x, g.end);
        ctx.fillText(fmtDur(t), x + 3, g.axisY + AXIS_H / 2);
      }
      ctx.stroke();
    }
    for (const g of groups) {
      if (g.shared) {
        ctx.strokeStyle = '#c4c9d2';
        ctx.beginPath(); ctx.moveTo(0, g.axisY + 0.5); ctx.lineTo(width, g.axisY + 0.5); ctx.stroke();
      }
      ctx.fillStyle = '#1d2330';
      ctx.save(); ctx.font = 'bold 11px system-ui, sans-serif';
      const r = runs[g.run];
      ctx.fillText(g.shared && r.clock ? `${r.short} · clock: ${r.clock}` : r.short, 6, g.axisY + AXIS_H / 2);
      ctx.restore();
    }
    for (const lane of lanes) {
      ctx.fillStyle = '#f6f7f9';
      ctx.fillRect(GUTTER, lane.y, plotW(), lane.h);
      ctx.save();
      ctx.beginPath(); ctx.rect(GUTTER, lane.y, plotW(), lane.h); ctx.clip();
      drawNotRecorded(lane);
      if (bucketed) drawBuckets(lane); else drawEvents(lane);
      ctx.restore();
      ctx.fillStyle = '#1d2330';
      ctx.fillText(laneLabel(lane.info), 6, lane.y + Math.min(lane.h, ROW_H * 2) / 2);
    }
    for (const dl of devLanes) drawDevice(dl);
    for (const ml of memLanes) drawMemory(ml);
  }
  function drawDevice(dl) {
    const d = dl.d, right = GUTTER + plotW();
    ctx.fillStyle = '#f6f7f9';
    ctx.fillRect(GUTTER, dl.y, plotW(), dl.h);
    ctx.save();
    ctx.beginPath(); ctx.rect(GUTTER, 0, plotW(), cssHeight); ctx.clip();
    ctx.strokeStyle = 'rgba(29, 35, 48, 0.35)';
    ctx.beginPath();
    for (let i = 0; i < d.begin.length; i++) {
      const x0 = xOf(d.begin[i]), x1 = xOf(dl.end[i]);
      if (x1 < GUTTER || x0 > right) continue;
      ctx.fillStyle = `hsl(${hashString(data.deviceNames[d.name[i]]) % 360}, 60%, 45%)`;
      const w = Math.max(1, x1 - x0);
      ctx.fillRect(x0, dl.y + 1, w, ROW_H - 2);
      if (w > 36) {
        ctx.save(); ctx.beginPath(); ctx.rect(Math.max(x0, GUTTER), dl.y, Math.min(w, right - x0), ROW_H); ctx.clip();
        ctx.fillStyle = '#fff';
        ctx.fillText(data.deviceNames[d.name[i]], Math.max(x0, GUTTER) + 3, dl.y + ROW_H / 2);
        ctx.restore();
      }
      const host = d.launchAt[i] >= 0 ? hostLaneOf(dl, d.launchTid[i]) : null;
      if (host) { ctx.moveTo(xOf(d.launchAt[i]), launchY(host, d.launchAt[i])); ctx.lineTo(x0, dl.y + ROW_H / 2); }
    }
    ctx.stroke();
    ctx.restore();
    ctx.fillStyle = '#1d2330';
    ctx.save(); ctx.beginPath(); ctx.rect(0, dl.y, GUTTER - 4, dl.h); ctx.clip();
    ctx.fillText(d.label, 6, dl.y + ROW_H / 2);
    ctx.restore();
  }
  const bufferColor = (b) => `hsl(${hashString(b[4]) % 360}, 55%, 58%)`;
  function drawMemory(ml) {
    const m = ml.m, right = GUTTER + plotW();
    for (const [y0, h] of [[ml.yLive, MEM_LIVE_H], [ml.yBuf, MEM_BUF_H]]) {
      ctx.fillStyle = '#f6f7f9';
      ctx.fillRect(GUTTER, y0, plotW(), h);
    }
    ctx.save();
    ctx.beginPath(); ctx.rect(GUTTER, ml.yLive, plotW(), ml.yBuf + MEM_BUF_H - ml.yLive); ctx.clip();
    // Live bytes: a step line, filled below.
    const base = ml.yLive + MEM_LIVE_H - 1, yOf = (v) => base - v / ml.peak * (MEM_LIVE_H - 6);
    ctx.beginPath(); ctx.moveTo(GUTTER, base);
    let prev = base;
    for (let i = 0; i < m.t.length; i++) {
      const x = xOf(m.t[i]);
      if (x > right) break;
      const yy = yOf(m.live[i]);
      ctx.lineTo(Math.max(GUTTER, x), prev); ctx.lineTo(Math.max(GUTTER, x), yy);
      prev = yy;
    }
    ctx.lineTo(right, prev); ctx.lineTo(right, base); ctx.closePath();
    ctx.fillStyle = 'rgba(127, 86, 217, 0.3)'; ctx.fill();
    ctx.strokeStyle = '#7f56d9'; ctx.stroke();
    // Buffers: lifetime x size.
    const scale = (MEM_BUF_H - 2) / ml.peak, bottom = ml.yBuf + MEM_BUF_H - 1;
    for (const b of m.buffers) {
      const x0 = xOf(b[0]), x1 = xOf(b[1]);
      if (x1 < GUTTER || x0 > right) continue;
      ctx.fillStyle = bufferColor(b);
      ctx.fillRect(x0, bottom - (b[3] + b[2]) * scale, Math.max(1, x1 - x0), Math.max(1, b[2] * scale));
    }
    ctx.restore();
    ctx.fillStyle = '#1d2330';
    ctx.fillText(`memory, device ${m.device}`, 6, ml.yLive + 10);
    ctx.fillText(`peak ${m.peak.toLocaleString('en-US')} B`, 6, ml.yLive + 26);
    ctx.fillText('buffers', 6, ml.yBuf + 10);
    if (m.buffersLeftOut) ctx.fillText(`(${m.buffersLeftOut} small ones left out)`, 6, ml.yBuf + 26);
  }
  /** The memory lane part under (x, y): live bytes at a time, or a buffer. */
  function hitMemory(x, y) {
    const t = tOf(x);
    for (const ml of memLanes) {
      const m = ml.m;
      if (y >= ml.yLive && y < ml.yLive + MEM_LIVE_H) {
        let lo = 0, hi = m.t.length;
        while (lo < hi) { const mid = (lo + hi) >> 1; if (m.t[mid] <= t) lo = mid + 1; else hi = mid; }
        return { ml, live: lo ? m.live[lo - 1] : 0, t };
      }
      if (y >= ml.yBuf && y < ml.yBuf + MEM_BUF_H) {
        const scale = (MEM_BUF_H - 2) / ml.peak, v = (ml.yBuf + MEM_BUF_H - 1 - y) / scale;
        const slack = 2 * (view.t1 - view.t0) / plotW(), vs = 2 / scale;
        for (let i = m.buffers.length - 1; i >= 0; i--) {
          const b = m.buffers[i];
          if (t >= b[0] - slack && t <= b[1] + slack && v >= b[3] - vs && v <= b[3] + b[2] + vs) return { ml, buffer: b };
        }
        return null;
      }
    }
    return null;
  }
  // Stretches where the thread's records were dropped (its record limit,
  // a ring's overwrites): hatched and labelled, never left as idle time.
  function drawNotRecorded(lane) {
    const nr = lane.info.notRecorded || [];
    for (let k = 0; k + 1 < nr.length; k += 2) {
      const x0 = Math.max(GUTTER, xOf(nr[k])), x1 = Math.min(GUTTER + plotW(), xOf(nr[k + 1]));
      if (x1 <= x0) continue;
      ctx.fillStyle = '#e4e7ec';
      ctx.fillRect(x0, lane.y, x1 - x0, lane.h);
      ctx.save(); ctx.beginPath(); ctx.rect(x0, lane.y, x1 - x0, lane.h); ctx.clip();
      ctx.strokeStyle = '#c2c7d0';
      ctx.beginPath();
      for (let x = x0 - lane.h; x < x1; x += 8) { ctx.moveTo(x, lane.y + lane.h); ctx.lineTo(x + lane.h, lane.y); }
      ctx.stroke();
      if (x1 - x0 > 90) {
        ctx.fillStyle = '#475467';
        ctx.fillText(`not recorded (${lane.info.dropped.toLocaleString('en-US')} records dropped)`, x0 + 4, lane.y + Math.min(lane.h, ROW_H) / 2);
      }
      ctx.restore();
    }
  }
  function drawEvents(lane) {
    const t0 = view.t0, t1 = view.t1, scale = plotW() / (t1 - t0);
    for (let d = 0; d < lane.depths; d++) {
      const idx = lane.byDepth[d];
      const yTop = lane.y + d * ROW_H + 1;
      let lastPx = -1;
      for (let k = firstEnding(lane, idx, t0); k < idx.length; k++) {
        const i = idx[k];
        const b = lane.begin[i];
        if (b > t1) break;
        const x0 = GUTTER + (b - t0) * scale, x1 = GUTTER + (lane.end[i] - t0) * scale;
        // Sub-pixel records: one per pixel column is enough.
        if (x1 - x0 < 1 && Math.floor(x0) === lastPx) continue;
        lastPx = Math.floor(x0);
        const row = rowOfSite(lane.site[i]);
        const dim = selectedRow >= 0 && row !== selectedRow;
        ctx.globalAlpha = dim ? 0.22 : 1;
        ctx.fillStyle = row >= 0 ? rowColor[row] : '#98a2b3';
        const w = Math.max(1, x1 - x0);
        ctx.fillRect(x0, yTop, w, ROW_H - 2);
        if (lane.unfinished.has(i)) { ctx.strokeStyle = '#b42318'; ctx.setLineDash([3, 2]); ctx.strokeRect(x0 + 0.5, yTop + 0.5, w - 1, ROW_H - 3); ctx.setLineDash([]); }
        if (!dim && row === selectedRow) { ctx.strokeStyle = '#1d2330'; ctx.lineWidth = 1.5; ctx.strokeRect(x0, yTop, w, ROW_H - 2); ctx.lineWidth = 1; }
        if (w > 36 && row >= 0) {
          ctx.fillStyle = '#fff';
          const tx = Math.max(x0, GUTTER) + 3;
          ctx.save(); ctx.beginPath(); ctx.rect(tx, yTop, Math.min(x1, GUTTER + plotW()) - tx - 2, ROW_H - 2); ctx.clip();
          ctx.fillText(rows[row].name, tx, yTop + (ROW_H - 2) / 2);
          ctx.restore();
        }
      }
    }
    ctx.globalAlpha = 1;
  }
  function drawBuckets(lane) {
    const n = lane.busy.length, w = tl.bucketNs;
    const b0 = Math.max(0, Math.floor(view.t0 / w)), b1 = Math.min(n - 1, Math.floor(view.t1 / w));
    for (let b = b0; b <= b1; b++) {
      if (!lane.count[b] && !lane.busy[b]) continue;
      const x0 = xOf(b * w), x1 = xOf((b + 1) * w);
      const frac = Math.min(1, lane.busy[b] / w);
      const row = rowOfSite(lane.top[b]);
      ctx.globalAlpha = selectedRow >= 0 && row !== selectedRow ? 0.22 : 1;
      ctx.fillStyle = row >= 0 ? rowColor[row] : '#98a2b3';
      const h = Math.max(2, frac * (lane.h - 2));
      ctx.fillRect(x0, lane.y + lane.h - 1 - h, Math.max(1, x1 - x0 - (x1 - x0 > 3 ? 1 : 0)), h);
    }
    ctx.globalAlpha = 1;
  }

  /** The record or bucket under (x, y): {lane, i} or {lane, bucket}. */
  function hit(x, y) {
    if (x < GUTTER) return null;
    const lane = lanes.find((l) => y >= l.y && y < l.y + l.h);
    const dl = lane ? null : devLanes.find((l) => y >= l.y && y < l.y + l.h);
    if (dl) {
      const t = tOf(x), slack = 2 * (view.t1 - view.t0) / plotW();
      for (let i = 0; i < dl.d.begin.length; i++)
        if (dl.d.begin[i] <= t + slack && dl.end[i] >= t - slack) return { dl, i };
      return null;
    }
    if (!lane) return hitMemory(x, y);
    const t = tOf(x);
    if (bucketed) {
      const b = Math.floor(t / tl.bucketNs);
      return b >= 0 && b < lane.busy.length && (lane.count[b] || lane.busy[b]) ? { lane, bucket: b } : null;
    }
    const d = Math.floor((y - lane.y) / ROW_H);
    const idx = lane.byDepth[d];
    if (!idx) return null;
    // Within a pixel or two, for records too narrow to aim at.
    const slack = 2 * (view.t1 - view.t0) / plotW();
    const k = firstEnding(lane, idx, t - slack);
    if (k < idx.length && lane.begin[idx[k]] <= t + slack) return { lane, i: idx[k] };
    return null;
  }

  const tip = $('tooltip');
  function showTip(h, x, y) {
    if (!h) { tip.hidden = true; return; }
    const lines = [];
    let title;
    if (h.dl) {
      const d = h.dl.d, i = h.i;
      title = data.deviceNames[d.name[i]];
      lines.push(['device time', fmtDur(d.dur[i])], ['op', d.op[i]], ['begin', fmtDur(d.begin[i])], ['queue', d.label]);
      if (d.launchAt[i] >= 0) lines.push(['launched at', `${fmtDur(d.launchAt[i])} by tid ${d.launchTid[i]}`]);
    } else if (h.ml) {
      const bytes = (v) => `${v.toLocaleString('en-US')} B`;
      if (h.buffer) {
        const b = h.buffer;
        title = b[4];
        lines.push(['size', bytes(b[2])], ['allocated', fmtDur(b[0])], ['lifetime', fmtDur(b[1] - b[0])],
          ['kind', b[5]], ['address', b[6]], ['live below it', bytes(b[3])]);
      } else {
        title = `live at ${fmtDur(h.t)}`;
        lines.push(['live', bytes(h.live)], ['peak', bytes(h.ml.m.peak)]);
      }
    } else if (h.bucket !== undefined) {
      const l = h.lane, b = h.bucket, w = tl.bucketNs;
      title = `${fmtDur(b * w)} – ${fmtDur((b + 1) * w)}`;
      lines.push(['busy', `${pct(l.busy[b], w)} %`], ['records begun', l.count[b]]);
      const row = rowOfSite(l.top[b]);
      if (row >= 0) {
        const r = rows[row];
        lines.push(['top op', r.name], ['its share', `${pct(l.topNs[b], w)} %`], ['hash', r.hash], ['shapes', r.shapes || '-'],
          ['location', r.locations[sites[l.top[b]][1]] || '-'], ...(r.node ? [['node', r.node]] : []));
      }
    } else {
      const l = h.lane, i = h.i, s = l.site[i], row = rowOfSite(s), r = rows[row];
      title = r.name;
      const recorded = l.end[i] - l.begin[i], taken = l.corrected ? l.corrected[i] : 0;
      const dur = recorded - taken;
      lines.push(['duration', (dur < data.resolutionNs ? `< ${fmtDur(data.resolutionNs)}` : fmtDur(dur)) + (l.unfinished.has(i) ? ' (unfinished)' : '')]);
      if (taken) lines.push(['recorded', `${fmtDur(recorded)} (probe overhead ${fmtDur(taken)} taken off)`]);
      lines.push(
        ...(runsApart ? [['run', runs[l.info.run].label]] : []),
        ['begin', fmtDur(l.begin[i]) + (runsApart ? ' after its run began' : '')], ['hash', r.hash], ['shapes', r.shapes || '-'],
        ['location', r.locations[sites[s][1]] || '-'], ...(r.node ? [['node', r.node]] : []), ['function', r.function || '-'], ['depth', l.depth[i]]);
      if (l.counters) data.events.forEach((e, ei) => lines.push([e, l.counters[i * data.events.length + ei].toLocaleString('en-US')]));
    }
    const table = el('table');
    for (const [k, v] of lines) table.append(el('tr', null, el('td', null, k), el('td', null, v)));
    tip.replaceChildren(el('div', 't-name', title), table);
    tip.hidden = false;
    const wrap = $('timeline-wrap').getBoundingClientRect();
    const left = Math.min(x + 14, wrap.width - tip.offsetWidth - 4);
    tip.style.left = `${Math.max(0, left)}px`;
    tip.style.top = `${y + 14}px`;
  }

  function zoom(factor, atX) {
    const t = tOf(atX);
    const span = Math.min(tl.spanNs * 1.05, Math.max(50, (view.t1 - view.t0) * factor));
    const frac = (atX - GUTTER) / plotW();
    view.t0 = t - frac * span;
    view.t1 = view.t0 + span;
    clampView();
    draw();
  }
  function clampView() {
    const span = view.t1 - view.t0, pad = tl.spanNs * 0.025;
    if (view.t0 < -pad) { view.t0 = -pad; view.t1 = view.t0 + span; }
    if (view.t1 > tl.spanNs + pad) { view.t1 = tl.spanNs + pad; view.t0 = view.t1 - span; }
  }
  const local = (e) => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const [x] = local(e);
    zoom(Math.exp(e.deltaY * 0.0015), Math.max(GUTTER, x));
  }, { passive: false });
  let drag = null;
  canvas.addEventListener('mousedown', (e) => {
    const [x] = local(e);
    drag = { x, t0: view.t0, t1: view.t1, moved: false };
    canvas.classList.add('dragging');
  });
  window.addEventListener('mousemove', (e) => {
    const [x, y] = local(e);
    if (drag) {
      const dt = (x - drag.x) / plotW() * (drag.t1 - drag.t0);
      if (Math.abs(x - drag.x) > 2) drag.moved = true;
      view.t0 = drag.t0 - dt; view.t1 = drag.t1 - dt;
      clampView();
      draw();
      tip.hidden = true;
      return;
    }
    if (e.target === canvas) showTip(hit(x, y), x, y); else tip.hidden = true;
  });
  window.addEventListener('mouseup', (e) => {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    canvas.classList.remove('dragging');
    if (moved || e.target !== canvas) return;
    const [x, y] = local(e);
    const h = hit(x, y);
    if (h && (h.ml || h.dl)) return;
    if (h) selectRow(h.bucket !== undefined ? rowOfSite(h.lane.top[h.bucket]) : rowOfSite(h.lane.site[h.i]), 'timeline');
    else selectRow(-1, 'timeline');
  });
  canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  $('zoom-in').addEventListener('click', () => zoom(0.5, GUTTER + plotW() / 2));
  $('zoom-out').addEventListener('click', () => zoom(2, GUTTER + plotW() / 2));
  $('zoom-reset').addEventListener('click', () => { view.t0 = 0; view.t1 = tl.spanNs; draw(); });
  /** Brings the selected op's longest record into view when none of its
   *  records is visible (events mode), keeping the zoom where it fits. */
  function revealRow(row) {
    if (bucketed || row < 0) return;
    let best = null;
    for (const lane of lanes) {
      for (let i = 0; i < lane.site.length; i++) {
        if (rowOfSite(lane.site[i]) !== row) continue;
        if (lane.end[i] >= view.t0 && lane.begin[i] <= view.t1) return; // Visible.
        const d = lane.end[i] - lane.begin[i];
        if (!best || d > best.d) best = { b: lane.begin[i], d };
      }
    }
    if (!best) return;
    const span = Math.max(view.t1 - view.t0, best.d * 3);
    view.t0 = best.b + best.d / 2 - span / 2;
    view.t1 = view.t0 + span;
    clampView();
  }
  listeners.push((sel, from) => { if (from !== 'timeline') revealRow(sel); draw(); });
  window.addEventListener('resize', resize);
  resize();

