#include <trnrand/latin_hypercube.hpp>

#include "qmc/checks.hpp"
#include "qmc/random_words.hpp"

#include <trncore/detail/parallel.hpp>

#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace trnrand {

namespace {

constexpr std::int64_t kMaxPoints = std::int64_t{1} << 32;  // strata indices stay exact and Philox counters 32-bit

constexpr const char* kFunction = "trnrand::latin_hypercube";

void check_sizes(std::int64_t n, std::int64_t dims, const trncore::Options& options) {
  detail::check_qmc_options(kFunction, options);
  if (n < 0 || n > kMaxPoints)
    throw trncore::InvalidArgument(kFunction, "n = " + std::to_string(n) + " is outside [0, 2^32]",
                                   "pass 0 <= n <= 2^32");
  detail::check_dims(kFunction, dims, std::numeric_limits<std::int64_t>::max(), "pass dims >= 1");
}

// (p + u) / n rounded to double can land on the stratum's upper edge (p + 1)/n, or below p/n when
// (p + 1)/n is not representable; step to the neighbouring double until p ≤ x·n < p + 1 holds exactly.
// fma gives the exact sign of x·n − c, because one rounding never changes a sign or creates a zero.
double inside_stratum(double x, double p, double n) {
  while (std::fma(x, n, -(p + 1)) >= 0) x = std::nextafter(x, 0.0);
  while (std::fma(x, n, -p) < 0) x = std::nextafter(x, 1.0);
  return x;
}

}  // namespace

void latin_hypercube(std::int64_t n, std::int64_t dims, double* out, std::int64_t ld, LatinHypercubeOptions options) {
  check_sizes(n, dims, options);
  detail::check_rows(kFunction, n, dims, "dims", out, ld);
  if (n == 0) return;
  const double count = static_cast<double>(n);
  // Dimensions are independent (their words are keyed by d), so blocks of them run on separate threads,
  // each with one scratch permutation: the sample never depends on the split.
  const std::int64_t blocks = std::min<std::int64_t>(dims, trncore::detail::resolve_threads(options.threads));
  trncore::detail::parallel_for(blocks, options.threads, [&](std::int64_t block) {
    std::vector<std::uint32_t> stratum(static_cast<std::size_t>(n));
    for (std::int64_t d = block * dims / blocks; d < (block + 1) * dims / blocks; ++d) {
      const auto dim = static_cast<std::uint32_t>(d);
      // Fisher–Yates: a uniformly random assignment of the n strata to the n points in this dimension.
      std::iota(stratum.begin(), stratum.end(), std::uint32_t{0});
      detail::WordStream words(options.seed, detail::Purpose::lhs_permutation, dim, 0);
      for (std::uint64_t i = static_cast<std::uint64_t>(n) - 1; i > 0; --i)
        std::swap(stratum[i], stratum[words.below(i + 1)]);
      for (std::int64_t i = 0; i < n; ++i) {
        const double p = stratum[static_cast<std::size_t>(i)];
        double u = 0.5;
        if (!options.centered) {
          const auto w = detail::random_words(options.seed, detail::Purpose::lhs_jitter, static_cast<std::uint32_t>(i),
                                              static_cast<std::uint32_t>(static_cast<std::uint64_t>(i) >> 32), dim);
          u = static_cast<double>(((std::uint64_t{w[1]} << 32) | w[0]) >> 11) * 0x1p-53;  // 53 bits: [0, 1)
        }
        // Centered: p + 1/2 is exact and (p + 1/2)/n lies half a stratum from either edge, far more than the
        // half-ulp rounding, so inside_stratum leaves it alone.
        out[i * ld + d] = inside_stratum((p + u) / count, p, count);
      }
    }
  });
}

void latin_hypercube(std::int64_t n, std::int64_t dims, std::span<double> out, LatinHypercubeOptions options) {
  check_sizes(n, dims, options);
  detail::check_span_rows(kFunction, out.size(), n, dims);
  latin_hypercube(n, dims, out.data(), dims, options);
}

std::vector<double> latin_hypercube(std::int64_t n, std::int64_t dims, LatinHypercubeOptions options) {
  check_sizes(n, dims, options);
  if (n > 0 && static_cast<std::uint64_t>(dims) >
                   std::numeric_limits<std::size_t>::max() / sizeof(double) / static_cast<std::uint64_t>(n))
    throw trncore::InvalidArgument(
        kFunction,
        "n * dims = " + std::to_string(n) + " * " + std::to_string(dims) + " doubles overflow the address space",
        "pass a smaller sample size");
  std::vector<double> out(static_cast<std::size_t>(n) * static_cast<std::size_t>(dims));
  latin_hypercube(n, dims, std::span<double>(out), options);
  return out;
}

}  // namespace trnrand
