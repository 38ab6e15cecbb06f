//===- tpuprof/report/read/WideMath.h - 64x64->128 arithmetic ---*- C++ -*-===//
//
// Tick-to-ns conversion multiplies two 64-bit values before dividing, and
// the product overflows 64 bits after seconds of a GHz clock. The report
// builds where the compiler has no 128-bit integer (32-bit hosts): this is
// the one place that does such arithmetic, with __int128 where it exists and
// a portable path (unit-tested against it) where it does not.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_READ_WIDEMATH_H
#define TPUPROF_REPORT_READ_WIDEMATH_H

#include <cstdint>

namespace tpuprof {

/// round(a * b / c) = (a * b + c / 2) / c without 128-bit integers; exact
/// for every input, UINT64_MAX when the quotient does not fit 64 bits or c
/// is 0.
inline uint64_t mulDivRoundPortable(uint64_t a, uint64_t b, uint64_t c) {
  if (c == 0)
    return UINT64_MAX;
  // The 128-bit product hi:lo from 32-bit halves.
  uint64_t aLo = a & 0xffffffffu, aHi = a >> 32;
  uint64_t bLo = b & 0xffffffffu, bHi = b >> 32;
  uint64_t ll = aLo * bLo, lh = aLo * bHi, hl = aHi * bLo, hh = aHi * bHi;
  uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  uint64_t lo = (mid << 32) | (ll & 0xffffffffu);
  uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  // + c / 2: a * b <= 2^128 - 2^65 + 1 leaves room for it in hi.
  uint64_t half = c / 2;
  lo += half;
  hi += lo < half ? 1u : 0u;
  if (hi >= c)
    return UINT64_MAX; // The quotient is 2^64 or more.
  // Restoring division, one quotient bit a step; the remainder stays < c.
  uint64_t rem = hi, q = 0;
  for (int bit = 63; bit >= 0; --bit) {
    bool carry = rem >> 63;
    rem = (rem << 1) | ((lo >> bit) & 1u);
    q <<= 1;
    if (carry || rem >= c) {
      rem -= c; // Modulo 2^64: right even when the shift carried out.
      q |= 1u;
    }
  }
  return q;
}

/// round(a * b / c), as mulDivRoundPortable, by __int128 where the compiler
/// has it.
inline uint64_t mulDivRound(uint64_t a, uint64_t b, uint64_t c) {
#ifdef __SIZEOF_INT128__
  if (c == 0)
    return UINT64_MAX;
  unsigned __int128 q = ((unsigned __int128)a * b + c / 2) / c;
  return q > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(q);
#else
  return mulDivRoundPortable(a, b, c);
#endif
}

/// a * b, clamped at UINT64_MAX.
inline uint64_t mulSaturating(uint64_t a, uint64_t b) {
  uint64_t product;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

/// a + b, clamped at UINT64_MAX.
inline uint64_t addSaturating(uint64_t a, uint64_t b) {
  return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

} // namespace tpuprof

#endif // TPUPROF_REPORT_READ_WIDEMATH_H
