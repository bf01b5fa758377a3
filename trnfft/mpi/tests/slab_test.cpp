// Slab-decomposed distributed FFTs against two oracles on the same data, for 1–4 ranks:
// - the single-process trnfft transform (plan_dft / plan_dft_r2c / plan_dft_c2r) of the whole array, whose
//   algorithm differs from the slab's row-column order: compared within the normwise bound
//   ‖ŷ − y‖₂ ≤ 8·u·log2(N)·‖y‖₂ (plan.hpp's c·u·log2 N with c = 8 ≥ Higham's 6.7), on the gathered output;
// - FFTW's MPI interface (fftw_mpi_plan_many_dft{,_r2c,_c2r}) on the same communicator and the same local
//   data: its local sizes must equal ours exactly (the layouts are FFTW-MPI's), its output within the bound.
// Sim local transforms: the composed AccuracyReport bounds the measured error against the fp64 host transform.
// Sizes: uneven slabs (n0 = 5 on 2–4 ranks), empty ranks (n0 < ranks), 1, primes, 128/129, odd/even last
// dimension for r2c/c2r; normal and transposed layouts (FFTW-MPI is skipped for N = 1, see check_c2c). Bad input on one rank → the same error on all.
#include <trnfft/mpi/slab.hpp>

#include <trnfft/plan.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/mpi.hpp>

#include "fft_mpi_test_support.hpp"

#include <fftw3-mpi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <optional>
#include <vector>

using trncore::mpi::Communicator;
using trnfft::Direction;
using trnfft::mpi::SlabOptions;

