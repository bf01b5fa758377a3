// Chemistry. DF-MP2 (trntensor::df_mp2_energy runs trnblas::df_mp2_energy on the view's values): psi4 1.3.2's
// energies for the shared cc-pVDZ fixtures (their README: a float64 implementation matches psi4 to ~1e-13 Ha;
// psi4 and numpy agree to 1.1e-14), and bitwise trnblas's result for the same B, also from a strided view.
// AO→MO: a long-double nested loop over the definition, and the plan must be the staged one.
#include "naive_einsum.hpp"

#include <trntensor/chemistry.hpp>
#include <trntensor/plan.hpp>

#include <trncore/io/npy.hpp>

#include <trnsci_testing/adversarial.hpp>

#include <trnsci_testing/dfmp2_fixture.hpp>

#include <gtest/gtest.h>

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

namespace trntensor::test {
namespace {

// psi4's own deviation from the exact energy of the stored inputs: the fixtures' READMEs state that an
// independent float64 evaluation agrees with psi4 to < 1e-13 Ha, so a certified bound must be ≥ |E − E_psi4|
// − 1e-13 (psi4's value may sit that far from the exact energy of these inputs).
constexpr double kReferenceSpread = 1e-13;

using Fixture = trnsci_testing::Dfmp2Fixture;

// "H2O" → data/dfmp2/H2O (cc-pVDZ); "aug/H2O" → data/dfmp2-aug-cc-pvdz/H2O.
const Fixture& load(const std::string& name) { return trnsci_testing::dfmp2_fixture(TRNSCI_DATA_DIR, name); }

trncore::Options sim(trncore::MathMode mode) {
  return trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(mode);
}

// One run: the energy's error against psi4 must be within `want` Ha, and certified with a bound covering it.
// With `fused`, also bitwise trnblas::df_mp2_energy's energies and bound for the same B (skipped for benzene,
// where it would double a sim run of minutes).
void check(const Fixture& f, const std::string& what, const trncore::Options& o, double want, bool fused = true) {
  const TensorView<const double> bv(f.b.data(), f.shape);
  trncore::AccuracyReport r;
  const auto t0 = std::chrono::steady_clock::now();
  const auto e = df_mp2_energy(bv, f.eps_occ, f.eps_vir, o, r);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double err = std::fabs(e.correlation - f.e_corr);
  std::printf("%s: error %s Ha, bound %s Ha, certified %d, %.1f s\n", what.c_str(), trncore::detail::sci(err).c_str(),
              trncore::detail::sci(r.a_priori_bound).c_str(), static_cast<int>(r.certified), seconds);
  EXPECT_TRUE(r.certified) << what << "\n" << r.to_string();
  EXPECT_TRUE(r.met) << what;
  EXPECT_LE(err, want) << what;
  EXPECT_LE(err, r.a_priori_bound + kReferenceSpread) << what << "\n" << r.to_string();
  // correlation = same_spin + opposite_spin: on the host the three are rounded from double-double sums, so
  // within u(|E_SS| + |E_OS|) + u|E| ≤ 2^-51·|E| of the fp64 sum of the rounded components (same signs).
  EXPECT_LE(std::fabs(e.correlation - (e.same_spin + e.opposite_spin)), 0x1p-51 * std::fabs(e.correlation)) << what;
  if (!fused) return;
  // The one implementation: bitwise trnblas's energies for the same B.
  trncore::AccuracyReport fused_report;
  const auto direct = trnblas::df_mp2_energy(f.shape[0], f.shape[1], f.shape[2], f.b.data(), f.eps_occ.data(),
                                             f.eps_vir.data(), o, fused_report);
  EXPECT_EQ(e.correlation, direct.correlation) << what;
  EXPECT_EQ(e.same_spin, direct.same_spin) << what;
  EXPECT_EQ(e.opposite_spin, direct.opposite_spin) << what;
  EXPECT_EQ(r.a_priori_bound, fused_report.a_priori_bound) << what;
}

class DfMp2 : public ::testing::TestWithParam<std::string> {};

// Issue #18 targets: host ≤ 1e-9 Ha, sim ozaki ≤ 1e-9 Ha, sim compensated certified ≤ 1e-8 Ha, each with a
// certified bound (hartree) that covers the error. Compensated: B's rows hold entries ~1e-19 × their largest,
// whose slice remainders fall below 2^-63 (trnblas's absolute term covers them), and K runs in chunks of 128
// summed in float-float (one fp32 PSUM sum over naux = 570 erred by 1.4e-8 Ha for benzene).
TEST_P(DfMp2, EnergyMatchesPsi4WithACertifiedBound) {
  const Fixture& f = load(GetParam());
  check(f, GetParam() + " host", {}, 1e-9);
  check(f, GetParam() + " sim ozaki", sim(trncore::MathMode::ozaki), 1e-9);
  check(f, GetParam() + " sim compensated", sim(trncore::MathMode::compensated), 1e-8);
  const TensorView<const double> bv(f.b.data(), f.shape);
  const auto host = df_mp2_energy(bv, f.eps_occ, f.eps_vir);
  EXPECT_NEAR(host.same_spin, f.e_ss, 1e-9);
  EXPECT_NEAR(host.opposite_spin, f.e_os, 1e-9);
}

// bf16 pair products: where the run is certified its bound (hartree, on the energy) covers the error against
// psi4; where not, met is false, the reason names the pair products, and the overload without a report throws.
TEST_P(DfMp2, LowPrecisionProductsAreHonest) {
  const Fixture& f = load(GetParam());
  const TensorView<const double> bv(f.b.data(), f.shape);
  trncore::AccuracyReport r;
  const auto e = df_mp2_energy(bv, f.eps_occ, f.eps_vir, sim(trncore::MathMode::bf16), r);
  const double err = std::fabs(e.correlation - f.e_corr);
  if (r.certified) {
    EXPECT_LE(err, r.a_priori_bound + kReferenceSpread);
  } else {
    EXPECT_FALSE(r.met);
    EXPECT_NE(r.uncertified_reason.find("pair products"), std::string::npos) << r.uncertified_reason;
    EXPECT_THROW(df_mp2_energy(bv, f.eps_occ, f.eps_vir, sim(trncore::MathMode::bf16)), trncore::TargetNotMet);
  }
  trncore::AccuracyReport h;
  const auto eh = df_mp2_energy(bv, f.eps_occ, f.eps_vir, {}, h);
  EXPECT_GE(h.a_priori_bound + kReferenceSpread, std::fabs(eh.correlation - f.e_corr));
}

// A strided view of B (stored Q-major, viewed as [i][a][Q]) is copied into row-major order: the same energies
// bit for bit as the contiguous tensor.
TEST(DfMp2View, StridedViewGivesTheContiguousResult) {
  const Fixture& f = load("H2O");
  const std::int64_t o = f.shape[0], v = f.shape[1], q = f.shape[2];
  std::vector<double> qia(f.b.size());
  for (std::int64_t i = 0; i < o; ++i)
    for (std::int64_t a = 0; a < v; ++a)
      for (std::int64_t x = 0; x < q; ++x)
        qia[static_cast<std::size_t>((x * o + i) * v + a)] = f.b[static_cast<std::size_t>((i * v + a) * q + x)];
  const TensorView<const double> strided(qia.data(), {o, v, q}, {v, 1, o * v});
  ASSERT_FALSE(strided.is_row_major_contiguous());
  const auto e = df_mp2_energy(strided, f.eps_occ, f.eps_vir);
  const auto dense = df_mp2_energy(TensorView<const double>(f.b.data(), f.shape), f.eps_occ, f.eps_vir);
  EXPECT_EQ(e.correlation, dense.correlation);
  EXPECT_EQ(e.same_spin, dense.same_spin);
  EXPECT_EQ(e.opposite_spin, dense.opposite_spin);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DfMp2, ::testing::Values("H2O", "CH4", "NH3", "aug/H2O", "aug/NH3"));

// Benzene, aug-cc-pVDZ (21 x 171 x 570): host by default, the sim modes under TRNSCI_ADVERSARIAL=full.
TEST(DfMp2Benzene, AllModes) {
  const Fixture& f = load("aug/C6H6");
  check(f, "C6H6 host", {}, 1e-9);
  if (!trnsci_testing::adversarial_full()) return;
  check(f, "C6H6 sim ozaki", sim(trncore::MathMode::ozaki), 1e-9, false);
  check(f, "C6H6 sim compensated", sim(trncore::MathMode::compensated), 1e-8, false);
}

// The report bounds the energy (hartree), not the pair products: a synthetic system with a large energy (B ~ 10,
// a HOMO–LUMO gap of 0.02 Ha) has energy errors far above the products' componentwise γ ≈ 1e-15 — the old
// report's number — and the bound must still cover them, against a binary128 evaluation of the definition.
TEST(DfMp2Bound, CoversTheEnergyErrorOfALargeSyntheticSystem) {
  const std::int64_t no = 3, nv = 7, nq = 11;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-10, 10);
  std::vector<double> b(static_cast<std::size_t>(no * nv * nq)), eo(static_cast<std::size_t>(no)),
      ev(static_cast<std::size_t>(nv));
  for (auto& x : b) x = u(rng);
  for (std::int64_t i = 0; i < no; ++i) eo[static_cast<std::size_t>(i)] = -0.01 - 0.3 * static_cast<double>(i);
  for (std::int64_t a = 0; a < nv; ++a) ev[static_cast<std::size_t>(a)] = 0.01 + 0.2 * static_cast<double>(a);
  using quad = __float128;
  const auto k = [&](std::int64_t i, std::int64_t a, std::int64_t j, std::int64_t c) {
    quad s = 0;
    for (std::int64_t q = 0; q < nq; ++q)
      s += static_cast<quad>(b[static_cast<std::size_t>((i * nv + a) * nq + q)]) *
           b[static_cast<std::size_t>((j * nv + c) * nq + q)];
    return s;
  };
  quad exact = 0;
  for (std::int64_t i = 0; i < no; ++i)
    for (std::int64_t j = 0; j < no; ++j)
      for (std::int64_t a = 0; a < nv; ++a)
        for (std::int64_t c = 0; c < nv; ++c) {
          const quad d = static_cast<quad>(eo[static_cast<std::size_t>(i)]) + eo[static_cast<std::size_t>(j)] -
                         ev[static_cast<std::size_t>(a)] - ev[static_cast<std::size_t>(c)];
          exact += k(i, a, j, c) * (2 * k(i, a, j, c) - k(i, c, j, a)) / d;
        }
  const TensorView<const double> bv(b.data(), {no, nv, nq});
  for (const auto& o : {trncore::Options{}, sim(trncore::MathMode::ozaki), sim(trncore::MathMode::bf16),
                        sim(trncore::MathMode::fp32)}) {
    trncore::AccuracyReport r;
    const auto e = df_mp2_energy(bv, eo, ev, o, r);
    const double err = static_cast<double>(static_cast<quad>(e.correlation) - exact);
    std::printf("synthetic %s: E %.6e Ha, error %s Ha, bound %s Ha, certified %d\n", trncore::to_string(o).c_str(),
                e.correlation, trncore::detail::sci(std::fabs(err)).c_str(),
                trncore::detail::sci(r.a_priori_bound).c_str(), static_cast<int>(r.certified));
    if (r.certified) {
      EXPECT_LE(std::fabs(err), r.a_priori_bound) << trncore::to_string(o);
    }
  }
  // Host must certify, and its bound must exceed the pair products' own componentwise bound (≈ γ_nq).
  trncore::AccuracyReport h;
  df_mp2_energy(bv, eo, ev, {}, h);
  EXPECT_TRUE(h.certified);
  EXPECT_GT(h.a_priori_bound, 1e-12);
}

// A target in hartree: the report's met compares the energy bound with it directly.
TEST(DfMp2Target, IsInHartree) {
  const Fixture& f = load("H2O");
  const TensorView<const double> bv(f.b.data(), f.shape);
  trncore::AccuracyReport r;
  df_mp2_energy(bv, f.eps_occ, f.eps_vir, {}, r);
  ASSERT_TRUE(r.certified);
  trncore::AccuracyReport t;
  df_mp2_energy(bv, f.eps_occ, f.eps_vir, trncore::Options{}.with_target(r.a_priori_bound * 2), t);
  EXPECT_TRUE(t.met);
  EXPECT_EQ(*t.target, r.a_priori_bound * 2);
  // Far below what fp64 certifies: not met, and the plain overload throws.
  trncore::AccuracyReport tight;
  df_mp2_energy(bv, f.eps_occ, f.eps_vir, trncore::Options{}.with_target(r.a_priori_bound / 1e3), tight);
  EXPECT_TRUE(tight.certified);
  EXPECT_FALSE(tight.met);
  EXPECT_THROW(df_mp2_energy(bv, f.eps_occ, f.eps_vir, trncore::Options{}.with_target(r.a_priori_bound / 1e3)),
               trncore::TargetNotMet);
}

TEST(DfMp2Errors, BadInputIsRejected) {
  std::vector<double> b(2 * 3 * 4, 0.1), eo{-1.0, -0.5}, ev{0.1, 0.2, 0.3};
  const TensorView<const double> bv(b.data(), {2, 3, 4});
  EXPECT_THROW(df_mp2_energy(bv, std::vector<double>{-1.0}, ev), trncore::DimensionMismatch);
  EXPECT_THROW(df_mp2_energy(bv, std::vector<double>{-1.0, 0.15}, ev), trncore::InvalidArgument);
  EXPECT_THROW(df_mp2_energy(bv, std::vector<double>{-1.0, NAN}, ev), trncore::InvalidArgument);
  EXPECT_THROW(df_mp2_energy(TensorView<const double>(b.data(), {6, 4}), eo, ev), trncore::DimensionMismatch);
}

TEST(AoToMo, MatchesTheDefinitionAndIsStaged) {
  const std::int64_t n = 7, m = 5;  // prime AO count, fewer MOs
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> eri(static_cast<std::size_t>(n * n * n * n)), c(static_cast<std::size_t>(n * m));
  for (auto& x : eri) x = u(rng);
  for (auto& x : c) x = u(rng);
  const TensorView<const double> ev(eri.data(), {n, n, n, n}), cv(c.data(), {n, m});
  trncore::AccuracyReport r;
  const Tensor<double> mo = ao_to_mo_transform<double>(ev, cv, {}, r);
  Expr e;
  e.names = {"p", "q", "r", "s", "i", "j", "k", "l"};
  e.extents = {n, n, n, n, m, m, m, m};
  e.inputs = {{0, 1, 2, 3}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  e.output = {4, 5, 6, 7};
  e.shapes = {{n, n, n, n}, {n, m}, {n, m}, {n, m}, {n, m}};
  const std::vector<std::vector<double>> values{eri, c, c, c, c};
  const auto exact = naive_einsum(e, values), mag = naive_einsum(e, values, true);
  EXPECT_LT(r.a_priori_bound, 1e-13);  // four fp64 stages with K = 7: Σ γ_9 ≈ 4e-15
  for (std::size_t i = 0; i < exact.size(); ++i)
    ASSERT_LE(std::fabs(mo.values()[i] - exact[i]), r.a_priori_bound * mag[i]) << i;
  // The optimal plan transforms one index at a time: 4 GEMM steps of 2·n^(4−s)·m^(s+1)... each at most 2·n⁴·m.
  const std::vector<Shape> shapes{{n, n, n, n}, {n, m}, {n, m}, {n, m}, {n, m}};
  const ContractionPlan plan("pqrs,pi,qj,rk,sl->ijkl", shapes);
  int contracts = 0;
  for (const auto& s : plan.steps())
    if (s.kind == StepKind::contract) {
      ++contracts;
      EXPECT_EQ(s.k_size, n) << plan.to_string();
    }
  EXPECT_EQ(contracts, 4);
  EXPECT_LE(plan.total_flops(), 4.0 * 2 * n * n * n * n * m) << plan.to_string();
  EXPECT_THROW(ao_to_mo_transform<double>(ev, TensorView<const double>(c.data(), {m, n})), trncore::DimensionMismatch);
  EXPECT_THROW(ao_to_mo_transform<double>(cv, cv), trncore::DimensionMismatch);
}

}  // namespace
}  // namespace trntensor::test
