// trntensor's part of the showcase: the plan of a 3-operand contraction (order, GEMM shapes, FLOPs, modes),
// the same contraction on the sim backend with a target, and the DF-MP2 energy of H2O (trntensor::df_mp2_energy,
// which runs trnblas's DF-MP2 on the tensor view) against psi4's reference in data/dfmp2/H2O/meta.json.
#include "showcase_parts.hpp"

#include <trncore/detail/format_number.hpp>
#include <trntensor/trntensor.hpp>

#include <trncore/io/npy.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

void chain_plan() {
  std::printf("\ntrntensor: plan of einsum(\"ij,jk,kl->il\") with i = 600, j = 40, k = 700, l = 500\n");
  const std::vector<trntensor::Shape> shapes{{600, 40}, {40, 700}, {700, 500}};
  const trntensor::ContractionPlan plan("ij,jk,kl->il", shapes);
  std::printf("%s", plan.to_string().c_str());
  const trntensor::ContractionPlan naive(
      "ij,jk,kl->il", shapes, trntensor::PlanOptions{}.with_algorithm(trntensor::PathAlgorithm::left_to_right));
  std::printf("  left-to-right would cost %.4g flops (%.1fx the plan)\n", naive.total_flops(),
              naive.total_flops() / plan.total_flops());

  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<trntensor::Tensor<double>> ops;
  for (const auto& s : shapes) {
    trntensor::Tensor<double> t(s);
    for (auto& x : t.values()) x = u(rng);
    ops.push_back(std::move(t));
  }
  const trntensor::TensorView<const double> views[] = {ops[0].view(), ops[1].view(), ops[2].view()};
  const trntensor::Tensor<double> ref = trntensor::einsum<double>("ij,jk,kl->il", views);
  std::printf("  sim backend, target_forward_error per run (each GEMM step picks the cheapest trnblas mode):\n");
  for (const double target : {1e-2, 1e-6, 1e-12}) {
    trncore::AccuracyReport r;
    const auto y = trntensor::einsum<double>(
        "ij,jk,kl->il", views, trncore::Options{}.with_backend(trncore::Backend::sim).with_target(target), r);
    double err = 0, scale = 0;
    for (std::int64_t x = 0; x < y.size(); ++x) {
      err = std::max(err, std::fabs(y.data()[x] - ref.data()[x]));
      scale = std::max(scale, std::fabs(ref.data()[x]));
    }
    std::printf("    target %.0e: bound %.2e (%s), max |y - host| / max |host| = %.2e\n", target, r.a_priori_bound,
                r.met ? "met" : "not met", err / scale);
    for (const auto& step : r.trajectory) std::printf("      %s\n", step.description.c_str());
  }
}

void dfmp2_water(const std::string& data_dir) {
  const std::string dir = data_dir + "/dfmp2/H2O/";
  std::printf("\ntrntensor: DF-MP2 correlation energy of H2O from a B[i,a,Q] tensor view (trnblas's energy stage)\n");
  const auto [b, eo, ev] = read_dfmp2_fixture(dir);
  std::ifstream meta_file(dir + "meta.json");
  std::stringstream meta;
  meta << meta_file.rdbuf();
  const double psi4 = meta_number(meta.str(), "psi4_dfmp2_correlation_energy");
  const trntensor::TensorView<const double> bv(b.values.data(), b.shape);
  const auto sim = [](trncore::MathMode m) {
    return trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(m);
  };
  struct Row {
    const char* name;
    trncore::Options options;
  };
  const Row rows[] = {{"host fp64", trncore::Options{}},
                      {"sim  bf16 pair integrals", sim(trncore::MathMode::bf16)},
                      {"sim  ozaki pair integrals", sim(trncore::MathMode::ozaki)}};
  std::printf("  %-26s %-20s %-11s %s\n", "pair step", "E_corr (Ha)", "|E - psi4|", "certified bound (Ha)");
  for (const Row& row : rows) {
    // The report overload: where a mode cannot certify the energy (bf16 pair integrals with entries below
    // bf16's normal range), the report says why instead of the no-report overload's TargetNotMet.
    trncore::AccuracyReport report;
    const auto e = trntensor::df_mp2_energy(bv, eo.values, ev.values, row.options, report);
    std::printf("  %-26s %-20.15f %-11.2e %s\n", row.name, e.correlation, std::fabs(e.correlation - psi4),
                report.certified ? trncore::detail::sci(report.a_priori_bound).c_str()
                                 : ("not certified: " + report.uncertified_reason.substr(0, 60) + "...").c_str());
  }
  std::printf("  psi4 1.3.2 reference      %-20.15f\n", psi4);
}

}  // namespace

/// trntensor's showcase section: prints a 3-operand contraction plan and the DF-MP2 energy of H2O via einsum.
void showcase_trntensor(const std::string& data_dir) {
  chain_plan();
  dfmp2_water(data_dir);
}