namespace {

using fft_mpi_test::Dims;

std::int64_t prod(const Dims& d, std::size_t from = 0) {
  std::int64_t p = 1;
  for (std::size_t k = from; k < d.size(); ++k) p *= d[k];
  return p;
}

template <class T>
std::vector<std::complex<T>> global_complex(std::int64_t n, double seed) {
  std::vector<std::complex<T>> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = {static_cast<T>(std::sin(0.37 * static_cast<double>(i) + seed)),
                                      static_cast<T>(std::cos(1.1 * static_cast<double>(i) * seed + 0.2))};
  return v;
}

template <class T>
std::vector<T> global_real(std::int64_t n, double seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = static_cast<T>(std::sin(0.37 * static_cast<double>(i) + seed) + 0.25);
  return v;
}

// Rows [start, start + count) of dimension 0 of a row-major array with `row` elements per row.
template <class V>
V rows(const V& g, std::int64_t start, std::int64_t count, std::int64_t row) {
  return V(g.begin() + start * row, g.begin() + (start + count) * row);
}

// Row-major n0 × c1 × rest → c1 × n0 × rest (the global transposed layout).
template <class T>
std::vector<std::complex<T>> transpose01(const std::vector<std::complex<T>>& a, std::int64_t n0, std::int64_t c1,
                                         std::int64_t rest) {
  std::vector<std::complex<T>> b(a.size());
  for (std::int64_t i = 0; i < n0; ++i)
    for (std::int64_t j = 0; j < c1; ++j)
      for (std::int64_t k = 0; k < rest; ++k)
        b[static_cast<std::size_t>((j * n0 + i) * rest + k)] = a[static_cast<std::size_t>((i * c1 + j) * rest + k)];
  return b;
}

using fft_mpi_test::rel_err;
using fft_mpi_test::show;

template <class T>
double bound(std::int64_t n) {
  return fft_mpi_test::normwise_bound<T>(n);
}

// FFTW-MPI's local sizes for the complex shape.
struct FftwLocal {
  ptrdiff_t alloc, n0, s0, n1, s1;
};
FftwLocal fftw_local(const Dims& cdims, MPI_Comm comm) {
  std::vector<ptrdiff_t> n(cdims.begin(), cdims.end());
  FftwLocal l{};
  l.alloc = fftw_mpi_local_size_many_transposed(static_cast<int>(n.size()), n.data(), 1, FFTW_MPI_DEFAULT_BLOCK,
                                                FFTW_MPI_DEFAULT_BLOCK, comm, &l.n0, &l.s0, &l.n1, &l.s1);
  return l;
}

void expect_layout_as_fftw(const trnfft::mpi::SlabLayout& L, const FftwLocal& f) {
  EXPECT_EQ(L.local_n0, f.n0);
  EXPECT_EQ(L.local_n1, f.n1);
  // FFTW reports 0 as the start of an empty block; ours is where it would begin (both mean "nothing").
  if (f.n0 > 0) {
    EXPECT_EQ(L.local_0_start, f.s0);
  }
  if (f.n1 > 0) {
    EXPECT_EQ(L.local_1_start, f.s1);
  }
}

// ---- c2c ----

template <class T>
void check_c2c(const Dims& dims, Direction dir, SlabOptions slab) {
  SCOPED_TRACE(show(dims) + (dir == Direction::forward ? " forward" : " backward") +
               (slab.transposed_in ? " tin" : "") + (slab.transposed_out ? " tout" : ""));
  const auto comm = Communicator::world();
  const auto N = prod(dims), rest = prod(dims, 2), n0 = dims[0], n1 = dims[1];
  const auto x = global_complex<T>(N, 0.3);
  auto y = x;
  {
    std::vector<std::complex<T>> xin = x;
    trnfft::plan_dft<T>(dims, xin.data(), y.data(), dir).execute();
  }
  auto plan = trnfft::mpi::plan_slab_c2c<T>(comm, dims, dir, {}, slab);
  const auto& L = plan.layout();
  const auto xin = slab.transposed_in ? rows(transpose01(x, n0, n1, rest), L.local_1_start, L.local_n1, n0 * rest)
                                      : rows(x, L.local_0_start, L.local_n0, n1 * rest);
  ASSERT_EQ(static_cast<std::int64_t>(xin.size()), L.input_size);
  std::vector<std::complex<T>> out(static_cast<std::size_t>(L.output_size));
  plan.execute(xin, out);
  for (int rep = 0; rep < 2; ++rep) {  // plan once, execute many: same bits every time
    std::vector<std::complex<T>> again(out.size());
    plan.execute(xin, again);
    EXPECT_EQ(again, out);
  }
  const auto gathered = comm.allgatherv(std::span<const std::complex<T>>(out));
  const auto ref = slab.transposed_out ? transpose01(y, n0, n1, rest) : y;
  EXPECT_LE(rel_err(gathered, ref), bound<T>(N));

  // FFTW-MPI on the same local data. Not for N = 1: FFTW-MPI 3.3.10 then reads and writes 16 bytes before
  // its own rank-0 dtensor (valgrind, inside fftw_mpi_plan_many_dft) and aborts in free().
  if constexpr (std::is_same_v<T, double>) {
    if (N == 1) return;
    const auto f = fftw_local(dims, comm.native());
    expect_layout_as_fftw(L, f);
    std::vector<ptrdiff_t> n(dims.begin(), dims.end());
    auto* a = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(f.alloc, 1)));
    auto* b = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(f.alloc, 1)));
    const unsigned flags = FFTW_ESTIMATE | (slab.transposed_in ? FFTW_MPI_TRANSPOSED_IN : 0u) |
                           (slab.transposed_out ? FFTW_MPI_TRANSPOSED_OUT : 0u);
    fftw_plan p =
        fftw_mpi_plan_many_dft(static_cast<int>(n.size()), n.data(), 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                               a, b, comm.native(), dir == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD, flags);
    if (p == nullptr) {  // FFTW-MPI 3.3.10 plans some layouts with n0 or n1 = 1 on 1+ ranks not at all (ours does)
      EXPECT_TRUE(n0 == 1 || n1 == 1);
      fftw_free(a);
      fftw_free(b);
      return;
    }
    for (std::size_t i = 0; i < xin.size(); ++i) {
      a[i][0] = xin[i].real();
      a[i][1] = xin[i].imag();
    }
    fftw_execute(p);
    std::vector<std::complex<double>> fo(out.size());
    for (std::size_t i = 0; i < fo.size(); ++i) fo[i] = {b[i][0], b[i][1]};
    const auto fg = comm.allgatherv(std::span<const std::complex<double>>(fo));
    EXPECT_LE(rel_err(gathered, fg), bound<T>(N));
    fftw_destroy_plan(p);
    fftw_free(a);
    fftw_free(b);
  }
}

