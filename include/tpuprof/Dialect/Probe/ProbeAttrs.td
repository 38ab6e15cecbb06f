//===- ProbeAttrs.td - tpuprof attributes ------------------*- tablegen -*-===//
//
// The probe table that --tpu-profile-instrument adds to a module (held by
// the tpuprof.probes op). One attribute holds every entry: building it costs one uniquing per module
// rather than a dictionary, two strings and four integers per probe, which
// was most of the pass's time on large modules (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_ATTRS_TD
#define TPUPROF_ATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "tpuprof/Dialect/Probe/ProbeDialect.td"

def TpuProf_ProbeTableAttr : AttrDef<TpuProf_Dialect, "ProbeTable"> {
  let mnemonic = "probes";
  let summary = "The module's probe table, indexed by probe id";
  let description = [{
    The entries of a `tpuprof.probes` op, one per probe id. On its own it
    prints as `#tpuprof.probes<[...]>`, the list in the op's syntax.
  }];
  let parameters = (ins
    ArrayRefParameter<"::tpuprof::ProbeEntry", "probe descriptors">:$entries);
  let hasCustomAssemblyFormat = 1;
}

#endif // TPUPROF_ATTRS_TD
