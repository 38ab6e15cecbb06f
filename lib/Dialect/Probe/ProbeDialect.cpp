//===- ProbeDialect.cpp - tpuprof probe dialect ---------------------------===//
//
// The probe ops and their bufferization: a probe forwards its operands, so
// each tensor operand bufferizes to the same buffer (an equivalent alias)
// and the probe neither reads nor writes it.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Dialect/Probe/ProbeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::bufferization;

#include "tpuprof/Dialect/Probe/ProbeDialect.cpp.inc"

void tpuprof::TpuProfDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tpuprof/Dialect/Probe/ProbeOps.cpp.inc"
      >();
  registerAttributes();
}

LogicalResult tpuprof::verifyProbeOp(Operation *op, int64_t probe) {
  // -1 is also what an op without the property holds.
  if (probe < 0)
    return op->emitOpError("needs a probe id: property 'probe' >= 0");
  if (op->getNumOperands() != op->getNumResults())
    return op->emitOpError("expects as many results as operands, got ")
           << op->getNumResults() << " and " << op->getNumOperands();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(op->getOperandTypes(), op->getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return op->emitOpError("result #")
             << i << " has type " << std::get<1>(pair)
             << " but forwards an operand of type " << std::get<0>(pair);
  return success();
}

ParseResult tpuprof::parseProbeId(OpAsmParser &parser, int64_t &probe) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseInteger(probe))
    return failure();
  if (probe < 0)
    return parser.emitError(loc, "probe id must not be negative, got ")
           << probe;
  return success();
}

void tpuprof::printProbeId(OpAsmPrinter &printer, Operation *, int64_t probe) {
  printer << probe;
}

namespace {
/// Bufferization shared by both probe ops.
template <typename ProbeOp>
LogicalResult bufferizeProbe(ProbeOp op, RewriterBase &rewriter,
                             const BufferizationOptions &options) {
  SmallVector<Value> operands;
  for (Value v : op.getInputs()) {
    if (!isa<TensorType>(v.getType())) {
      operands.push_back(v);
      continue;
    }
    FailureOr<Value> buffer = getBuffer(rewriter, v, options);
    if (failed(buffer))
      return failure();
    operands.push_back(*buffer);
  }
  auto newOp = rewriter.create<ProbeOp>(op.getLoc(), op.getProbe(), operands);
  newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  replaceOpWithBufferizedValues(rewriter, op, newOp.getResults());
  return success();
}
} // namespace

#define TPUPROF_PROBE_BUFFERIZATION(OP)                                        \
  bool OP::bufferizesToMemoryRead(OpOperand &, const AnalysisState &) {        \
    return false;                                                              \
  }                                                                            \
  bool OP::bufferizesToMemoryWrite(OpOperand &, const AnalysisState &) {       \
    return false;                                                              \
  }                                                                            \
  AliasingValueList OP::getAliasingValues(OpOperand &operand,                  \
                                          const AnalysisState &) {             \
    return {{getOperation()->getResult(operand.getOperandNumber()),            \
             BufferRelation::Equivalent}};                                     \
  }                                                                            \
  LogicalResult OP::bufferize(RewriterBase &rewriter,                          \
                              const BufferizationOptions &options) {           \
    return bufferizeProbe(*this, rewriter, options);                           \
  }

namespace tpuprof {
TPUPROF_PROBE_BUFFERIZATION(BeginOp)
TPUPROF_PROBE_BUFFERIZATION(EndOp)
} // namespace tpuprof

#define GET_OP_CLASSES
#include "tpuprof/Dialect/Probe/ProbeOps.cpp.inc"

void tpuprof::registerTpuProfDialect(mlir::DialectRegistry &registry) {
  registry.insert<TpuProfDialect>();
}