const std::vector<Dims> kC2C = {{5, 4, 3},   {2, 3, 4},  {1, 1},     {1, 7}, {3, 1},
                                {7, 11, 13}, {129, 128}, {128, 129}, {6, 5}, {4, 4, 4, 2}};

TEST(SlabC2C, DoubleAllLayoutsMatchSingleProcessAndFftwMpi) {
  for (const auto& d : kC2C)
    for (auto dir : {Direction::forward, Direction::backward})
      for (bool tin : {false, true})
        for (bool tout : {false, true}) check_c2c<double>(d, dir, {tin, tout});
}

TEST(SlabC2C, FloatMatchesSingleProcess) {
  for (const auto& d : {Dims{5, 4, 3}, Dims{2, 3}, Dims{17, 129}})
    for (bool tout : {false, true}) check_c2c<float>(d, Direction::forward, {false, tout});
}

// Transposed-out forward then transposed-in backward: N·x (two all-to-alls in all).
TEST(SlabC2C, RoundTripThroughTransposedLayout) {
  const auto comm = Communicator::world();
  const Dims dims{9, 6, 5};
  const auto N = prod(dims);
  auto fwd = trnfft::mpi::plan_slab_c2c<double>(comm, dims, Direction::forward, {}, {false, true});
  auto bwd = trnfft::mpi::plan_slab_c2c<double>(comm, dims, Direction::backward, {}, {true, false});
  const auto& L = fwd.layout();
  const auto x = rows(global_complex<double>(N, 0.9), L.local_0_start, L.local_n0, 30);
  std::vector<std::complex<double>> mid(static_cast<std::size_t>(L.output_size)), back(x.size());
  fwd.execute(x, mid);
  bwd.execute(mid, back);
  for (auto& v : back) v /= static_cast<double>(N);
  const auto g = comm.allgatherv(std::span<const std::complex<double>>(back));
  const auto gx = global_complex<double>(N, 0.9);
  EXPECT_LE(rel_err(g, gx), 2 * bound<double>(N));
}

// ---- r2c / c2r ----

