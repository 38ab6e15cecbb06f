//===- report/model/Json.cpp - Reading JSON inputs safely -----------------===//

#include "tpuprof/report/model/Json.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace tpuprof::report;

Expected<json::Value> tpuprof::report::parseJson(StringRef text) {
  // Brackets inside strings do not nest; a string's escapes may hide a
  // quote. Malformed text is left to json::parse to describe.
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return createStringError("nested deeper than " + Twine(kMaxJsonDepth) +
                                 " levels at offset " + Twine(i));
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return json::parse(text);
}
