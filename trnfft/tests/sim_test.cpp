// The sim backend against FFTW in long double: for every precision mode the measured normwise error of
// each transform is at most the bound the run reports (docs/trnfft.md, "Sim backend": the bound is
// ‖ŷ − y‖₂ ≤ bound·‖y‖₂ per transform, composed from trnblas's certified GEMM bounds), the run's bound
// is at most the plan's a-priori bound, results are bitwise identical for 1 and 2 threads, and bad input
// throws. Sizes: DFT-as-GEMM (1 … 256, odd, prime, tile edges 127/128/129), Stockham (512 … 65536, mixed
// radix 1000 = 2^3·5^3, 3^2·7·8 = 504 … ), Bluestein (257, 4099, 2·257 for r2c); the largest only in
// fp32/bf16 to keep the test within seconds.
#include "sim_test_support.hpp"

#include <trnfft/functions.hpp>
#include <trnfft/plan.hpp>
#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace trnfft_test;
using trnfft::Direction;
using trnfft::Kind;

template <class T>
void check_c2c(std::int64_t n, SimPrecision mode, Direction dir, std::int64_t batch, std::uint64_t seed) {
  SCOPED_TRACE("c2c n=" + std::to_string(n) + " mode " + std::string(trnfft_test::to_string(mode)) + " " +
               std::string(trnfft::to_string(dir)) + (std::is_same_v<T, float> ? " float" : " double"));
  auto x = random_complex<T>(static_cast<std::size_t>(n * batch), seed);
  std::vector<std::complex<T>> y(x.size());
  auto plan = trnfft::plan_many_dft<T>({n}, batch, x.data(), {}, 1, n, y.data(), {}, 1, n, dir,
                                       trnfft_test::with_mode(mode, sim_options()));
  const auto prior = trnfft_test::a_priori(plan);
  trncore::AccuracyReport rep;
  plan.execute(rep);
  ASSERT_TRUE(rep.met) << rep.to_string();
  ASSERT_TRUE(rep.cost.has_value());
  EXPECT_GT(rep.cost->stats[trncore::sim::Engine::tensor].elements, 0);
  EXPECT_LE(rep.a_priori_bound, prior.a_priori_bound * (1 + 1e-12));
  std::vector<cld> xl(x.begin(), x.end());
  const auto want = reference(Kind::c2c, {n}, batch, xl, dir);
  const double err = max_row_error(y, want, n);
  EXPECT_LE(err, rep.a_priori_bound) << rep.to_string();
  // Not vacuous: the measured error is far below 1 even where the (worst-case) bound is not (bf16 Bluestein).
  EXPECT_LT(err, 0.05);
}

template <class T>
void check_r2c_c2r(std::int64_t n, SimPrecision mode, std::int64_t batch, std::uint64_t seed) {
  SCOPED_TRACE("r2c/c2r n=" + std::to_string(n) + " mode " + std::string(trnfft_test::to_string(mode)));
  const std::int64_t h = n / 2 + 1;
  auto x = random_reals<T>(static_cast<std::size_t>(n * batch), seed);
  std::vector<std::complex<T>> y(static_cast<std::size_t>(h * batch));
  auto r2c = trnfft::plan_many_dft_r2c<T>({n}, batch, x.data(), {}, 1, n, y.data(), {}, 1, h,
                                          trnfft_test::with_mode(mode, sim_options()));
  trncore::AccuracyReport rep;
  r2c.execute(rep);
  ASSERT_TRUE(rep.met) << rep.to_string();
  std::vector<cld> xl(x.begin(), x.end());
  EXPECT_LE(max_row_error(y, reference(Kind::r2c, {n}, batch, xl, Direction::forward), h), rep.a_priori_bound)
      << rep.to_string();

  // c2r of a Hermitian half spectrum (exact r2c of random data, rounded to T).
  const auto hl = hermitian_input<T>({n}, batch, seed + 1);
  std::vector<std::complex<T>> hin(hl.size());
  for (std::size_t i = 0; i < hl.size(); ++i) hin[i] = {static_cast<T>(hl[i].real()), static_cast<T>(hl[i].imag())};
  std::vector<T> out(static_cast<std::size_t>(n * batch));
  auto c2r = trnfft::plan_many_dft_c2r<T>({n}, batch, hin.data(), {}, 1, h, out.data(), {}, 1, n,
                                          trnfft_test::with_mode(mode, sim_options()));
  c2r.execute(rep);
  ASSERT_TRUE(rep.met) << rep.to_string();
  EXPECT_LE(max_row_error(out, reference(Kind::c2r, {n}, batch, hl, Direction::backward), n), rep.a_priori_bound)
      << rep.to_string();
}

