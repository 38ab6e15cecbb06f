  // ---- diff ----------------------------------------------------------------
  if (data.diff) {
    $('diff-panel').hidden = false;
    const d = data.diff;
    const delta = d.coveredNs - d.baselineCoveredNs;
    const added = d.baselineRuns > 1 || d.runs > 1 ? ' · rows of several runs added up' : '';
    $('diff-summary').textContent = `baseline: ${(data.baselineInputs || []).join(' ')} · busy ${us(d.baselineCoveredNs)} us → ${us(d.coveredNs)} us (${delta >= 0 ? '+' : ''}${us(delta)} us)${added}`;
    const items = d.rows.map((r, i) => Object.assign({ key: i, delta: (r.ns || 0) - (r.baselineNs || 0) }, r));
    // From the comparison itself: a bound where a side is below resolution,
    // none for new, missing and unresolved rows (never -100 % or "new").
    const deltaPct = (r) => (r.deltaPct === undefined ? null : r.deltaPct);
    const pctText = (r) => {
      if (r.deltaPct === undefined) return r.status === 'new' ? 'new' : '-';
      const p = (r.deltaPct > 0 ? '+' : '') + r.deltaPct.toFixed(2);
      return r.deltaBound > 0 ? '> ' + p : r.deltaBound < 0 ? '< ' + p : p;
    };
    const exact = (r) => r.ns !== undefined && r.baselineNs !== undefined && r.ns >= r.floorNs && r.baselineNs >= r.baselineFloorNs;
    const diffColumns = [
      { title: 'Name', value: (r) => r.name },
      { title: 'Delta (us)', num: true, value: (r) => r.delta, cell: (r) => el('td', 'num', exact(r) ? (r.delta > 0 ? '+' : '') + us(r.delta) : '-') },
      { title: 'Delta %', num: true, value: deltaPct, cell: (r) => el('td', 'num', pctText(r)) },
      { title: 'Baseline (us)', num: true, value: (r) => r.baselineNs, cell: (r) => el('td', 'num', r.baselineNs === undefined ? '-' : usOr(r.baselineNs, r.baselineFloorNs)) },
      { title: 'This run (us)', num: true, value: (r) => r.ns, cell: (r) => el('td', 'num', r.ns === undefined ? '-' : usOr(r.ns, r.floorNs)) },
      { title: 'Count A', num: true, value: (r) => r.baselineCount },
      { title: 'Count B', num: true, value: (r) => r.count },
      { title: 'Status', value: (r) => r.status, cell: (r) => el('td', `status-${r.status}`, r.status) },
      { title: 'Argument Shapes', value: (r) => r.shapes || '-' },
      { title: 'Hash', value: (r) => r.hash },
    ];
    const refreshDiff = sortableTable($('diff'), diffColumns, 1, (i) => {
      // Select the first row of this run with the same hash and shapes.
      const r = d.rows[i];
      const match = rows.findIndex((x) => x.hash === r.hash && x.shapes === r.shapes && x.name === r.name);
      if (match >= 0) selectRow(match, 'diff');
    });
    refreshDiff(items);
  }