template <class T>
void check_r2c_c2r(const Dims& dims, bool tout) {
  SCOPED_TRACE(show(dims) + (tout ? " transposed" : ""));
  const auto comm = Communicator::world();
  const auto N = prod(dims);
  auto cd = dims;
  cd.back() = dims.back() / 2 + 1;
  const auto NC = prod(cd), n0 = cd[0], c1 = cd[1], crest = prod(cd, 2), rrow = prod(dims, 1);
  const auto x = global_real<T>(N, 0.7);
  std::vector<std::complex<T>> y(static_cast<std::size_t>(NC));
  {
    auto xin = x;
    trnfft::plan_dft_r2c<T>(dims, xin.data(), y.data()).execute();
  }
  // r2c
  auto r2c = trnfft::mpi::plan_slab_r2c<T>(comm, dims, {}, {false, tout});
  const auto& L = r2c.layout();
  const auto xl = rows(x, L.local_0_start, L.local_n0, rrow);
  ASSERT_EQ(static_cast<std::int64_t>(xl.size()), L.input_size);
  std::vector<std::complex<T>> yl(static_cast<std::size_t>(L.output_size));
  r2c.execute(xl, yl);
  const auto yg = comm.allgatherv(std::span<const std::complex<T>>(yl));
  EXPECT_LE(rel_err(yg, tout ? transpose01(y, n0, c1, crest) : y), bound<T>(N));

  // c2r of the exact half spectrum (from the normal or the transposed layout): the single-process c2r.
  std::vector<T> z(static_cast<std::size_t>(N));
  {
    auto yin = y;
    trnfft::plan_dft_c2r<T>(dims, yin.data(), z.data()).execute();
  }
  auto c2r = trnfft::mpi::plan_slab_c2r<T>(comm, dims, {}, {tout, false});
  const auto& M = c2r.layout();
  const auto yin = tout ? rows(transpose01(y, n0, c1, crest), M.local_1_start, M.local_n1, n0 * crest)
                        : rows(y, M.local_0_start, M.local_n0, c1 * crest);
  const auto ykeep = yin;
  std::vector<T> zl(static_cast<std::size_t>(M.output_size));
  c2r.execute(yin, zl);
  EXPECT_EQ(yin, ykeep);  // the input is not modified
  const auto zg = comm.allgatherv(std::span<const T>(zl));
  EXPECT_LE(rel_err(zg, z), bound<T>(N));

  if constexpr (std::is_same_v<T, double>) {
    const auto f = fftw_local(cd, comm.native());
    expect_layout_as_fftw(L, f);
    expect_layout_as_fftw(M, f);
    std::vector<ptrdiff_t> n(dims.begin(), dims.end());
    const auto alloc = static_cast<std::size_t>(std::max<ptrdiff_t>(f.alloc, 1));
    auto* r = fftw_alloc_real(2 * alloc);
    auto* c = fftw_alloc_complex(alloc);
    const auto pad = 2 * cd.back(), last = dims.back();
    fftw_plan p = fftw_mpi_plan_many_dft_r2c(static_cast<int>(n.size()), n.data(), 1, FFTW_MPI_DEFAULT_BLOCK,
                                             FFTW_MPI_DEFAULT_BLOCK, r, c, comm.native(),
                                             FFTW_ESTIMATE | (tout ? FFTW_MPI_TRANSPOSED_OUT : 0u));
    ASSERT_NE(p, nullptr);
    for (std::int64_t row = 0; row < static_cast<std::int64_t>(xl.size()) / last; ++row)
      for (std::int64_t k = 0; k < last; ++k) r[row * pad + k] = xl[static_cast<std::size_t>(row * last + k)];
    fftw_execute(p);
    fftw_destroy_plan(p);
    std::vector<std::complex<double>> fo(yl.size());
    for (std::size_t i = 0; i < fo.size(); ++i) fo[i] = {c[i][0], c[i][1]};
    EXPECT_LE(rel_err(comm.allgatherv(std::span<const std::complex<double>>(fo)), yg), bound<T>(N));
    // FFTW-MPI c2r from the same layout as ours.
    fftw_plan q = fftw_mpi_plan_many_dft_c2r(static_cast<int>(n.size()), n.data(), 1, FFTW_MPI_DEFAULT_BLOCK,
                                             FFTW_MPI_DEFAULT_BLOCK, c, r, comm.native(),
                                             FFTW_ESTIMATE | (tout ? FFTW_MPI_TRANSPOSED_IN : 0u));
    ASSERT_NE(q, nullptr);
    for (std::size_t i = 0; i < ykeep.size(); ++i) {
      c[i][0] = ykeep[i].real();
      c[i][1] = ykeep[i].imag();
    }
    fftw_execute(q);
    fftw_destroy_plan(q);
    std::vector<double> fz(zl.size());
    for (std::int64_t row = 0; row < static_cast<std::int64_t>(zl.size()) / last; ++row)
      for (std::int64_t k = 0; k < last; ++k) fz[static_cast<std::size_t>(row * last + k)] = r[row * pad + k];
    EXPECT_LE(rel_err(comm.allgatherv(std::span<const double>(fz)), zg), bound<T>(N));
    fftw_free(r);
    fftw_free(c);
  }
}

TEST(SlabR2C, DoubleMatchesSingleProcessAndFftwMpi) {
  for (const auto& d : {Dims{5, 4, 6}, Dims{3, 7, 9}, Dims{2, 3, 1}, Dims{1, 2}, Dims{129, 128}, Dims{128, 129},
                        Dims{7, 2}, Dims{6, 5, 4, 3}})
    for (bool t : {false, true}) check_r2c_c2r<double>(d, t);
}