const SimPrecision kAllModes[] = {kFp32, kBf16, kBf16Refined, kCompensated, kOzaki};

TEST(TrnfftSim, DftGemmEveryModeFloat) {
  std::uint64_t seed = 1;
  for (std::int64_t n : {1, 2, 3, 7, 8, 16, 17, 64, 127, 128, 129, 256})
    for (SimPrecision m : kAllModes)
      check_c2c<float>(n, m, n % 2 ? Direction::backward : Direction::forward, 3, seed++);
}

TEST(TrnfftSim, DftGemmDouble) {
  std::uint64_t seed = 100;
  for (std::int64_t n : {1, 5, 64, 256})
    for (SimPrecision m : {kBf16, kCompensated, kOzaki}) check_c2c<double>(n, m, Direction::forward, 2, seed++);
}

TEST(TrnfftSim, OzakiDoubleReachesDoubleAccuracy) {
  // ozaki on double data certifies fp64-level error (per-GEMM ε ≈ 3·2^-53, times √(2n)).
  auto x = random_complex<double>(64 * 2, 7);
  std::vector<std::complex<double>> y(x.size());
  auto plan = trnfft::plan_many_dft<double>({64}, 2, x.data(), {}, 1, 64, y.data(), {}, 1, 64, Direction::forward,
                                            trnfft_test::with_mode(kOzaki, sim_options()));
  trncore::AccuracyReport rep;
  plan.execute(rep);
  EXPECT_LT(rep.a_priori_bound, 1e-14);
  std::vector<cld> xl(x.begin(), x.end());
  EXPECT_LE(max_row_error(y, reference(Kind::c2c, {64}, 2, xl, Direction::forward), 64), rep.a_priori_bound);
}

TEST(TrnfftSim, StockhamAndBluestein) {
  std::uint64_t seed = 200;
  for (std::int64_t n : {257, 504, 512, 1000, 4099})
    for (SimPrecision m : kAllModes) check_c2c<float>(n, m, Direction::forward, 2, seed++);
  for (std::int64_t n : {4096, 65536}) {
    check_c2c<float>(n, kFp32, Direction::backward, 1, seed++);
    check_c2c<float>(n, kBf16, Direction::forward, 1, seed++);
  }
  check_c2c<double>(1000, kOzaki, Direction::forward, 1, seed++);
  check_c2c<double>(257, kOzaki, Direction::backward, 1, seed++);
}

TEST(TrnfftSim, RealTransforms) {
  std::uint64_t seed = 300;
  for (std::int64_t n : {1, 2, 5, 16, 63, 64, 514, 1024})
    for (SimPrecision m : {kBf16, kCompensated}) check_r2c_c2r<float>(n, m, 2, seed++);
  check_r2c_c2r<double>(128, kOzaki, 2, seed++);
}

TEST(TrnfftSim, StridedSplitInPlaceGeometry) {
  // Split storage, batch as the fast dimension (is = batch), in place: gathered and scattered by the plan.
  const std::int64_t n = 24, batch = 3;
  auto x = random_complex<float>(static_cast<std::size_t>(n * batch), 9);
  std::vector<float> re(x.size()), im(x.size());
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t j = 0; j < n; ++j) {
      re[static_cast<std::size_t>(j * batch + b)] = x[static_cast<std::size_t>(b * n + j)].real();
      im[static_cast<std::size_t>(j * batch + b)] = x[static_cast<std::size_t>(b * n + j)].imag();
    }
  auto plan = trnfft::plan_guru_split_dft<float>({{n, batch, batch}}, {{batch, 1, 1}}, re.data(), im.data(), re.data(),
                                                 im.data(), Direction::backward,
                                                 trnfft_test::with_mode(kCompensated, sim_options()));
  trncore::AccuracyReport rep;
  plan.execute(rep);
  std::vector<cld> xl(x.begin(), x.end());
  const auto want = reference(Kind::c2c, {n}, batch, xl, Direction::backward);
  std::vector<std::complex<float>> got(x.size());
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t j = 0; j < n; ++j)
      got[static_cast<std::size_t>(b * n + j)] = {re[static_cast<std::size_t>(j * batch + b)],
                                                  im[static_cast<std::size_t>(j * batch + b)]};
  EXPECT_LE(max_row_error(got, want, n), rep.a_priori_bound);
}

template <class T>
std::vector<std::complex<T>> run_threads(std::int64_t n, SimPrecision mode, int threads, std::int64_t batch) {
  auto x = random_complex<T>(static_cast<std::size_t>(n * batch), 77);
  std::vector<std::complex<T>> y(x.size());
  auto plan = trnfft::plan_many_dft<T>({n}, batch, x.data(), {}, 1, n, y.data(), {}, 1, n, Direction::forward,
                                       trnfft_test::with_mode(mode, sim_options(threads)));
  plan.execute();
  return y;
}

