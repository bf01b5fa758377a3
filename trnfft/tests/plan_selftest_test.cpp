// FFTW-style self-tests that need no reference transform (after Ergün's randomized tests, as FFTW's own
// bench --verify does): linearity, impulse response, time shift, Parseval, round trips. Each relation is
// checked normwise with the tolerance of fft_test_support.hpp scaled by the number of transforms whose
// errors enter it (each contributes at most tol·‖its output‖).
#include "fft_test_support.hpp"

#include <trnfft/trnfft.hpp>

#include <gtest/gtest.h>

#include <numbers>
#include <thread>

namespace {

using namespace trnfft_test;
using trnfft::Direction;

template <class T>
class PlanSelfTest : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(PlanSelfTest, Precisions);

const std::vector<std::int64_t> kSizes = {1, 2, 3, 6, 13, 16, 100, 127, 128, 129, 257, 1000, 1024, 4093, 10007};

template <class V>
std::vector<cld> widen_all(const V& v) {
  return std::vector<cld>(v.begin(), v.end());
}

template <class T>
std::vector<std::complex<T>> transform(std::int64_t n, std::vector<std::complex<T>> x, Direction d) {
  std::vector<std::complex<T>> y(x.size());
  trnfft::plan_dft_1d(n, x.data(), y.data(), d).execute();
  return y;
}

TYPED_TEST(PlanSelfTest, Linearity) {
  using T = TypeParam;
  for (auto n : kSizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto un = static_cast<std::size_t>(n);
    const auto x = random_complex<T>(un, 11), y = random_complex<T>(un, 12);
    const std::complex<T> a(T(0.75), T(-0.5)), b(T(-1.25), T(0.25));
    std::vector<std::complex<T>> axby(un);
    for (std::size_t i = 0; i < un; ++i) axby[i] = a * x[i] + b * y[i];
    for (auto d : {Direction::forward, Direction::backward}) {
      const auto fx = transform<T>(n, x, d), fy = transform<T>(n, y, d), f = transform<T>(n, axby, d);
      std::vector<cld> want(un);
      for (std::size_t i = 0; i < un; ++i) want[i] = cld(a) * cld(fx[i]) + cld(b) * cld(fy[i]);
      // Three transforms and the rounding of a·x + b·y (≤ 2u relative per element) enter the difference.
      EXPECT_LE(relative_error(f, want), 3 * fft_tolerance<T>(n) + 4 * unit_roundoff<T>());
    }
  }
}

TYPED_TEST(PlanSelfTest, ImpulseResponse) {
  using T = TypeParam;
  for (auto n : kSizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto un = static_cast<std::size_t>(n);
    // δ_0 transforms to all ones exactly in exact arithmetic; a unit impulse at j transforms to the
    // twiddles exp(∓2πijk/n).
    std::vector<std::complex<T>> delta(un, {0, 0});
    delta[0] = 1;
    const auto f = transform<T>(n, delta, Direction::forward);
    EXPECT_LE(relative_error(f, std::vector<cld>(un, cld(1))), fft_tolerance<T>(n));
    if (n > 1) {
      std::vector<std::complex<T>> d1(un, {0, 0});
      d1[1] = 1;
      const auto g = transform<T>(n, d1, Direction::backward);
      std::vector<cld> want(un);
      for (std::size_t k = 0; k < un; ++k)
        want[k] = std::polar(1.0L, 2 * std::numbers::pi_v<long double> * static_cast<long double>(k) / n);
      EXPECT_LE(relative_error(g, want), fft_tolerance<T>(n));
    }
    // r2c of a real impulse: n/2 + 1 ones.
    std::vector<T> r(un, T(0));
    r[0] = 1;
    std::vector<std::complex<T>> h(un / 2 + 1);
    trnfft::plan_dft_r2c_1d(n, r.data(), h.data()).execute();
    EXPECT_LE(relative_error(h, std::vector<cld>(h.size(), cld(1))), fft_tolerance<T>(n));
  }
}

TYPED_TEST(PlanSelfTest, TimeShiftMultipliesByTwiddles) {
  using T = TypeParam;
  for (auto n : kSizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto un = static_cast<std::size_t>(n);
    const auto x = random_complex<T>(un, 21);
    std::vector<std::complex<T>> shifted(un);
    for (std::size_t j = 0; j < un; ++j) shifted[(j + 1) % un] = x[j];  // x delayed by one sample
    const auto fx = transform<T>(n, x, Direction::forward);
    const auto fs = transform<T>(n, shifted, Direction::forward);
    std::vector<cld> want(un);
    for (std::size_t k = 0; k < un; ++k)
      want[k] = cld(fx[k]) * std::polar(1.0L, -2 * std::numbers::pi_v<long double> * static_cast<long double>(k) / n);
    // Two transforms, and the product of fx with an exact twiddle.
    EXPECT_LE(relative_error(fs, want), 2 * fft_tolerance<T>(n));
  }
}

TYPED_TEST(PlanSelfTest, ParsevalAndRoundTrip) {
  using T = TypeParam;
  for (auto n : kSizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto un = static_cast<std::size_t>(n);
    const auto x = random_complex<T>(un, 31);
    const auto f = transform<T>(n, x, Direction::forward);
    long double ex = 0, ef = 0;
    for (std::size_t i = 0; i < un; ++i) {
      ex += std::norm(cld(x[i]));
      ef += std::norm(cld(f[i]));
    }
    // ‖Fx‖ = √n‖x‖; ‖ŷ‖ differs from ‖y‖ by at most tol·‖y‖.
    EXPECT_NEAR(static_cast<double>(std::sqrt(ef / (ex * n))), 1.0, fft_tolerance<T>(n) + unit_roundoff<T>());
    auto back = transform<T>(n, f, Direction::backward);
    for (auto& v : back) v /= static_cast<T>(n);
    EXPECT_LE(relative_error(back, x), 2 * fft_tolerance<T>(n) + unit_roundoff<T>());

    std::vector<T> r(un);
    for (std::size_t i = 0; i < un; ++i) r[i] = x[i].real();
    std::vector<std::complex<T>> h(un / 2 + 1);
    std::vector<T> r2(un);
    trnfft::plan_dft_r2c_1d(n, r.data(), h.data()).execute();
    trnfft::plan_dft_c2r_1d(n, h.data(), r2.data()).execute();
    for (auto& v : r2) v /= static_cast<T>(n);
    EXPECT_LE(relative_error(r2, r), 2 * fft_tolerance<T>(n) + unit_roundoff<T>());
  }
}

TYPED_TEST(PlanSelfTest, SplitBackwardEqualsInterleavedBackward) {
  using T = TypeParam;
  const std::int64_t n = 60;
  const auto x = random_complex<T>(n, 41);
  std::vector<T> ri(n), ii(n), ro(n), io(n);
  for (std::int64_t i = 0; i < n; ++i) {
    ri[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i)].real();
    ii[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i)].imag();
  }
  auto p =
      trnfft::plan_guru_split_dft<T>({{n, 1, 1}}, {}, ri.data(), ii.data(), ro.data(), io.data(), Direction::backward);
  EXPECT_EQ(p.direction(), Direction::backward);
  EXPECT_EQ(p.layout(), trnfft::ComplexLayout::split);
  p.execute();
  const auto want = transform<T>(n, x, Direction::backward);
  std::vector<std::complex<T>> got(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < got.size(); ++k) got[k] = {ro[k], io[k]};
  // Both are within tol of the exact backward transform (a forward transform would be far off).
  EXPECT_LE(relative_error(got, want), 2 * fft_tolerance<T>(n));
}

