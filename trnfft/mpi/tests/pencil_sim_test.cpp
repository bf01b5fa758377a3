// Pencil-decomposed 3-D FFTs with sim local transforms (pencil.hpp), on every P0 × P1 grid of 1–4 ranks (1×1,
// 1×2, 2×1, 1×3, 3×1, 2×2, 1×4, 4×1) and every sim math mode (automatic, fp32, bf16, bf16 + refine,
// compensated, ozaki; double: ozaki).
//
// The oracle is FFTW fp64 on one process (trnfft::plan_dft<double> host of the whole array). The tolerance is
// the run's certified bound δ, plus the oracle's own error: δ bounds the distance to the EXACT transform,
// ‖ŷ − y‖₂ ≤ δ‖y‖₂, and the fp64 oracle is within ε = 8·2^-53·log2(N) of it (plan.hpp's normwise FFTW bound, as
// in pencil_test.cpp), so ‖ŷ − y_ref‖₂ ≤ (δ + ε)‖y‖₂ ≤ (δ + ε)/(1 − ε)·‖y_ref‖₂. For float modes ε is below 1e-6
// of δ — the tolerance is the certified bound itself; a bound that undercounts the error fails the test. The
// bound is also checked to be the single-process sim plan's bound of the same 3-D transform (not vacuous: the
// same per-axis bounds composed the same way).
//
// Bitwise: the distributed sim result equals the 1×1 pencil plan's result (every rank runs one on its own
// communicator) on every grid, with the same bound, for fp32, bf16, bf16_refined and compensated stages — they
// round each pencil's transform independently of the others, so batch counts and data movement do not change
// the rounding. Ozaki stages choose their slice count from the whole local GEMM's data (the rank's block), so
// their results and per-run bounds differ between grids: within the bound, not bitwise (checked so). The report
// is the same on every rank (all its fields). The forward-layout c2c and the r2c plans run the single-process
// sim plan's passes in its order (dimension 2, 1, 0), so they are also bitwise its result (same modes but
// ozaki); the reverse c2c and c2r plans run dimension 0 before 1 (the other order) and agree within the bound.
#include <trnfft/mpi/pencil.hpp>

#include <trnfft/plan.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/mpi.hpp>

#include "fft_mpi_test_support.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using trncore::MathMode;
using trncore::mpi::Communicator;
using trnfft::Direction;
using trnfft::PlanOptions;

namespace {

using fft_mpi_test::assemble;
using fft_mpi_test::block;
using fft_mpi_test::cdata;
using fft_mpi_test::Dims;
using fft_mpi_test::grids;
using fft_mpi_test::rdata;
using fft_mpi_test::rel_err;
using fft_mpi_test::show;

PlanOptions sim(MathMode mode, bool refine = false) {
  auto o = PlanOptions{}.with_backend(trncore::Backend::sim).with_math_mode(mode);
  o.refine = refine;
  return o;
}

std::string mode_name(const PlanOptions& o) {
  return std::string(trncore::to_string(o.math_mode)) + (o.refine ? "+refine" : "") +
         (o.target_forward_error ? " target " + std::to_string(*o.target_forward_error) : "");
}

// The certified bound widened by the oracle's own normwise error (fp64 FFTW), see the file comment.
double tolerance(double bound, std::int64_t n) {
  const double e = fft_mpi_test::normwise_bound<double>(n);
  return (bound + e) / (1.0 - e);
}

using fft_mpi_test::expect_good_report;

// Whether a report's local stages ran ozaki (the trajectory names each stage's mode).
bool ozaki(const trncore::AccuracyReport& r) {
  for (const auto& t : r.trajectory)
    if (t.description.find("sim mode ozaki") != std::string::npos) return true;
  return false;
}

// |a − b| within the evaluation difference of Π(1 + δ_k) − 1 in double: a few 2^-52 near u = 2^-53.
bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * b + 1e-15; }

// The 1×1 pencil plan's composed bound against the single-process sim plan of the same transform and input
// (which composes its axes the same way): equal to its run's bound, up to evaluation, for every mode but
// ozaki; ozaki picks its slice count from the data of each local GEMM, so its per-run bound depends on how the
// data is batched (the pencil's stages batch by dimension, the single-process plan the whole array) — there
// the composed bound is checked against the plan's a-priori bound, which every run's bound stays within.
void expect_single_process_bound(double composed, double single_run, double single_apriori, bool oz) {
  if (!oz) {
    EXPECT_TRUE(close(composed, single_run)) << composed << " vs the single-process run's " << single_run;
  } else {
    EXPECT_TRUE(composed <= single_apriori || close(composed, single_apriori))
        << composed << " above the single-process a-priori " << single_apriori;
  }
}

