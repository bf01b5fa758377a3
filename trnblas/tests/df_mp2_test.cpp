// DF-MP2 energy. Oracles: psi4 1.3.2's DF-MP2 energies for the fixtures in data/dfmp2 (cc-pVDZ: H2O, CH4,
// NH3) and data/dfmp2-aug-cc-pvdz (H2O, NH3, C6H6), and for synthetic shapes a direct long-double quadruple
// loop over (ia|jb) = Σ_Q B_iaQ B_jbQ. Every run's certified bound (hartree) must cover its measured error
// up to the reference's own error (kReferenceSpread).
#include <trnblas/df_mp2.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/io/npy.hpp>
#include <trncore/philox.hpp>

#include <trnsci_testing/adversarial.hpp>
#include <trnsci_testing/errors.hpp>

#include <trnsci_testing/dfmp2_fixture.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <array>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using trncore::Backend;
using trncore::MathMode;
using trncore::Options;

// psi4's own deviation from the exact energy of the stored inputs: the READMEs state that an independent
// float64 evaluation from the stored tensors agrees with psi4 to < 1e-13 Ha (cc-pVDZ: 1.1e-14), so a bound is
// checked as bound ≥ |E − E_psi4| − 1e-13: psi4's value can be off the exact energy of these inputs by that.
constexpr double kReferenceSpread = 1e-13;

using Molecule = trnsci_testing::Dfmp2Fixture;

// name: "H2O" (data/dfmp2, cc-pVDZ) or "aug/H2O" (data/dfmp2-aug-cc-pvdz).
const Molecule& molecule(const std::string& name) { return trnsci_testing::dfmp2_fixture(TRNSCI_DATA_DIR, name); }

struct EnergyRun {
  trnblas::Mp2Energy e;
  trncore::AccuracyReport report;
};

EnergyRun run(const Molecule& m, const Options& o) {
  EnergyRun r;
  r.e = trnblas::df_mp2_energy(m.nocc, m.nvir, m.naux, m.b.data(), m.eps_occ.data(), m.eps_vir.data(), o, r.report);
  return r;
}

Options sim(MathMode mode) { return Options{}.with_backend(Backend::sim).with_math_mode(mode); }

class Fixture : public ::testing::TestWithParam<std::string> {};

TEST_P(Fixture, HostFp64MatchesPsi4ToANanohartree) {
  const Molecule& m = molecule(GetParam());
  const EnergyRun r = run(m, {});
  // Issue target ≤ 1e-9 Ha; the bound (γ_naux DGEMM, double-double sums) is ~1e-14, and covers the error.
  EXPECT_NEAR(r.e.correlation, m.e_corr, 1e-9);
  EXPECT_NEAR(r.e.same_spin, m.e_ss, 1e-9);
  EXPECT_NEAR(r.e.opposite_spin, m.e_os, 1e-9);
  EXPECT_LE(std::fabs(r.e.correlation - m.e_corr), r.report.a_priori_bound + kReferenceSpread);
  EXPECT_LE(r.report.a_priori_bound, 1e-9);
  EXPECT_TRUE(r.report.met);
  EXPECT_TRUE(r.report.certified);
  std::printf("%s host: error %s Ha, bound %s Ha\n", GetParam().c_str(),
              trncore::detail::sci(std::fabs(r.e.correlation - m.e_corr)).c_str(),
              trncore::detail::sci(r.report.a_priori_bound).c_str());
  RecordProperty("host_error", trncore::detail::sci(r.e.correlation - m.e_corr));
}

TEST_P(Fixture, CholeskyRouteGivesTheSameEnergy) {
  const Molecule& m = molecule(GetParam());
  ASSERT_FALSE(m.pia.empty());
  std::vector<double> b(m.b.size());
  ASSERT_EQ(trnblas::df_fit_cholesky(m.naux, m.nocc, m.nvir, m.pia.data(), m.j.data(), b.data()), 0);
  const auto e = trnblas::df_mp2_energy(m.nocc, m.nvir, m.naux, b.data(), m.eps_occ.data(), m.eps_vir.data());
  // cond(J) ≤ 3.7e6 (aug-cc-pVDZ NH3): the fit perturbs (ia|jb) by ~cond·u ≈ 1e-9 relative at worst, and the
  // energy by ~1e-10 Ha, inside 1e-9 Ha.
  EXPECT_NEAR(e.correlation, m.e_corr, 1e-9);
  // B is a rotation of the J^-1/2 fit, not equal to it (README); the energy is invariant, the tensor not.
  double diff = 0;
  for (std::size_t i = 0; i < b.size(); ++i) diff = std::max(diff, std::fabs(b[i] - m.b[i]));
  EXPECT_GT(diff, 1e-3);
}