TEST(TrnfftSim, BitwiseIdenticalForAnyThreadCount) {
  for (auto [n, mode] : {std::pair{std::int64_t{256}, kBf16}, std::pair{std::int64_t{4096}, kFp32},
                         std::pair{std::int64_t{257}, kCompensated}, std::pair{std::int64_t{96}, kOzaki},
                         std::pair{std::int64_t{128}, kBf16Refined}}) {
    const auto one = run_threads<float>(n, mode, 1, 64);
    const auto two = run_threads<float>(n, mode, 2, 64);
    const auto four = run_threads<float>(n, mode, 4, 64);
    EXPECT_EQ(0, std::memcmp(one.data(), two.data(), one.size() * sizeof(one[0]))) << n;
    EXPECT_EQ(0, std::memcmp(one.data(), four.data(), one.size() * sizeof(one[0]))) << n;
  }
}

TEST(TrnfftSim, TargetChoosesTheCheapestMode) {
  std::vector<std::complex<float>> x(64 * 4, {0.5f, -0.25f}), y(x.size());
  auto make = [&](double target) {
    auto o = sim_options();
    o.target_forward_error = target;
    return trnfft::plan_many_dft<float>({64}, 4, x.data(), {}, 1, 64, y.data(), {}, 1, 64, Direction::forward, o);
  };
  // Each choice is the first of bf16, fp32, bf16_refined, compensated, ozaki whose bound meets the target.
  const SimPrecision order[] = {kBf16, kFp32, kBf16Refined, kCompensated, kOzaki};
  std::vector<double> bounds;
  for (SimPrecision m : order) {
    auto p = trnfft::plan_many_dft<float>({64}, 4, x.data(), {}, 1, 64, y.data(), {}, 1, 64, Direction::forward,
                                          trnfft_test::with_mode(m, sim_options()));
    bounds.push_back(trnfft_test::a_priori(p).a_priori_bound);
  }
  for (double target : {0.5, 0.05, 1e-3, 1e-5, 1e-6}) {
    std::size_t want = 0;
    while (want < bounds.size() && bounds[want] > target) ++want;
    if (want == bounds.size()) {
      EXPECT_THROW(make(target), trncore::TargetNotMet) << target;
      continue;
    }
    auto plan = make(target);
    const auto rep = trnfft_test::a_priori(plan);
    EXPECT_TRUE(rep.met);
    EXPECT_LE(rep.a_priori_bound, target);
    EXPECT_NE(rep.trajectory.front().description.find(std::string("sim mode ") +
                                                      std::string(trnfft_test::to_string(order[want]))),
              std::string::npos)
        << target << ": " << rep.to_string();
    plan.execute();  // certified: no throw
  }
  EXPECT_THROW(make(1e-9), trncore::TargetNotMet);  // float output cannot be certified that far
}

TEST(TrnfftSim, FreeFunctionsRunOnSim) {
  const auto x = random_complex<double>(48, 5);
  auto o = sim_options();
  o.math_mode = trncore::MathMode::ozaki;
  const auto y = trnfft::ifft(x, std::nullopt, trnfft::Norm::ortho, o);
  std::vector<cld> xl(x.begin(), x.end());
  auto want = reference(Kind::c2c, {48}, 1, xl, Direction::backward);
  for (auto& w : want) w /= std::sqrt(48.0L);
  EXPECT_LT(relative_error(y, want), 1e-13);
  const auto r = trnfft::rfft(std::vector<float>(1000, 1.0f), std::nullopt, trnfft::Norm::backward, sim_options());
  EXPECT_NEAR(r[0].real(), 1000.0f, 1e-2f);
  EXPECT_NEAR(std::abs(r[7]), 0.0f, 1e-2f);
}