// A grid's result and bound against the 1×1 plan's: bitwise and the same bound, except with ozaki stages (see
// above: the slicing depends on the rank's block), whose bound stays within the a-priori one (when known).
void expect_across_grids(double bound, double bound_1x1, bool bitwise, bool oz, double apriori) {
  if (!oz) {
    EXPECT_EQ(bound, bound_1x1);
    EXPECT_TRUE(bitwise) << "not bitwise the 1×1 plan's result";
  } else if (apriori > 0) {
    EXPECT_TRUE(bound <= apriori || close(bound, apriori)) << bound << " above the a-priori " << apriori;
  }
}

template <class T>
void check_c2c(const Communicator& comm, const Communicator& self, const Dims& d, Direction dir, const PlanOptions& o) {
  using C = std::complex<T>;
  const auto N = d[0] * d[1] * d[2];
  const auto x = cdata<T>(N);
  std::vector<std::complex<double>> xd(x.begin(), x.end()), y(xd.size());
  trnfft::plan_dft<double>(d, xd.data(), y.data(), dir).execute();
  // The 1×1 plan on this rank alone: the bitwise reference of every grid.
  std::vector<C> y1(x.size());
  trncore::AccuracyReport r1;
  trnfft::mpi::plan_pencil_c2c<T>(self, 1, 1, d, dir, o).execute(x, y1, r1);
  const bool oz = ozaki(r1);
  double apriori = 0;  // the single-process plan's a-priori bound (no target)
  if (!o.target_forward_error) {
    SCOPED_TRACE("c2c " + show(d) + " " + mode_name(o));
    std::vector<C> a(x.size()), b(x.size());
    trncore::AccuracyReport single;
    const auto plan = trnfft::plan_dft<T>(d, a.data(), b.data(), dir, o);
    plan.execute(x.data(), b.data(), single);
    if (!oz) {
      EXPECT_TRUE(b == y1) << "not bitwise the single-process sim plan's result";  // same pass order
    }
    apriori = plan.accuracy().a_priori_bound;
    expect_single_process_bound(r1.a_priori_bound, single.a_priori_bound, apriori, oz);
  }
  for (auto [P0, P1] : grids(comm.size())) {
    SCOPED_TRACE(std::to_string(P0) + "x" + std::to_string(P1) + " grid, c2c " + show(d) + " " + mode_name(o) +
                 (dir == Direction::forward ? " forward" : " backward"));
    auto plan = trnfft::mpi::plan_pencil_c2c<T>(comm, P0, P1, d, dir, o);
    const auto& L = plan.layout();
    const auto xl = block(x, d, L.in_0_start, L.in_n0, L.in_1_start, L.in_n1, 0, d[2]);
    std::vector<C> yl(static_cast<std::size_t>(L.output_size));
    trncore::AccuracyReport r;
    plan.execute(xl, yl, r);
    expect_good_report(comm, r, o);
    const auto yg = assemble(comm, yl, d, 0, d[0], L.out_1_start, L.out_n1, L.out_2_start, L.out_n2);
    EXPECT_LE(rel_err(yg, y), tolerance(r.a_priori_bound, N));
    expect_across_grids(r.a_priori_bound, r1.a_priori_bound, yg == y1, oz, apriori);
    // The reverse layout (output → input), the other direction: within its own bound of the exact transform.
    auto back = trnfft::mpi::plan_pencil_c2c<T>(
        comm, P0, P1, d, dir == Direction::forward ? Direction::backward : Direction::forward, o, true);
    std::vector<C> xb(xl.size());
    trncore::AccuracyReport rb;
    back.execute(yl, xb, rb);
    expect_good_report(comm, rb, o);
    // Its input is yl, not y: the exact back transform B(yl) = N·x + B(yl − y), ‖B(e)‖ = √N‖e‖ and
    // ‖N·x‖ = √N‖y‖, so ‖x̂ − N·x‖ ≤ δ_b‖B(yl)‖ + ‖B(yl − y)‖ ≤ (δ_b + e_fwd(1 + δ_b))·‖N·x‖ with
    // e_fwd = ‖yl − y‖/‖y‖ (measured above).
    const auto xg = assemble(comm, xb, d, L.in_0_start, L.in_n0, L.in_1_start, L.in_n1, 0, d[2]);
    std::vector<std::complex<double>> nx(xd.size());
    for (std::size_t i = 0; i < nx.size(); ++i) nx[i] = static_cast<double>(N) * xd[i];
    const double e_fwd = rel_err(yg, y);  // ‖yl − y‖/‖y‖, and ‖y‖ = √N‖x‖
    EXPECT_LE(rel_err(xg, nx), tolerance(rb.a_priori_bound + e_fwd * (1 + rb.a_priori_bound), N));
  }
}

