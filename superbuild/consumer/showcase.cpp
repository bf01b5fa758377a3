// The suite's showcase: what ci/demo runs against an installed prefix. It prints every installed
// package's version and what it runs on, and runs a real computation from each library that has one.
// Exits non-zero if a linked library disagrees with the version its installed CMake config declared.
#include "showcase_parts.hpp"

#include <trnblas/trnblas.hpp>
#include <trncore/io/npy.hpp>
#include <trncore/sim/matmul.hpp>
#include <trncore/trncore.hpp>
#include <trnfft/trnfft.hpp>
#include <trnrand/trnrand.hpp>
#include <trnsolver/trnsolver.hpp>
#include <trnsparse/trnsparse.hpp>
#include <trntensor/trntensor.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <complex>
#include <cstdio>
#include <span>
#include <vector>
#include <string>
#include <string_view>

namespace {

struct Package {
  std::string_view name;
  std::string_view linked_version;
  std::string_view config_version;
  std::string (*build_info)();
};

// trncore: one value rounded to each narrow format in each rounding mode, and stochastic rounding's
// defining property — the mean of many SR draws is the value itself, where nearest-even is biased.
void trncore_formats() {
  using trncore::RoundingMode;
  const double x = 3.14159265358979323846;
  std::printf("\ntrncore: pi rounded to each format (nearest_even / toward_zero / up / to_odd)\n");
  const auto row = [&](const char* name, auto tag) {
    using T = decltype(tag);
    std::printf("  %-9s", name);
    for (RoundingMode m :
         {RoundingMode::nearest_even, RoundingMode::toward_zero, RoundingMode::up, RoundingMode::to_odd})
      std::printf(" %-12.9g", T::from_double(x, m).to_double());
    std::printf("\n");
  };
  row("bf16", trncore::bf16{});
  row("fp16", trncore::fp16{});
  row("tf32", trncore::tf32{});
  row("fp8_e4m3", trncore::fp8_e4m3{});
  row("fp8_e5m2", trncore::fp8_e5m2{});

  const float y = 1.0f + 0x1p-10f;  // a quarter of a bf16 ulp above 1: nearest-even always gives 1
  const trncore::RandomBits bits{/*seed=*/2026, /*stream=*/0};
  const int n = 1 << 16;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += trncore::bf16::from_float(y, RoundingMode::stochastic, bits(i)).to_double();
  std::printf("  SR(32) to bf16 of 1 + 2^-10, mean of %d draws: %.7f (exact %.7f, nearest_even %.7f)\n", n, sum / n,
              static_cast<double>(y), trncore::bf16::from_float(y).to_double());
}

// trncore::sim: a 256×256×256 GEMM with bf16 inputs on the modelled TensorEngine, under both product
// models, against the same product in fp64: the accuracy question the sim backend exists to answer.
void trncore_sim_gemm() {
  const std::int64_t n = 256;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  const trncore::RandomBits bits{7, 0};
  const auto uniform = [&](std::uint64_t i) { return static_cast<float>(bits(i)) * 0x1p-32f * 2.0f - 1.0f; };
  std::vector<float> raw(n * n);
  for (std::int64_t i = 0; i < n * n; ++i) raw[i] = uniform(i);
  std::vector<trncore::bf16> q(n * n);
  trncore::convert(std::span<const float>(raw), std::span<trncore::bf16>(q));
  trncore::convert(std::span<const trncore::bf16>(q), std::span<float>(a));
  for (std::int64_t i = 0; i < n * n; ++i) raw[i] = uniform(n * n + i);
  trncore::convert(std::span<const float>(raw), std::span<trncore::bf16>(q));
  trncore::convert(std::span<const trncore::bf16>(q), std::span<float>(b));
  std::printf("\ntrncore::sim: %lldx%lldx%lld GEMM, bf16 inputs, fp32 PSUM\n", static_cast<long long>(n),
              static_cast<long long>(n), static_cast<long long>(n));
  for (auto model : {trncore::sim::ProductModel::exact, trncore::sim::ProductModel::bf16}) {
    trncore::sim::MatmulOptions options;
    options.product = model;
    trncore::sim::matmul_psum(n, n, n, a.data(), n, b.data(), n, c.data(), n, options);
    double err = 0, norm = 0;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (std::int64_t k = 0; k < n; ++k) s += double(a[i * n + k]) * double(b[k * n + j]);
        err = std::max(err, std::abs(c[i * n + j] - s));
        norm = std::max(norm, std::abs(s));
      }
    std::printf("  %-5s products: max error / max |C| = %.2e\n", std::string(trncore::sim::to_string(model)).c_str(),
                err / norm);
  }
}

