// The SLEEF kernel of the normal fills (trnrand/detail/normal_kernel.hpp, docs/trnrand.md "Normal fills").
// - ISA independence: every variant this CPU runs (scalar, sse2, avx, avx512) returns the same bits as
//   SLEEF's scalar cinz functions for log on every u1 and for cospi on every 2·u2 a float fill can produce
//   (2^24 each, exhaustively), on 2^20 inputs of the 53-bit grid, and for whole standard_normals on random
//   words of both grids. (SLEEF documents its cinz functions as deterministic across vector extensions.)
// - Accuracy: against the exact Box–Muller transform of the same words (MPFR 4.2's cospi, 160 bits),
//   |z − Z| ≤ 4.02·2^-53·|Z| for the kernel, and the fills normal(float/double) within the bounds derived
//   from it; the fills are mean + stddev·(kernel value), for 1, 2 and 3 threads.
// - Bad arguments throw the documented errors.
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trnrand/detail/normal_kernel.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/stream.hpp>

#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using trnrand::detail::NormalKernel;

constexpr NormalKernel kVariants[] = {NormalKernel::scalar, NormalKernel::sse2, NormalKernel::avx,
                                      NormalKernel::avx512};

std::vector<NormalKernel> supported() {
  std::vector<NormalKernel> out;
  for (NormalKernel k : kVariants)
    if (trnrand::detail::normal_kernel_supported(k)) out.push_back(k);
  return out;
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// f of every input x(k), k ∈ [first, last), for every supported variant, bitwise against the scalar one.
template <class Input>
void expect_same_bits(const char* name, void (*f)(NormalKernel, std::span<const double>, std::span<double>),
                      std::uint64_t first, std::uint64_t last, Input x) {
  constexpr std::uint64_t kChunk = 1 << 16;
  std::vector<double> in(kChunk), ref(kChunk), got(kChunk);
  const auto kernels = supported();
  for (std::uint64_t k0 = first; k0 < last; k0 += kChunk) {
    const std::size_t m = static_cast<std::size_t>(std::min(kChunk, last - k0));
    for (std::size_t j = 0; j < m; ++j) in[j] = x(k0 + j);
    const std::span<const double> input(in.data(), m);
    f(NormalKernel::scalar, input, std::span<double>(ref.data(), m));
    for (NormalKernel k : kernels) {
      if (k == NormalKernel::scalar) continue;
      f(k, input, std::span<double>(got.data(), m));
      for (std::size_t j = 0; j < m; ++j)
        ASSERT_EQ(bits(got[j]), bits(ref[j])) << name << " " << to_string(k) << " at " << std::hexfloat << in[j];
    }
  }
}

TEST(NormalKernel, EveryVariantGivesTheSameBitsForEveryFloatFillInput) {
  std::printf("variants on this CPU:");
  for (NormalKernel k : supported()) std::printf(" %s", std::string(to_string(k)).c_str());
  std::printf(" (fills use %s)\n", std::string(to_string(trnrand::detail::normal_kernel_detected())).c_str());
  // u1 = k·2^-24, k = 1 … 2^24; t = 2·u2 = k·2^-23, k = 0 … 2^24 − 1.
  expect_same_bits("log", trnrand::detail::normal_kernel_log, 1, (std::uint64_t{1} << 24) + 1,
                   [](std::uint64_t k) { return static_cast<double>(k) * 0x1p-24; });
  expect_same_bits("cospi", trnrand::detail::normal_kernel_cospi, 0, std::uint64_t{1} << 24,
                   [](std::uint64_t k) { return static_cast<double>(k) * 0x1p-23; });
}

TEST(NormalKernel, EveryVariantGivesTheSameBitsOnTheDoubleGrid) {
  // 2^20 inputs of the 53-bit grids from Philox words: u1 = (b + 1)·2^-53, t = b·2^-52, and the grids' ends.
  std::vector<std::uint64_t> b(std::size_t{1} << 20);
  std::vector<std::uint32_t> w(2 * b.size());
  trnrand::fill_uint32(trnrand::make_stream(53), w);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = ((std::uint64_t{w[2 * i]} << 32 | w[2 * i + 1]) >> 11);
  b[0] = 0;
  b[1] = (std::uint64_t{1} << 53) - 1;
  expect_same_bits("log", trnrand::detail::normal_kernel_log, 0, b.size(),
                   [&](std::uint64_t i) { return static_cast<double>(b[i] + 1) * 0x1p-53; });
  expect_same_bits("cospi", trnrand::detail::normal_kernel_cospi, 0, b.size(),
                   [&](std::uint64_t i) { return static_cast<double>(b[i]) * 0x1p-52; });
}

TEST(NormalKernel, StandardNormalsAreTheSameOnEveryVariantAndAreWhatTheFillsUse) {
  for (int b : {1, 2}) {
    const std::size_t n = 100003;  // not a multiple of any vector width or block
    std::vector<std::uint32_t> w(2 * static_cast<std::size_t>(b) * n);
    const trnrand::Stream s = trnrand::make_stream(2026, 3, 7);
    trnrand::fill_uint32(s, w);
    std::vector<double> ref(n), got(n);
    trnrand::detail::standard_normals(NormalKernel::scalar, w, b, ref);
    for (NormalKernel k : supported()) {
      trnrand::detail::standard_normals(k, w, b, got);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(bits(got[i]), bits(ref[i])) << to_string(k) << " b " << b << " " << i;
    }
    // The fills: out[i] = (T)(mean + stddev·z[i]), whatever the thread count.
    for (int threads : {1, 2, 3}) {
      const auto options = trncore::Options{}.with_threads(threads);
      if (b == 1) {
        std::vector<float> out(n);
        trnrand::normal(s, std::span<float>(out), 1.5f, 2.0f, options);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(std::bit_cast<std::uint32_t>(out[i]),
                    std::bit_cast<std::uint32_t>(static_cast<float>(1.5 + 2.0 * ref[i])))
              << threads << " " << i;
      } else {
        std::vector<double> out(n);
        trnrand::normal(s, std::span<double>(out), -1.0, 0.5, options);
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(bits(out[i]), bits(-1.0 + 0.5 * ref[i])) << threads << " " << i;
      }
    }
  }
}

// The exact Box–Muller value Z = √(−2 ln u1)·cos(2π u2) of the uniforms, in MPFR at 160 bits.
class Exact {
 public:
  Exact() { mpfr_inits2(160, z_, c_, d_, static_cast<mpfr_ptr>(nullptr)); }
  ~Exact() { mpfr_clears(z_, c_, d_, static_cast<mpfr_ptr>(nullptr)); }
  Exact(const Exact&) = delete;
  Exact& operator=(const Exact&) = delete;
  // Z for (u1, u2); returns it rounded to double (for the error bounds, which are relative to |Z|).
  double set(double u1, double u2) {
    mpfr_set_d(z_, u1, MPFR_RNDN);
    mpfr_log(z_, z_, MPFR_RNDN);
    mpfr_mul_si(z_, z_, -2, MPFR_RNDN);
    mpfr_sqrt(z_, z_, MPFR_RNDN);
    mpfr_set_d(c_, 2 * u2, MPFR_RNDN);  // exact; cos(π·2u2) without a rounded π (exactly 0 at u2 = 1/4, 3/4)
    mpfr_cospi(c_, c_, MPFR_RNDN);
    mpfr_mul(z_, z_, c_, MPFR_RNDN);
    return mpfr_get_d(z_, MPFR_RNDN);
  }
  // |mean + stddev·Z − x|, rounded up.
  double error(double x, double mean = 0, double stddev = 1) {
    mpfr_mul_d(d_, z_, stddev, MPFR_RNDN);
    mpfr_add_d(d_, d_, mean, MPFR_RNDN);
    mpfr_sub_d(d_, d_, x, MPFR_RNDN);
    return std::fabs(mpfr_get_d(d_, MPFR_RNDU));
  }

 private:
  mpfr_t z_, c_, d_;
};

TEST(NormalKernel, WithinTheDocumentedBoundOfTheExactBoxMuller) {
  constexpr double kKernel = 4.02 * 0x1p-53;  // ln ≤ 1 ulp, √ and the product ½ ulp each, cospi ≤ 0.506 ulp
  for (int b : {1, 2}) {
    const std::size_t n = std::size_t{1} << 16;
    std::vector<std::uint32_t> w(2 * static_cast<std::size_t>(b) * n);
    trnrand::fill_uint32(trnrand::make_stream(1958, 0, 0), w);
    // The grids' ends and the zeros of the cosine: u1 = 1 and the smallest u1; u2 = 0, 1/4, 1/2, 3/4.
    const std::uint32_t top = 0xFFFFFFFFu, u2_quarter = 0x40000000u, u2_half = 0x80000000u, u2_3q = 0xC0000000u;
    if (b == 1) {
      const std::uint32_t edge[][2] = {{top, 0}, {0, 0}, {0, u2_quarter}, {5u << 8, u2_half}, {77u << 8, u2_3q}};
      for (std::size_t e = 0; e < 5; ++e) w[2 * e] = edge[e][0], w[2 * e + 1] = edge[e][1];
    } else {
      const std::uint32_t edge[][2] = {{top, top}, {0, 0}, {0, u2_quarter}, {5, u2_half}, {77, u2_3q}};
      for (std::size_t e = 0; e < 5; ++e)
        w[4 * e] = edge[e][0], w[4 * e + 1] = edge[e][0], w[4 * e + 2] = edge[e][1], w[4 * e + 3] = 0;
    }
    std::vector<double> z(n);
    trnrand::detail::standard_normals(NormalKernel::automatic, w, b, z);
    Exact exact;
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double u1, u2;
      if (b == 1) {
        u1 = ((w[2 * i] >> 8) + 1) * 0x1p-24;
        u2 = (w[2 * i + 1] >> 8) * 0x1p-24;
      } else {
        u1 = static_cast<double>(((std::uint64_t{w[4 * i]} << 32 | w[4 * i + 1]) >> 11) + 1) * 0x1p-53;
        u2 = static_cast<double>((std::uint64_t{w[4 * i + 2]} << 32 | w[4 * i + 3]) >> 11) * 0x1p-53;
      }
      const double Z = std::fabs(exact.set(u1, u2)), e = exact.error(z[i]);
      if (Z == 0) {
        ASSERT_EQ(z[i], 0.0) << "b " << b << " i " << i;  // u1 = 1 or u2 ∈ {1/4, 3/4}: exactly 0
        continue;
      }
      ASSERT_LE(e, kKernel * Z) << "b " << b << " i " << i << " u1 " << u1 << " u2 " << u2;
      worst = std::max(worst, e / Z / 0x1p-53);
    }
    std::printf("%d-bit uniforms: max |z - Z|/|Z| = %.3f * 2^-53 (bound 4.02)\n", b == 1 ? 24 : 53, worst);
  }
}

