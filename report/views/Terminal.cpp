//===- report/views/Terminal.cpp - What reaches a terminal ----------------===//

#include "tpuprof/report/views/Terminal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

unsigned tpuprof::report::terminalColumns(int fd) {
  if (!isatty(fd))
    return 0;
  // COLUMNS first, as LLVM and most tools read it: a user who sets it
  // means it. Shells seldom export it, so the terminal is asked next.
  if (const char *columns = std::getenv("COLUMNS")) {
    unsigned n = 0;
    if (!StringRef(columns).trim().getAsInteger(10, n) && n > 0)
      return n;
  }
  struct winsize ws = {};
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return 0;
}

bool tpuprof::report::useColour() {
  // --color (LLVM's own option, a cl::opt<cl::boolOrDefault> in
  // WithColor.cpp) wins when given; otherwise NO_COLOR (https://no-color.org:
  // set and not empty) turns colours off.
  StringMap<cl::Option *> &opts = cl::getRegisteredOptions();
  auto it = opts.find("color");
  if (it != opts.end() && it->second->getNumOccurrences())
    return static_cast<cl::opt<cl::boolOrDefault> *>(it->second)->getValue() ==
           cl::BOU_TRUE;
  const char *noColor = std::getenv("NO_COLOR");
  if (noColor && *noColor)
    return false;
  return outs().has_colors();
}

std::string tpuprof::report::printable(StringRef text) {
  // Most names need nothing: return them without building a copy by parts.
  auto plain = [](unsigned char c) { return c >= 0x20 && c < 0x7f; };
  if (llvm::all_of(text, [&](char c) { return plain(c); }))
    return text.str();
  std::string out;
  raw_string_ostream os(out);
  const auto *p = reinterpret_cast<const unsigned char *>(text.data());
  const auto *end = p + text.size();
  while (p != end) {
    unsigned char c = *p;
    if (plain(c)) {
      os << char(c);
      ++p;
      continue;
    }
    if (c < 0x80) {
      switch (c) {
      case '\n':
        os << "\\n";
        break;
      case '\t':
        os << "\\t";
        break;
      case '\r':
        os << "\\r";
        break;
      default:
        os << format("\\x%02x", c);
      }
      ++p;
      continue;
    }
    // A multi-byte sequence: kept when it is valid UTF-8 and not a C1
    // control (U+0080..U+009F, which some terminals obey like ESC [).
    unsigned len = getNumBytesForUTF8(c);
    if (len > 1 && unsigned(end - p) >= len &&
        isLegalUTF8Sequence(p, p + len)) {
      if (c == 0xc2 && p[1] < 0xa0)
        os << format("\\u%04x", unsigned(p[1]));
      else
        os << StringRef(reinterpret_cast<const char *>(p), len);
      p += len;
      continue;
    }
    os << format("\\x%02x", c);
    ++p;
  }
  return out;
}
