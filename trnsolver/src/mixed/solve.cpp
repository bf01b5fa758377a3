// solve(): argument checks, the strategy sequence (automatic or the caller's, with the fp64 fallback), the
// refinement loop per right-hand side, and the report.
#include <trnsolver/solve.hpp>

#include "mixed/correction_gmres.hpp"
#include "mixed/refinement_loop.hpp"
#include "mixed/error_bounds.hpp"
#include "mixed/factorization.hpp"
#include "mixed/residual.hpp"

#include <trnblas/level2.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/monitor.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <string>

namespace trnsolver {

namespace {

using detail::Factorization;
using detail::Residual;

constexpr char kFunction[] = "trnsolver::solve";
constexpr double kU = 0x1p-53;
constexpr double kInf = std::numeric_limits<double>::infinity();
// GMRES-IR's inner tolerance: each correction accurate to about this relative error makes every refinement
// step gain that many digits (Carson–Higham's convergence condition needs it below 1).
constexpr double kGmresTolerance = 1e-8;
// The final correction the bound is built from is solved more tightly than the refinement's.
constexpr double kBoundGmresTolerance = 1e-10;
using trncore::detail::sci;

// ‖v‖∞, NaN when an entry is NaN (std::max alone would skip it, and a NaN iterate would look converged).
double inf_norm(std::int64_t n, const double* v) {
  double m = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (std::isnan(v[i])) return v[i];
    m = std::max(m, std::abs(v[i]));
  }
  return m;
}

// The larger of a bound so far and a column's, with NaN (a bound that could not be formed) as +inf.
double worst(double so_far, double column) { return std::isnan(column) ? kInf : std::max(so_far, column); }

// What every strategy works from: A column-major (the caller's array when it is column-major, else a
// transposed copy), B copied column-major.
struct System {
  std::int64_t n = 0, nrhs = 0, lda = 0;
  const double* a = nullptr;
  std::vector<double> a_copy, b;  // b: n×nrhs, leading dimension n
  double anorm = 0.0;             // ‖A‖∞ (set from the first factorization)
};

System gather(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
              const double* b, std::int64_t ldb) {
  System s;
  s.n = n;
  s.nrhs = nrhs;
  const bool rm = layout == trncore::Layout::row_major;
  if (rm) {
    s.a_copy.resize(static_cast<std::size_t>(n * n));
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) s.a_copy[static_cast<std::size_t>(i + j * n)] = a[i * lda + j];
    s.a = s.a_copy.data();
    s.lda = std::max<std::int64_t>(n, 1);
  } else {
    s.a = a;
    s.lda = lda;
  }
  s.b.resize(static_cast<std::size_t>(n * nrhs));
  for (std::int64_t j = 0; j < nrhs; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      s.b[static_cast<std::size_t>(i + j * n)] = rm ? b[i * ldb + j] : b[i + j * ldb];
  return s;  // anorm comes with the first factorization's copy of A
}

void check_arguments(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
                     const double* b, std::int64_t ldb, const double* x, std::int64_t ldx, const SolveOptions& o) {
  if (n < 0 || nrhs < 0)
    throw trncore::InvalidArgument(kFunction,
                                   "negative size n = " + std::to_string(n) + ", nrhs = " + std::to_string(nrhs),
                                   "pass n >= 0 and nrhs >= 0");
  trncore::detail::check_matrix(kFunction, n, n, lda, layout, a == nullptr);
  trncore::detail::check_matrix(kFunction, n, nrhs, ldb, layout, b == nullptr);
  trncore::detail::check_matrix(kFunction, n, nrhs, ldx, layout, x == nullptr);
  trncore::validate(o, kFunction);
  // Enum values outside their enumerators (e.g. static_cast<Refinement>(7)) are invalid arguments.
  const auto check_enum = [](std::string_view name, std::string_view what, int value, std::string_view accepted) {
    if (name == "invalid")
      throw trncore::InvalidArgument(kFunction, std::string(what) + " has the invalid value " + std::to_string(value),
                                     "pass one of " + std::string(accepted));
  };
  check_enum(to_string(o.refinement), "options.refinement", static_cast<int>(o.refinement),
             "automatic, fp64_lu, lu_ir, gmres_ir");
  if (o.factor) check_enum(to_string(*o.factor), "options.factor", static_cast<int>(*o.factor), "fp64, fp32, bf16");
  if (o.residual)
    check_enum(to_string(*o.residual), "options.residual", static_cast<int>(*o.residual), "fp64, double_double");
  if (layout != trncore::Layout::row_major && layout != trncore::Layout::col_major)
    throw trncore::InvalidArgument(kFunction,
                                   "layout has the invalid value " + std::to_string(static_cast<int>(layout)),
                                   "pass trncore::Layout::row_major or col_major");
  if (o.max_refinements < 1 || o.max_gmres_iterations < 1)
    throw trncore::InvalidArgument(kFunction,
                                   "max_refinements = " + std::to_string(o.max_refinements) +
                                       ", max_gmres_iterations = " + std::to_string(o.max_gmres_iterations),
                                   "both must be at least 1");
  const bool sim = o.backend == trncore::Backend::sim;
  if (o.factor == FactorPrecision::bf16 && !sim)
    throw trncore::InvalidArgument(kFunction, "a bf16 factorization needs the sim backend (options.backend = host)",
                                   "set options.backend = trncore::Backend::sim, or use FactorPrecision::fp32");
  if (o.factor == FactorPrecision::fp64 && o.refinement != Refinement::fp64_lu && o.refinement != Refinement::automatic)
    throw trncore::InvalidArgument(kFunction,
                                   "refinement " + std::string(to_string(o.refinement)) + " with an fp64 factorization",
                                   "use Refinement::fp64_lu for fp64 factors, or a low factor precision");
  // x must not share storage with A or B (it is written while they are read).
  if (n > 0 && nrhs > 0) {
    const auto extent = [&](const double* p, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
      const std::int64_t lines = layout == trncore::Layout::row_major ? rows : cols;
      const std::int64_t len = layout == trncore::Layout::row_major ? cols : rows;
      return std::pair<const double*, const double*>(p, p + (lines - 1) * ld + len);
    };
    const auto [x0, x1] = extent(x, n, nrhs, ldx);
    for (const auto& [name, r] : {std::pair{"a", extent(a, n, n, lda)}, std::pair{"b", extent(b, n, nrhs, ldb)}})
      if (x0 < r.second && r.first < x1)
        throw trncore::InvalidArgument(kFunction, std::string("x overlaps ") + name,
                                       "pass an output array that shares no storage with a and b");
  }
}

using detail::Refined;

// Options::monitor over the whole solve: refinement steps are counted over all columns and strategies.
struct Monitoring {
  trncore::detail::ProgressMonitor monitor;
  std::int64_t steps = 0;  // refinement steps so far (the iteration passed to the monitor)
  bool stopped = false;    // the monitor asked to stop: no more steps, columns or strategies
};

// `adaptive`: LU-IR that turns into GMRES-IR (same factors, same iterate) as soon as a correction fails to
// halve — κ·u_f is then too large for LU-IR (Carson–Higham), which needs no condition estimate to detect.
// `with_scale`: the final residual carries |A||x| + |b| (the bounds and the componentwise backward error need
// it; it costs one more pass over A).
Refined refine(const System& s, std::int64_t column, const Factorization& f, Refinement how, bool adaptive,
               ResidualPrecision rp, bool with_scale, const SolveOptions& o, Monitoring& monitoring) {
  const std::int64_t n = s.n, lda = s.lda;
  const double* a = s.a;
  const double* b = s.b.data() + column * n;
  trncore::Options host;
  host.threads = o.threads;
  const detail::Apply apply_a = [&](const double* in, double* out) {
    trnblas::gemv<double>(trncore::Layout::col_major, trnblas::Op::no_trans, n, n, 1.0, a, lda, in, 1, 0.0, out, 1,
                          host);
  };
  const detail::Precondition precondition = [&](double* v) { f.solve_working(v, false); };
  Refined out;
  out.how = how;
  out.x.assign(b, b + n);
  if (how == Refinement::lu_ir || how == Refinement::gmres_ir)
    f.solve_low(out.x.data());
  else
    f.solve_working(out.x.data(), false);
  detail::RefinementSteps steps;
  steps.n = n;
  steps.anorm = s.anorm;
  steps.max_refinements = o.max_refinements;
  steps.backward_error_stop = !o.target_forward_error && rp == ResidualPrecision::fp64;
  steps.stopped_before = monitoring.stopped;
  steps.residual = [&](const std::vector<double>& x, bool scale) {
    return detail::residual(n, a, lda, x.data(), b, rp, o.threads, scale);
  };
  steps.correct = [&](const detail::Residual& res, std::vector<double>& d) -> std::int64_t {
    if (out.how == Refinement::gmres_ir)
      return detail::correction_gmres(n, apply_a, precondition, res.r.data(), d.data(), kGmresTolerance,
                                      o.max_gmres_iterations)
          .iterations;
    if (out.how == Refinement::lu_ir)
      f.solve_low(d.data());
    else
      f.solve_working(d.data(), false);
    return 0;
  };
  steps.stop_requested = [&](double relative_correction) {
    return monitoring.stopped = monitoring.monitor.stop_requested(++monitoring.steps, relative_correction);
  };
  if (adaptive)  // LU-IR stalls far from fp64 accuracy: continue with GMRES corrections
    steps.switch_strategy = [&](double dnorm, double xnorm) {
      if (out.how != Refinement::lu_ir || dnorm <= std::sqrt(kU) * xnorm) return false;
      out.how = Refinement::gmres_ir;
      return true;
    };
  detail::refine_to_stop(steps, with_scale, out);
  return out;
}

// v ↦ Â⁻¹v and v ↦ Â⁻ᵀv with the factors as they are (fp64 arithmetic).
detail::Inverse factor_inverse(const Factorization& f) {
  return {[&f](double* v) { f.solve_working(v, false); }, [&f](double* v) { f.solve_working(v, true); }};
}

// The same for the lockstep estimates: a column at a time, so every vector sees exactly the solve it saw when
// the estimates ran one after another (OpenBLAS's multi-right-hand-side dgetrs, dtrsm, is no faster than k
// single solves for the k ≲ 16 columns here, and rounds differently).
detail::BlockInverse factor_block_inverse(const Factorization& f) {
  return [&f](double* v, std::int64_t k, bool transpose) {
    for (std::int64_t c = 0; c < k; ++c) f.solve_working(v + c * f.n, transpose);
  };
}

// The inverse the error bounds apply, and by how much a norm through it can understate one through A⁻¹.
struct BoundInverse {
  detail::Inverse inverse;
  double widen = 1.0;   // ‖A⁻¹M‖ ≤ widen·‖(inverse)·M‖
  bool factors = true;  // Â⁻¹ itself; else preconditioned GMRES to kInverseTolerance
  std::shared_ptr<bool> gmres_failed = std::make_shared<bool>(false);  // a GMRES application missed its tolerance
  double distance = kInf;  // the bound on ‖Â⁻¹(Â − A)‖∞: μ or the measured one (+inf: not formed)
};

constexpr double kInverseTolerance = 1e-6;

// With Â = PᵀL̂Û the factors as applied in fp64 (LU backward error E plus the fp64 triangular solves' G,
// |E + G| ≤ (c + γ_2n)·Pᵀ|L̂||Û|, Higham ASNA Thms 9.3-9.4), A = Â − (E + G) and
//   ‖A⁻¹M‖ ≤ ‖Â⁻¹M‖/(1 − ‖Â⁻¹(E + G)‖),  ‖Â⁻¹(E + G)‖∞ ≤ (c + γ_2n)·‖ |Â⁻¹|·Pᵀ|L̂||Û|·1 ‖∞ = μ,
// the last norm by the estimator (×3). For μ < ½ the bounds use Â⁻¹ widened by 1/(1 − μ); else (large
// growth, or κ·u_f near 1) Â⁻¹ is no trustworthy stand-in for A⁻¹ and the bounds solve with A itself by
// GMRES preconditioned with Â, to a relative residual of 1e-6 (whose effect on a norm estimate that is only
// trusted within a factor 3 anyway is negligible; a GMRES that misses it makes the result uncertified).
// Y = A·V (transpose false) or Aᵀ·V for n×k blocks (column-major, leading dimension n): a GEMV per column
// (OpenBLAS, threaded; k ≤ 3 here). Every entry is an fp64 inner product of length n, error ≤ γ_n·(|A||V|) in
// any summation order.
void block_product(const System& s, const double* v, double* y, std::int64_t k, bool transpose, int threads) {
  trncore::Options host;
  host.threads = threads;
  for (std::int64_t c = 0; c < k; ++c)
    trnblas::gemv<double>(trncore::Layout::col_major, transpose ? trnblas::Op::trans : trnblas::Op::no_trans, s.n, s.n,
                          1.0, s.a, s.lda, v + c * s.n, 1, 0.0, y + c * s.n, 1, host);
}

// The residual bound's g = |r̂|(1 + 2u) + δr of a column (forward_error_bounds' g).
std::vector<double> residual_magnitude(const Residual& res) {
  std::vector<double> g(res.r.size());
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = std::abs(res.r[i]) * (1 + 2 * kU) + res.error_factor * res.scale[i];
  return g;
}

// The normwise and componentwise residual bounds of a column, relative to x̂ (see column_bounds).
struct ColumnBounds {
  double normwise = kInf, componentwise = kInf;
};

// Â⁻¹ is also trusted when the measured distance ‖I − Â⁻¹A‖∞ (see below) is below ½ although μ is not. When
// Â⁻¹ is trusted, bound_inverse also computes the estimate of ‖A⁻¹‖∞ through it (`inverse_norm`, without the
// widening) and every column's residual bound (`residual`, one per column); both are left empty / NaN when the
// bounds use GMRES.
BoundInverse bound_inverse(const System& s, const Factorization& f, bool a_in_fp32_range, const SolveOptions& o,
                           const std::vector<Refined>& columns, std::vector<ColumnBounds>& residual,
                           double& inverse_norm) {
  const std::int64_t n = s.n;
  BoundInverse out;
  residual.clear();
  inverse_norm = std::numeric_limits<double>::quiet_NaN();
  if (f.gemms_certified && (f.precision == FactorPrecision::fp64 || a_in_fp32_range)) {
    const std::vector<double> w = f.lu_magnitude();
    if (!w.empty()) {
      const double k = 2.0 * static_cast<double>(n);
      const double c = f.backward_error_constant() + k * kU / (1.0 - k * kU);
      // (‖F‖ only for low-precision factors: fp64 factors' μ is below ½ until κ ≈ 10^13.)
      const bool measure = f.precision != FactorPrecision::fp64;
      // The distance Â⁻¹ is trusted with, from the estimates of W = ‖ |Â⁻¹|·Pᵀ|L̂||Û|·1 ‖∞ and of ‖F‖∞, F =
      // I − Â⁻¹A = Â⁻¹(Â − A) (each an estimate times the estimator's factor 3):
      //  - μ = c·W, the a-priori one from the LU's worst-case backward error |Â − A| ≤ c·Pᵀ|L̂||Û| (fp32
      //    factors exceed ½ with it once κ·n ≳ 10^7);
      //  - measured (low-precision factors only): the estimator on Fᵀ (v ↦ v − Aᵀ(Â⁻ᵀv), its transpose
      //    v ↦ v − Â⁻¹(A v), both in fp64) returns est = ‖B̃v*‖₁ for the computed operator B̃, and
      //    ‖(B̃ − Fᵀ)v‖₁ ≤ a + b‖F‖∞ for ‖v‖₁ = 1 (docs/trnsolver.md, "Bounds"), so ‖F‖∞ ≤ 3(est(1 + γ_n) +
      //    a)/(1 − 3b); the bounds' own fp64 solves add γ_2n·W/(1 − τ), as their G term does in μ.
      const auto gamma = [](double m) { return m * kU / (1.0 - m * kU); };
      const double dn = static_cast<double>(n);
      const auto distance = [&](double big_w, double f_estimate) {  // big_w = 3·(W's estimate)
        double d = c * big_w;
        if (d < 0.5 || !measure) return d;
        const double tau = gamma(2.0 * dn) * big_w;
        const double b = gamma(2.0 * dn) * big_w / (1.0 - tau) + 2.0 * kU;
        const double a =
            (gamma(2.0 * dn) + gamma(dn) * (1.0 + f.backward_error_constant())) * big_w / (1.0 - tau) + 3.0 * kU;
        if (tau <= 0.25 && 3.0 * b < 0.5 && std::isfinite(f_estimate))
          d = std::min(
              d, 3.0 * (f_estimate * (1.0 + gamma(dn)) + a) / (1.0 - 3.0 * b) + gamma(2.0 * dn) * big_w / (1.0 - tau));
        return d;
      };
      // First W alone (μ exactly as before the measured distance existed); then ‖F‖ — only when W does not
      // predict a failure: on the random and adversarial systems ‖F‖∞ ≈ (1 … 3)·u_f·W/n (W/n ≈ κ∞ there), so
      // 6·u_f·W/n ≥ ½ skips a measurement that would almost surely end above ½ (a cost rule only: skipping
      // means the GMRES inverse). The F estimate stops as soon as the distance cannot end below ½. Then, only
      // when Â⁻¹ is trusted, κ's estimate and every column's residual bounds.
      const double big_w = detail::abs_inverse_norm(n, factor_inverse(f), w);  // 3·estimate, as μ always was
      out.distance = distance(big_w, kInf);
      const double uf = f.precision == FactorPrecision::bf16 ? 0x1p-8 : 0x1p-24;
      if (out.distance >= 0.5 && measure && 6.0 * uf * big_w / dn < 0.5) {
        const detail::ScaledInverse measured[] = {{nullptr, nullptr, true, true}};
        const std::vector<double> est = detail::scaled_inverse_estimates(
            n, factor_block_inverse(f), measured,
            [&s, &o](const double* v, double* y, std::int64_t k, bool transpose) {
              block_product(s, v, y, k, transpose, o.threads);
            },
            [&](std::span<const double> lower) { return !(distance(big_w, lower[0]) < 0.5); });
        if (!est.empty()) out.distance = distance(big_w, est[0]);
      }
      if (out.distance < 0.5) {
        out.inverse = factor_inverse(f);
        out.widen = 1.0 / (1.0 - out.distance);
        std::vector<std::vector<double>> g;
        g.reserve(columns.size());
        std::vector<detail::BoundsRequest> requests;
        for (const Refined& r : columns) {
          g.push_back(residual_magnitude(r.res));
          requests.push_back({&g.back(), r.x.data(), true, true});
        }
        const detail::ScaledInverse kappa[] = {{nullptr, nullptr, false}};
        std::vector<double> kappa_estimate;
        const std::vector<detail::ForwardErrorBounds> fb =
            detail::bounds_from_block(n, factor_block_inverse(f), requests, kappa, kappa_estimate);
        inverse_norm = kappa_estimate[0];
        for (const detail::ForwardErrorBounds& b : fb)
          residual.push_back({b.normwise * out.widen, b.componentwise * out.widen});
        return out;
      }
    }
  }
  out.factors = false;
  const auto solve = [&s, &f, n, &o, failed = out.gmres_failed](double* v, bool transpose) {
    trncore::Options host;
    host.threads = o.threads;
    const detail::Apply op = [&](const double* in, double* out_v) {
      trnblas::gemv<double>(trncore::Layout::col_major, transpose ? trnblas::Op::trans : trnblas::Op::no_trans, n, n,
                            1.0, s.a, s.lda, in, 1, 0.0, out_v, 1, host);
    };
    const detail::Precondition pre = [&](double* w) { f.solve_working(w, transpose); };
    std::vector<double> rhs(v, v + n);
    const auto g = detail::correction_gmres(n, op, pre, rhs.data(), v, kInverseTolerance, o.max_gmres_iterations);
    if (!g.converged) *failed = true;
  };
  out.inverse = {[solve](double* v) { solve(v, false); }, [solve](double* v) { solve(v, true); }};
  return out;
}

// The normwise and componentwise bounds of one column (relative to x̂, as SolveReport documents): the
// smaller of two, each rigorous up to the estimator's factor 3 (docs/trnsolver.md, "Error bounds"):
//  - the residual bound |x − x̂| ≤ |A⁻¹|(|r̂|(1 + 2u) + δr), δr the residual's rounding error bound
//    (Higham ASNA §7.2; LAPACK xGERFSX);
//  - the correction bound, from the identity x − x̂ = d + A⁻¹(r − A d) for ANY vector d: with d ≈ A⁻¹r̂
//    solved as well as the factors allow and ŝ = r̂ − A d computed in the residual precision,
//    |x − x̂| ≤ |d| + |A⁻¹|(|ŝ|(1 + 2u) + δs + 2u|r̂| + δr). With a double-double residual this is near
//    ‖d‖ ≈ the true error (≈ u) however ill conditioned A is, as long as d is a correction of some accuracy;
//    a poor d (a factor with large growth) only makes it larger than the residual bound, never wrong.
//    (The bound that this replaces took ‖d‖/(1 − ρ) with ρ an observed ratio of corrections, which a
//    near-singular low-precision factor makes tiny while the iterate is still wrong.)
// `precomputed`: the residual bound as bound_inverse computed it (nullptr: computed here).
ColumnBounds column_bounds(const System& s, const Factorization& f, const BoundInverse& bi, const Refined& r,
                           ResidualPrecision rp, const SolveOptions& o, const ColumnBounds* precomputed) {
  const std::int64_t n = s.n;
  const auto len = static_cast<std::size_t>(n);
  ColumnBounds out;
  if (precomputed != nullptr) {
    out = *precomputed;
  } else {
    const auto res_bounds = detail::forward_error_bounds(n, bi.inverse, r.res, r.x.data());
    out.normwise = res_bounds.normwise * bi.widen;
    out.componentwise = res_bounds.componentwise * bi.widen;
  }
  // With an fp64 residual both bounds carry |A⁻¹|·γ_{n+1}(|A||x̂| + |b|), the residual's own rounding, which
  // dominates near convergence: the correction bound cannot improve much on the residual bound there, and is
  // skipped (it costs another correction and two estimates).
  if (rp == ResidualPrecision::fp64) return out;
  // The final correction.
  std::vector<double> d = r.res.r;
  if (bi.factors) {
    f.solve_working(d.data(), false);
  } else {
    trncore::Options host;
    host.threads = o.threads;
    const detail::Apply apply_a = [&](const double* in, double* out_v) {
      trnblas::gemv<double>(trncore::Layout::col_major, trnblas::Op::no_trans, n, n, 1.0, s.a, s.lda, in, 1, 0.0, out_v,
                            1, host);
    };
    const detail::Precondition pre = [&](double* v) { f.solve_working(v, false); };
    detail::correction_gmres(n, apply_a, pre, r.res.r.data(), d.data(), kBoundGmresTolerance, o.max_gmres_iterations);
  }
  for (double v : d)
    if (!std::isfinite(v)) return out;
  const detail::Residual sres = detail::residual(n, s.a, s.lda, d.data(), r.res.r.data(), rp, o.threads, true);
  std::vector<double> g(len);
  for (std::size_t i = 0; i < len; ++i)
    g[i] = std::abs(sres.r[i]) * (1 + 2 * kU) + sres.error_factor * sres.scale[i] + 2 * kU * std::abs(r.res.r[i]) +
           r.res.error_factor * r.res.scale[i];
  const double xnorm = inf_norm(n, r.x.data());
  double dcomp = 0.0;
  for (std::size_t i = 0; i < len; ++i)
    dcomp = std::max(dcomp, r.x[i] != 0.0 ? std::abs(d[i]) / std::abs(r.x[i]) : (d[i] != 0.0 ? kInf : 0.0));
  const double dnorm = inf_norm(n, d.data());
  const double dnormwise = xnorm > 0.0 ? dnorm / xnorm : (dnorm > 0.0 ? kInf : 0.0);
  // Each estimate only where |d| alone leaves room to improve on the residual bound.
  detail::ForwardErrorBounds cor;
  if (bi.factors) {  // both estimates in lockstep through block solves with the factors
    const detail::BoundsRequest request{&g, r.x.data(), dnormwise < out.normwise, dcomp < out.componentwise};
    std::vector<double> none;
    cor = detail::bounds_from_block(n, factor_block_inverse(f), std::span<const detail::BoundsRequest>(&request, 1), {},
                                    none)[0];
  } else {
    cor = detail::bounds_from(n, bi.inverse, g, r.x.data(), dnormwise < out.normwise, dcomp < out.componentwise);
  }
  // The |d| term is computed, not estimated, and is often the whole bound (the true error to several digits):
  // (1 + 8u) covers the roundings of the quotients and sums here, so the bound is rounded upward in effect.
  constexpr double kUp = 1.0 + 8.0 * kU;
  out.normwise = std::min(out.normwise, (dnormwise + cor.normwise * bi.widen) * kUp);
  out.componentwise = std::min(out.componentwise, (dcomp + cor.componentwise * bi.widen) * kUp);
  return out;
}

// ‖x̂ − x‖/‖x̂‖ ≤ β gives ‖x̂ − x‖/‖x‖ ≤ β/(1 − β) for β < 1 (‖x‖ ≥ (1 − β)‖x̂‖): the report's a-priori bound
// is relative to the exact solution, as the target is.
double relative_to_solution(double beta) { return beta < 1.0 ? beta / (1.0 - beta) * (1.0 + 4.0 * kU) : kInf; }

struct Attempt {
  Refinement how;
  FactorPrecision factor;
  bool adaptive = false;  // LU-IR that may continue as GMRES-IR
};

}  // namespace