TEST(SlabR2C, FloatMatchesSingleProcess) {
  for (const auto& d : {Dims{5, 4, 6}, Dims{13, 17}})
    for (bool t : {false, true}) check_r2c_c2r<float>(d, t);
}

// ---- sim local transforms: the composed report ----
// The distributed result against the fp64 host transform of the whole array: measured ≤ the composed bound,
// which is the same on every rank, certified, and meets the target when one is given.

template <class T>
void check_sim_c2c(const Dims& dims, trnfft::PlanOptions options, bool tout) {
  SCOPED_TRACE(show(dims) + " sim " + std::string(trncore::to_string(options.math_mode)) + (tout ? " tout" : ""));
  const auto comm = Communicator::world();
  const auto N = prod(dims), rest = prod(dims, 2);
  const auto x = global_complex<T>(N, 0.5);
  std::vector<std::complex<double>> xd(x.begin(), x.end()), y(xd.size());
  trnfft::plan_dft<double>(dims, xd.data(), y.data(), Direction::forward).execute();
  auto plan = trnfft::mpi::plan_slab_c2c<T>(comm, dims, Direction::forward, options, {false, tout});
  const auto& L = plan.layout();
  const auto xl = rows(x, L.local_0_start, L.local_n0, dims[1] * rest);
  std::vector<std::complex<T>> out(static_cast<std::size_t>(L.output_size));
  trncore::AccuracyReport report;
  plan.execute(xl, out, report);
  fft_mpi_test::expect_good_report(comm, report, options);
  const auto g = comm.allgatherv(std::span<const std::complex<T>>(out));
  std::vector<std::complex<double>> gd(g.begin(), g.end());
  EXPECT_LE(rel_err(gd, tout ? transpose01(y, dims[0], dims[1], rest) : y), report.a_priori_bound);
  // Not vacuous: the composition of the per-stage bounds is the single-process sim plan's a-priori bound of
  // the same transform (which composes its axes the same way) — up to its evaluation of Π(1 + δ_k) − 1 in
  // double, which near u = 2^-53 is off by a few 2^-52 (ours is evaluated without that cancellation).
  std::vector<std::complex<T>> a(x.size()), b(x.size());
  const double single =
      trnfft::plan_dft<T>(dims, a.data(), b.data(), Direction::forward, options).accuracy().a_priori_bound;
  EXPECT_NEAR(report.a_priori_bound, single, 1e-12 * single + 1e-15);
  plan.execute(xl, out);  // met: no throw
}

TEST(SlabSim, C2CComposedReportBoundsTheError) {
  using trncore::MathMode;
  for (const auto& d : {Dims{5, 4, 3}, Dims{6, 5}, Dims{3, 8}}) {
    for (auto mode : {MathMode::fp32, MathMode::bf16, MathMode::compensated})
      check_sim_c2c<float>(d, trnfft::PlanOptions{}.with_backend(trncore::Backend::sim).with_math_mode(mode),
                           d.size() == 2);
    check_sim_c2c<double>(d, trnfft::PlanOptions{}.with_backend(trncore::Backend::sim), false);  // ozaki
  }
  check_sim_c2c<float>({7, 6, 5}, trnfft::PlanOptions{}.with_backend(trncore::Backend::sim).with_target(1e-4), false);
  // A target near double's precision: each stage's share must be computed without rounding 1 + t (a share
  // 0.1 % too large lets the composed bound exceed t).
  check_sim_c2c<double>({7, 6, 5}, trnfft::PlanOptions{}.with_backend(trncore::Backend::sim).with_target(1e-13), false);
}

