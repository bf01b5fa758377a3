#pragma once
/// @file
/// CPU feature tests that both GCC and Clang accept. __builtin_cpu_supports knows "f16c" and
/// "avx512bf16" in GCC 12 but not in Clang 14, so these two read CPUID (Intel SDM vol. 2A, "CPUID") and
/// check that the OS saves the register state the instructions use (XGETBV, XCR0), as the builtin does.

#include <cpuid.h>

#include <cstdint>

namespace trncore::detail {

/// XCR0 with the bits the OS enabled; 0 when XGETBV is not available (CPUID.1:ECX.OSXSAVE[27] clear).
inline std::uint64_t xcr0() noexcept {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & (1u << 27)) == 0) return 0;
  std::uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

/// F16C (CPUID.1:ECX[29]) with the AVX state (XCR0 bits 1 and 2) enabled.
inline bool cpu_has_f16c() noexcept {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & (1u << 29)) == 0) return false;
  return (xcr0() & 0x6u) == 0x6u;
}

/// AVX512-BF16 (CPUID.(EAX=7,ECX=1):EAX[5]) with the AVX-512 state (XCR0 bits 1, 2, 5, 6, 7) enabled.
inline bool cpu_has_avx512bf16() noexcept {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(7, 1, &a, &b, &c, &d) == 0 || (a & (1u << 5)) == 0) return false;
  return (xcr0() & 0xE6u) == 0xE6u;
}

}  // namespace trncore::detail
