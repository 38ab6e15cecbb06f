//===- report/views/Otf2.cpp - A job as an OTF2 archive -------------------===//
//
// views/Otf2.h. Each rank's dumps are opened again, one at a time, and each
// thread's records streamed into its location's event writer: a record's
// Enter when it begins, its Leave when it ends (the records of a thread are
// in begin order and nest, so a stack of open ends gives both in time
// order); the definitions follow, once every region and location is known.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Otf2.h"

#include "tpuprof/report/model/Walk.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <vector>

#ifdef TPUPROF_HAVE_OTF2
#include <otf2/otf2.h>
#endif

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

#ifndef TPUPROF_HAVE_OTF2

bool tpuprof::report::haveOtf2() { return false; }

Expected<Otf2Summary> tpuprof::report::writeOtf2(const JobProfile &,
                                                 StringRef) {
  return createStringError("this tpuprof-report was built without libotf2 "
                           "(install libotf2-trace-dev and rebuild)");
}

#else

bool tpuprof::report::haveOtf2() { return true; }

namespace {

OTF2_FlushType preFlush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp postFlush(void *, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks flushCallbacks = {preFlush, postFlush};

/// Strings, interned: the global definitions refer to them by number.
struct Strings {
  StringMap<uint32_t> ids;
  std::vector<std::string> list;
  uint32_t get(StringRef s) {
    auto [it, inserted] = ids.try_emplace(s, uint32_t(list.size()));
    if (inserted)
      list.push_back(s.str());
    return it->second;
  }
};

struct Region {
  std::string name;
  uint8_t kind = 0;
  bool collective = false;
  std::string file;
};

struct Location {
  std::string name;
  uint32_t group = 0;
  uint64_t events = 0;
};

Error otf2Error(OTF2_ErrorCode code, StringRef what) {
  return createStringError(
      formatv("OTF2: {0}: {1}", what, OTF2_Error_GetDescription(code)).str());
}

} // namespace

Expected<Otf2Summary> tpuprof::report::writeOtf2(const JobProfile &job,
                                                 StringRef dir) {
  if (sys::fs::exists(dir))
    return createStringError(dir + ": exists; --otf2 writes a new archive "
                                   "directory");
  OTF2_Archive *archive = OTF2_Archive_Open(
      dir.str().c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
      4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive)
    return createStringError(dir + ": OTF2 cannot create the archive");
  auto close = [&] { OTF2_Archive_Close(archive); };
  OTF2_Archive_SetFlushCallbacks(archive, &flushCallbacks, nullptr);
  OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  if (OTF2_ErrorCode e = OTF2_Archive_OpenEvtFiles(archive);
      e != OTF2_SUCCESS) {
    close();
    return otf2Error(e, "open event files");
  }

  std::map<std::tuple<uint8_t, std::string, std::string>, uint32_t> regionIds;
  std::vector<Region> regions;
  std::vector<Location> locations;
  uint64_t first = UINT64_MAX, last = 0, events = 0;

  for (uint32_t g = 0; g != job.ranks.size(); ++g) {
    const RankStats &rank = job.ranks[g];
    for (const std::string &path : rank.dumps) {
      Expected<DumpReader> reader = DumpReader::openStreaming(path);
      if (!reader) {
        close();
        return reader.takeError();
      }
      const DumpInfo &info = reader->info();
      auto at = [&](uint64_t ticks) {
        int64_t t = rank.clock.toAxis(absoluteNs(info, ticks));
        uint64_t ns = t > 0 ? uint64_t(t) : 0;
        first = std::min(first, ns);
        last = std::max(last, ns);
        return ns;
      };
      uint64_t windowEnd = at(info.windowEnd);
      for (const ThreadInfo &t : reader->threads()) {
        OTF2_LocationRef loc = locations.size();
        locations.push_back(
            {formatv("rank {0} thread {1}", rank.rank, t.tid).str(), g, 0});
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(archive, loc);
        // Open records: (end time, region); ends of nested ones first.
        std::vector<std::pair<uint64_t, uint32_t>> open;
        uint64_t clock = 0; // Never backwards on one location.
        auto leaveUntil = [&](uint64_t until) {
          while (!open.empty() && open.back().first <= until) {
            clock = std::max(clock, open.back().first);
            OTF2_EvtWriter_Leave(w, nullptr, clock, open.back().second);
            ++locations[loc].events;
            open.pop_back();
          }
        };
        reader->forEachRecord(t, [&](const RecordView &r) {
          uint64_t begin = at(r.begin);
          uint64_t end = r.isFinished() ? at(r.end) : windowEnd;
          leaveUntil(begin);
          const Probe *p = reader->findProbe(r.probe);
          std::string name =
              p ? p->name.str() : formatv("<unknown probe {0}>", r.probe).str();
          uint8_t kind = p ? p->kind : uint8_t(TPUPROF_KIND_COUNT);
          std::string file = p ? p->location.str() : "";
          auto [it, inserted] =
              regionIds.try_emplace({kind, name, file}, regions.size());
          if (inserted)
            regions.push_back({name, kind, p && p->collective, file});
          clock = std::max(clock, begin);
          OTF2_EvtWriter_Enter(w, nullptr, clock, it->second);
          ++locations[loc].events;
          // A record never ends after the one enclosing it.
          if (!open.empty())
            end = std::min(end, open.back().first);
          open.push_back({std::max(end, clock), it->second});
        });
        leaveUntil(UINT64_MAX);
        events += locations[loc].events;
        OTF2_Archive_CloseEvtWriter(archive, w);
      }
    }
  }
  OTF2_Archive_CloseEvtFiles(archive);

  // Local definitions (none) per location, then the global ones.
  OTF2_Archive_OpenDefFiles(archive);
  for (OTF2_LocationRef l = 0; l != locations.size(); ++l)
    OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, l));
  OTF2_Archive_CloseDefFiles(archive);

  OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(archive);
  if (first == UINT64_MAX)
    first = last = 0;
  OTF2_GlobalDefWriter_WriteClockProperties(
      d, 1000000000, first, last - first + 1, OTF2_UNDEFINED_TIMESTAMP);
  Strings s;
  s.get(""); // 0: the empty string.
  // Strings must be defined before they are used: gather them all first.
  std::vector<uint32_t> regionName, regionFile, hostName, groupName, locName;
  for (const Region &r : regions) {
    regionName.push_back(s.get(r.name));
    regionFile.push_back(s.get(r.file));
  }
  std::map<std::string, uint32_t> hosts;
  for (const RankStats &r : job.ranks) {
    hosts.try_emplace(r.host.empty() ? "?" : r.host, uint32_t(hosts.size()));
    groupName.push_back(s.get(formatv("rank {0}", r.rank).str()));
  }
  for (const auto &[host, id] : hosts)
    hostName.push_back(s.get(host));
  for (const Location &l : locations)
    locName.push_back(s.get(l.name));
  uint32_t machine = s.get("machine"), node = s.get("node"),
           tpuprof = s.get("tpuprof");
  for (uint32_t i = 0; i != s.list.size(); ++i)
    OTF2_GlobalDefWriter_WriteString(d, i, s.list[i].c_str());
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, tpuprof, machine,
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (const auto &[host, id] : hosts)
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, id + 1, hostName[id], node, 0);
  for (uint32_t g = 0; g != job.ranks.size(); ++g) {
    const RankStats &r = job.ranks[g];
    OTF2_GlobalDefWriter_WriteLocationGroup(
        d, g, groupName[g], OTF2_LOCATION_GROUP_TYPE_PROCESS,
        hosts[r.host.empty() ? "?" : r.host] + 1,
        OTF2_UNDEFINED_LOCATION_GROUP);
  }
  for (uint32_t i = 0; i != regions.size(); ++i) {
    const Region &r = regions[i];
    bool comm = r.kind == TPUPROF_KIND_COMM;
    OTF2_GlobalDefWriter_WriteRegion(
        d, i, regionName[i], regionName[i], 0,
        comm ? (r.collective ? OTF2_REGION_ROLE_COLL_ALL2ALL
                             : OTF2_REGION_ROLE_POINT2POINT)
             : OTF2_REGION_ROLE_FUNCTION,
        comm ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
        regionFile[i], 0, 0);
  }
  for (OTF2_LocationRef l = 0; l != locations.size(); ++l)
    OTF2_GlobalDefWriter_WriteLocation(d, l, locName[l],
                                       OTF2_LOCATION_TYPE_CPU_THREAD,
                                       locations[l].events, locations[l].group);
  OTF2_ErrorCode e = OTF2_Archive_Close(archive);
  if (e != OTF2_SUCCESS)
    return otf2Error(e, "close the archive");
  Otf2Summary sum;
  sum.locations = locations.size();
  sum.events = events;
  sum.anchor = (dir + "/traces.otf2").str();
  return sum;
}

#endif