// trnrand: π from the fraction of points of the unit square inside the quarter disc, by Monte Carlo with
// Philox uniforms (error ~ n^-1/2) and by quasi-Monte Carlo with Owen-scrambled Sobol points (for the
// indicator of a smooth 2-D region, RMS error ~ n^-3/4), the same number of points each.
void trnrand_pi() {
  const std::int64_t n = 1 << 20;
  std::vector<double> xy(2 * n);
  trnrand::fill_uniform(trnrand::make_stream(/*seed=*/2026), std::span<double>(xy), trnrand::Interval::closed_open);
  const auto estimate = [&] {
    std::int64_t inside = 0;
    for (std::int64_t i = 0; i < n; ++i) inside += xy[2 * i] * xy[2 * i] + xy[2 * i + 1] * xy[2 * i + 1] < 1.0;
    return 4.0 * static_cast<double>(inside) / static_cast<double>(n);
  };
  const double pi = 3.14159265358979323846;
  const double mc = estimate();
  trnrand::SobolOptions sobol_options;
  sobol_options.scramble = trnrand::SobolScramble::owen;
  sobol_options.seed = 2026;
  trnrand::Sobol sobol(2, sobol_options);
  sobol.fill(std::span<double>(xy));
  const double qmc = estimate();
  std::printf("\ntrnrand: pi from %lld points in the unit square\n", static_cast<long long>(n));
  std::printf("  Monte Carlo, Philox4x32-10 uniforms: %.8f  error %.2e  (standard error %.1e)\n", mc, std::abs(mc - pi),
              4.0 * std::sqrt(pi / 4 * (1 - pi / 4) / static_cast<double>(n)));
  std::printf("  quasi-MC, Owen-scrambled Sobol:      %.8f  error %.2e\n", qmc, std::abs(qmc - pi));
}

