//===- WideMathTest.cpp - 64x64->128 multiply-divide without __int128 ----===//
//
// The portable mulDivRound path (the report's on hosts without __int128)
// must agree with __int128 everywhere, overflow edges included.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/read/WideMath.h"

#include <gtest/gtest.h>

#include <random>

using tpuprof::mulDivRound;
using tpuprof::mulDivRoundPortable;

namespace {

constexpr uint64_t kMax = UINT64_MAX;

TEST(WideMath, KnownValues) {
  EXPECT_EQ(mulDivRoundPortable(0, 0, 1), 0u);
  EXPECT_EQ(mulDivRoundPortable(10, 3, 4), 8u); // 7.5 rounds up.
  EXPECT_EQ(mulDivRoundPortable(10, 1, 4), 3u); // 2.5 rounds up.
  EXPECT_EQ(mulDivRoundPortable(9, 1, 4), 2u);  // 2.25 rounds down.
  // Ticks of a 3 GHz clock over an hour to ns: the product needs 77 bits.
  uint64_t ticks = 3000000000ull * 3600, ns = 3600000000000ull;
  EXPECT_EQ(mulDivRoundPortable(ticks, ns, ticks), ns);
  EXPECT_EQ(mulDivRoundPortable(ticks, 1000000000ull, 3000000000ull),
            3600000000000ull);
}

TEST(WideMath, OverflowEdges) {
  EXPECT_EQ(mulDivRoundPortable(kMax, kMax, kMax), kMax);
  EXPECT_EQ(mulDivRoundPortable(kMax, 1, 1), kMax);
  EXPECT_EQ(mulDivRoundPortable(kMax, 2, 2), kMax);
  // 2^64 exactly does not fit; one less does.
  EXPECT_EQ(mulDivRoundPortable(1ull << 32, 1ull << 32, 1), kMax);
  EXPECT_EQ(mulDivRoundPortable(kMax, kMax, kMax - 1), kMax);
  EXPECT_EQ(mulDivRoundPortable(kMax, kMax - 1, kMax), kMax - 1);
  // The rounding half carries into the high word: (2^64 - 1) * 2 + 2^63.
  EXPECT_EQ(mulDivRoundPortable(kMax, 2, 1ull << 63 | 1), 4u);
  EXPECT_EQ(mulDivRoundPortable(5, 7, 0), kMax); // No divisor.
  EXPECT_EQ(mulDivRound(5, 7, 0), kMax);
}

#ifdef __SIZEOF_INT128__
uint64_t reference(uint64_t a, uint64_t b, uint64_t c) {
  unsigned __int128 q = ((unsigned __int128)a * b + c / 2) / c;
  return q > kMax ? kMax : uint64_t(q);
}

TEST(WideMath, AgreesWithInt128) {
  const uint64_t edges[] = {0,
                            1,
                            2,
                            3,
                            0x7fffffffull,
                            0x80000000ull,
                            0xffffffffull,
                            0x100000000ull,
                            0x100000001ull,
                            0x7fffffffffffffffull,
                            0x8000000000000000ull,
                            0x8000000000000001ull,
                            kMax - 1,
                            kMax};
  for (uint64_t a : edges)
    for (uint64_t b : edges)
      for (uint64_t c : edges) {
        if (c == 0)
          continue;
        ASSERT_EQ(mulDivRoundPortable(a, b, c), reference(a, b, c))
            << a << " * " << b << " / " << c;
        ASSERT_EQ(mulDivRound(a, b, c), reference(a, b, c));
      }
  // And at random, over every magnitude of each operand.
  std::mt19937_64 rng(25);
  for (int i = 0; i < 200000; ++i) {
    uint64_t a = rng() >> (rng() % 64), b = rng() >> (rng() % 64);
    uint64_t c = (rng() >> (rng() % 64)) | 1u;
    ASSERT_EQ(mulDivRoundPortable(a, b, c), reference(a, b, c))
        << a << " * " << b << " / " << c;
  }
}
#endif

TEST(WideMath, Saturating) {
  EXPECT_EQ(tpuprof::mulSaturating(1ull << 32, 1ull << 31), 1ull << 63);
  EXPECT_EQ(tpuprof::mulSaturating(1ull << 32, 1ull << 32), kMax);
  EXPECT_EQ(tpuprof::addSaturating(kMax - 1, 1), kMax);
  EXPECT_EQ(tpuprof::addSaturating(kMax, 1), kMax);
}

} // namespace
