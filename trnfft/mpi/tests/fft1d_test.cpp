// Distributed 1-D FFT (six-step) against the single-process trnfft plan_dft_1d of the whole vector and FFTW's
// MPI 1-D transform (fftw_mpi_plan_dft_1d, its own distribution), for 1–4 ranks, within the bound
// ‖ŷ − y‖₂ ≤ (8·u·log2 N + 4u)·‖y‖₂ (fft1d.hpp: two FFT stages of c·u·log2 of their lengths, c = 8 ≥ Higham's
// 6.7, and a twiddle multiplication τ ≈ 3.24u ≤ 4u; the algorithm differs from both oracles', so not bitwise).
// Sim local transforms: Fft1dSim below. Sizes: 1, primes (7, 131: n0 = 1, one rank computes), 12,
// 128, 129 = 3·43, 1000, 4096, 2^16, explicit factorisations (n0 = 2, n0 = n), fewer rows than ranks.
#include <trnfft/mpi/fft1d.hpp>

#include <trnfft/plan.hpp>
#include <trncore/mpi.hpp>

#include "fft_mpi_test_support.hpp"

#include <fftw3-mpi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <vector>

using trncore::mpi::Communicator;
using trnfft::Direction;

namespace {

template <class T>
std::vector<std::complex<T>> signal(std::int64_t n) {
  std::vector<std::complex<T>> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = {static_cast<T>(std::sin(0.37 * static_cast<double>(i) + 0.1)),
                                      static_cast<T>(std::cos(0.011 * static_cast<double>(i * i % 1000)))};
  return v;
}

using fft_mpi_test::rel_err;

// Two FFT stages and the twiddle multiplication (file comment).
template <class T>
double bound(std::int64_t n) {
  return fft_mpi_test::normwise_bound<T>(n) + 4.0 * (std::numeric_limits<T>::epsilon() / 2);
}

template <class T>
void check(std::int64_t n, Direction dir, std::int64_t n0) {
  SCOPED_TRACE("n " + std::to_string(n) + " n0 " + std::to_string(n0) +
               (dir == Direction::forward ? " forward" : " backward"));
  const auto comm = Communicator::world();
  const auto x = signal<T>(n);
  std::vector<std::complex<T>> y(x.size());
  {
    auto xin = x;
    trnfft::plan_dft_1d<T>(n, xin.data(), y.data(), dir).execute();
  }
  auto plan = trnfft::mpi::plan_dft_1d<T>(comm, n, dir, {}, n0);
  const auto& L = plan.layout();
  EXPECT_EQ(L.n0 * L.n1, n);
  if (n0 > 0) {
    EXPECT_EQ(L.n0, n0);
  }
  const std::vector<std::complex<T>> xl(x.begin() + L.input_start * L.n1,
                                        x.begin() + (L.input_start + L.input_rows) * L.n1);
  ASSERT_EQ(static_cast<std::int64_t>(xl.size()), L.input_size);
  std::vector<std::complex<T>> yl(static_cast<std::size_t>(L.output_size)), again(yl.size());
  plan.execute(xl, yl);
  plan.execute(xl, again);
  EXPECT_EQ(again, yl);  // deterministic
  const auto yg = comm.allgatherv(std::span<const std::complex<T>>(yl));
  EXPECT_LE(rel_err(yg, y), bound<T>(n));
  // The output block is where the layout says.
  if (L.output_rows > 0) {
    EXPECT_LE(rel_err(yl, std::vector<std::complex<T>>(y.begin() + L.output_start * L.n0,
                                                       y.begin() + (L.output_start + L.output_rows) * L.n0)),
              bound<T>(n) * std::sqrt(static_cast<double>(n)));
  }

  // FFTW-MPI is skipped for n = 1: it then reads and writes outside its own rank-0 tensor (valgrind) and aborts.
  if constexpr (std::is_same_v<T, double>) {
    if (n == 1) return;
    const int sign = dir == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD;
    ptrdiff_t ni, si, no, so;
    const auto alloc = fftw_mpi_local_size_1d(n, comm.native(), sign, FFTW_ESTIMATE, &ni, &si, &no, &so);
    auto* a = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
    auto* b = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
    fftw_plan p = fftw_mpi_plan_dft_1d(n, a, b, comm.native(), sign, FFTW_ESTIMATE);
    if (p == nullptr) {  // FFTW-MPI distributes only composite sizes over more than one rank
      EXPECT_GT(comm.size(), 1);
    } else {
      for (ptrdiff_t i = 0; i < ni; ++i) {
        a[i][0] = x[static_cast<std::size_t>(si + i)].real();
        a[i][1] = x[static_cast<std::size_t>(si + i)].imag();
      }
      fftw_execute(p);
      std::vector<std::complex<double>> fo(static_cast<std::size_t>(no));
      for (ptrdiff_t i = 0; i < no; ++i) fo[static_cast<std::size_t>(i)] = {b[i][0], b[i][1]};
      EXPECT_LE(rel_err(yg, comm.allgatherv(std::span<const std::complex<double>>(fo))), bound<T>(n));
      fftw_destroy_plan(p);
    }
    fftw_free(a);
    fftw_free(b);
  }
}

TEST(Fft1d, DoubleMatchesSingleProcessAndFftwMpi) {
  for (std::int64_t n : {1, 7, 131, 12, 128, 129, 1000, 4096, 1 << 16})
    for (auto dir : {Direction::forward, Direction::backward}) check<double>(n, dir, 0);
  check<double>(4096, Direction::forward, 2);     // 2 rows: ranks 3 and 4 hold no input
  check<double>(4096, Direction::forward, 4096);  // 1 column: one rank holds the output
  check<double>(1000, Direction::backward, 8);
  check<double>(6, Direction::forward, 3);
}

TEST(Fft1d, FloatMatchesSingleProcess) {
  for (std::int64_t n : {1, 12, 129, 4096}) check<float>(n, Direction::forward, 0);
}

TEST(Fft1d, RoundTrip) {
  const auto comm = Communicator::world();
  const std::int64_t n = 3 * 1024;
  auto fwd = trnfft::mpi::plan_dft_1d<double>(comm, n, Direction::forward);
  const auto& L = fwd.layout();
  // backward with n0 and n1 swapped maps the forward's output blocks onto its own input blocks
  auto bwd = trnfft::mpi::plan_dft_1d<double>(comm, n, Direction::backward, {}, L.n1);
  ASSERT_EQ(bwd.layout().input_size, L.output_size);
  ASSERT_EQ(bwd.layout().output_size, L.input_size);
  const auto x = signal<double>(n);
  const std::vector<std::complex<double>> xl(x.begin() + L.input_start * L.n1,
                                             x.begin() + (L.input_start + L.input_rows) * L.n1);
  std::vector<std::complex<double>> mid(static_cast<std::size_t>(L.output_size)), back(xl.size());
  fwd.execute(xl, mid);
  bwd.execute(mid, back);
  for (auto& v : back) v /= static_cast<double>(n);
  EXPECT_LE(rel_err(comm.allgatherv(std::span<const std::complex<double>>(back)), x), 2 * bound<double>(n));
}

// ---- sim local transforms: the composed report ----
// The distributed result against the fp64 host transform of the whole vector: measured ≤ the reported bound plus
// the oracle's own error (8·u_64·log2 N, the host assumption above); the report is certified and the same on every
// rank; repeated runs are bitwise equal. Not vacuous: for fp32 mode (data-independent local bounds) the reported
// bound is exactly the composition (1 + δ_n0)(1 + τ)(1 + δ_n1) − 1 of the single-process sim plans' a-priori
// bounds of lengths n0 and n1, τ = u_w + √5·u(1 + u_w), u_w = u + 2^-61 (fft1d.hpp).

template <class T>
void check_sim(std::int64_t n, Direction dir, trnfft::PlanOptions options, std::int64_t n0 = 0) {
  SCOPED_TRACE("sim n " + std::to_string(n) + " " + std::string(trncore::to_string(options.math_mode)) +
               (dir == Direction::forward ? " forward" : " backward"));
  const auto comm = Communicator::world();
  const auto x = signal<T>(n);
  std::vector<std::complex<double>> xd(x.begin(), x.end()), y(xd.size());
  trnfft::plan_dft_1d<double>(n, xd.data(), y.data(), dir).execute();
  auto plan = trnfft::mpi::plan_dft_1d<T>(comm, n, dir, options, n0);
  EXPECT_EQ(plan.kind(), trnfft::Kind::c2c);
  EXPECT_EQ(plan.direction(), dir);
  const auto& L = plan.layout();
  const std::vector<std::complex<T>> xl(x.begin() + L.input_offset, x.begin() + L.input_offset + L.input_size);
  std::vector<std::complex<T>> yl(static_cast<std::size_t>(L.output_size)), again(yl.size());
  trncore::AccuracyReport report, report2;
  plan.execute(xl, yl, report);
  plan.execute(xl, again, report2);
  EXPECT_EQ(again, yl);
  EXPECT_EQ(report.a_priori_bound, report2.a_priori_bound);
  fft_mpi_test::expect_good_report(comm, report, options);
  const auto g = comm.allgatherv(std::span<const std::complex<T>>(yl));
  const double err = rel_err(std::vector<std::complex<double>>(g.begin(), g.end()), y);
  EXPECT_LE(err, report.a_priori_bound + bound<double>(n));
  if (options.math_mode == trncore::MathMode::fp32) {
    auto single = [&](std::int64_t len) {
      std::vector<std::complex<T>> a(static_cast<std::size_t>(len)), b(a.size());
      return trnfft::plan_dft_1d<T>(len, a.data(), b.data(), dir, options).accuracy().a_priori_bound;
    };
    const double u = std::numeric_limits<T>::epsilon() / 2, uw = u + std::ldexp(1.0, -61);
    const double tau = uw + std::sqrt(5.0) * u * (1 + uw);
    const double composed = (1 + single(L.n0)) * (1 + tau) * (1 + single(L.n1)) - 1;
    EXPECT_NEAR(report.a_priori_bound, composed, 1e-12 * composed);
  }
  plan.execute(xl, yl);  // met: no throw
  if (comm.rank() == 0)
    std::printf("[sim c2c] n %lld %s: error %.2e, bound %.2e\n", static_cast<long long>(n),
                std::string(trncore::to_string(options.math_mode)).c_str(), err, report.a_priori_bound);
}

trnfft::PlanOptions sim() { return trnfft::PlanOptions{}.with_backend(trncore::Backend::sim); }

TEST(Fft1dSim, C2CReportBoundsTheError) {
  using trncore::MathMode;
  for (std::int64_t n : {1, 12, 131, 1000, 4096}) {
    check_sim<float>(n, Direction::forward, sim().with_math_mode(MathMode::fp32));
    check_sim<double>(n, Direction::backward, sim());  // ozaki
  }
  check_sim<float>(1000, Direction::backward, sim().with_math_mode(MathMode::bf16), 8);
  check_sim<float>(4096, Direction::forward, sim().with_math_mode(MathMode::compensated), 4096);
  check_sim<float>(1024, Direction::forward, sim().with_target(1e-4));
}

TEST(Fft1dSim, NaNOnOneRankUncertifiesEveryRank) {
  const auto comm = Communicator::world();
  auto plan =
      trnfft::mpi::plan_dft_1d<float>(comm, 96, Direction::forward, sim().with_math_mode(trncore::MathMode::fp32));
  const auto& L = plan.layout();
  auto x = signal<float>(96);
  const std::vector<std::complex<float>> xl(x.begin() + L.input_offset, x.begin() + L.input_offset + L.input_size);
  std::vector<std::complex<float>> out(static_cast<std::size_t>(L.output_size));
  fft_mpi_test::expect_nan_on_last_rank_uncertifies(comm, plan, xl, out);
}

TEST(Fft1dErrors, SameErrorOnEveryRank) {
  const auto comm = Communicator::world();
  EXPECT_THROW(trnfft::mpi::plan_dft_1d<double>(comm, 0, Direction::forward), trncore::InvalidArgument);
  EXPECT_THROW(trnfft::mpi::plan_dft_1d<double>(comm, 12, Direction::forward, {}, 5), trncore::InvalidArgument);
  if (comm.size() > 1) {
    const std::int64_t n = comm.rank() == 1 ? 24 : 12;
    EXPECT_THROW(trnfft::mpi::plan_dft_1d<double>(comm, n, Direction::forward), trncore::DimensionMismatch);
  }
  auto plan = trnfft::mpi::plan_dft_1d<double>(comm, 64, Direction::forward);
  const auto& L = plan.layout();
  std::vector<std::complex<double>> in(static_cast<std::size_t>(L.input_size + (comm.rank() == 0 ? 1 : 0)));
  std::vector<std::complex<double>> out(static_cast<std::size_t>(L.output_size));
  EXPECT_THROW(plan.execute(in, out), trncore::DimensionMismatch);
  in.resize(static_cast<std::size_t>(L.input_size));
  plan.execute(in, out);           // still usable
  trncore::AccuracyReport report;  // host plans certify nothing
  EXPECT_THROW(plan.execute(in, out, report), trncore::NotSupported);
  // The r2c overload of a c2c plan on one rank.
  std::vector<double> rin(static_cast<std::size_t>(L.input_size));
  if (comm.rank() == 0)
    EXPECT_THROW(plan.execute(std::span<const double>(rin), std::span<std::complex<double>>(out)),
                 trncore::InvalidArgument);
  else
    EXPECT_THROW(plan.execute(in, out), trncore::InvalidArgument);
  // A target below the twiddle rounding of float.
  EXPECT_THROW(trnfft::mpi::plan_dft_1d<float>(comm, 64, Direction::forward, sim().with_target(1e-7)),
               trncore::TargetNotMet);
  if (comm.size() > 1) {  // sim on one rank, host on the others: it would wait in the report's collectives
    const auto o = comm.rank() == 1 ? sim() : trnfft::PlanOptions{};
    EXPECT_THROW(trnfft::mpi::plan_dft_1d<double>(comm, 64, Direction::forward, o), trncore::DimensionMismatch);
  }
  trnfft::mpi::Fft1dPlan<double> empty;
  EXPECT_THROW(empty.execute(in, out), trncore::InvalidArgument);
}

// fftw_init_threads (trnfft's first plan calls it) must precede fftw_mpi_init, which follows MPI_Init.
struct FftwMpiInit : ::testing::Environment {
  void SetUp() override {
    std::vector<std::complex<double>> a(4), b(4);
    trnfft::plan_dft_1d<double>(4, a.data(), b.data(), Direction::forward);
    fftw_mpi_init();
  }
};
[[maybe_unused]] const auto* const kFftwMpi = ::testing::AddGlobalTestEnvironment(new FftwMpiInit);

}  // namespace
