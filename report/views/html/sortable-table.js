  // ---- sortable tables -----------------------------------------------------
  /**
   * Fills `table` with `items` in columns {title, num, value(item), cell(item)?};
   * clicking a header sorts (numbers descending first, text ascending first),
   * clicking it again reverses. Returns a refresh(items) function.
   */
  function sortableTable(table, columns, initial, onRow, rowClass) {
    let sortCol = initial, asc = !columns[initial].num, items = [];
    const head = el('tr');
    columns.forEach((c, ci) => {
      const th = el('th', c.num ? 'num' : null, c.title);
      th.dataset.col = String(ci);
      th.addEventListener('click', () => {
        if (sortCol === ci) asc = !asc; else { sortCol = ci; asc = !c.num; }
        render();
      });
      head.append(th);
    });
    table.tHead.append(head);
    const body = table.tBodies[0];
    body.addEventListener('click', (e) => {
      const tr = e.target.closest('tr');
      if (tr && tr.dataset.key !== undefined) onRow(Number(tr.dataset.key));
    });
    function render() {
      const c = columns[sortCol];
      const sorted = items.slice().sort((a, b) => {
        const x = c.value(a), y = c.value(b);
        let d = c.num ? (x ?? -Infinity) - (y ?? -Infinity) : String(x).localeCompare(String(y));
        if (d === 0) d = (columns[1].value(b) ?? 0) - (columns[1].value(a) ?? 0);
        return asc ? d : -d;
      });
      head.childNodes.forEach((th, ci) => {
        if (ci === sortCol) th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        else th.removeAttribute('aria-sort');
      });
      const frag = document.createDocumentFragment();
      for (const it of sorted.slice(0, 5000)) {
        const tr = el('tr', rowClass ? rowClass(it) : null);
        tr.dataset.key = String(it.key);
        for (const col of columns) {
          const td = col.cell ? col.cell(it) : el('td', col.num ? 'num' : null, col.value(it) ?? '-');
          if (!col.cell) td.title = String(col.value(it) ?? '-');
          tr.append(td);
        }
        frag.append(tr);
      }
      body.replaceChildren(frag);
      table.dispatchEvent(new Event('rendered'));
    }
    return (newItems) => { items = newItems; render(); };
  }

