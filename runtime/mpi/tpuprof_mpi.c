/*===- runtime/mpi/tpuprof_mpi.c - MPI calls as communication probes -*- C
-*-===*\
|*                                                                            *|
|* libtpuprof_mpi: the MPI profiling interface (PMPI), as mpiP uses it. Each  *|
|* MPI function below is defined here and calls its PMPI_ twin; preloaded    *|
|* (LD_PRELOAD) or linked before libmpi, it is what the program calls. Each  *|
|* call is a probe pair of kind "comm" through the ordinary probe ABI (one    *|
|* probe table registered at MPI_Init), so it lands in the runtime's dumps   *|
|* with the program's other probes; its dims are the bytes moved, the peer   *|
|* (or root) and the communicator's size. At MPI_Init and MPI_Finalize a      *|
|* ping-pong against rank 0 measures this process's clock offset, as Score-P *|
|* does (docs/mpi.md).                                                        *|
\*===----------------------------------------------------------------------===*/

#include "tpuprof/format.h"
#include "tpuprof/tpuprof.h"

#include <mpi.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*===-- The probe table --------------------------------------------------===*/

/// How a call's dims read: which of bytes, peer/root, communicator size.
enum dims_kind {
  DIMS_P2P,        ///< bytes[?], peer[?], comm[?]
  DIMS_COLLECTIVE, ///< bytes[?], comm[?]
  DIMS_ROOTED,     ///< bytes[?], root[?], comm[?]
  DIMS_WAIT,       ///< requests[?]
};

static const char *const dims_shapes[] = {
    "bytes[?], peer[?], comm[?]", "bytes[?], comm[?]",
    "bytes[?], root[?], comm[?]", "requests[?]"};
static const uint8_t dims_count[] = {3, 2, 3, 1};

/// Every wrapped function: its probe's index is its place here.
#define TPUPROF_MPI_CALLS(X)                                                   \
  X(SEND, "MPI_Send", DIMS_P2P)                                                \
  X(SSEND, "MPI_Ssend", DIMS_P2P)                                              \
  X(RECV, "MPI_Recv", DIMS_P2P)                                                \
  X(ISEND, "MPI_Isend", DIMS_P2P)                                              \
  X(IRECV, "MPI_Irecv", DIMS_P2P)                                              \
  X(SENDRECV, "MPI_Sendrecv", DIMS_P2P)                                        \
  X(WAIT, "MPI_Wait", DIMS_WAIT)                                               \
  X(WAITALL, "MPI_Waitall", DIMS_WAIT)                                         \
  X(BARRIER, "MPI_Barrier", DIMS_COLLECTIVE)                                   \
  X(BCAST, "MPI_Bcast", DIMS_ROOTED)                                           \
  X(REDUCE, "MPI_Reduce", DIMS_ROOTED)                                         \
  X(ALLREDUCE, "MPI_Allreduce", DIMS_COLLECTIVE)                               \
  X(GATHER, "MPI_Gather", DIMS_ROOTED)                                         \
  X(SCATTER, "MPI_Scatter", DIMS_ROOTED)                                       \
  X(ALLGATHER, "MPI_Allgather", DIMS_COLLECTIVE)                               \
  X(ALLTOALL, "MPI_Alltoall", DIMS_COLLECTIVE)                                 \
  X(REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block", DIMS_COLLECTIVE)         \
  X(SCAN, "MPI_Scan", DIMS_COLLECTIVE)                                         \
  X(IBARRIER, "MPI_Ibarrier", DIMS_COLLECTIVE)                                 \
  X(IBCAST, "MPI_Ibcast", DIMS_ROOTED)                                         \
  X(IALLREDUCE, "MPI_Iallreduce", DIMS_COLLECTIVE)

enum call {
#define X(id, name, dims) CALL_##id,
  TPUPROF_MPI_CALLS(X)
#undef X
      CALL_COUNT
};

static const struct {
  const char *name;
  enum dims_kind dims;
} calls[] = {
#define X(id, name, dims) {name, dims},
    TPUPROF_MPI_CALLS(X)
#undef X
};
_Static_assert(sizeof(calls) / sizeof(calls[0]) == CALL_COUNT,
               "an entry for every call");

/// Global id of probe 0; ignored until the table is registered.
static uint32_t first_probe = TPUPROF_IGNORED_PROBE_BASE;

/// FNV-1a of "mpi:" + name: stable across builds and processes, so the
/// ranks' rows of one call merge.
static uint64_t call_hash(const char *name) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char *p = "mpi:"; *p; ++p)
    h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
  for (const char *p = name; *p; ++p)
    h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
  return h;
}