TEST(SlabSim, R2CAndC2RComposedReports) {
  const auto comm = Communicator::world();
  for (const auto& dims : {Dims{5, 4, 6}, Dims{6, 7}}) {
    SCOPED_TRACE(show(dims));
    const auto N = prod(dims);
    auto cd = dims;
    cd.back() = dims.back() / 2 + 1;
    const auto crow = prod(cd, 1), rrow = prod(dims, 1);
    const auto x = global_real<float>(N, 0.2);
    std::vector<double> xd(x.begin(), x.end());
    std::vector<std::complex<double>> y(static_cast<std::size_t>(prod(cd)));
    trnfft::plan_dft_r2c<double>(dims, xd.data(), y.data()).execute();
    const auto options =
        trnfft::PlanOptions{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::fp32);
    auto r2c = trnfft::mpi::plan_slab_r2c<float>(comm, dims, options);
    const auto& L = r2c.layout();
    const auto xl = rows(x, L.local_0_start, L.local_n0, rrow);
    std::vector<std::complex<float>> yl(static_cast<std::size_t>(L.output_size));
    trncore::AccuracyReport report;
    r2c.execute(xl, yl, report);
    EXPECT_TRUE(report.certified) << report.uncertified_reason;
    const auto g = comm.allgatherv(std::span<const std::complex<float>>(yl));
    EXPECT_LE(rel_err(std::vector<std::complex<double>>(g.begin(), g.end()), y), report.a_priori_bound);
    // c2r of the exact half spectrum (rounded to float) back to N·x.
    auto c2r = trnfft::mpi::plan_slab_c2r<float>(comm, dims, options);
    std::vector<std::complex<float>> yf(y.begin(), y.end());
    const auto yin = rows(yf, c2r.layout().local_0_start, c2r.layout().local_n0, crow);
    std::vector<float> zl(static_cast<std::size_t>(c2r.layout().output_size));
    trncore::AccuracyReport back;
    c2r.execute(yin, zl, back);
    EXPECT_TRUE(back.certified) << back.uncertified_reason;
    std::vector<double> z(xd.size());
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = static_cast<double>(N) * xd[i];
    const auto zg = comm.allgatherv(std::span<const float>(zl));
    // The bound is relative to the exact c2r of the rounded input; rounding y to float adds ≤ u·‖y‖ (u = 2^-24).
    EXPECT_LE(rel_err(std::vector<double>(zg.begin(), zg.end()), z), back.a_priori_bound + 1.2e-7);
  }
}

TEST(SlabSim, NaNOnOneRankUncertifiesEveryRank) {
  const auto comm = Communicator::world();
  const Dims dims{6, 4, 3};
  auto plan = trnfft::mpi::plan_slab_c2c<float>(
      comm, dims, Direction::forward,
      trnfft::PlanOptions{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::fp32));
  const auto& L = plan.layout();
  const auto xl = rows(global_complex<float>(prod(dims), 0.1), L.local_0_start, L.local_n0, 12);
  std::vector<std::complex<float>> out(static_cast<std::size_t>(L.output_size));
  fft_mpi_test::expect_nan_on_last_rank_uncertifies(comm, plan, xl, out);
}

// ---- errors: the same error on every rank ----

TEST(SlabErrors, DifferentDimsOnOneRank) {
  const auto comm = Communicator::world();
  const Dims d = comm.rank() == comm.size() - 1 ? Dims{5, 4, 4} : Dims{5, 4, 3};
  if (comm.size() == 1) GTEST_SKIP() << "needs two ranks";
  EXPECT_THROW(trnfft::mpi::plan_slab_c2c<double>(comm, d, Direction::forward), trncore::DimensionMismatch);
  const Dims e = comm.rank() == 1 ? Dims{5, 4} : Dims{5, 4, 3};
  EXPECT_THROW(trnfft::mpi::plan_slab_c2c<double>(comm, e, Direction::forward), trncore::Error);
}