TEST(NormalKernel, FillsWithinTheirDocumentedBounds) {
  // float: |out − X| ≤ 2^-24·|out| + 2^-53·(|out| + 5.03·σ·|Z|); double: |out − X| ≤ 2^-53·(|out| + 5.03·σ·|Z|),
  // X = mean + σ·Z the exact value of the same words.
  const std::size_t n = std::size_t{1} << 15;
  const trnrand::Stream s = trnrand::make_stream(4711, 2, 5);
  for (const auto& [mean, stddev] : {std::pair{0.0, 1.0}, {-3.5, 0.25}, {1000.0, 7.0}}) {
    std::vector<float> f(n);
    std::vector<double> d(n);
    std::vector<std::uint32_t> wf(2 * n), wd(4 * n);
    trnrand::normal(s, std::span<float>(f), static_cast<float>(mean), static_cast<float>(stddev));
    trnrand::normal(s, std::span<double>(d), mean, stddev);
    trnrand::fill_uint32(s, wf);
    trnrand::fill_uint32(s, wd);
    Exact exact;
    for (std::size_t i = 0; i < n; ++i) {
      double Z = std::fabs(exact.set(((wf[2 * i] >> 8) + 1) * 0x1p-24, (wf[2 * i + 1] >> 8) * 0x1p-24));
      const double of = std::fabs(static_cast<double>(f[i]));
      ASSERT_LE(exact.error(f[i], mean, stddev), 0x1p-24 * of + 0x1p-53 * (of + 5.03 * stddev * Z)) << i;
      const double u1 = static_cast<double>(((std::uint64_t{wd[4 * i]} << 32 | wd[4 * i + 1]) >> 11) + 1) * 0x1p-53;
      const double u2 = static_cast<double>((std::uint64_t{wd[4 * i + 2]} << 32 | wd[4 * i + 3]) >> 11) * 0x1p-53;
      Z = std::fabs(exact.set(u1, u2));
      ASSERT_LE(exact.error(d[i], mean, stddev), 0x1p-53 * (std::fabs(d[i]) + 5.03 * stddev * Z)) << i;
    }
  }
}

TEST(NormalKernel, BadArgumentsThrow) {
  std::vector<std::uint32_t> w(8);
  std::vector<double> z(2), y(3);
  EXPECT_THROW(trnrand::detail::standard_normals(static_cast<NormalKernel>(9), w, 1, z), trncore::InvalidArgument);
  EXPECT_EQ(to_string(static_cast<NormalKernel>(9)), "invalid");
  EXPECT_THROW(trnrand::detail::standard_normals(NormalKernel::automatic, w, 3, z), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::detail::standard_normals(NormalKernel::automatic, std::span(w).first(7), 2, z),
               trncore::InvalidArgument);
  EXPECT_THROW(trnrand::detail::normal_kernel_log(NormalKernel::automatic, z, y), trncore::DimensionMismatch);
  EXPECT_THROW(trnrand::detail::normal_kernel_cospi(NormalKernel::scalar, z, y), trncore::DimensionMismatch);
  for (NormalKernel k : kVariants) {
    if (!trnrand::detail::normal_kernel_supported(k)) {
      EXPECT_THROW(trnrand::detail::standard_normals(k, w, 1, z), trncore::NotSupported) << to_string(k);
    }
  }
}

}  // namespace