// Plan creation and destruction from several threads at once (serialised by planner_mutex inside
// trnfft), each thread executing its own plans on its own data.
TYPED_TEST(PlanSelfTest, ConcurrentPlanningAndExecution) {
  using T = TypeParam;
  std::vector<double> errors(4, 1.0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &errors] {
      double worst = 0;
      for (int rep = 0; rep < 20; ++rep) {
        const std::int64_t n = 64 + 17 * t + rep;
        const auto x = random_complex<T>(static_cast<std::size_t>(n), static_cast<std::uint64_t>(100 * t + rep));
        auto f = transform<T>(n, x, Direction::forward);
        auto b = transform<T>(n, f, Direction::backward);
        for (auto& v : b) v /= static_cast<T>(n);
        worst = std::max(worst, relative_error(b, x) / (2 * fft_tolerance<T>(n) + unit_roundoff<T>()));
      }
      errors[static_cast<std::size_t>(t)] = worst;
    });
  for (auto& th : threads) th.join();
  for (double e : errors) EXPECT_LE(e, 1.0);
}

// One plan executed from four threads at once on distinct arrays (new-array execute): documented safe.
TYPED_TEST(PlanSelfTest, OnePlanExecutedConcurrentlyOnDistinctArrays) {
  using T = TypeParam;
  const std::int64_t n = 512;
  Buffer<std::complex<T>> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  const auto plan = trnfft::plan_dft_1d(n, a.data(), b.data(), Direction::forward);
  // Inputs and long-double references first: the oracle's planner (fftwl) is not thread-safe either.
  std::vector<std::vector<std::complex<T>>> inputs;
  std::vector<std::vector<cld>> wants;
  for (int k = 0; k < 4 * 20; ++k) {
    inputs.push_back(random_complex<T>(static_cast<std::size_t>(n), static_cast<std::uint64_t>(1000 + k)));
    wants.push_back(reference(trnfft::Kind::c2c, {n}, 1, widen_all(inputs.back()), Direction::forward));
  }
  std::vector<double> worst(4, 1.0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      Buffer<std::complex<T>> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
      double w = 0;
      for (int rep = 0; rep < 20; ++rep) {
        const auto k = static_cast<std::size_t>(20 * t + rep);
        std::copy(inputs[k].begin(), inputs[k].end(), in.data());
        plan.execute(in.data(), out.data());
        w = std::max(w, relative_error(std::vector<std::complex<T>>(out.data(), out.data() + n), wants[k]) /
                            fft_tolerance<T>(n));
      }
      worst[static_cast<std::size_t>(t)] = w;
    });
  for (auto& th : threads) th.join();
  for (double w : worst) EXPECT_LE(w, 1.0);
}

}  // namespace
