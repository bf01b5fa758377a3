// What every sim FFT algorithm shares (common.hpp).
#include "sim/common.hpp"

#include <trncore/sim/spec.hpp>

#include <cmath>

namespace trnfft::detail::sim {

namespace {
__extension__ typedef __int128 i128;  // exact index products (angles reduced mod n)
}  // namespace

std::string_view name(Precision precision) noexcept {
  switch (precision) {
    case Precision::fp32: return "fp32";
    case Precision::bf16: return "bf16";
    case Precision::bf16_refined: return "bf16_refined";
    case Precision::compensated: return "compensated";
    case Precision::ozaki: return "ozaki";
  }
  return "?";
}

trncore::MathMode gemm_mode(Precision precision) noexcept {
  switch (precision) {
    case Precision::fp32: return trncore::MathMode::fp32;
    case Precision::bf16:
    case Precision::bf16_refined: return trncore::MathMode::bf16;
    case Precision::compensated: return trncore::MathMode::compensated;
    case Precision::ozaki: return trncore::MathMode::ozaki;
  }
  return trncore::MathMode::ozaki;
}

std::string mode_name(trncore::MathMode mode) { return std::string(trncore::to_string(mode)); }

cld unit_root(std::int64_t a, std::int64_t n, int sign) {
  a %= n;
  if (a < 0) a += n;
  const i128 a4 = static_cast<i128>(a) * 4;
  const auto q = static_cast<int>(a4 / n);
  const auto rem = static_cast<long double>(a4 - static_cast<i128>(q) * n);  // in [0, n)
  long double c = 1, s = 0;
  if (rem != 0) {
    const long double pi = 3.141592653589793238462643383279502884L;
    const long double th = pi * rem / (2.0L * static_cast<long double>(n));  // in (0, π/2)
    c = std::cos(th);
    s = std::sin(th);
  }
  long double re = c, im = s;
  switch (q) {
    case 1:
      re = -s;
      im = c;
      break;
    case 2:
      re = -c;
      im = -s;
      break;
    case 3:
      re = s;
      im = -c;
      break;
    default: break;
  }
  return {re, sign < 0 ? -im : im};
}

bool smooth(std::int64_t n) {
  for (std::int64_t p : {2, 3, 5, 7})
    while (n % p == 0) n /= p;
  return n == 1;
}

std::string shape_text(const std::vector<std::int64_t>& n) {
  std::string s;
  for (std::size_t k = 0; k < n.size(); ++k) {
    if (k > 0) s += 'x';
    s += std::to_string(n[k]);
  }
  return s;
}

void count_vector(trncore::sim::EngineStats& stats, trncore::sim::Generation generation, std::int64_t elements) {
  const auto& spec = trncore::sim::spec(generation);
  auto& v = stats[trncore::sim::Engine::vector];
  v.instructions += 1;
  v.elements += elements;
  v.cycles +=
      static_cast<double>(elements) / trncore::sim::vector_elements_per_cycle(spec) + spec.instruction_overhead_cycles;
}

void count_dma(trncore::sim::EngineStats& stats, std::int64_t bytes) {
  auto& d = stats[trncore::sim::Engine::dma];
  d.instructions += 1;
  d.bytes += bytes;
}

}  // namespace trnfft::detail::sim
