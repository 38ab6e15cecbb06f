// An MPI job with a straggler: each of ITERS steps computes (one rank for
// SLOW_FACTOR times as long as the others), allreduces a sum and passes a
// buffer around a ring; then it starts a nonblocking allreduce, which odd
// ranks overlap with a quarter step of computation (overlap_step) and even
// ranks wait for at once. Built with the LLVM plugin (compute_step and
// overlap_step are annotated) and run with libtpuprof_mpi preloaded, its
// merged report must name the slow rank, the imbalanced op, the allreduce's
// wait, and overlap on the odd ranks only.
//
// A step computes until its deadline (STEP_US microseconds of wall time), not
// a fixed count of iterations: four ranks share two cores with each other's
// busy-polling MPI waits and any other load, so a fixed amount of work takes
// a time that depends on the scheduler; a deadline keeps the straggler's
// ratio whatever share of a core each rank gets.
//
//   ring SLOW_RANK SLOW_FACTOR ITERS STEP_US
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

// Sums a harmonic series, reading the clock every 1024 terms.
static double compute_until(long long deadline_us, double offset) {
  volatile double x = 0;
  long i = 0;
  do {
    for (long end = i + 1024; i < end; ++i)
      x = x + 1.0 / ((double)i + offset);
  } while (now_us() < deadline_us);
  return x;
}

__attribute__((annotate("tpuprof"))) __attribute__((noinline)) double
compute_step(long micros) {
  return compute_until(now_us() + micros, 1.0);
}

__attribute__((annotate("tpuprof"))) __attribute__((noinline)) double
overlap_step(long micros) {
  return compute_until(now_us() + micros, 2.0);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int slow = argc > 1 ? atoi(argv[1]) : 2;
  long factor = argc > 2 ? atol(argv[2]) : 6;
  int iters = argc > 3 ? atoi(argv[3]) : 10;
  long step_us = argc > 4 ? atol(argv[4]) : 10000;

  double ring[256], in[256];
  for (int i = 0; i < 256; ++i)
    ring[i] = rank + i;
  double total = 0;
  for (int it = 0; it < iters; ++it) {
    double part = compute_step(rank == slow ? step_us * factor : step_us);
    double sum = 0;
    MPI_Allreduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(ring, 256, MPI_DOUBLE, (rank + 1) % size, 0, in, 256,
                 MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    total += sum + in[0];
    MPI_Request request;
    double mine = rank, all = 0;
    MPI_Iallreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                   &request);
    if (rank % 2)
      total += overlap_step(step_us / 4);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    total += all;
  }
  if (rank == 0)
    printf("ranks=%d iters=%d done\n", size, iters);
  MPI_Finalize();
  return total > 0 ? 0 : 1;
}