TEST_P(Fixture, SimFp32LevelWithinAMicrohartree) {
  const Molecule& m = molecule(GetParam());
  // Issue target ≤ 1e-6 Ha for fp32-level products. `fp32` mode is fp32-level only where products are
  // exact (ProductModel::exact); under trn2's bf16-rounded products fp32-level accuracy is `compensated`'s
  // job (docs/trnblas-sim.md), and plain `fp32` is recorded, not held to 1e-6. Each bound covers its error.
  for (const Options& o :
       {sim(MathMode::fp32).with_product(trncore::sim::ProductModel::exact), sim(MathMode::compensated)}) {
    const EnergyRun r = run(m, o);
    EXPECT_NEAR(r.e.correlation, m.e_corr, 1e-6) << trncore::to_string(o);
    EXPECT_LE(std::fabs(r.e.correlation - m.e_corr), r.report.a_priori_bound + kReferenceSpread);
    ASSERT_TRUE(r.report.cost.has_value());
  }
  const EnergyRun bf16_products = run(m, sim(MathMode::fp32));
  EXPECT_LE(std::fabs(bf16_products.e.correlation - m.e_corr), bf16_products.report.a_priori_bound + kReferenceSpread);
  EXPECT_TRUE(bf16_products.report.met);  // certified (screened entries included in the bound)
}

TEST_P(Fixture, SimOzakiWithFloatFloatStageWithinANanohartreeUnderBothProductModels) {
  const Molecule& m = molecule(GetParam());
  for (const auto model : {trncore::sim::ProductModel::bf16, trncore::sim::ProductModel::exact}) {
    const EnergyRun r = run(m, sim(MathMode::ozaki).with_product(model));
    EXPECT_NEAR(r.e.correlation, m.e_corr, 1e-9);
    EXPECT_NEAR(r.e.same_spin, m.e_ss, 1e-9);
    EXPECT_NEAR(r.e.opposite_spin, m.e_os, 1e-9);
    // Certified, not only measured: fp64-accurate products and double-word sums bound the error below 1 nHa.
    EXPECT_LE(std::fabs(r.e.correlation - m.e_corr), r.report.a_priori_bound + kReferenceSpread);
    EXPECT_LE(r.report.a_priori_bound, 1e-9);
    EXPECT_TRUE(r.report.certified) << r.report.to_string();
    std::printf("%s ozaki (%s products): error %s Ha, bound %s Ha\n", GetParam().c_str(),
                std::string(trncore::sim::to_string(model)).c_str(),
                trncore::detail::sci(std::fabs(r.e.correlation - m.e_corr)).c_str(),
                trncore::detail::sci(r.report.a_priori_bound).c_str());
  }
}

// Issue #18: compensated reached 8e-9 Ha but reported "not certified" (slice remainders below 2^-63 voided the
// relative bound; the absolute term now covers them). Target: certified and within 1e-8 Ha of psi4.
TEST_P(Fixture, SimCompensatedIsCertifiedWithinTenNanohartree) {
  const Molecule& m = molecule(GetParam());
  const EnergyRun r = run(m, sim(MathMode::compensated));
  const double err = std::fabs(r.e.correlation - m.e_corr);
  EXPECT_TRUE(r.report.certified) << r.report.to_string();
  EXPECT_TRUE(r.report.met);
  EXPECT_LE(err, 1e-8);
  EXPECT_LE(err, r.report.a_priori_bound + kReferenceSpread);
  std::printf("%s compensated: error %s Ha, bound %s Ha\n", GetParam().c_str(), trncore::detail::sci(err).c_str(),
              trncore::detail::sci(r.report.a_priori_bound).c_str());
  RecordProperty("compensated_error", trncore::detail::sci(err));
  RecordProperty("compensated_bound", trncore::detail::sci(r.report.a_priori_bound));
}

