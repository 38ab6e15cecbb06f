//===- report/views/HtmlEscape.cpp - Escaping for the HTML report ---------===//
//
// The two escapes the HTML report relies on: HTML text (the page title) and
// JSON inside a <script> element (all data). See tpuprof/report/Html.h.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Html.h"

using namespace llvm;
using namespace tpuprof::report;

std::string tpuprof::report::escapeHtml(StringRef s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

ScriptJsonStream::ScriptJsonStream(raw_ostream &out) : out(out) {}

ScriptJsonStream::~ScriptJsonStream() { finish(); }

void ScriptJsonStream::finish() {
  flush();
  out << pending;
  pending.clear();
}

void ScriptJsonStream::write_impl(const char *ptr, size_t size) {
  written += size;
  // Prepend what the last call held back; it is at most two bytes.
  SmallString<0> joined;
  StringRef in(ptr, size);
  if (!pending.empty()) {
    joined = pending;
    joined += in;
    pending.clear();
    in = joined;
  }
  size_t plain = 0; // Start of the bytes not yet written.
  for (size_t i = 0; i != in.size(); ++i) {
    unsigned char c = in[i];
    const char *escape = nullptr;
    size_t consumed = 1;
    if (c == '<') {
      escape = "\\u003c";
    } else if (c == '>') {
      escape = "\\u003e";
    } else if (c == '&') {
      escape = "\\u0026";
    } else if (c == 0xE2) {
      // U+2028 is E2 80 A8 and U+2029 is E2 80 A9 in UTF-8.
      if (i + 2 >= in.size()) {
        StringRef rest = in.substr(i);
        if (rest.size() == 1 || (unsigned char)rest[1] == 0x80) {
          out << in.slice(plain, i);
          pending = rest;
          return;
        }
      } else if ((unsigned char)in[i + 1] == 0x80 &&
                 ((unsigned char)in[i + 2] == 0xA8 ||
                  (unsigned char)in[i + 2] == 0xA9)) {
        escape = (unsigned char)in[i + 2] == 0xA8 ? "\\u2028" : "\\u2029";
        consumed = 3;
      }
    }
    if (!escape)
      continue;
    out << in.slice(plain, i) << escape;
    i += consumed - 1;
    plain = i + 1;
  }
  out << in.substr(plain);
}
