  // ---- IR pane -------------------------------------------------------------
  if (data.ir) {
    $('ir-panel').hidden = false;
    $('ir-path').textContent = data.ir.path;
    const lineNs = new Map(), lineRows = new Map();
    rows.forEach((r, i) => {
      for (const ln of new Set(r.lines)) {
        lineNs.set(ln, (lineNs.get(ln) || 0) + r.durationNs);
        if (!lineRows.has(ln)) lineRows.set(ln, []);
        lineRows.get(ln).push(i);
      }
    });
    for (const list of lineRows.values()) list.sort((a, b) => rows[b].durationNs - rows[a].durationNs);
    const maxLineNs = Math.max(1, ...lineNs.values());
    const frag = document.createDocumentFragment();
    const lineEls = [];
    data.ir.lines.forEach((text, idx) => {
      const ln = idx + 1;
      const ns = lineNs.get(ln);
      const div = el('div', 'ir-line', el('span', 'ln', ln),
        el('span', 'share', ns !== undefined ? `${pct(ns, totals.total_ns)}%` : ''), el('span', 'code', text || ' '));
      div.dataset.line = String(ln);
      if (ns !== undefined) {
        div.classList.add('hot');
        // Square root so that small shares stay visible next to a big one.
        div.style.background = `rgba(222, 76, 47, ${(0.08 + 0.5 * Math.sqrt(ns / maxLineNs)).toFixed(3)})`;
        const names = lineRows.get(ln).map((i) => `${rows[i].name} ${rows[i].shapes}: ${us(rows[i].durationNs)} us`);
        div.title = names.join('\n');
      }
      lineEls[ln] = div;
      frag.append(div);
    });
    $('ir').append(frag);
    $('ir').addEventListener('click', (e) => {
      const div = e.target.closest('.ir-line.hot');
      if (!div) return;
      const list = lineRows.get(Number(div.dataset.line));
      // Clicking a line again steps through the rows that share it.
      const at = list.indexOf(selectedRow);
      selectRow(list[(at + 1) % list.length], 'ir');
    });
    listeners.push((sel, from) => {
      for (const d of $('ir').querySelectorAll('.ir-line.selected')) d.classList.remove('selected');
      if (sel < 0) return;
      let first = null;
      for (const ln of rows[sel].lines) {
        const d = lineEls[ln];
        if (!d) continue;
        d.classList.add('selected');
        first = first || d;
      }
      if (first && from !== 'ir') scrollWithin($('ir'), first, true);
    });
  } else {
    $('split').classList.add('no-ir');
  }