/// The probe flags of call `c`: collectives, and the requests a nonblocking
/// call starts and a wait completes (what the report's overlap pairs).
static uint8_t call_flags(enum call c) {
  uint8_t f = calls[c].dims == DIMS_COLLECTIVE || calls[c].dims == DIMS_ROOTED
                  ? TPUPROF_PROBE_COLLECTIVE
                  : 0;
  switch (c) {
  case CALL_ISEND:
  case CALL_IRECV:
  case CALL_IBARRIER:
  case CALL_IBCAST:
  case CALL_IALLREDUCE:
    return f | TPUPROF_PROBE_STARTS_REQUEST;
  case CALL_WAIT:
  case CALL_WAITALL:
    return f | TPUPROF_PROBE_COMPLETES_REQUESTS;
  default:
    return f;
  }
}

/// Builds the table of format.h (strings: "", the module name, the shapes,
/// then each name) and registers it.
static void register_table(void) {
  static const char module_name[] = "libtpuprof_mpi";
  size_t strtab = 1 + sizeof(module_name);
  uint32_t shapes_at[sizeof(dims_shapes) / sizeof(dims_shapes[0])];
  for (size_t i = 0; i < sizeof(dims_shapes) / sizeof(dims_shapes[0]); ++i) {
    shapes_at[i] = (uint32_t)strtab;
    strtab += strlen(dims_shapes[i]) + 1;
  }
  uint32_t name_at[CALL_COUNT];
  for (int i = 0; i < CALL_COUNT; ++i) {
    name_at[i] = (uint32_t)strtab;
    strtab += strlen(calls[i].name) + 1;
  }
  strtab = (strtab + 7) & ~(size_t)7;
  size_t size = sizeof(tpuprof_table_header) +
                CALL_COUNT * sizeof(tpuprof_probe_desc) + strtab;
  uint8_t *t = calloc(1, size);
  if (!t)
    return;
  tpuprof_table_header h;
  memset(&h, 0, sizeof(h));
  memcpy(h.magic, TPUPROF_TABLE_MAGIC, 4);
  h.version = TPUPROF_TABLE_VERSION;
  h.num_probes = CALL_COUNT;
  h.strtab_size = (uint32_t)strtab;
  h.module_name = 1;
  memcpy(t, &h, sizeof(h));
  char *s = (char *)t + sizeof(h) + CALL_COUNT * sizeof(tpuprof_probe_desc);
  memcpy(s + 1, module_name, sizeof(module_name));
  for (size_t i = 0; i < sizeof(dims_shapes) / sizeof(dims_shapes[0]); ++i)
    memcpy(s + shapes_at[i], dims_shapes[i], strlen(dims_shapes[i]) + 1);
  for (int i = 0; i < CALL_COUNT; ++i) {
    memcpy(s + name_at[i], calls[i].name, strlen(calls[i].name) + 1);
    tpuprof_probe_desc d;
    memset(&d, 0, sizeof(d));
    d.hash = call_hash(calls[i].name);
    d.name = name_at[i];
    d.shapes = shapes_at[calls[i].dims];
    d.location = 0;
    d.function = name_at[i];
    d.kind = TPUPROF_KIND_COMM;
    d.num_dyn_dims = dims_count[calls[i].dims];
    d.flags = call_flags((enum call)i);
    memcpy(t + sizeof(h) + (size_t)i * sizeof(d), &d, sizeof(d));
  }
  uint32_t id = TPUPROF_IGNORED_PROBE_BASE;
  __tpuprof_register_module(t, size, &id); // Copies the table.
  free(t);
  __atomic_store_n(&first_probe, id, __ATOMIC_RELEASE);
}

/*===-- Probes around calls ----------------------------------------------===*/

