// Chemistry through einsum. DF-MP2: psi4 1.3.2's energies for the shared cc-pVDZ fixtures (their README: a
// float64 implementation matches psi4 to ~1e-13 Ha; psi4 and numpy agree to 1.1e-14) and trnblas's fused
// df_mp2_energy. AO→MO: a long-double nested loop over the definition, and the plan must be the staged one.
#include "naive_einsum.hpp"

#include <trntensor/chemistry.hpp>
#include <trntensor/plan.hpp>

#include <trncore/io/npy.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace trntensor::test {
namespace {

double json_number(const std::string& text, const std::string& key) {
  const auto at = text.find("\"" + key + "\":");
  if (at == std::string::npos) throw std::runtime_error("meta.json lacks " + key);
  return std::stod(text.substr(at + key.size() + 3));
}

class DfMp2 : public ::testing::TestWithParam<std::string> {};

TEST_P(DfMp2, EinsumEnergyMatchesPsi4AndTrnblas) {
  const std::string dir = std::string(TRNSCI_DATA_DIR) + "/dfmp2/" + GetParam() + "/";
  const auto b = trncore::io::read_npy(dir + "B_iaQ.npy");
  const auto eo = trncore::io::read_npy(dir + "eps_occ.npy").values;
  const auto ev = trncore::io::read_npy(dir + "eps_vir.npy").values;
  std::ifstream meta(dir + "meta.json");
  std::stringstream text;
  text << meta.rdbuf();
  const TensorView<const double> bv(b.values.data(), b.shape);
  const auto e = df_mp2_energy(bv, eo, ev);
  // (ia|jb) has error ≤ γ_{naux+2}·(|B||B|ᵀ) ≈ 2e-14 relative; the energy sums o²v² ≤ 2e4 terms of size
  // ≤ 1e-2 Ha with γ_{2e4} ≈ 2e-12 relative: well below 1e-10 Ha, while a wrong contraction (transposed or
  // misplanned exchange term) moves the energy by ≥ 1e-3 Ha.
  EXPECT_NEAR(e.correlation, json_number(text.str(), "psi4_dfmp2_correlation_energy"), 1e-10);
  EXPECT_NEAR(e.same_spin, json_number(text.str(), "psi4_dfmp2_same_spin"), 1e-10);
  EXPECT_NEAR(e.opposite_spin, json_number(text.str(), "psi4_dfmp2_opposite_spin"), 1e-10);
  const auto fused = trnblas::df_mp2_energy(b.shape[0], b.shape[1], b.shape[2], b.values.data(), eo.data(), ev.data());
  EXPECT_NEAR(e.correlation, fused.correlation, 1e-12);
  // On sim with fp64-accurate (ozaki) pair products the energy is as good; with bf16 products it is within the
  // V bound (≈ 2^-7 relative) propagated to the energy: ≤ 1e-2·|E| suffices and fp64 must not be needed.
  trncore::AccuracyReport r;
  const auto oz = df_mp2_energy(bv, eo, ev, trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::ozaki), &r);
  EXPECT_NEAR(oz.correlation, e.correlation, 1e-10) << r.to_string();
  const auto bf = df_mp2_energy(bv, eo, ev, trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::bf16));
  EXPECT_NEAR(bf.correlation, e.correlation, 1e-2 * std::fabs(e.correlation));
  RecordProperty("bf16_error_Ha", std::to_string(bf.correlation - e.correlation));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DfMp2, ::testing::Values("H2O", "CH4", "NH3"));

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
  const Tensor<double> mo = ao_to_mo_transform<double>(ev, cv, {}, &r);
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
