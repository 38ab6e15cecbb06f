//===- report/views/Graph.cpp - Call graph in DOT -------------------------===//
//
// Vertices are frames (views/Frames.h) per run; a record nested in another
// is a call from its parent's vertex to its own, and a top-level record a
// call from its run's root. Times are the corrected durations every view
// shows: a vertex's total is the time of all its records (a record nested
// in one of its own op counts in both), its self the total less what its
// records' children took; an edge's time is the callee's under that caller.
//
//===----------------------------------------------------------------------===//

#include "Frames.h"

#include "tpuprof/report/views/Graph.h"
#include "tpuprof/report/views/Terminal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <tuple>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using tpuprof::report::detail::FrameCache;

namespace {

struct Vertex {
  uint32_t run = 0;
  std::string name;
  bool root = false;
  uint64_t totalNs = 0, selfNs = 0, count = 0;
};

struct Edge {
  uint64_t calls = 0, ns = 0;
};

/// `s` as a DOT quoted string's contents.
std::string escapeDot(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

std::string us(uint64_t ns) {
  return formatv("{0:F2} us", double(ns) / 1000.0).str();
}

} // namespace

Error tpuprof::report::writeGraph(const Input &in, const GraphOptions &opts,
                                  raw_ostream &os) {
  std::vector<Vertex> vertices;
  std::map<std::tuple<uint32_t, bool, std::string>, size_t> vertexOf;
  auto vertex = [&](uint32_t run, std::string name, bool root) {
    auto [it, inserted] =
        vertexOf.try_emplace({run, root, name}, vertices.size());
    if (inserted)
      vertices.push_back({run, std::move(name), root});
    return it->second;
  };
  DenseMap<std::pair<size_t, size_t>, Edge> edgeOf;
  Error err = in.forEachDump(
      "graph", [&](const DumpReader &dump, const DumpSummary &d) {
        size_t root = vertex(d.run, detail::runFrame(in.profile, d.run), true);
        FrameCache frames; // A record's vertex in this dump's run.
        auto vertexOfFrame = [&](const WalkFrame &f) {
          return frames.id(f, opts.shapes, [&](std::string name) {
            return vertex(d.run, std::move(name), false);
          });
        };
        auto onClose = [&](const WalkFrame &f, ArrayRef<WalkFrame> up) {
          if (!f.finished)
            return;
          Vertex &v = vertices[f.user];
          v.totalNs += f.durationNs;
          v.selfNs += f.selfNs();
          ++v.count;
          Edge &e = edgeOf[{up.empty() ? root : up.back().user, f.user}];
          ++e.calls;
          e.ns += f.durationNs;
        };
        struct Visitor : WalkVisitor {
          decltype(vertexOfFrame) &vertexOf;
          decltype(onClose) &closeFrame;
          Visitor(decltype(vertexOfFrame) &v, decltype(onClose) &c)
              : vertexOf(v), closeFrame(c) {}
          void open(WalkFrame &f, const WalkFrame *) { f.user = vertexOf(f); }
          void close(const WalkFrame &f, ArrayRef<WalkFrame> up) {
            closeFrame(f, up);
          }
        } visitor(vertexOfFrame, onClose);
        walkDump(dump, visitor, /*timeline=*/false, in.overheadCorrection);
        return Error::success();
      });
  if (err)
    return err;
  // Written in (caller, callee) order.
  std::map<std::pair<size_t, size_t>, Edge> edges(edgeOf.begin(), edgeOf.end());

  // A root's total is its run's covered time: what its edges add up to.
  for (auto &[key, e] : edges)
    if (vertices[key.first].root)
      vertices[key.first].totalNs += e.ns;
  uint64_t maxSelf = 1;
  for (const Vertex &v : vertices)
    if (!v.root)
      maxSelf = std::max(maxSelf, v.selfNs);

  os << "digraph tpuprof {\n";
  os << "  graph [label=\""
     << escapeDot("tpuprof call graph: " + join(in.args, " "))
     << "\", labelloc=t, rankdir=TB];\n";
  os << "  node [shape=box, style=\"rounded,filled\", "
        "fontname=\"Helvetica\"];\n";
  os << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (size_t i = 0; i != vertices.size(); ++i) {
    const Vertex &v = vertices[i];
    os << "  v" << i << " [label=\"" << escapeDot(printable(v.name));
    if (v.root) {
      os << "\\ncovered: " << us(v.totalNs) << "\", fillcolor=\"#e8eaed\"];\n";
      continue;
    }
    // Shaded by self time, as llvm-xray graph's --color-vertices does.
    double heat = double(v.selfNs) / double(maxSelf);
    os << "\\nself: " << us(v.selfNs) << "\\ntotal: " << us(v.totalNs)
       << "\\ncalls: " << v.count << "\", fillcolor=\""
       << formatv("0.000 {0:F3} 1.000", 0.05 + 0.75 * heat) << "\"];\n";
  }
  for (auto &[key, e] : edges)
    os << "  v" << key.first << " -> v" << key.second << " [label=\"" << e.calls
       << (e.calls == 1 ? " call\\n" : " calls\\n") << us(e.ns) << "\"];\n";
  os << "}\n";
  return Error::success();
}