static int64_t type_bytes(int count, MPI_Datatype type) {
  int size = 0;
  if (count <= 0 || type == MPI_DATATYPE_NULL ||
      PMPI_Type_size(type, &size) != MPI_SUCCESS)
    return 0;
  return (int64_t)count * size;
}

static int64_t comm_size(MPI_Comm comm) {
  int n = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &n) != MPI_SUCCESS)
    return 0;
  return n;
}

/// Global id of call `c`'s probe when a window is open and the table is
/// registered, else an ignored id (its end then costs one compare too).
static inline uint32_t probe_of(enum call c) {
  if (!__tpuprof_enabled)
    return TPUPROF_IGNORED_PROBE_BASE;
  uint32_t first = __atomic_load_n(&first_probe, __ATOMIC_ACQUIRE);
  return first < TPUPROF_IGNORED_PROBE_BASE ? first + (uint32_t)c
                                            : TPUPROF_IGNORED_PROBE_BASE;
}

static inline void end(uint32_t id) {
  if (id < TPUPROF_IGNORED_PROBE_BASE)
    __tpuprof_end(id);
}

/// Begins call `c`'s probe with the dims listed; the dims (which ask MPI
/// for type and communicator sizes) are computed only inside a window.
#define BEGIN(c, ...)                                                          \
  uint32_t id_ = probe_of(c);                                                  \
  if (id_ < TPUPROF_IGNORED_PROBE_BASE) {                                      \
    int64_t dims_[] = {__VA_ARGS__};                                           \
    __tpuprof_begin_dims(id_, dims_,                                           \
                         (uint32_t)(sizeof(dims_) / sizeof(dims_[0])));        \
  }
#define P2P(c, bytes, peer, comm) BEGIN(c, (bytes), (peer), comm_size(comm))
#define COLL(c, bytes, comm) BEGIN(c, (bytes), comm_size(comm))
#define ROOTED(c, bytes, root, comm) BEGIN(c, (bytes), (root), comm_size(comm))
#define DONE(call)                                                             \
  int rc_ = call;                                                              \
  end(id_);                                                                    \
  return rc_

/*===-- Clock offsets (Score-P's ping-pong) ------------------------------===*/

/// Rounds per rank: the one with the shortest round trip is kept.
enum { SYNC_ROUNDS = 8, SYNC_TAG = 0x7470 };

/// A duplicate of MPI_COMM_WORLD, so the ping-pong never matches the
/// program's messages.
static MPI_Comm sync_comm = MPI_COMM_NULL;

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// Measures every rank's offset to rank 0 (all ranks call it together):
/// rank 0 answers each rank's pings with its clock; a rank takes the
/// reference as read at the middle of its round trip, so the error is at
/// most half the round trip.
static void measure_offsets(uint32_t slot) {
  if (sync_comm == MPI_COMM_NULL)
    return;
  int rank = 0, size = 1;
  PMPI_Comm_rank(sync_comm, &rank);
  PMPI_Comm_size(sync_comm, &size);
  if (rank == 0) {
    tpuprof_set_clock_offset(slot, 0, monotonic_ns(), 0);
    for (int r = 1; r < size; ++r)
      for (int i = 0; i < SYNC_ROUNDS; ++i) {
        uint64_t ping = 0;
        PMPI_Recv(&ping, 1, MPI_UINT64_T, r, SYNC_TAG, sync_comm,
                  MPI_STATUS_IGNORE);
        uint64_t now = monotonic_ns();
        PMPI_Send(&now, 1, MPI_UINT64_T, r, SYNC_TAG, sync_comm);
      }
    return;
  }
  uint64_t best = UINT64_MAX, at = 0;
  int64_t offset = 0;
  for (int i = 0; i < SYNC_ROUNDS; ++i) {
    uint64_t t0 = monotonic_ns(), ref = 0;
    PMPI_Send(&t0, 1, MPI_UINT64_T, 0, SYNC_TAG, sync_comm);
    PMPI_Recv(&ref, 1, MPI_UINT64_T, 0, SYNC_TAG, sync_comm, MPI_STATUS_IGNORE);
    uint64_t t1 = monotonic_ns();
    if (t1 - t0 < best) {
      best = t1 - t0;
      at = t0 + (t1 - t0) / 2;
      offset = (int64_t)(ref - at);
    }
  }
  if (at)
    tpuprof_set_clock_offset(slot, offset, at, best / 2);
}