// trnblas: one double GEMM on the host (OpenBLAS fp64) and on the sim backend in three math modes, each
// with its error against a long-double product and its certified bound; the sim rows also give the
// modelled TensorEngine work and time on trn2 (bf16 products, the trn1/trn2 default).
void trnblas_gemm_table() {
  const std::int64_t n = 192;
  std::vector<double> a(n * n), b(n * n), c(n * n);
  const trncore::RandomBits bits{11, 0};
  for (std::int64_t i = 0; i < n * n; ++i) {
    // Entries spread over 2^±8 so that narrow formats and short splits visibly lose accuracy.
    a[i] = std::ldexp(static_cast<double>(bits(2 * i)) * 0x1p-32 - 0.5, static_cast<int>(bits(2 * i + 1) % 17) - 8);
    b[i] = std::ldexp(static_cast<double>(bits(2 * n * n + 2 * i)) * 0x1p-32 - 0.5,
                      static_cast<int>(bits(2 * n * n + 2 * i + 1) % 17) - 8);
  }
  std::vector<long double> exact(n * n, 0.0L);
  std::vector<long double> magnitude(n * n, 0.0L);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < n; ++k)
      for (std::int64_t j = 0; j < n; ++j) {
        exact[i * n + j] += static_cast<long double>(a[i * n + k]) * b[k * n + j];
        magnitude[i * n + j] += std::abs(static_cast<long double>(a[i * n + k]) * b[k * n + j]);
      }
  std::printf("\ntrnblas: %lldx%lldx%lld double GEMM, componentwise error / (|A||B|) against long double\n",
              static_cast<long long>(n), static_cast<long long>(n), static_cast<long long>(n));
  std::printf("  %-34s %-11s %-11s %-9s %s\n", "backend / mode", "error", "bound", "passes", "modelled trn2 time");
  struct Row {
    const char* name;
    trncore::Options options;
  };
  using trncore::Backend;
  using trncore::MathMode;
  const Row rows[] = {
      {"host  fp64 (OpenBLAS dgemm)", trncore::Options{}},
      {"sim   bf16", trncore::Options{}.with_backend(Backend::sim).with_math_mode(MathMode::bf16)},
      {"sim   compensated", trncore::Options{}.with_backend(Backend::sim).with_math_mode(MathMode::compensated)},
      {"sim   ozaki", trncore::Options{}.with_backend(Backend::sim).with_math_mode(MathMode::ozaki)}};
  for (const Row& row : rows) {
    trncore::AccuracyReport report;
    trnblas::gemm(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, n, n, n, 1.0, a.data(), n,
                  b.data(), n, 0.0, c.data(), n, row.options, report);
    long double worst = 0;
    for (std::int64_t i = 0; i < n * n; ++i) worst = std::max(worst, std::abs(c[i] - exact[i]) / magnitude[i]);
    if (report.cost) {
      const auto& te = report.cost->stats[trncore::sim::Engine::tensor];
      std::printf("  %-34s %-11.2e %-11.2e %-9lld %.2e s to %.2e s\n", row.name, static_cast<double>(worst),
                  report.a_priori_bound, static_cast<long long>(te.elements / (n * n * n)),
                  report.cost->lower_bound_seconds, report.cost->upper_bound_seconds);
    } else {
      std::printf("  %-34s %-11.2e %-11.2e %-9s %s\n", row.name, static_cast<double>(worst), report.a_priori_bound, "-",
                  "-");
    }
    std::printf("      %s\n", report.trajectory.back().description.c_str());
  }
  // The engine report of the last (Ozaki) run, as every sim call can return it.
  trncore::AccuracyReport report;
  trnblas::gemm(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, n, n, n, 1.0, a.data(), n,
                b.data(), n, 0.0, c.data(), n, rows[3].options, report);
  std::printf("\n%s", report.cost->to_string().c_str());
}

// DF-MP2 correlation energy of water (cc-pVDZ, psi4's fitted integrals from data/dfmp2/H2O) on the
// host and in three sim modes, against psi4's own energy.
void trnblas_df_mp2_water() {
  const std::string dir = std::string(TRNSCI_DATA_DIR) + "/dfmp2/H2O/";
  std::printf("\ntrnblas: DF-MP2 correlation energy of H2O (cc-pVDZ / cc-pVDZ-RI, nocc 5, nvir 19, naux 84)\n");
  const auto [b, eo, ev] = read_dfmp2_fixture(dir);
  constexpr double psi4 = -0.2039447517274171;  // psi4 1.3.2 DF-MP2, data/dfmp2/H2O/meta.json
  struct Row {
    const char* name;
    trncore::Options options;
  };
  const auto sim = [](trncore::MathMode m) {
    return trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(m);
  };
  const Row rows[] = {
      {"host  fp64 (DGEMM, double-double)", trncore::Options{}},
      {"sim   bf16", sim(trncore::MathMode::bf16)},
      {"sim   fp32 (exact products)", sim(trncore::MathMode::fp32).with_product(trncore::sim::ProductModel::exact)},
      {"sim   compensated", sim(trncore::MathMode::compensated)},
      {"sim   ozaki + float-float stage", sim(trncore::MathMode::ozaki)}};
  std::printf("  %-34s %-20s %-11s %-11s %s\n", "mode", "E_corr (Ha)", "|E - psi4|", "bound", "modelled time");
  for (const Row& row : rows) {
    trncore::AccuracyReport report;
    const auto e = trnblas::df_mp2_energy(b.shape[0], b.shape[1], b.shape[2], b.values.data(), eo.values.data(),
                                          ev.values.data(), row.options, report);
    std::printf("  %-34s %-20.15f %-11.2e %-11.2e", row.name, e.correlation, std::fabs(e.correlation - psi4),
                report.a_priori_bound);
    if (report.cost)
      std::printf(" %.2e s%s", report.cost->upper_bound_seconds, report.met ? "" : " (bound not certified)");
    std::printf("\n");
  }
}

