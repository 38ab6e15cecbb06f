  // ---- header and summary --------------------------------------------------
  $('inputs').textContent = data.inputs.join('  ');
  function card(label, value, warn) {
    $('cards').append(el('div', 'card' + (warn ? ' warn' : ''), el('div', 'v', value), el('div', 'k', label)));
  }
  if (runs.length > 1) card('Runs', runsApart ? `${runs.length} runs, kept apart` : runs[0].label, false);
  card('Window', fmtDur(totals.total_ns));
  card('Busy (nested once)', `${pct(totals.covered_ns, totals.total_ns)} %`);
  card('Ops (rows)', rows.length);
  card('Records', totals.records.toLocaleString('en-US'));
  card('Dumps / threads', `${totals.dumps} / ${totals.threads}`);
  card('Mode', totals.modes.map((m) => ['0 timing', '1 counters', '2 detailed'][m] || m).join(', '));
  card('Dropped records', totals.dropped, totals.dropped > 0);
  card('Unfinished', totals.unfinished, totals.unfinished > 0);
  if (totals.incomplete_dumps) card('Incomplete dumps', totals.incomplete_dumps, true);

  function barRow(label, parts, num, onClick) {
    const bar = el('div', 'bar');
    for (const [frac, color, title] of parts) {
      const s = el('span');
      s.style.width = `${Math.max(0, Math.min(100, frac * 100))}%`;
      s.style.background = color;
      s.title = title;
      bar.append(s);
    }
    const r = el('div', 'bar-row' + (onClick ? ' clickable' : ''), el('div', 'label', label), bar, el('div', 'num', num));
    r.querySelector('.label').title = label;
    if (onClick) r.addEventListener('click', onClick);
    return r;
  }
  const laneLabel = (l) => (runsApart ? `${runName(l.run)} · ` : '') + `dev ${l.device} · tid ${l.tid}`;
  for (const l of data.lanes) {
    const w = l.windowNs || 1;
    const kinds = ['op', 'launch', 'user', 'comm', 'unknown']; // byKind's slots (format.h)
    const busy = l.byKind.reduce((a, b) => a + b, 0);
    const parts = kinds.map((k, i) => [l.byKind[i] / w, kindColors[k], `${k}: ${pct(l.byKind[i], w)} %`]);
    parts.push([Math.max(0, w - busy) / w, kindColors.idle, `idle: ${pct(Math.max(0, w - busy), w)} %`]);
    const row = barRow(laneLabel(l), parts, `${pct(busy, w)} %`);
    row.title = `pid ${l.pid}: ${l.records} records, ${l.unfinished} unfinished, ${l.dropped} dropped; window ${fmtDur(w)}`;
    $('lanes-summary').append(row);
  }
  const legend = el('div', 'legend');
  for (const k of ['op', 'launch', 'user', 'comm', 'unknown', 'idle']) {
    const sw = el('i');
    sw.style.background = kindColors[k];
    legend.append(el('span', null, sw, k));
  }
  $('lanes-summary').append(legend);
  // By share of its run's total (runs apart: each row's own run), the bar
  // as long as the number beside it.
  const shareOf = (r) => r.durationNs / (totalOf(r) || 1);
  const byShare = rows.map((r, i) => i).sort((a, b) => shareOf(rows[b]) - shareOf(rows[a]));
  for (const i of byShare.slice(0, 10)) {
    const r = rows[i];
    const label = (runsApart ? `${runName(r.run)} · ` : '') + r.name;
    $('top-ops').append(barRow(label, [[Math.min(1, shareOf(r)), rowColor[i], r.shapes]],
      `${pct(r.durationNs, totalOf(r))} %`, () => selectRow(i, 'summary')));
  }
  const counterDevices = Object.keys(data.counterTotals);
  if (!counterDevices.length) {
    $('counter-totals').append(el('div', 'muted', 'No PMU counters in these dumps (mode 0).'));
  } else {
    for (const d of counterDevices) {
      const t = el('table', 'grid');
      t.append(el('thead', null, el('tr', null, el('th', null, `device ${d}`), el('th', 'num', 'total'))));
      const tb = el('tbody');
      for (const [name, v] of Object.entries(data.counterTotals[d])) tb.append(el('tr', null, el('td', null, name), el('td', 'num', v.toLocaleString('en-US'))));
      t.append(tb);
      $('counter-totals').append(t);
    }
  }