// Every sim mode trnfft supports, float: automatic (compensated), fp32, bf16, bf16_refined, compensated, ozaki.
std::vector<PlanOptions> float_modes() {
  return {sim(MathMode::automatic), sim(MathMode::fp32),        sim(MathMode::bf16, true),
          sim(MathMode::bf16),      sim(MathMode::compensated), sim(MathMode::ozaki)};
}

TEST(PencilSim, C2CEveryModeEveryGrid) {
  const auto comm = Communicator::world();
  const auto self = comm.split(comm.rank(), 0);
  // 1×1×1; 2×7×3: a prime, and n0 = 2 < P0 (empty blocks on the 3×1 and 4×1 grids); 5×4×3 uneven.
  for (const auto& d : {Dims{1, 1, 1}, Dims{2, 7, 3}, Dims{5, 4, 3}})
    for (const auto& o : float_modes()) check_c2c<float>(comm, self, d, Direction::forward, o);
  check_c2c<float>(comm, self, {3, 5, 4}, Direction::backward, sim(MathMode::fp32));
  for (const auto& d : {Dims{2, 7, 3}, Dims{5, 4, 3}})
    check_c2c<double>(comm, self, d, Direction::forward, sim(MathMode::automatic));  // ozaki
  check_c2c<double>(comm, self, {2, 7, 3}, Direction::backward, sim(MathMode::ozaki));
}

TEST(PencilSim, C2CEdges127To129) {
  const auto comm = Communicator::world();
  const auto self = comm.split(comm.rank(), 0);
  for (const auto& d : {Dims{2, 3, 127}, Dims{2, 128, 2}, Dims{129, 2, 2}})
    check_c2c<float>(comm, self, d, Direction::forward, sim(MathMode::fp32));
}

template <class T>
void check_real(const Communicator& comm, const Communicator& self, const Dims& d, const PlanOptions& o) {
  using C = std::complex<T>;
  const auto N = d[0] * d[1] * d[2];
  Dims cd = d;
  cd[2] = d[2] / 2 + 1;
  const auto x = rdata<T>(N);
  std::vector<double> xd(x.begin(), x.end());
  std::vector<std::complex<double>> y(static_cast<std::size_t>(cd[0] * cd[1] * cd[2]));
  trnfft::plan_dft_r2c<double>(d, xd.data(), y.data()).execute();
  // The c2r input: the fp64 half spectrum rounded to T (exactly representable in double, so the oracle is the
  // fp64 c2r of the very input the plans get).
  const std::vector<C> s(y.begin(), y.end());
  std::vector<std::complex<double>> sd(s.begin(), s.end());
  std::vector<double> z(xd.size());
  trnfft::plan_dft_c2r<double>(d, sd.data(), z.data()).execute();
  std::vector<C> y1(s.size());
  std::vector<T> z1(x.size());
  trncore::AccuracyReport r1, q1;
  trnfft::mpi::plan_pencil_r2c<T>(self, 1, 1, d, o).execute(x, y1, r1);
  trnfft::mpi::plan_pencil_c2r<T>(self, 1, 1, d, o).execute(s, z1, q1);
  const bool oz = ozaki(r1) || ozaki(q1);
  double r_apriori = 0, q_apriori = 0;  // the single-process plans' a-priori bounds (no target)
  if (!o.target_forward_error) {
    SCOPED_TRACE("r2c/c2r " + show(d) + " " + mode_name(o) + ": r2c, then c2r");
    auto xa = x;
    std::vector<C> a(s.size());
    trncore::AccuracyReport single;
    const auto fwd = trnfft::plan_dft_r2c<T>(d, xa.data(), a.data(), o);
    fwd.execute(x.data(), a.data(), single);
    if (!oz) {
      EXPECT_TRUE(a == y1) << "r2c not bitwise the single-process sim plan's result";  // same pass order
    }
    r_apriori = fwd.accuracy().a_priori_bound;
    expect_single_process_bound(r1.a_priori_bound, single.a_priori_bound, r_apriori, oz);
    auto sa = s;
    std::vector<T> b(x.size());
    const auto back = trnfft::plan_dft_c2r<T>(d, a.data(), b.data(), o);
    back.execute(sa.data(), b.data(), single);
    q_apriori = back.accuracy().a_priori_bound;
    expect_single_process_bound(q1.a_priori_bound, single.a_priori_bound, q_apriori, oz);
  }
  for (auto [P0, P1] : grids(comm.size())) {
    SCOPED_TRACE(std::to_string(P0) + "x" + std::to_string(P1) + " grid, r2c/c2r " + show(d) + " " + mode_name(o));
    auto r2c = trnfft::mpi::plan_pencil_r2c<T>(comm, P0, P1, d, o);
    const auto& L = r2c.layout();
    const auto xl = block(x, d, L.in_0_start, L.in_n0, L.in_1_start, L.in_n1, 0, d[2]);
    std::vector<C> yl(static_cast<std::size_t>(L.output_size));
    trncore::AccuracyReport r;
    r2c.execute(xl, yl, r);
    expect_good_report(comm, r, o);
    const auto yg = assemble(comm, yl, cd, 0, cd[0], L.out_1_start, L.out_n1, L.out_2_start, L.out_n2);
    EXPECT_LE(rel_err(yg, y), tolerance(r.a_priori_bound, N));
    expect_across_grids(r.a_priori_bound, r1.a_priori_bound, yg == y1, oz, r_apriori);

    auto c2r = trnfft::mpi::plan_pencil_c2r<T>(comm, P0, P1, d, o);
    const auto& M = c2r.layout();
    const auto sl = block(s, cd, 0, cd[0], M.out_1_start, M.out_n1, M.out_2_start, M.out_n2);
    const auto keep = sl;
    std::vector<T> zl(static_cast<std::size_t>(M.output_size));
    trncore::AccuracyReport q;
    c2r.execute(sl, zl, q);
    EXPECT_EQ(sl, keep);
    expect_good_report(comm, q, o);
    const auto zg = assemble(comm, zl, d, M.in_0_start, M.in_n0, M.in_1_start, M.in_n1, 0, d[2]);
    EXPECT_LE(rel_err(zg, z), tolerance(q.a_priori_bound, N));
    expect_across_grids(q.a_priori_bound, q1.a_priori_bound, zg == z1, oz, q_apriori);
  }
}

