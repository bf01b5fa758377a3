#pragma once
// What the distribution samplers share: parameter errors, the fixed uniform grids, each rejection
// sample's private window of words, Box–Muller, and Marsaglia–Tsang. Private to trnrand.

#include <trncore/detail/parallel.hpp>
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trnrand/stream.hpp>

#include "distributions/box_muller_kernel.hpp"
#include "generators/arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

namespace trnrand::detail {

__extension__ typedef unsigned __int128 u128;  // Lemire's method needs the high half of a 64×64 product

constexpr std::uint64_t kWindow = std::uint64_t{1} << 32;

[[noreturn]] inline void bad(std::string_view function, const std::string& problem, std::string_view hint) {
  throw trncore::InvalidArgument(function, problem, hint);
}

// Sample i of a window sampler reads the words i·2^32 … (i + 1)·2^32 − 1 of the stream, which holds 2^64
// words: sample i + 2^32 would read sample i's window again and repeat its value. So one call covers at most
// 2^32 samples (sample indices first … first + count − 1 below 2^32), and more is refused, not repeated.
inline void check_window_samples(std::string_view function, std::uint64_t first, std::uint64_t count) {
  if (count <= kWindow && first <= kWindow - count) return;
  bad(function,
      (first == 0 ? std::to_string(count) + " samples"
                  : "samples " + std::to_string(first) + " ... " + std::to_string(first + (count - 1))) +
          " go past 2^32: each sample owns a window of 2^32 words of the stream's 2^64, so sample i + 2^32 would "
          "repeat sample i",
      "fill at most 2^32 values per call; split larger fills over several streams (skip_ahead_sequence)");
}

inline std::string str(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// Uniforms on fixed grids (stream.hpp's recipes): 24 bits from one word, 53 bits from two.
inline double u24_open_closed(std::uint32_t w) { return static_cast<double>((w >> 8) + 1) * 0x1p-24; }
inline double u24_closed_open(std::uint32_t w) { return static_cast<double>(w >> 8) * 0x1p-24; }
inline std::uint64_t bits53(std::uint32_t hi, std::uint32_t lo) {
  return ((static_cast<std::uint64_t>(hi) << 32) | lo) >> 11;
}
inline double u53_open_closed(std::uint32_t hi, std::uint32_t lo) {
  return static_cast<double>(bits53(hi, lo) + 1) * 0x1p-53;
}
inline double u53_closed_open(std::uint32_t hi, std::uint32_t lo) {
  return static_cast<double>(bits53(hi, lo)) * 0x1p-53;
}

// Sample i's private window of words for rejection samplers.
class Window {
 public:
  Window(const Stream& s, std::uint64_t sample) : s_(s), base_(sample * kWindow) {}
  std::uint32_t next() { return word(s_, base_ + used_++); }
  std::uint64_t next64() {
    const std::uint64_t hi = next();
    return (hi << 32) | next();
  }
  double open_closed() {
    const std::uint32_t hi = next();
    return u53_open_closed(hi, next());
  }
  double closed_open() {
    const std::uint32_t hi = next();
    return u53_closed_open(hi, next());
  }
  double standard_normal() {  // Box–Muller, cosine half
    const double u1 = open_closed(), u2 = closed_open();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  // Unbiased integer in [0, range) for range ≥ 1 (Lemire 2019, multiply and reject).
  std::uint64_t below(std::uint64_t range) {
    u128 m = static_cast<u128>(next64()) * range;
    auto low = static_cast<std::uint64_t>(m);
    if (low < range) {
      const std::uint64_t threshold = (0 - range) % range;
      while (low < threshold) {
        m = static_cast<u128>(next64()) * range;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

 private:
  const Stream& s_;
  std::uint64_t base_;
  std::uint64_t used_ = 0;
};

inline void check_normal(std::string_view function, double mean, double stddev) {
  if (!std::isfinite(mean)) bad(function, "mean = " + str(mean) + " is not finite", "pass a finite mean");
  if (!(stddev >= 0) || !std::isfinite(stddev))
    bad(function, "stddev = " + str(stddev) + " is not a finite value >= 0", "pass a finite stddev >= 0");
}

// Runs f(i) for every sample i in [0, n), split over `threads` threads (trncore's pool; small n stay on
// the calling thread). Sample i writes only out[i] and reads only its own words, so the split never
// changes a value.
template <class F>
void for_samples(std::size_t n, int threads, F&& f) {
  trncore::detail::for_aligned_ranges(static_cast<std::int64_t>(n), 0, threads,
                                      [&](std::int64_t begin, std::int64_t end) {
                                        for (std::int64_t i = begin; i < end; ++i) f(static_cast<std::size_t>(i));
                                      });
}

// The checks of a distribution without a sim kernel: options (trncore::validate), the generator, and
// trncore::NotSupported naming `function` on Backend::sim.
inline void check_host_call(std::string_view function, const trncore::Options& options, const Stream& s) {
  check_call(function, options, s);
  on_sim(function, options, "it has no engine kernel");
}

// Standard normals in double by Box–Muller, each value from its own words: value i uses the
// 2·`words_per_uniform` words at 2·words_per_uniform·i … (u1 ∈ (0, 1] then u2 ∈ [0, 1); `words_per_uniform`
// is 1 (24-bit grid, float output) or 2 (53-bit grid)) and is the cosine half √(−2 ln u1)·cospi(2u2) (the sine
// half is not used: sharing it would make value i depend on the words of value i ± 1, and then a slice of a
// fill starting at an odd value would not reproduce it). The transform is the SLEEF kernel of
// trnrand/detail/normal_kernel.hpp (the same bits on every CPU). The words are generated and transformed in
// blocks that stay in the L1 cache, on up to `threads` threads; sink(i, z) is called once per value (distinct
// i on distinct threads). Returns the stream after the words used.
template <class Sink>
Stream box_muller(Stream s, std::size_t n, int words_per_uniform, int threads, Sink&& sink) {
  const std::size_t per = 2 * static_cast<std::size_t>(words_per_uniform);
  trncore::detail::for_aligned_ranges(
      static_cast<std::int64_t>(n), 0, threads, [&](std::int64_t begin, std::int64_t end) {
        constexpr std::size_t kBlock = 512;
        std::uint32_t w[4 * kBlock];
        double z[kBlock];
        for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); i += kBlock) {
          const std::size_t m = std::min(kBlock, static_cast<std::size_t>(end) - i);
          fill_words(skip_ahead(s, per * i), std::span<std::uint32_t>(w, per * m), 1);
          box_muller_standard_normals(w, m, words_per_uniform, z);
          for (std::size_t j = 0; j < m; ++j) sink(i + j, z[j]);
        }
      });
  return skip_ahead(s, per * n);
}

// Per-sample windows: out[i] = f(window of sample i), over `threads` threads; returns the stream advanced
// by the window budget.
template <class T, class F>
Stream per_sample(Stream s, std::span<T> out, int threads, F&& f) {
  for_samples(out.size(), threads, [&](std::size_t i) {
    Window w(s, i);
    out[i] = static_cast<T>(f(w));
  });
  return skip_ahead(s, out.size() * kWindow);
}

/// Marsaglia–Tsang (ACM TOMS 26(3), 2000) for shape ≥ 1, from a sample's window.
double gamma_at_least_one(Window& w, double shape);
/// Gamma(shape, 1) for any shape > 0 (shape < 1 by the boost Gamma(a) = Gamma(a + 1)·U^(1/a)).
double standard_gamma(Window& w, double shape);
/// ln of a Gamma(shape, 1) variate, from the same words as standard_gamma: finite even where the variate
/// itself underflows (shape ≪ 1), so that ratios of gammas (beta, Student t) keep their values there.
double log_standard_gamma(Window& w, double shape);

}  // namespace trnrand::detail