std::int64_t solve(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
                   const double* b, std::int64_t ldb, double* x, std::int64_t ldx, const SolveOptions& options,
                   SolveReport& report) {
  check_arguments(layout, n, nrhs, a, lda, b, ldb, x, ldx, options);
  report = SolveReport{};
  report.target = options.target_forward_error;
  report.references = {
      "Carson, Higham, Accelerating the solution of linear systems by iterative refinement in three precisions, "
      "SIAM J. Sci. Comput. 40(2) A817-A847 (2018)",
      "error bounds as LAPACK xGERFSX: Demmel, Hida, Kahan, Li, Mukherjee, Riedy, ACM TOMS 32(2) 325-351 (2006); "
      "norms by Higham's estimator, ACM TOMS 14 (1988) 381-396",
      "bounds: |x - x^| <= |A^-1|(|r| + dr) (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., "
      "SIAM 2002, sec. 7.2) and x - x^ = d + A^-1(r - A d) for a final correction d (the residual correction "
      "of verified solvers: Rump, Verification methods, Acta Numerica 19 (2010) 287-449, sec. 10); A^-1 by the "
      "LU with ||A^-1 M|| <= ||A^-1_LU M||/(1 - mu), mu >= ||A^-1_LU (A_LU - A)|| from |L||U| (ASNA Thm 9.3)"};
  if (n == 0 || nrhs == 0) {
    report.converged = true;
    report.certify(0.0);
    report.trajectory.push_back({"empty system: nothing to solve"});
    return 0;
  }
  System s = gather(layout, n, nrhs, a, lda, b, ldb);
  for (double v : s.b)
    if (!std::isfinite(v))
      throw trncore::InvalidArgument(kFunction, "B has a non-finite entry", "pass right-hand sides of finite values");

  const bool sim = options.backend == trncore::Backend::sim;
  const FactorPrecision low = options.factor.value_or(sim ? FactorPrecision::bf16 : FactorPrecision::fp32);
  const bool bounds = options.error_bounds || options.target_forward_error.has_value();
  std::map<FactorPrecision, Factorization> factors;
  const auto factor = [&](FactorPrecision p) -> const Factorization& {
    auto it = factors.find(p);
    if (it == factors.end()) {
      // fp64 factors always come from LAPACK on the host with pivoting (the TensorEngine has no fp64).
      trncore::Options fo = options;
      if (p == FactorPrecision::fp64) fo.backend = trncore::Backend::host;
      it = factors.emplace(p, detail::factorize(n, s.a, s.lda, p, p == FactorPrecision::fp64 || options.pivoting, fo))
               .first;
      report.trajectory.push_back(
          {it->second.method + (it->second.info != 0 ? ": zero pivot at " + std::to_string(it->second.info) : "")});
    }
    return it->second;
  };

  // The strategies to try, in order.
  std::vector<Attempt> attempts;
  switch (options.refinement) {
    case Refinement::fp64_lu: attempts = {{Refinement::fp64_lu, FactorPrecision::fp64}}; break;
    case Refinement::lu_ir: attempts = {{Refinement::lu_ir, low}}; break;
    case Refinement::gmres_ir: attempts = {{Refinement::gmres_ir, low}}; break;
    case Refinement::automatic:
      // LU-IR while it converges, GMRES-IR from the first stalled step (Refined::how), fp64 LU last.
      if (low == FactorPrecision::fp64)
        attempts = {{Refinement::fp64_lu, FactorPrecision::fp64}};
      else
        attempts = {{Refinement::lu_ir, low, true}};
      break;
  }
  if (options.fallback && (attempts.empty() || attempts.back().how != Refinement::fp64_lu))
    attempts.push_back({Refinement::fp64_lu, FactorPrecision::fp64});
  if (attempts.empty())
    attempts.push_back({options.refinement == Refinement::automatic ? Refinement::lu_ir : options.refinement, low});

  // The first factorization's pass over A also gives ‖A‖∞, finite exactly when every entry is.
  s.anorm = factor(attempts.front().factor).anorm;
  if (!std::isfinite(s.anorm))
    throw trncore::InvalidArgument(kFunction, "A has a non-finite entry (or its row sums overflow)",
                                   "pass a matrix of finite values");

  // The bounds' stand-in for A⁻¹ from fp32 factors needs A's fp32 rounding to be relative (no entry below
  // fp32's normal range or above its largest value); a pass over A that only the bounds need.
  bool a_in_fp32_range = bounds;
  for (std::int64_t j = 0; j < n && a_in_fp32_range; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      const double v = std::abs(s.a[i + j * s.lda]);
      if (v != 0.0 && (v < static_cast<double>(std::numeric_limits<float>::min()) ||
                       v > static_cast<double>(std::numeric_limits<float>::max()))) {
        a_in_fp32_range = false;
        break;
      }
    }

  const std::optional<double> target = options.target_forward_error;
  Monitoring monitoring{trncore::detail::ProgressMonitor(options.monitor, kFunction)};
  std::vector<double> xs(static_cast<std::size_t>(n * nrhs));
  std::string uncertified;  // why the final result is not certified (empty when it is)
  for (std::size_t t = 0; t < attempts.size(); ++t) {
    const Attempt& at = attempts[t];
    const bool last = t + 1 == attempts.size();
    const Factorization& f = factor(at.factor);
    report.refinement = at.how;
    report.factor = at.factor;
    report.refinements = report.gmres_iterations = 0;
    if (f.info != 0) {
      report.info = at.factor == FactorPrecision::fp64 ? f.info : 0;
      report.converged = false;
      uncertified = report.info > 0
                        ? "A is singular to working precision: U(" + std::to_string(report.info) + ", " +
                              std::to_string(report.info) +
                              ") = 0 in the fp64 LU (info = " + std::to_string(report.info) + "); no solution computed"
                        : std::string(to_string(at.factor)) + " LU hit a zero pivot at " + std::to_string(f.info) +
                              " and no fallback was allowed";
      if (!last) {
        ++report.fallbacks;
        continue;
      }
      break;
    }
    // Residual precision: fp64 when its bound, about 2(n+1)·u·κ∞ (the residual's own rounding error through
    // |A⁻¹|), meets the target with the estimator's factor 3; else double-double, whose bound is near u. The
    // condition estimate for this choice uses the factors as they are (Â⁻¹).
    ResidualPrecision rp = ResidualPrecision::fp64;
    Refinement how = at.how;
    bool adaptive = at.adaptive;
    if (target) {
      const double kappa = s.anorm * detail::inverse_norm_estimate(n, factor_inverse(f));
      report.condition_estimate = std::max(report.condition_estimate, kappa);
      if (!options.residual && 6.0 * static_cast<double>(n + 1) * kU * kappa > *target)
        rp = ResidualPrecision::double_double;
      // With the estimate at hand (a target is set), Carson–Higham's conditions pick the strategy up front:
      // LU-IR needs κ·u_f well below 1, GMRES-IR κ below about u^(-1/2)·u_f^(-1); beyond, only fp64 LU.
      if (adaptive) {
        const double uf = at.factor == FactorPrecision::bf16 ? 0x1p-8 : 0x1p-24;
        if (kappa * uf > 0.5) {
          how = Refinement::gmres_ir;
          adaptive = false;
          report.trajectory.push_back({"chose gmres_ir: condition estimate " + sci(kappa) +
                                       ", kappa*u_f = " + sci(kappa * uf) + " > 0.5 (too large for LU-IR)"});
        }
        if (kappa * uf * std::sqrt(kU) > 1.0 && !last) {
          report.trajectory.push_back({"skipped " + std::string(to_string(at.factor)) +
                                       " refinement: condition estimate " + sci(kappa) +
                                       " is beyond GMRES-IR's reach (kappa*u_f*sqrt(u) > 1, Carson-Higham)"});
          ++report.fallbacks;
          continue;
        }
      }
    }
    if (options.residual) rp = *options.residual;
    report.refinement = how;
    report.residual = rp;
    bool converged = true, stagnated = false, non_finite = false, stopped = false;
    double estimate = 0.0, bound_n = 0.0, bound_c = 0.0, bwd_n = 0.0, bwd_c = 0.0;
    std::vector<Refined> columns;
    for (std::int64_t c = 0; c < nrhs; ++c) {
      columns.push_back(refine(s, c, f, how, adaptive, rp, bounds, options, monitoring));
      if (columns.back().how == Refinement::gmres_ir) report.refinement = Refinement::gmres_ir;
    }
    BoundInverse bi;
    std::vector<ColumnBounds> residual_bounds;  // from bound_inverse's lockstep (empty: per column below)
    if (bounds) {
      double inverse_norm = 0.0;
      bi = bound_inverse(s, f, a_in_fp32_range, options, columns, residual_bounds, inverse_norm);
      if (std::isnan(inverse_norm)) inverse_norm = detail::inverse_norm_estimate(n, bi.inverse);
      // κ∞(A) with the inverse the bounds trust.
      report.condition_estimate = std::max(report.condition_estimate, s.anorm * inverse_norm * bi.widen);
    }
    for (std::int64_t c = 0; c < nrhs; ++c) {
      const Refined& r = columns[static_cast<std::size_t>(c)];
      report.refinements += r.steps;
      report.gmres_iterations += r.gmres;
      converged = converged && r.converged;
      stopped = stopped || r.stopped;
      stagnated = stagnated || r.stagnated;
      non_finite = non_finite || r.non_finite;
      estimate = worst(estimate, r.estimate);
      const double xnorm = inf_norm(n, r.x.data()), bnorm = inf_norm(n, s.b.data() + c * n);
      const double rnorm = inf_norm(n, r.res.r.data());
      const double denom = s.anorm * xnorm + bnorm;
      bwd_n = std::max(bwd_n, denom > 0.0 ? rnorm / denom : (rnorm > 0.0 ? kInf : 0.0));
      if (r.res.scale.empty()) bwd_c = std::numeric_limits<double>::quiet_NaN();  // not computed without bounds
      for (std::size_t i = 0; i < r.res.scale.size(); ++i) {
        const double sc = r.res.scale[i], ri = std::abs(r.res.r[i]);
        bwd_c = std::max(bwd_c, sc > 0.0 ? ri / sc : (ri > 0.0 ? kInf : 0.0));
      }
      if (bounds) {
        const ColumnBounds cb =
            column_bounds(s, f, bi, r, rp, options,
                          residual_bounds.empty() ? nullptr : &residual_bounds[static_cast<std::size_t>(c)]);
        bound_n = worst(bound_n, cb.normwise);
        bound_c = worst(bound_c, cb.componentwise);
      }
      std::copy(r.x.begin(), r.x.end(), xs.begin() + c * n);
    }
    report.converged = converged;
    report.forward_error_estimate = converged ? estimate : kInf;
    report.forward_error_bound_normwise = bounds ? bound_n : kInf;
    report.forward_error_bound_componentwise = bounds ? bound_c : kInf;
    report.backward_error_normwise = bwd_n;
    report.backward_error_componentwise = bwd_c;
    // What would keep this strategy's bound from being a certificate.
    uncertified.clear();
    if (stopped)
      uncertified = "stopped by the monitor at refinement step " + std::to_string(monitoring.steps);
    else if (non_finite)
      uncertified = std::string(to_string(report.refinement)) + " with " + std::string(to_string(at.factor)) +
                    " factors produced a non-finite iterate (entries of A beyond the factor precision's range, or "
                    "overflow in its LU)";
    else if (!converged)
      uncertified = stagnated ? std::string(to_string(report.refinement)) +
                                    " stagnated before its stopping test held (the backward error " + sci(bwd_n) +
                                    " is above sqrt(n)*u)"
                              : std::string(to_string(report.refinement)) + " did not converge within " +
                                    std::to_string(options.max_refinements) + " refinement steps";
    else if (!std::isfinite(inf_norm(n * nrhs, xs.data())))
      uncertified = "the solution has non-finite entries";
    else if (bounds && *bi.gmres_failed)
      uncertified = "the GMRES solves with A behind the error bound did not reach their tolerance";
    // A converged strategy without bounds is final (uncertified, but no reason to try fp64 LU: its result
    // would be uncertified too, at the price of a second factorization).
    const bool strategy_failed = !uncertified.empty();
    if (!strategy_failed && !bounds)
      uncertified = "error bounds not computed (options.error_bounds = false and no target)";
    std::string step = std::string(to_string(report.refinement)) +
                       (adaptive && report.refinement != how ? " (after lu_ir stalled)" : "") + ", residual " +
                       std::string(to_string(rp)) + ": " + std::to_string(report.refinements) + " refinement step(s)";
    if (report.refinement == Refinement::gmres_ir)
      step += ", " + std::to_string(report.gmres_iterations) + " GMRES iterations";
    step += converged ? ", converged"
                      : (stopped ? ", stopped by the monitor" : (stagnated ? ", stagnated" : ", not converged"));
    if (bounds) step += ", forward error bound " + sci(report.forward_error_bound_normwise);
    report.trajectory.push_back({step});
    const bool good = !strategy_failed && (!target || relative_to_solution(bound_n) <= *target);
    if (good || last || stopped) break;
    ++report.fallbacks;
  }
  report.stopped_by_monitor = monitoring.stopped;
  report.a_posteriori_estimate = report.forward_error_estimate;
  report.iterations = report.refinements;
  if (uncertified.empty()) {
    report.certify(relative_to_solution(report.forward_error_bound_normwise));
  } else {
    report.a_priori_bound = report.info > 0 ? kInf : relative_to_solution(report.forward_error_bound_normwise);
    report.uncertify(uncertified);
  }
  if (report.info == 0) {
    const bool rm = layout == trncore::Layout::row_major;
    for (std::int64_t j = 0; j < nrhs; ++j)
      for (std::int64_t i = 0; i < n; ++i)
        (rm ? x[i * ldx + j] : x[i + j * ldx]) = xs[static_cast<std::size_t>(i + j * n)];
  }
  return report.info;
}