static void after_init(void) {
  register_table();
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &sync_comm) != MPI_SUCCESS)
    sync_comm = MPI_COMM_NULL;
  measure_offsets(TPUPROF_OFFSET_INIT);
}

/*===-- The wrappers -----------------------------------------------------===*/

int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS)
    after_init();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS)
    after_init();
  return rc;
}

int MPI_Finalize(void) {
  measure_offsets(TPUPROF_OFFSET_FINALIZE);
  if (sync_comm != MPI_COMM_NULL)
    PMPI_Comm_free(&sync_comm);
  // Probes after this would call a finalized MPI for their dims.
  __atomic_store_n(&first_probe, TPUPROF_IGNORED_PROBE_BASE, __ATOMIC_RELEASE);
  return PMPI_Finalize();
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm) {
  P2P(CALL_SEND, type_bytes(count, type), dest, comm);
  DONE(PMPI_Send(buf, count, type, dest, tag, comm));
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  P2P(CALL_SSEND, type_bytes(count, type), dest, comm);
  DONE(PMPI_Ssend(buf, count, type, dest, tag, comm));
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Status *status) {
  P2P(CALL_RECV, type_bytes(count, type), source, comm);
  DONE(PMPI_Recv(buf, count, type, source, tag, comm, status));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm, MPI_Request *request) {
  P2P(CALL_ISEND, type_bytes(count, type), dest, comm);
  DONE(PMPI_Isend(buf, count, type, dest, tag, comm, request));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Request *request) {
  P2P(CALL_IRECV, type_bytes(count, type), source, comm);
  DONE(PMPI_Irecv(buf, count, type, source, tag, comm, request));
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 int dest, int sendtag, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                 MPI_Status *status) {
  P2P(CALL_SENDRECV, type_bytes(sendcount, sendtype), dest, comm);
  DONE(PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                     recvcount, recvtype, source, recvtag, comm, status));
}

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  BEGIN(CALL_WAIT, 1);
  DONE(PMPI_Wait(request, status));
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  BEGIN(CALL_WAITALL, count);
  DONE(PMPI_Waitall(count, requests, statuses));
}

int MPI_Barrier(MPI_Comm comm) {
  COLL(CALL_BARRIER, 0, comm);
  DONE(PMPI_Barrier(comm));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm) {
  ROOTED(CALL_BCAST, type_bytes(count, type), root, comm);
  DONE(PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm) {
  ROOTED(CALL_REDUCE, type_bytes(count, type), root, comm);
  DONE(PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  COLL(CALL_ALLREDUCE, type_bytes(count, type), comm);
  DONE(PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
               MPI_Comm comm) {
  ROOTED(CALL_GATHER, type_bytes(sendcount, sendtype), root, comm);
  DONE(PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm));
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  ROOTED(CALL_SCATTER, type_bytes(recvcount, recvtype), root, comm);
  DONE(PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    root, comm));
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm) {
  COLL(CALL_ALLGATHER, type_bytes(sendcount, sendtype), comm);
  DONE(PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, comm));
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 MPI_Comm comm) {
  COLL(CALL_ALLTOALL, type_bytes(sendcount, sendtype) * comm_size(comm), comm);
  DONE(PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     comm));
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  COLL(CALL_REDUCE_SCATTER_BLOCK, type_bytes(recvcount, type) * comm_size(comm),
       comm);
  DONE(PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm));
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
             MPI_Op op, MPI_Comm comm) {
  COLL(CALL_SCAN, type_bytes(count, type), comm);
  DONE(PMPI_Scan(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
  COLL(CALL_IBARRIER, 0, comm);
  DONE(PMPI_Ibarrier(comm, request));
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request *request) {
  ROOTED(CALL_IBCAST, type_bytes(count, type), root, comm);
  DONE(PMPI_Ibcast(buf, count, type, root, comm, request));
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request) {
  COLL(CALL_IALLREDUCE, type_bytes(count, type), comm);
  DONE(PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request));
}