// trnsolver: solve() with a target on matrices of growing condition number — which strategy ran, the bound
// it certifies and the error against a double-double-residual fp64 refinement — then HPL-MxP.
void trnsolver_solve_and_hpl_mxp() {
  const std::int64_t n = 300;
  std::printf("\ntrnsolver: solve(A, b, target_forward_error = 1e-12), n = %lld, A = diagonally dominant + graded\n",
              static_cast<long long>(n));
  std::printf("  %-10s %-44s %-10s %-10s %s\n", "kappa_inf", "strategy", "bound", "error", "met");
  for (const double grade : {1.0, 1e-4, 1e-8, 1e-11}) {
    // A = D·M with M diagonally dominant and D = diag(grade^(i/n)): κ grows like 1/grade.
    std::vector<double> a, b;
    trnsolver::hpl_mxp_system(n, 7, a, b);
    for (std::int64_t i = 0; i < n; ++i) {
      const double d = std::pow(grade, static_cast<double>(i) / static_cast<double>(n - 1));
      for (std::int64_t j = 0; j < n; ++j) a[static_cast<std::size_t>(i + j * n)] *= d;
    }
    trnsolver::SolveOptions o;
    o.target_forward_error = 1e-12;
    trnsolver::SolveReport r;
    std::vector<double> x(static_cast<std::size_t>(n)), ref(static_cast<std::size_t>(n));
    trnsolver::solve(trncore::Layout::col_major, n, 1, a.data(), n, b.data(), n, x.data(), n, o, r);
    trnsolver::SolveOptions exact;
    exact.refinement = trnsolver::Refinement::fp64_lu;
    exact.residual = trnsolver::ResidualPrecision::double_double;
    trnsolver::solve(trncore::Layout::col_major, n, 1, a.data(), n, b.data(), n, ref.data(), n, exact);
    double err = 0, xn = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      err = std::max(err, std::abs(x[static_cast<std::size_t>(i)] - ref[static_cast<std::size_t>(i)]));
      xn = std::max(xn, std::abs(ref[static_cast<std::size_t>(i)]));
    }
    const std::string how = std::string(trnsolver::to_string(r.refinement)) + ", factor " +
                            std::string(trnsolver::to_string(r.factor)) + ", residual " +
                            std::string(trnsolver::to_string(r.residual));
    std::printf("  %-10.1e %-44s %-10.2e %-10.2e %s\n", r.condition_estimate, how.c_str(),
                r.forward_error_bound_normwise, err / xn, r.met ? "yes" : "no");
  }
  trnsolver::HplMxpOptions host;  // seed 42, fp32 factors
  host.n = 5000;
  std::printf("\ntrnsolver: HPL-MxP, host fp32 LU without pivoting + GMRES-IR\n%s",
              trnsolver::hpl_mxp(host).to_string().c_str());
  trnsolver::HplMxpOptions sim;
  sim.n = 2000;
  sim.factor = trnsolver::FactorPrecision::bf16;
  sim.backend = trncore::Backend::sim;
  std::printf("\ntrnsolver: HPL-MxP on the NeuronCore model, bf16 TensorEngine trailing updates + GMRES-IR\n%s",
              trnsolver::hpl_mxp(sim).to_string().c_str());
}