void solve(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
           const double* b, std::int64_t ldb, double* x, std::int64_t ldx, const SolveOptions& options) {
  SolveReport report;
  solve(layout, n, nrhs, a, lda, b, ldb, x, ldx, options, report);
  trncore::require_target_met(report, kFunction);
}

std::vector<double> solve(trncore::MatrixView<const double> a, std::span<const double> b, const SolveOptions& options,
                          SolveReport& report) {
  if (a.rows() != a.cols() || static_cast<std::int64_t>(b.size()) != a.rows())
    throw trncore::DimensionMismatch(kFunction,
                                     "A is " + std::to_string(a.rows()) + "x" + std::to_string(a.cols()) +
                                         " and b has " + std::to_string(b.size()) + " entries",
                                     "pass a square A and a b with as many entries as A has rows");
  std::vector<double> x(b.size());
  // b and x as n×1 matrices in A's layout (leading dimension 1 row-major, n column-major).
  const bool rm = a.layout() == trncore::Layout::row_major;
  const std::int64_t ldv = rm ? 1 : std::max<std::int64_t>(a.rows(), 1);
  solve(a.layout(), a.rows(), 1, a.data(), a.ld(), b.data(), ldv, x.data(), ldv, options, report);
  return x;
}

std::vector<double> solve(trncore::MatrixView<const double> a, std::span<const double> b, const SolveOptions& options) {
  SolveReport report;
  std::vector<double> x = solve(a, b, options, report);
  trncore::require_target_met(report, kFunction);
  return x;
}

}  // namespace trnsolver