TEST_P(Fixture, LowPrecisionModesStayWithinTheirBounds) {
  const Molecule& m = molecule(GetParam());
  for (const MathMode mode :
       {MathMode::bf16, MathMode::fp16, MathMode::fp8_e4m3, MathMode::tf32, MathMode::compensated}) {
    const EnergyRun r = run(m, sim(mode));
    const double err = std::fabs(r.e.correlation - m.e_corr);
    if (r.report.certified) {
      EXPECT_LE(err, r.report.a_priori_bound + kReferenceSpread) << trncore::to_string(mode);
    }
    RecordProperty(std::string(trncore::to_string(mode)) + "_error", trncore::detail::sci(err));
    RecordProperty(std::string(trncore::to_string(mode)) + "_bound", trncore::detail::sci(r.report.a_priori_bound));
  }
}

INSTANTIATE_TEST_SUITE_P(Dfmp2, Fixture, ::testing::Values("H2O", "CH4", "NH3", "aug/H2O", "aug/NH3"));

// Benzene, aug-cc-pVDZ (21 x 171 x 570, cond(J) 2.5e8): host by default; the sim modes under
// TRNSCI_ADVERSARIAL=full (each takes longer than the default run's budget; times in the test output).
TEST(DfMp2Benzene, AllModesWithinTheirTargetsAndBounds) {
  const Molecule& m = molecule("aug/C6H6");
  std::vector<std::pair<std::string, Options>> runs{{"host", Options{}}};
  if (trnsci_testing::adversarial_full()) {
    runs.emplace_back("ozaki", sim(MathMode::ozaki));
    runs.emplace_back("compensated", sim(MathMode::compensated));
  }
  for (const auto& [name, o] : runs) {
    const auto t0 = std::chrono::steady_clock::now();
    const EnergyRun r = run(m, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double err = std::fabs(r.e.correlation - m.e_corr);
    std::printf("benzene %s: error %s Ha, bound %s Ha, certified %d, %.1f s\n", name.c_str(),
                trncore::detail::sci(err).c_str(), trncore::detail::sci(r.report.a_priori_bound).c_str(),
                static_cast<int>(r.report.certified), seconds);
    EXPECT_TRUE(r.report.certified) << name << "\n" << r.report.to_string();
    EXPECT_LE(err, name == "compensated" ? 1e-8 : 1e-9) << name;
    EXPECT_LE(err, r.report.a_priori_bound + kReferenceSpread) << name;
  }
}

TEST(DfMp2, AutomaticTargetRunsTheCheapestCertifiedMode) {
  const Molecule& m = molecule("H2O");
  for (const double target : {1e-2, 1e-5, 1e-9}) {
    const EnergyRun r = run(m, Options{}.with_backend(Backend::sim).with_target(target));
    EXPECT_TRUE(r.report.met) << target << "\n" << r.report.to_string();
    // Targets are absolute errors in hartree (issue #18: it used to be relative to |E| while the bound was
    // in hartree, so 1e-9 asked for ~2e-10 Ha).
    EXPECT_LE(r.report.a_priori_bound, target);
    EXPECT_LE(std::fabs(r.e.correlation - m.e_corr), target + kReferenceSpread);
    // Each mode tried before the one that ran must have had a bound above the target, or none certified
    // (compensated slices whose remainders fall below 2^-63 void its relative bound).
    for (const auto& step : r.report.trajectory)
      if (step.description.rfind("tried", 0) == 0 && step.description.find("(not certified)") == std::string::npos) {
        const double tried = std::stod(step.description.substr(step.description.find("bound ") + 6));
        EXPECT_GT(tried, target) << step.description;
      }
  }
  // 1e-9 Ha needs fp64-accurate products: ozaki with the float-float stage.
  const EnergyRun tight = run(m, Options{}.with_backend(Backend::sim).with_target(1e-9));
  EXPECT_NE(tight.report.to_string().find("ozaki"), std::string::npos) << tight.report.to_string();
  EXPECT_NE(tight.report.to_string().find("float-float"), std::string::npos);
  // No achievable target: TargetNotMet from the plain overload, met = false from the report overload.
  EXPECT_THROW(
      trnblas::df_mp2_energy(m.nocc, m.nvir, m.naux, m.b.data(), m.eps_occ.data(), m.eps_vir.data(),
                             Options{}.with_backend(Backend::sim).with_math_mode(MathMode::bf16).with_target(1e-12)),
      trncore::TargetNotMet);
}

// A target in hartree: 5e-8 Ha is met by compensated (bound ≈ 1e-8 … 4e-8 Ha on cc-pVDZ H2O) — relative to
// |E| ≈ 0.2 Ha it would have demanded 1e-8 Ha and gone on to ozaki.
TEST(DfMp2, TargetIsInHartree) {
  const Molecule& m = molecule("H2O");
  const EnergyRun comp = run(m, sim(MathMode::compensated));
  ASSERT_TRUE(comp.report.certified);
  const double target = comp.report.a_priori_bound * 1.5;
  const EnergyRun r = run(m, sim(MathMode::compensated).with_target(target));
  EXPECT_TRUE(r.report.met) << r.report.to_string();
  EXPECT_LT(target * std::fabs(r.e.correlation), r.report.a_priori_bound);  // a relative reading would fail
}

// The no-report overload throws whenever the result is not certified, with or without a target: here a
// denominator (homo 1 − 2^-53, lumo 1) is within its own rounding error of 0, so no finite bound exists.
TEST(DfMp2, UncertifiedResultThrowsWithoutATarget) {
  const double eo[] = {1.0 - 0x1p-53}, ev[] = {1.0}, b[] = {0.5};
  trncore::AccuracyReport rep;
  trnblas::df_mp2_energy(1, 1, 1, b, eo, ev, Options{}, rep);
  EXPECT_FALSE(rep.certified);
  EXPECT_FALSE(rep.met);
  EXPECT_FALSE(rep.uncertified_reason.empty());
  EXPECT_THROW(trnblas::df_mp2_energy(1, 1, 1, b, eo, ev), trncore::TargetNotMet);
}

TEST(DfMp2, SimResultsDoNotDependOnThreads) {
  const Molecule& m = molecule("CH4");
  for (const MathMode mode : {MathMode::fp32, MathMode::bf16, MathMode::ozaki}) {
    const EnergyRun one = run(m, sim(mode).with_threads(1));
    const EnergyRun two = run(m, sim(mode).with_threads(2));
    EXPECT_EQ(one.e.correlation, two.e.correlation) << trncore::to_string(mode);
    EXPECT_EQ(one.e.same_spin, two.e.same_spin);
    EXPECT_EQ(one.report.a_priori_bound, two.report.a_priori_bound);
  }
}

// The host stage threads over occupied pairs and combines the per-pair sums in pair order (issue #24): the
// energies and the bound are bitwise identical for 1, 2 and 3 threads, on benzene (231 pairs) and on a
// system with fewer pairs than threads would split evenly.
TEST(DfMp2, HostResultsDoNotDependOnThreads) {
  for (const char* name : {"aug/C6H6", "aug/H2O"}) {
    const Molecule& m = molecule(name);
    const EnergyRun one = run(m, Options{}.with_threads(1));
    for (const int threads : {2, 3}) {
      const EnergyRun other = run(m, Options{}.with_threads(threads));
      EXPECT_EQ(one.e.correlation, other.e.correlation) << name << " " << threads;
      EXPECT_EQ(one.e.same_spin, other.e.same_spin) << name << " " << threads;
      EXPECT_EQ(one.e.opposite_spin, other.e.opposite_spin) << name << " " << threads;
      EXPECT_EQ(one.report.a_priori_bound, other.report.a_priori_bound) << name << " " << threads;
    }
  }
}

// Synthetic systems: random B, occupied energies in [-2, -0.3], virtual ones in [0.1, 3].
struct Synthetic {
  std::int64_t nocc, nvir, naux;
  std::vector<double> b, eo, ev;
};

Synthetic synthetic(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, std::uint64_t seed) {
  Synthetic s{nocc, nvir, naux, {}, {}, {}};
  const trncore::RandomBits bits{seed, 7};
  std::uint64_t c = 0;
  const auto u = [&] { return static_cast<double>(bits(c++) >> 11) * 0x1p-53; };
  for (std::int64_t i = 0; i < nocc * nvir * naux; ++i) s.b.push_back(0.2 * (u() - 0.5));
  for (std::int64_t i = 0; i < nocc; ++i) s.eo.push_back(-2 + 1.7 * u());
  for (std::int64_t a = 0; a < nvir; ++a) s.ev.push_back(0.1 + 2.9 * u());
  return s;
}

long double direct_energy(const Synthetic& s) {
  long double e = 0;
  const auto k = [&](std::int64_t i, std::int64_t a, std::int64_t j, std::int64_t b) {
    long double sum = 0;
    for (std::int64_t q = 0; q < s.naux; ++q)
      sum += static_cast<long double>(s.b[(i * s.nvir + a) * s.naux + q]) * s.b[(j * s.nvir + b) * s.naux + q];
    return sum;
  };
  for (std::int64_t i = 0; i < s.nocc; ++i)
    for (std::int64_t j = 0; j < s.nocc; ++j)
      for (std::int64_t a = 0; a < s.nvir; ++a)
        for (std::int64_t b = 0; b < s.nvir; ++b) {
          const long double iajb = k(i, a, j, b), ibja = k(i, b, j, a);
          e += iajb * (2 * iajb - ibja) /
               ((static_cast<long double>(s.eo[i]) + s.eo[j]) - (static_cast<long double>(s.ev[a]) + s.ev[b]));
        }
  return e;
}

TEST(DfMp2, EdgeShapesAgainstADirectLongDoubleSum) {
  // Virtual counts on both sides of the 128-wide stage tile, one occupied orbital, a prime naux.
  for (const auto& [nocc, nvir, naux] : std::vector<std::array<std::int64_t, 3>>{
           {1, 1, 1}, {1, 2, 13}, {2, 127, 5}, {1, 128, 3}, {2, 129, 7}, {3, 7, 131}}) {
    const Synthetic s = synthetic(nocc, nvir, naux, static_cast<std::uint64_t>(nocc * 1000 + nvir));
    const long double exact = direct_energy(s);
    for (const Options& o :
         {Options{}, sim(MathMode::fp32), sim(MathMode::bf16), sim(MathMode::ozaki), sim(MathMode::compensated)}) {
      trncore::AccuracyReport rep;
      const auto e = trnblas::df_mp2_energy(nocc, nvir, naux, s.b.data(), s.eo.data(), s.ev.data(), o, rep);
      const double err = static_cast<double>(std::fabs(static_cast<long double>(e.correlation) - exact));
      EXPECT_LE(err, rep.a_priori_bound) << nocc << "x" << nvir << "x" << naux << " " << trncore::to_string(o);
      EXPECT_EQ(e.correlation, e.same_spin + e.opposite_spin);
    }
  }
}

// B with entries far below their row's largest (×2^-100 … 2^-140): compensated's slices and slice products fall
// below fp32's normal range, where only the absolute term bounds them. Certified, and the bound holds against
// the long-double sum (whose own error, ~1e-19 relative, is far below these bounds).
TEST(DfMp2, CompensatedAbsoluteTermCoversTinyEntries) {
  for (const auto& [nocc, nvir, naux] :
       std::vector<std::array<std::int64_t, 3>>{{2, 9, 13}, {1, 5, 131}, {3, 4, 257}}) {
    Synthetic s = synthetic(nocc, nvir, naux, static_cast<std::uint64_t>(7 + naux));
    for (std::size_t i = 0; i < s.b.size(); i += 3) s.b[i] = std::ldexp(s.b[i], -100 - static_cast<int>(i % 41));
    const long double exact = direct_energy(s);
    trncore::AccuracyReport rep;
    const auto e =
        trnblas::df_mp2_energy(nocc, nvir, naux, s.b.data(), s.eo.data(), s.ev.data(), sim(MathMode::compensated), rep);
    const double err = static_cast<double>(std::fabs(static_cast<long double>(e.correlation) - exact));
    EXPECT_TRUE(rep.certified) << rep.to_string();
    EXPECT_LE(err, rep.a_priori_bound) << nocc << "x" << nvir << "x" << naux;
  }
}

TEST(DfMp2, EmptySystemsHaveZeroEnergy) {
  const double eo[] = {-1.0}, ev[] = {1.0}, b[] = {0.5};
  for (const Options& o : {Options{}, sim(MathMode::ozaki)}) {
    EXPECT_EQ(trnblas::df_mp2_energy(0, 1, 1, nullptr, nullptr, ev, o).correlation, 0.0);
    EXPECT_EQ(trnblas::df_mp2_energy(1, 0, 1, nullptr, eo, nullptr, o).correlation, 0.0);
    EXPECT_EQ(trnblas::df_mp2_energy(1, 1, 0, nullptr, eo, ev, o).correlation, 0.0);
    EXPECT_LT(trnblas::df_mp2_energy(1, 1, 1, b, eo, ev, o).correlation, 0.0);
  }
}

using trnsci_testing::expect_error;
constexpr std::string_view kEnergy = "trnblas::df_mp2_energy", kFit = "trnblas::df_fit_cholesky";

TEST(DfMp2, BadInputIsRejectedWithTheValues) {
  const double eo[] = {-1.0, -0.5}, ev[] = {0.2, 1.0}, b[] = {0.1, 0.2, 0.3, 0.4};
  using trncore::InvalidArgument;
  const auto e = [&](std::int64_t no, std::int64_t nv, std::int64_t na, const double* bb, const double* o,
                     const double* v, Options opt = {}) { return trnblas::df_mp2_energy(no, nv, na, bb, o, v, opt); };
  expect_error<InvalidArgument>([&] { e(-1, 2, 1, b, eo, ev); }, kEnergy, {"nocc = -1"});
  expect_error<InvalidArgument>([&] { e(2, 2, 1, nullptr, eo, ev); }, kEnergy, {"b is null for 4 elements"});
  const std::int64_t huge = std::int64_t{1} << 22;  // nocc·nvir·naux = 2^66
  expect_error<InvalidArgument>([&] { e(huge, huge, huge, b, eo, ev); }, kEnergy, {"overflows int64"});
  expect_error<InvalidArgument>(
      [&] {
        double out[1];
        trnblas::df_fit_cholesky(huge, huge, huge, b, b, out);
      },
      kFit, {"overflows int64"});
  expect_error<InvalidArgument>([&] { e(2, 2, 1, b, nullptr, ev); }, kEnergy, {"eps_occ is null"});
  const double nan_eo[] = {-1.0, NAN};
  expect_error<InvalidArgument>([&] { e(2, 2, 1, b, nan_eo, ev); }, kEnergy, {"eps_occ[1]"});
  const double inf_b[] = {0.1, INFINITY, 0.3, 0.4};
  expect_error<InvalidArgument>([&] { e(2, 2, 1, inf_b, eo, ev); }, kEnergy, {"b[1] = inf"});
  const double low_ev[] = {-0.7, 1.0};
  expect_error<InvalidArgument>([&] { e(2, 2, 1, b, eo, low_ev); }, kEnergy, {"highest occupied energy -5.000e-01"});
  expect_error<trncore::NotSupported>([&] { e(2, 2, 1, b, eo, ev, sim(MathMode::sr)); }, kEnergy, {"math mode sr"});
  expect_error<trncore::NotSupported>([&] { e(2, 2, 1, b, eo, ev, sim(MathMode::fp64)); }, kEnergy,
                                      {"MathMode::ozaki"});
  expect_error<trncore::NotSupported>([&] { e(2, 2, 1, b, eo, ev, Options{}.with_math_mode(MathMode::bf16)); }, kEnergy,
                                      {"bf16"});
  expect_error<InvalidArgument>([&] { e(2, 2, 1, b, eo, ev, Options{}.with_target(2.0)); }, kEnergy, {"target"});
}

TEST(DfFitCholesky, NonPositiveDefiniteMetricIsReportedAsInfo) {
  // J = [[1, 2], [2, 1]] has eigenvalues 3 and −1: the order-2 minor fails.
  const double j[] = {1, 2, 2, 1}, pia[] = {1, 2};
  double b[2];
  EXPECT_EQ(trnblas::df_fit_cholesky(2, 1, 1, pia, j, b), 2);
  // A diagonal metric: X = L⁻¹ P with L = diag(√J).
  const double jd[] = {4, 0, 0, 9};
  ASSERT_EQ(trnblas::df_fit_cholesky(2, 1, 1, pia, jd, b), 0);
  EXPECT_DOUBLE_EQ(b[0], 0.5);
  EXPECT_DOUBLE_EQ(b[1], 2.0 / 3.0);
  expect_error<trncore::InvalidArgument>([&] { trnblas::df_fit_cholesky(2, 1, 1, pia, jd, const_cast<double*>(jd)); },
                                         kFit, {"overlaps"});
  expect_error<trncore::InvalidArgument>([&] { trnblas::df_fit_cholesky(-2, 1, 1, pia, jd, b); }, kFit, {"naux = -2"});
  const double nan_j[] = {4, 0, NAN, 9};
  expect_error<trncore::InvalidArgument>([&] { trnblas::df_fit_cholesky(2, 1, 1, pia, nan_j, b); }, kFit, {"j[2]"});
  EXPECT_EQ(trnblas::df_fit_cholesky(0, 1, 1, nullptr, nullptr, nullptr), 0);
}

}  // namespace
