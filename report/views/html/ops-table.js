  // ---- op table ------------------------------------------------------------
  const opColumns = [
    { title: 'Name', value: (r) => r.name, cell: (r) => { const sw = el('span', 'swatch'); sw.style.background = rowColor[r.key]; const td = el('td', null, sw, r.name); td.title = `${r.name} (${r.kind})`; return td; } },
    { title: 'Duration (us)', num: true, value: (r) => r.durationNs, cell: (r) => el('td', 'num', usOr(r.durationNs, r.floorNs)) },
    { title: 'Self (us)', num: true, value: (r) => r.selfNs, cell: (r) => el('td', 'num', usOr(r.selfNs, r.floorNs)) },
    ...(rows.some((r) => r.deviceCommands) ? [
      ['Device Total (us)', 'deviceNs'], ['Device Self (us)', 'deviceSelfNs'],
    ].map(([title, key]) => ({ title, num: true, value: (r) => (r[key] === undefined ? -1 : r[key]), cell: (r) => el('td', 'num', r[key] === undefined ? '-' : us(r[key])) })) : []),
    ...(rows.some((r) => r.approx) ? [{ title: 'Approx', value: (r) => (r.approx ? '~' : ''), cell: (r) => { const td = el('td', null, r.approx ? '~' : ''); if (r.approx) td.title = `shorter than ${fmtDur(data.approxBelowNs)} a call (two probe pairs): not measured to 5 %`; return td; } }] : []),
    { title: 'Percent', num: true, value: (r) => r.durationNs, cell: (r) => {
      const p = totalOf(r) ? 100 * r.durationNs / totalOf(r) : 0;
      const b = el('span', 'pbar'); b.style.width = `${Math.min(100, p)}%`;
      return el('td', 'num pct', b, el('span', 'ptxt', p.toFixed(2)));
    } },
    { title: 'Device', num: true, value: (r) => r.device },
    // A job's ranks (one shared axis) are named by rank, other runs by number.
    ...(runsApart ? [data.timeline.sharedAxis ? { title: 'Rank', num: true, value: (r) => runs[r.run].rank }
      : { title: 'Run', num: true, value: (r) => r.run + 1 }] : []),
    { title: 'Count', num: true, value: (r) => r.count },
    { title: 'Mean (us)', num: true, value: (r) => r.meanNs, cell: (r) => el('td', 'num', usOr(r.meanNs, data.resolutionNs)) },
    { title: 'Max (us)', num: true, value: (r) => r.maxNs, cell: (r) => el('td', 'num', us(r.maxNs)) },
    { title: 'Argument Shapes', value: (r) => r.argumentShapes || '-' },
    ...(rows.some((r) => r.outputShapes) ? [{ title: 'Output Shapes', value: (r) => r.outputShapes || '-' }] : []),
    { title: 'Hash', value: (r) => r.hash },
    { title: 'Location', value: (r) => locationOf(r) },
    ...(rows.some((r) => r.node) ? [{ title: 'Node', value: (r) => r.node || '-' }] : []),
    ...(rows.some((r) => r.migrations !== undefined) ? [{ title: 'Migrations', num: true, value: (r) => r.migrations }] : []),
    ...(rows.some((r) => r.allocBytes !== undefined) ? [
      ['Alloc (B)', 'allocBytes'], ['Self Alloc (B)', 'selfAllocBytes'], ['Freed (B)', 'freedBytes'], ['Peak (B)', 'peakBytes'],
    ].map(([title, key]) => ({ title, num: true, value: (r) => (r[key] === undefined ? -1 : r[key]), cell: (r) => el('td', 'num', r[key] === undefined ? '-' : String(r[key])) })) : []),
  ];
  data.events.forEach((name, ei) => opColumns.push({ title: name, num: true, value: (r) => r.counters[ei] }));
  const opItems = rows.map((r, i) => Object.assign({ key: i }, r));
  const refreshOps = sortableTable($('ops'), opColumns, 1, (i) => selectRow(i, 'table'),
    (r) => (r.key === selectedRow ? 'selected' : null));
  function applyFilter() {
    const q = $('filter').value.trim().toLowerCase();
    const shown = q ? opItems.filter((r) => [r.name, r.shapes, r.hash, r.function, r.kind, r.node, ...r.locations]
      .some((s) => String(s).toLowerCase().includes(q))) : opItems;
    $('row-count').textContent = `${shown.length} of ${rows.length} rows`;
    refreshOps(shown);
  }
  $('filter').addEventListener('input', applyFilter);
  applyFilter();
  listeners.push((sel, from) => {
    for (const tr of $('ops').tBodies[0].rows) {
      const on = Number(tr.dataset.key) === sel;
      tr.classList.toggle('selected', on);
      if (on && from !== 'table') scrollWithin($('ops').parentElement, tr, false);
    }
  });