TEST(PencilSim, R2CC2REveryModeEveryGrid) {
  const auto comm = Communicator::world();
  const auto self = comm.split(comm.rank(), 0);
  // Even and odd n2; 2×1×1 (empty blocks on most grids); 1×1×1.
  for (const auto& d : {Dims{5, 4, 6}, Dims{3, 7, 9}})
    for (const auto& o : float_modes()) check_real<float>(comm, self, d, o);
  for (const auto& d : {Dims{1, 1, 1}, Dims{2, 1, 1}, Dims{2, 3, 129}})
    check_real<float>(comm, self, d, sim(MathMode::fp32));
  for (const auto& d : {Dims{5, 4, 6}, Dims{3, 7, 9}}) check_real<double>(comm, self, d, sim(MathMode::ozaki));
}

// A target split over the three stages: the composed bound meets it, each stage ran the cheapest mode that meets
// its share (automatic), and the result is within the bound.
TEST(PencilSim, TargetSplitMeetsTheTarget) {
  const auto comm = Communicator::world();
  const auto self = comm.split(comm.rank(), 0);
  for (double t : {3e-2, 1e-4, 1e-5}) {
    check_c2c<float>(comm, self, {5, 4, 3}, Direction::forward, sim(MathMode::automatic).with_target(t));
    check_real<float>(comm, self, {3, 4, 6}, sim(MathMode::automatic).with_target(t));
  }
  check_c2c<double>(comm, self, {3, 4, 5}, Direction::forward, sim(MathMode::automatic).with_target(1e-13));
  check_real<double>(comm, self, {3, 4, 5}, sim(MathMode::ozaki).with_target(1e-13));
  // Not vacuous: the share is the largest that composes within t — a target just below the composed bound of
  // fp32 stages cannot be met by fp32, while the composed bound itself can.
  const Dims d{4, 4, 4};
  const auto o = sim(MathMode::fp32);
  std::vector<std::complex<float>> a(64), b(64);
  trncore::AccuracyReport r;
  trnfft::mpi::plan_pencil_c2c<float>(self, 1, 1, d, Direction::forward, o).execute(a, b, r);
  const double composed = r.a_priori_bound;
  for (auto [P0, P1] : grids(comm.size())) {
    EXPECT_NO_THROW(
        trnfft::mpi::plan_pencil_c2c<float>(comm, P0, P1, d, Direction::forward, PlanOptions(o).with_target(composed)));
    EXPECT_THROW(trnfft::mpi::plan_pencil_c2c<float>(comm, P0, P1, d, Direction::forward,
                                                     PlanOptions(o).with_target(composed * (1 - 1e-6))),
                 trncore::TargetNotMet);
  }
}

