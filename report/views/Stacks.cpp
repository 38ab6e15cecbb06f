//===- report/views/Stacks.cpp - Stacks for flame graphs ------------------===//
//
// One stack per distinct nesting path: root frames "run R (pid P)" and
// "dev D, tid T", then the records from the outermost to the leaf. Its
// value is the leaf's self time in nanoseconds summed over every record
// with that path, so a flame graph's widths add up to the time covered by
// probes. Memory grows with distinct paths, not records.
//
// speedscope reads folded stacks as sample counts; its own format
// (https://www.speedscope.app/file-format-schema.json) carries the unit, so
// `--format speedscope` writes one sampled profile with "nanoseconds".
//
//===----------------------------------------------------------------------===//

#include "Frames.h"

#include "tpuprof/report/views/Stacks.h"
#include "tpuprof/report/views/Terminal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <map>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

void writeSpeedscope(const std::map<std::string, uint64_t> &folded,
                     const Input &in, raw_ostream &os) {
  StringMap<unsigned> frameIndex;
  std::vector<StringRef> frames;
  uint64_t total = 0;
  json::OStream j(os);
  j.object([&] {
    j.attribute("$schema",
                "https://www.speedscope.app/file-format-schema.json");
    j.attribute("exporter", "tpuprof-report stacks");
    j.attribute("name", "tpuprof: " + join(in.args, " "));
    j.attribute("activeProfileIndex", 0);
    // Frames are written after the profile that numbers them; JSON objects
    // are unordered, and speedscope reads "shared" wherever it is.
    j.attributeArray("profiles", [&] {
      j.object([&] {
        j.attribute("type", "sampled");
        j.attribute("name", "self time");
        j.attribute("unit", "nanoseconds");
        j.attribute("startValue", 0);
        j.attributeArray("samples", [&] {
          for (const auto &entry : folded)
            j.array([&, &path = entry.first] {
              SmallVector<StringRef, 16> names;
              StringRef(path).split(names, ';');
              for (StringRef n : names) {
                auto [it, inserted] = frameIndex.try_emplace(n, frames.size());
                if (inserted)
                  frames.push_back(it->first());
                j.value(it->second);
              }
            });
        });
        j.attributeArray("weights", [&] {
          for (const auto &entry : folded) {
            j.value(entry.second);
            total += entry.second;
          }
        });
        j.attribute("endValue", total);
      });
    });
    j.attributeObject("shared", [&] {
      j.attributeArray("frames", [&] {
        for (StringRef f : frames)
          j.object([&] { j.attribute("name", f); });
      });
    });
  });
  os << '\n';
}

} // namespace

Expected<StacksOptions::Format>
tpuprof::report::parseStacksFormat(StringRef name) {
  if (name == "folded")
    return StacksOptions::Format::Folded;
  if (name == "speedscope")
    return StacksOptions::Format::Speedscope;
  return createStringError("unknown stacks format '" + name +
                           "' (expected one of: folded, speedscope)");
}

namespace {

/// The distinct nesting paths as a tree: a node per (parent path, frame),
/// found by integer keys, so a record costs no string work; names are
/// joined once per path at the end.
class PathTree {
public:
  /// The node of `frame` under `parent` (kNone: a root).
  unsigned child(unsigned parent, unsigned frame) {
    auto [it, inserted] =
        children.try_emplace({parent, frame}, unsigned(nodes.size()));
    if (inserted)
      nodes.push_back({parent, frame, 0});
    return it->second;
  }
  /// The frame id of a name.
  unsigned frame(std::string name) {
    name = printable(name); // Folded stacks are read on terminals too.
    auto [it, inserted] = frameIds.try_emplace(name, unsigned(names.size()));
    if (inserted)
      names.push_back(std::move(name));
    return it->second;
  }
  void add(unsigned node, uint64_t ns) { nodes[node].ns += ns; }

  /// Path -> summed self ns, for every path with time.
  std::map<std::string, uint64_t> fold() const {
    std::map<std::string, uint64_t> folded;
    SmallVector<unsigned, 32> path;
    for (const Node &n : nodes) {
      if (!n.ns)
        continue;
      path.clear();
      for (const Node *m = &n;; m = &nodes[m->parent]) {
        path.push_back(m->frame);
        if (m->parent == kNone)
          break;
      }
      std::string s;
      for (unsigned i = path.size(); i--;) {
        s += names[path[i]];
        if (i)
          s += ';';
      }
      // Paths of different probes of one name are one stack.
      folded[s] += n.ns;
    }
    return folded;
  }

  static constexpr unsigned kNone = ~0u;

private:
  struct Node {
    unsigned parent, frame;
    uint64_t ns;
  };
  std::vector<Node> nodes;
  DenseMap<std::pair<unsigned, unsigned>, unsigned> children;
  StringMap<unsigned> frameIds;
  std::vector<std::string> names;
};

} // namespace

Expected<std::map<std::string, uint64_t>>
tpuprof::report::foldStacks(const Input &in, bool shapes) {
  PathTree tree;
  uint64_t dropped = 0, incomplete = 0;
  Error err = in.forEachDump("stacks", [&](const DumpReader &dump,
                                           const DumpSummary &d) {
    dropped += dump.info().dropped;
    incomplete += !dump.info().isComplete();
    unsigned run = tree.child(PathTree::kNone,
                              tree.frame(detail::runFrame(in.profile, d.run)));
    struct Visitor : WalkVisitor {
      PathTree &tree;
      const DumpReader &dump;
      bool shapes;
      unsigned run, root = 0;
      detail::FrameCache frames;
      Visitor(PathTree &tree, const DumpReader &dump, bool shapes, unsigned run)
          : tree(tree), dump(dump), shapes(shapes), run(run) {}
      void thread(const ThreadInfo &t) {
        root = tree.child(
            run, tree.frame(detail::threadFrame(dump.info().device, t.tid)));
      }
      void open(WalkFrame &f, const WalkFrame *parent) {
        unsigned frame = unsigned(frames.id(
            f, shapes, [&](std::string name) { return tree.frame(name); }));
        f.user = tree.child(parent ? unsigned(parent->user) : root, frame);
      }
      void close(const WalkFrame &f, ArrayRef<WalkFrame>) {
        if (f.finished && f.selfNs())
          tree.add(unsigned(f.user), f.selfNs());
      }
    } visitor(tree, dump, shapes, run);
    walkDump(dump, visitor, /*timeline=*/false, in.overheadCorrection);
    return Error::success();
  });
  if (err)
    return std::move(err);
  // Neither format has a place for it, and folded readers choke on
  // comments: lost records are reported on stderr, never silently.
  if (dropped || incomplete)
    errs() << "tpuprof-report: stacks: " << dropped << " dropped records, "
           << incomplete
           << " incomplete dumps; the stacks miss what they lost\n";
  return tree.fold();
}

void tpuprof::report::writeFoldedStacks(
    const std::map<std::string, uint64_t> &folded, StacksOptions::Format format,
    const Input &in, raw_ostream &os) {
  if (format == StacksOptions::Format::Speedscope) {
    writeSpeedscope(folded, in, os);
    return;
  }
  for (auto &[path, ns] : folded)
    os << path << ' ' << ns << '\n';
}

Error tpuprof::report::writeStacks(const Input &in, const StacksOptions &opts,
                                   raw_ostream &os) {
  Expected<std::map<std::string, uint64_t>> folded =
      foldStacks(in, opts.shapes);
  if (!folded)
    return folded.takeError();
  writeFoldedStacks(*folded, opts.format, in, os);
  return Error::success();
}
