//===- tpuprof/ProbeTable.h - Build the embedded probe table ----*- C++ -*-===//
//
// The probe table is the per-module list of probe descriptors that a pass
// embeds in the module it instruments (format.h, docs/formats.md). This header
// turns a list of ProbeInfo into those bytes; the report library parses them.
// Header-only so that passes and tools share it without a library between.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_PROBETABLE_H
#define TPUPROF_PROBETABLE_H

#include "tpuprof/format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstring>
#include <string>
#include <vector>

namespace tpuprof {

/// Everything the table says about one probe.
struct ProbeInfo {
  std::string name;     ///< e.g. "tosa.matmul", or a kernel symbol.
  std::string shapes;   ///< e.g. "f32[1, 784], f32[784, 128]"; '?' = dynamic.
  std::string location; ///< "file:line:col" or "".
  /// The name part of the op's location (an ONNX node, a layer), "" when
  /// it has none; written after `location` (TPUPROF_PROBE_NODE).
  std::string node;
  std::string function; ///< Enclosing function.
  uint64_t hash = 0;
  uint64_t flops = 0; ///< 0 = unknown.
  uint64_t bytes = 0; ///< 0 = unknown.
  uint8_t kind = TPUPROF_KIND_OP;
  uint8_t numDynDims = 0;
  /// Trailing entries of `shapes` that are the op's outputs (its
  /// destination-style init operands).
  uint8_t numOuts = 0;
  /// The op's result shapes, e.g. "f32[1, 128]"; written only when
  /// `hasOutShapes` ('?' dims are not captured at run time).
  std::string outShapes;
  bool hasOutShapes = false;
  /// A communication probe that all ranks call together
  /// (TPUPROF_PROBE_COLLECTIVE).
  bool collective = false;
  /// A nonblocking communication call (TPUPROF_PROBE_STARTS_REQUEST).
  bool startsRequest = false;
  /// A call that completes requests (TPUPROF_PROBE_COMPLETES_REQUESTS).
  bool completesRequests = false;
};

/// Serializes `probes` into the binary probe table of format.h.
inline std::string serializeProbeTable(llvm::StringRef moduleName,
                                       llvm::ArrayRef<ProbeInfo> probes) {
  // Strings are interned: op names and functions repeat a lot.
  std::string strtab;
  llvm::StringMap<uint32_t> interned; // Owns its keys.
  auto intern = [&](llvm::StringRef s) -> uint32_t {
    auto [it, inserted] =
        interned.try_emplace(s, static_cast<uint32_t>(strtab.size()));
    if (inserted) {
      strtab.append(s.data(), s.size());
      strtab.push_back('\0');
    }
    return it->second;
  };

  tpuprof_table_header header;
  std::memset(&header, 0, sizeof(header));
  std::memcpy(header.magic, TPUPROF_TABLE_MAGIC, 4);
  header.version = TPUPROF_TABLE_VERSION;
  header.num_probes = static_cast<uint32_t>(probes.size());
  header.module_name = intern(moduleName);

  std::vector<tpuprof_probe_desc> descs(probes.size());
  for (size_t i = 0; i < probes.size(); ++i) {
    const ProbeInfo &p = probes[i];
    tpuprof_probe_desc &d = descs[i];
    std::memset(&d, 0, sizeof(d));
    d.hash = p.hash;
    d.flops = p.flops;
    d.bytes = p.bytes;
    d.name = intern(p.name);
    d.shapes = intern(p.shapes);
    if (p.node.empty()) {
      d.location = intern(p.location);
    } else {
      // One string-table entry "location\0node": the node is the string
      // after the location's NUL.
      d.location = intern(p.location + std::string(1, '\0') + p.node);
      d.flags |= TPUPROF_PROBE_NODE;
    }
    d.function = intern(p.function);
    d.kind = p.kind;
    d.num_dyn_dims = p.numDynDims;
    d.num_outs = p.numOuts;
    if (p.hasOutShapes) {
      d.flags |= TPUPROF_PROBE_OUT_SHAPES;
      d.out_shapes = intern(p.outShapes);
    }
    if (p.collective)
      d.flags |= TPUPROF_PROBE_COLLECTIVE;
    if (p.startsRequest)
      d.flags |= TPUPROF_PROBE_STARTS_REQUEST;
    if (p.completesRequests)
      d.flags |= TPUPROF_PROBE_COMPLETES_REQUESTS;
  }
  while (strtab.size() % 8)
    strtab.push_back('\0');
  header.strtab_size = static_cast<uint32_t>(strtab.size());

  // Little-endian whatever the host and the target, like every layout of
  // format.h: a big-endian runtime reads it as such.
  if (llvm::sys::IsBigEndianHost) {
    using llvm::sys::swapByteOrder;
    for (uint32_t *field : {&header.version, &header.num_probes,
                            &header.strtab_size, &header.module_name})
      swapByteOrder(*field);
    for (tpuprof_probe_desc &d : descs) {
      for (uint64_t *field : {&d.hash, &d.flops, &d.bytes})
        swapByteOrder(*field);
      for (uint32_t *field :
           {&d.name, &d.shapes, &d.location, &d.function, &d.out_shapes})
        swapByteOrder(*field);
    }
  }

  std::string out;
  out.append(reinterpret_cast<const char *>(&header), sizeof(header));
  out.append(reinterpret_cast<const char *>(descs.data()),
             descs.size() * sizeof(tpuprof_probe_desc));
  out.append(strtab);
  return out;
}

} // namespace tpuprof

#endif // TPUPROF_PROBETABLE_H