// Unmeetable targets: TargetNotMet on every rank, at planning (no mode certifies the stage's share, or the mode
// given does not) and at execution (an uncertified run, the forms without a report).
TEST(PencilSimErrors, UnmeetableTargetThrowsOnEveryRank) {
  const auto comm = Communicator::world();
  const auto P = comm.size();
  const Dims d{3, 4, 5};
  EXPECT_THROW(trnfft::mpi::plan_pencil_c2c<float>(comm, 1, P, d, Direction::forward,
                                                   sim(MathMode::automatic).with_target(1e-20)),
               trncore::TargetNotMet);
  EXPECT_THROW(trnfft::mpi::plan_pencil_r2c<float>(comm, P, 1, d, sim(MathMode::automatic).with_target(1e-20)),
               trncore::TargetNotMet);
  EXPECT_THROW(trnfft::mpi::plan_pencil_c2r<double>(comm, 1, P, d, sim(MathMode::automatic).with_target(1e-20)),
               trncore::TargetNotMet);
  try {
    trnfft::mpi::plan_pencil_c2c<float>(comm, P, 1, d, Direction::forward, sim(MathMode::bf16).with_target(1e-5));
    ADD_FAILURE() << "no TargetNotMet";
  } catch (const trncore::TargetNotMet& e) {
    EXPECT_NE(std::string(e.what()).find("split over the 3 stages"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("on rank 0"), std::string::npos) << e.what();
  }
}

TEST(PencilSimErrors, NaNOnOneRankUncertifiesEveryRank) {
  const auto comm = Communicator::world();
  const Dims d{5, 4, 3};
  for (auto [P0, P1] : grids(comm.size())) {
    SCOPED_TRACE(std::to_string(P0) + "x" + std::to_string(P1) + " grid");
    auto plan = trnfft::mpi::plan_pencil_c2c<float>(comm, P0, P1, d, Direction::forward, sim(MathMode::fp32));
    const auto& L = plan.layout();
    const auto xl = block(cdata<float>(60), d, L.in_0_start, L.in_n0, L.in_1_start, L.in_n1, 0, d[2]);
    std::vector<std::complex<float>> out(static_cast<std::size_t>(L.output_size));
    fft_mpi_test::expect_nan_on_last_rank_uncertifies(comm, plan, xl, out);
  }
}

TEST(PencilSimErrors, HostReportAndMismatchedOptions) {
  const auto comm = Communicator::world();
  const Dims d{4, 3, 5};
  auto host = trnfft::mpi::plan_pencil_c2c<double>(comm, 1, comm.size(), d, Direction::forward);
  std::vector<std::complex<double>> in(static_cast<std::size_t>(host.layout().input_size)),
      out(static_cast<std::size_t>(host.layout().output_size));
  trncore::AccuracyReport r;
  EXPECT_THROW(host.execute(in, out, r), trncore::NotSupported);  // FFTW certifies nothing
  host.execute(in, out);
  // A target on a host plan.
  EXPECT_THROW(trnfft::mpi::plan_pencil_c2c<double>(comm, 1, comm.size(), d, Direction::forward,
                                                    PlanOptions{}.with_target(1e-10)),
               trncore::NotSupported);
  if (comm.size() == 1) return;
  // Options that differ on one rank: the same DimensionMismatch everywhere (never a hang in the report's
  // collectives, which only sim ranks would enter).
  const bool odd = comm.rank() == 1;
  EXPECT_THROW(trnfft::mpi::plan_pencil_c2c<float>(comm, 1, comm.size(), d, Direction::forward,
                                                   odd ? sim(MathMode::fp32) : PlanOptions{}),
               trncore::DimensionMismatch);
  EXPECT_THROW(
      trnfft::mpi::plan_pencil_r2c<float>(comm, comm.size(), 1, d, odd ? sim(MathMode::fp32) : sim(MathMode::bf16)),
      trncore::DimensionMismatch);
  EXPECT_THROW(trnfft::mpi::plan_pencil_c2r<float>(comm, comm.size(), 1, d,
                                                   sim(MathMode::automatic).with_target(odd ? 1e-3 : 1e-4)),
               trncore::DimensionMismatch);
}

}  // namespace
