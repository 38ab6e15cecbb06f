//===- OnnxData.cpp - Inputs and expected outputs in ONNX's layout --------===//

#include "tpuprof/ModelRunner/OnnxData.h"

#ifdef TPUPROF_HAVE_ONNX_IMPORT
#include "tpuprof/Import/OnnxTensor.h"
#endif

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstring>

using namespace tpuprof::run;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(d);
  return text + "]";
}

/// The row-major index of element `n` of `shape`, as "[i, j, ...]".
std::string indexText(llvm::ArrayRef<int64_t> shape, size_t n) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = static_cast<int64_t>(n % shape[i]);
    n /= shape[i];
  }
  return shapeText(index);
}

} // namespace

void EntryResults::read(size_t index, std::vector<int64_t> &shape,
                        std::vector<double> &values) const {
  shape.clear();
  values.clear();
  const Slot &slot = slots[index];
  const char *p = reinterpret_cast<const char *>(bytes.data()) + slot.offset;
  if (slot.isScalar) {
    values.push_back(loadElem(p, slot.kind, 0));
    return;
  }
  // The memref descriptor: allocated, aligned, offset, sizes, strides.
  const char *aligned;
  int64_t offset;
  std::memcpy(&aligned, p + 8, 8);
  std::memcpy(&offset, p + 16, 8);
  shape.resize(slot.rank);
  std::vector<int64_t> strides(slot.rank);
  if (slot.rank) { // A 0-D memref has no sizes; memcpy must not see null.
    std::memcpy(shape.data(), p + 24, 8 * slot.rank);
    std::memcpy(strides.data(), p + 24 + 8 * slot.rank, 8 * slot.rank);
  }
  size_t count = 1;
  for (int64_t d : shape)
    count *= static_cast<size_t>(d);
  std::vector<int64_t> idx(slot.rank, 0);
  for (size_t n = 0; n < count; ++n) {
    int64_t linear = offset;
    for (unsigned i = 0; i < slot.rank; ++i)
      linear += idx[i] * strides[i];
    values.push_back(loadElem(aligned, slot.kind, linear));
    for (unsigned i = slot.rank; i-- > 0;) {
      if (++idx[i] < shape[i])
        break;
      idx[i] = 0;
    }
  }
}

bool tpuprof::run::onnxDataSupported() {
#ifdef TPUPROF_HAVE_ONNX_IMPORT
  return true;
#else
  return false;
#endif
}

llvm::Expected<OnnxData> tpuprof::run::readOnnxData(llvm::StringRef dir) {
#ifndef TPUPROF_HAVE_ONNX_IMPORT
  return fail("--data: tpuprof was built without the ONNX importer "
              "(libonnx-dev), which reads .pb tensors");
#else
  if (!llvm::sys::fs::is_directory(dir))
    return fail("--data: no directory '" + dir + "'");
  // DIR/<prefix>_0.pb, _1.pb, ... up to the first missing one.
  auto forEachTensor =
      [&](llvm::StringRef prefix,
          llvm::function_ref<void(std::string, tpuprof::import::TensorData &)>
              use) -> llvm::Error {
    for (unsigned n = 0;; ++n) {
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, prefix + "_" + llvm::Twine(n) + ".pb");
      if (!llvm::sys::fs::exists(path))
        return llvm::Error::success();
      llvm::Expected<tpuprof::import::TensorData> tensor =
          tpuprof::import::readTensorFile(path);
      if (!tensor)
        return tensor.takeError();
      use(path.str().str(), *tensor);
    }
  };
  OnnxData data;
  if (llvm::Error err = forEachTensor(
          "input", [&](std::string path, tpuprof::import::TensorData &tensor) {
            // An --input spec with every value; %.17g gives doubles (and so
            // floats) back exactly.
            std::string spec;
            llvm::raw_string_ostream os(spec);
            for (int64_t d : tensor.shape)
              os << d << 'x';
            os << tensor.elemType << '=';
            for (auto [i, v] : llvm::enumerate(tensor.values))
              os << (i ? "," : "") << llvm::format("%.17g", v);
            if (tensor.values.empty())
              os << '0';
            data.inputSpecs.push_back(std::move(spec));
            data.inputFiles.push_back(std::move(path));
          }))
    return std::move(err);
  if (llvm::Error err = forEachTensor(
          "output", [&](std::string path, tpuprof::import::TensorData &tensor) {
            data.outputs.push_back(
                {std::move(path), tensor.shape, std::move(tensor.values)});
          }))
    return std::move(err);
  if (data.inputSpecs.empty() && data.outputs.empty())
    return fail("--data: no input_0.pb or output_0.pb in '" + dir + "'");
  return data;
#endif
}

llvm::Error tpuprof::run::compareOnnxOutputs(const OnnxData &data,
                                             const EntryResults &results,
                                             double rtol, double atol,
                                             llvm::raw_ostream &os) {
  if (data.outputs.empty())
    return llvm::Error::success();
  if (data.outputs.size() != results.size())
    return fail("--data has " + llvm::Twine(data.outputs.size()) +
                " outputs; the model returns " + llvm::Twine(results.size()));
  unsigned mismatches = 0;
  std::vector<int64_t> shape;
  std::vector<double> got;
  for (auto [index, want] : llvm::enumerate(data.outputs)) {
    results.read(index, shape, got);
    os << "output " << index << ": ";
    if (shape != want.shape || got.size() != want.values.size()) {
      os << "MISMATCH: shape " << shapeText(shape) << ", expected "
         << shapeText(want.shape) << "\n";
      ++mismatches;
      continue;
    }
    // The worst element is the one furthest past its tolerance.
    double worstExcess = -INFINITY, worstDiff = 0;
    size_t worstAt = 0, bad = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      double w = want.values[i], g = got[i];
      bool bothNaN = std::isnan(w) && std::isnan(g);
      bool sameInf = std::isinf(w) && g == w;
      double diff = bothNaN || sameInf ? 0 : std::fabs(g - w);
      if (std::isnan(diff))
        diff = INFINITY;
      double excess = diff - (atol + rtol * std::fabs(w));
      if (excess > 0)
        ++bad;
      if (excess > worstExcess)
        worstExcess = excess, worstDiff = diff, worstAt = i;
    }
    os << (bad ? "MISMATCH" : "ok") << ", " << got.size() << " values";
    if (!got.empty())
      os << llvm::format(", worst |diff| %.3g at ", worstDiff)
         << indexText(shape, worstAt)
         << llvm::format(" (got %.9g, expected %.9g)", got[worstAt],
                         want.values[worstAt]);
    if (bad)
      os << ", " << bad << " outside rtol " << rtol << " atol " << atol;
    os << "\n";
    mismatches += bad != 0;
  }
  if (mismatches)
    return fail(llvm::Twine(mismatches) + " of " +
                llvm::Twine(data.outputs.size()) +
                " outputs differ from --data's expected values");
  return llvm::Error::success();
}