// A sim target no fp32 stage can certify (1e-12 for float) is TargetNotMet on every rank at planning, as the
// single-process plan's; options that differ on one rank (a host rank beside sim ranks would wait forever in
// the composed report's collectives) are DimensionMismatch on every rank.
TEST(SlabErrors, UnmeetableTargetAndDisagreeingOptions) {
  const auto comm = Communicator::world();
  const auto sim = [](std::optional<double> target) {
    auto o = trnfft::PlanOptions{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::fp32);
    o.target_forward_error = target;
    return o;
  };
  EXPECT_THROW(trnfft::mpi::plan_slab_c2c<float>(comm, {6, 4}, Direction::forward, sim(1e-12)), trncore::TargetNotMet);
  EXPECT_THROW(trnfft::mpi::plan_slab_r2c<float>(comm, {6, 4}, sim(1e-12)), trncore::TargetNotMet);
  if (comm.size() == 1) return;
  const bool last = comm.rank() == comm.size() - 1;
  EXPECT_THROW(
      trnfft::mpi::plan_slab_c2c<float>(comm, {6, 4}, Direction::forward, last ? trnfft::PlanOptions{} : sim({})),
      trncore::DimensionMismatch);
  EXPECT_THROW(trnfft::mpi::plan_slab_c2c<float>(comm, {6, 4}, Direction::forward, sim(last ? 1e-3 : 1e-4)),
               trncore::DimensionMismatch);
}

TEST(SlabErrors, BadArgumentsOnEveryRank) {
  const auto comm = Communicator::world();
  EXPECT_THROW(trnfft::mpi::plan_slab_c2c<double>(comm, {8}, Direction::forward), trncore::InvalidArgument);
  EXPECT_THROW(trnfft::mpi::plan_slab_c2c<double>(comm, {8, 0}, Direction::forward), trncore::InvalidArgument);
  EXPECT_THROW(trnfft::mpi::plan_slab_r2c<double>(comm, {8, 4}, {}, {true, false}), trncore::NotSupported);
  EXPECT_THROW(trnfft::mpi::plan_slab_c2r<double>(comm, {8, 4}, {}, {false, true}), trncore::NotSupported);
  auto host = trnfft::mpi::plan_slab_c2c<double>(comm, {8, 4}, Direction::forward);
  std::vector<std::complex<double>> hin(static_cast<std::size_t>(host.layout().input_size)),
      hout(static_cast<std::size_t>(host.layout().output_size));
  trncore::AccuracyReport report;
  EXPECT_THROW(host.execute(hin, hout, report), trncore::NotSupported);  // host plans certify nothing
  trnfft::mpi::SlabPlan<double> empty;
  std::vector<std::complex<double>> a, b;
  EXPECT_THROW(empty.execute(a, b), trncore::InvalidArgument);
}

TEST(SlabErrors, ShortSpanOnOneRankThrowsEverywhere) {
  const auto comm = Communicator::world();
  const Dims dims{9, 4, 3};
  auto plan = trnfft::mpi::plan_slab_c2c<double>(comm, dims, Direction::forward);
  const auto& L = plan.layout();
  const bool bad = comm.rank() == comm.size() - 1;
  std::vector<std::complex<double>> in(static_cast<std::size_t>(L.input_size + (bad ? 1 : 0)));
  std::vector<std::complex<double>> out(static_cast<std::size_t>(L.output_size));
  EXPECT_THROW(plan.execute(in, out), trncore::DimensionMismatch);
  // The wrong kind's overload on one rank.
  in.resize(static_cast<std::size_t>(L.input_size));
  std::vector<double> rin(static_cast<std::size_t>(L.input_size));
  if (comm.rank() == 0)
    EXPECT_THROW(plan.execute(std::span<const double>(rin), std::span<std::complex<double>>(out)),
                 trncore::InvalidArgument);
  else
    EXPECT_THROW(plan.execute(in, out), trncore::InvalidArgument);
  // Still usable afterwards.
  plan.execute(in, out);
}

}  // namespace

// FFTW-MPI needs fftw_mpi_init after MPI_Init (the test main's Environment initialises MPI first) and after
// fftw_init_threads, which trnfft calls on its first plan: make one first.
namespace {
struct FftwMpiInit : ::testing::Environment {
  void SetUp() override {
    std::vector<std::complex<double>> a(4), b(4);
    trnfft::plan_dft_1d<double>(4, a.data(), b.data(), Direction::forward);
    fftw_mpi_init();
  }
};
[[maybe_unused]] const auto* const kFftwMpi = ::testing::AddGlobalTestEnvironment(new FftwMpiInit);
}  // namespace