// trnfft: each sim precision mode's error at N = 64 and 1024 against the host (FFTW) transform of the same
// float signal, with the bound the plan certifies and the modelled trn2 time (trn2's bf16 product model).
void trnfft_sim_modes() {
  std::printf(
      "\ntrnfft: sim FFT precision modes vs FFTW (float c2c, relative 2-norm error / certified bound / modelled trn2 "
      "time)\n");
  std::printf("  %-13s %-30s %-30s\n", "mode", "N = 64", "N = 1024");
  struct Mode {
    const char* name;
    trncore::MathMode math_mode;
    bool refine;  // bf16 transforms with one refinement step in fp32 (PlanOptions::refine)
  };
  const Mode modes[] = {{"bf16", trncore::MathMode::bf16, false},
                        {"fp32", trncore::MathMode::fp32, false},
                        {"bf16_refined", trncore::MathMode::bf16, true},
                        {"compensated", trncore::MathMode::compensated, false},
                        {"ozaki", trncore::MathMode::ozaki, false}};
  for (const Mode& mode : modes) {
    std::printf("  %-13s", mode.name);
    for (const std::int64_t n : {std::int64_t{64}, std::int64_t{1024}}) {
      std::vector<std::complex<float>> x(static_cast<std::size_t>(n)), want(x.size()), got(x.size());
      for (std::int64_t i = 0; i < n; ++i)
        x[static_cast<std::size_t>(i)] = {
            std::sin(0.37f * static_cast<float>(i)) + 0.25f * std::cos(1.9f * static_cast<float>(i * i % 97)),
            std::cos(0.11f * static_cast<float>(i))};
      auto in = x;
      trnfft::plan_dft_1d<float>(n, in.data(), want.data(), trnfft::Direction::forward).execute();
      const trnfft::PlanOptions options = trnfft::PlanOptions{}
                                              .with_backend(trncore::Backend::sim)
                                              .with_math_mode(mode.math_mode)
                                              .with_refine(mode.refine);
      in = x;
      const auto plan = trnfft::plan_dft_1d<float>(n, in.data(), got.data(), trnfft::Direction::forward, options);
      trncore::AccuracyReport report;
      plan.execute(report);
      double err = 0, ref = 0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        err += std::norm(std::complex<double>(got[i]) - std::complex<double>(want[i]));
        ref += std::norm(std::complex<double>(want[i]));
      }
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.1e / %.1e / %.1e s", std::sqrt(err / ref), report.a_priori_bound,
                    report.cost ? report.cost->upper_bound_seconds : 0.0);
      std::printf(" %-30s", cell);
    }
    std::printf("\n");
  }
  std::printf(
      "  (FFTW's own float error is ~1e-7: the compensated and ozaki rows sit at that level, so they measure"
      " FFTW as much as the model)\n");
}

}  // namespace

int main() {
  const Package packages[] = {
      {"trncore", trncore::version(), TRNCORE_CONFIG_VERSION, trncore::build_info},
      {"trnrand", trnrand::version(), TRNRAND_CONFIG_VERSION, trnrand::build_info},
      {"trnfft", trnfft::version(), TRNFFT_CONFIG_VERSION, trnfft::build_info},
      {"trnblas", trnblas::version(), TRNBLAS_CONFIG_VERSION, trnblas::build_info},
      {"trnsolver", trnsolver::version(), TRNSOLVER_CONFIG_VERSION, trnsolver::build_info},
      {"trnsparse", trnsparse::version(), TRNSPARSE_CONFIG_VERSION, trnsparse::build_info},
      {"trntensor", trntensor::version(), TRNTENSOR_CONFIG_VERSION, trntensor::build_info},
  };

  std::printf("trnsci showcase\n\nInstalled packages:\n");
  int mismatches = 0;
  for (const Package& p : packages) {
    const bool agrees = p.linked_version == p.config_version;
    mismatches += agrees ? 0 : 1;
    std::printf("  %-10s %-8s %s\n", std::string(p.name).c_str(), std::string(p.linked_version).c_str(),
                agrees ? "" : "(MISMATCH with installed CMake config)");
  }
  std::printf("\nWhat each library runs on:\n");
  for (const Package& p : packages) std::printf("  %s\n", p.build_info().c_str());

  trncore_formats();
  trncore_sim_gemm();
  trnrand_pi();
  trnfft_sim_modes();
  trnblas_gemm_table();
  trnblas_df_mp2_water();
  trnsolver_solve_and_hpl_mxp();
  showcase_rnla();
  showcase_trnsparse();
  showcase_trntensor(TRNSCI_DATA_DIR);

  if (mismatches != 0) {
    std::fprintf(stderr, "showcase: %d package(s) disagree with their installed config version\n", mismatches);
    return 1;
  }
  return 0;
}
