  // For scripted checks (the browser test) and the curious: read-only state.
  window.tpuprofReport = Object.freeze({
    view: () => ({ t0: view.t0, t1: view.t1 }),
    selectedRow: () => selectedRow,
    rowCount: rows.length,
    timelineMode: tl.mode,
    // Per run (runs apart): the y of its axis (or, on a job's shared axis,
    // of its rank's header), for scripted checks.
    runAxes: () => groups.map((g) => ({ run: g.run, axisY: g.axisY, end: g.end, shared: g.shared })),
    sharedAxis,
    // Per memory lane: where its largest buffer's middle and its live-bytes
    // line are drawn (canvas coordinates), for scripted hovers.
    memoryLanes: () => memLanes.map((ml) => {
      const bs = ml.m.buffers;
      const b = bs.reduce((a, c) => (c[2] > a[2] ? c : a), bs[0]);
      const scale = (MEM_BUF_H - 2) / ml.peak;
      return {
        buffers: bs.length, peak: ml.m.peak, liveY: ml.yLive + MEM_LIVE_H / 2,
        bufferX: b ? xOf((b[0] + b[1]) / 2) : 0, bufferY: b ? ml.yBuf + MEM_BUF_H - 1 - (b[3] + b[2] / 2) * scale : 0,
      };
    }),
  });
})();