TEST(TrnfftSim, BadInput) {
  std::vector<std::complex<float>> x(64), y(64);
  auto o = sim_options();
  o.math_mode = trncore::MathMode::tf32;
  EXPECT_THROW(trnfft::plan_dft_1d<float>(64, x.data(), y.data(), Direction::forward, o), trncore::NotSupported);
  o.math_mode = trncore::MathMode::bf16;
  o.target_forward_error = 1e-6;
  EXPECT_THROW(trnfft::plan_dft_1d<float>(64, x.data(), y.data(), Direction::forward, o), trncore::TargetNotMet);
  o.target_forward_error.reset();
  // refine is bf16's refinement step: with another math mode it is refused, and on host it is not supported.
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_dft_1d<float>(
            64, x.data(), y.data(), Direction::forward,
            trnfft::PlanOptions(sim_options()).with_math_mode(trncore::MathMode::fp32).with_refine());
      },
      "trnfft::plan_dft", {"refine", "fp32"});
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_dft_1d<float>(64, x.data(), y.data(), Direction::forward,
                                         trnfft::PlanOptions(sim_options()).with_refine());
      },
      "trnfft::plan_dft", {"refine", "automatic"});
  expect_error<trncore::NotSupported>(
      [&] {
        (void)trnfft::plan_dft_1d<float>(64, x.data(), y.data(), Direction::forward,
                                         trnfft::PlanOptions{}.with_refine());
      },
      "trnfft::plan_dft", {"refine", "host"});
  auto host = trnfft::plan_dft_1d<float>(64, x.data(), y.data(), Direction::forward);
  trncore::AccuracyReport rep;
  EXPECT_THROW(host.execute(rep), trncore::NotSupported);
  EXPECT_THROW(host.execute(x.data(), y.data(), rep), trncore::NotSupported);
  EXPECT_THROW((void)trnfft_test::a_priori(host), trncore::NotSupported);
}

// The execute overloads taking a report (last) on new arrays: the same output and report as execute(report)
// on the creation arrays; without a report, TargetNotMet whenever the run's met is false.
TEST(TrnfftSim, NewArrayExecuteWithReport) {
  const std::int64_t n = 96;
  auto x = random_complex<float>(static_cast<std::size_t>(n), 31);
  std::vector<std::complex<float>> y(x.size()), y2(x.size());
  const auto plan = trnfft::plan_dft_1d<float>(n, x.data(), y.data(), Direction::forward,
                                               trnfft_test::with_mode(kBf16Refined, sim_options()));
  trncore::AccuracyReport rep, rep2, rep3;
  plan.execute(rep);
  auto x2 = x;
  plan.execute(x2.data(), y2.data(), rep2);
  EXPECT_EQ(std::memcmp(y.data(), y2.data(), y.size() * sizeof(y[0])), 0);
  EXPECT_TRUE(rep2.met);
  EXPECT_EQ(rep2.a_priori_bound, rep.a_priori_bound);
  EXPECT_EQ(rep2.iterations, 1);  // the refinement step
  plan.execute(std::span<const std::complex<float>>(x2), std::span<std::complex<float>>(y2), rep3);
  EXPECT_EQ(rep3.a_priori_bound, rep.a_priori_bound);
  // Split and real forms.
  std::vector<float> re(static_cast<std::size_t>(n)), im(re.size()), ro(re.size()), io(re.size());
  for (std::size_t i = 0; i < re.size(); ++i) {
    re[i] = x[i].real();
    im[i] = x[i].imag();
  }
  const auto split =
      trnfft::plan_guru_split_dft<float>({{n, 1, 1}}, {}, re.data(), im.data(), ro.data(), io.data(),
                                         Direction::forward, trnfft_test::with_mode(kBf16Refined, sim_options()));
  trncore::AccuracyReport srep;
  split.execute_split(re.data(), im.data(), ro.data(), io.data(), srep);
  EXPECT_EQ(srep.a_priori_bound, rep.a_priori_bound);
  for (std::size_t i = 0; i < re.size(); ++i) {
    EXPECT_EQ(ro[i], y[i].real());
    EXPECT_EQ(io[i], y[i].imag());
  }
  std::vector<float> r(static_cast<std::size_t>(n), 0.25f);
  std::vector<std::complex<float>> h(static_cast<std::size_t>(n / 2 + 1));
  const auto r2c = trnfft::plan_dft_r2c_1d<float>(n, r.data(), h.data(), sim_options());
  trncore::AccuracyReport rrep;
  r2c.execute(r.data(), h.data(), rrep);
  EXPECT_TRUE(rrep.met);
  std::vector<float> back(r.size());
  const auto c2r = trnfft::plan_dft_c2r_1d<float>(n, h.data(), back.data(), sim_options());
  trncore::AccuracyReport crep;
  c2r.execute(h.data(), back.data(), crep);
  EXPECT_TRUE(crep.met);
  EXPECT_NEAR(back[3], 0.25f * static_cast<float>(n), 1e-3f);
  // Without a report: a NaN input is not certified, so the run throws (from the new-array form too).
  x2[7] = {std::numeric_limits<float>::quiet_NaN(), 0.0f};
  expect_error<trncore::TargetNotMet>([&] { plan.execute(x2.data(), y2.data()); }, "trnfft::C2CPlan::execute",
                                      {"NaN or Inf in the input"});
  trncore::AccuracyReport nan_rep;
  plan.execute(x2.data(), y2.data(), nan_rep);  // the report form never throws for a numerical outcome
  EXPECT_FALSE(nan_rep.met);
}

}  // namespace
