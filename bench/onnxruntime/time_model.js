// time_model.js - ONNX Runtime's CPU build on one model: the peer of
// bench/vs_models.py.
//
//   node bench/onnxruntime/time_model.js MODEL.onnx INPUT.pb CALLS
//
// One intra-op and one inter-op thread, sequential execution, all graph
// optimizations (ORT's default). Prints
// `session_ms min_ms median_ms peak_rss_mb ort_version`: the session's
// creation time (file read, graph optimization, kernel preparation), the
// fastest and median of CALLS timed calls after 10 warm-up calls, and the
// process's peak resident memory.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

// The float32 tensor in an ONNX TensorProto file (the exporter's
// input_0.pb): dims (field 1), data_type (2) and raw_data (9).
function readTensor(path) {
  const buf = fs.readFileSync(path);
  const dims = [];
  let raw = null;
  let pos = 0;
  const varint = () => {
    let value = 0, shift = 0, byte;
    do {
      byte = buf[pos++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  while (pos < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8), wire = key & 7;
    if (wire === 0) {
      const v = varint();
      if (field === 1) dims.push(v);
    } else if (wire === 2) {
      const len = varint();
      if (field === 1) { // packed dims
        const end = pos + len;
        while (pos < end) dims.push(varint());
      } else {
        if (field === 9) raw = buf.subarray(pos, pos + len);
        pos += len;
      }
    } else if (wire === 5) {
      pos += 4;
    } else if (wire === 1) {
      pos += 8;
    } else {
      throw new Error(`${path}: unexpected wire type ${wire}`);
    }
  }
  if (!raw) throw new Error(`${path}: no raw_data`);
  const data = new Float32Array(raw.length / 4);
  Buffer.from(data.buffer).set(raw);
  return new ort.Tensor('float32', data, dims);
}

async function main() {
  const [model, input, callsText] = process.argv.slice(2);
  const calls = Number(callsText);
  const start = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const sessionMs = Number(process.hrtime.bigint() - start) / 1e6;
  const feeds = {[session.inputNames[0]]: readTensor(input)};
  for (let i = 0; i < 10; ++i) await session.run(feeds);
  const times = [];
  for (let i = 0; i < calls; ++i) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  // ru_maxrss is in kilobytes on Linux.
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const version = require('onnxruntime-node/package.json').version;
  console.log(`${sessionMs.toFixed(1)} ${times[0].toFixed(3)} ` +
              `${median.toFixed(3)} ${peakMb.toFixed(0)} ${version}`);
}

main().catch((e) => {
  console.error(`time_model.js: ${e.message}`);
  process.exit(1);
});
