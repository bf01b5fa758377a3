// solve(): argument checks, the strategy sequence (automatic or the caller's, with the fp64 fallback), the
// refinement loop per right-hand side, and the report.
#include <trnsolver/solve.hpp>

#include "mixed/correction_gmres.hpp"
#include "mixed/error_bounds.hpp"
#include "mixed/factorization.hpp"
#include "mixed/residual.hpp"

#include <trnblas/level2.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
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
std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", x);
  return buf;
}

double inf_norm(std::int64_t n, const double* v) {
  double m = 0.0;
  for (std::int64_t i = 0; i < n; ++i) m = std::max(m, std::abs(v[i]));
  return m;
}

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
    for (std::int64_t i = 0; i < n; ++i) s.b[static_cast<std::size_t>(i + j * n)] = rm ? b[i * ldb + j] : b[i + j * ldb];
  return s;  // anorm comes with the first factorization's copy of A
}

void check_arguments(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
                     const double* b, std::int64_t ldb, const double* x, std::int64_t ldx, const SolveOptions& o) {
  if (n < 0 || nrhs < 0)
    throw trncore::InvalidArgument(kFunction, "negative size n = " + std::to_string(n) + ", nrhs = " + std::to_string(nrhs),
                                   "pass n >= 0 and nrhs >= 0");
  trncore::detail::check_matrix(kFunction, n, n, lda, layout, a == nullptr);
  trncore::detail::check_matrix(kFunction, n, nrhs, ldb, layout, b == nullptr);
  trncore::detail::check_matrix(kFunction, n, nrhs, ldx, layout, x == nullptr);
  trncore::validate(o.core, kFunction);
  if (o.max_refinements < 1 || o.max_gmres_iterations < 1)
    throw trncore::InvalidArgument(kFunction,
                                   "max_refinements = " + std::to_string(o.max_refinements) +
                                       ", max_gmres_iterations = " + std::to_string(o.max_gmres_iterations),
                                   "both must be at least 1");
  const bool sim = o.core.backend == trncore::Backend::sim;
  if (o.factor == FactorPrecision::bf16 && !sim)
    throw trncore::InvalidArgument(kFunction, "a bf16 factorization needs the sim backend (options.core.backend = host)",
                                   "set options.core.backend = trncore::Backend::sim, or use FactorPrecision::fp32");
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

// One right-hand side refined to the stopping rule with one factorization and one strategy.
struct Refined {
  std::vector<double> x;
  Residual res;
  std::int64_t steps = 0, gmres = 0;
  bool converged = false;
  double estimate = kInf;  // ‖d_last‖/‖x‖/(1 − ρ)
  double rho = 0.0;        // the largest ratio of successive corrections
  bool small_correction = false;  // stopped because ‖d‖ ≤ u‖x‖ (not by stagnation)
  Refinement how = Refinement::lu_ir;  // the strategy that finished (adaptive LU-IR may end as GMRES-IR)
};

// `adaptive`: LU-IR that turns into GMRES-IR (same factors, same iterate) as soon as a correction fails to
// halve — κ·u_f is then too large for LU-IR (Carson–Higham), which needs no condition estimate to detect.
// `with_scale`: the final residual carries |A||x| + |b| (the bounds and the componentwise backward error need
// it; it costs one more pass over A).
Refined refine(const System& s, std::int64_t column, const Factorization& f, Refinement how, bool adaptive,
               ResidualPrecision rp, bool with_scale, const SolveOptions& o) {
  const std::int64_t n = s.n, lda = s.lda;
  const double* a = s.a;
  const double* b = s.b.data() + column * n;
  trncore::Options host;
  host.threads = o.core.threads;
  const detail::Apply apply_a = [&](const double* in, double* out) {
    trnblas::gemv<double>(trncore::Layout::col_major, trnblas::Op::no_trans, n, n, 1.0, a, lda, in, 1, 0.0, out, 1, host);
  };
  const detail::Precondition precondition = [&](double* v) { f.solve_working(v, false); };
  Refined out;
  out.how = how;
  out.x.assign(b, b + n);
  if (how == Refinement::lu_ir || how == Refinement::gmres_ir) f.solve_low(out.x.data());
  else f.solve_working(out.x.data(), false);
  double previous = kInf, last_correction = kInf;
  std::vector<double> d(static_cast<std::size_t>(n));
  for (std::int64_t step = 0;; ++step) {
    out.res = detail::residual(n, a, lda, out.x.data(), b, rp, o.core.threads, false);
    const double rnorm = inf_norm(n, out.res.r.data());
    if (!std::isfinite(rnorm) || rnorm == 0.0 || step == o.max_refinements) {
      out.converged = rnorm == 0.0;
      out.estimate = rnorm == 0.0 ? 0.0 : kInf;
      if (with_scale) out.res = detail::residual(n, a, lda, out.x.data(), b, rp, o.core.threads);
      break;
    }
    // Without a target and with an fp64 residual the goal is fp64 LU's quality: stop at a backward error of
    // √n·u, DSGESV's test (‖r‖∞ ≤ √n·u·‖A‖∞‖x‖∞); the error is then about DGESV's, or better. (A
    // double-double residual asks for more: the full refinement.)
    if (!o.core.target_forward_error && rp == ResidualPrecision::fp64 && step > 0 &&
        rnorm <= std::sqrt(static_cast<double>(n)) * kU * s.anorm * inf_norm(n, out.x.data())) {
      out.converged = true;
      const double xnorm = inf_norm(n, out.x.data());
      // The current iterate is one contraction past the last correction's size.
      const double r = out.rho > 0.0 ? std::min(out.rho, 0.5) : 0.5;
      out.estimate = last_correction * r / (1.0 - r) / xnorm;
      if (with_scale) out.res = detail::residual(n, a, lda, out.x.data(), b, rp, o.core.threads);
      break;
    }
    d = out.res.r;
    if (out.how == Refinement::gmres_ir) {
      const auto g = detail::correction_gmres(n, apply_a, precondition, out.res.r.data(), d.data(), kGmresTolerance,
                                              o.max_gmres_iterations);
      out.gmres += g.iterations;
    } else if (out.how == Refinement::lu_ir) {
      f.solve_low(d.data());
    } else {
      f.solve_working(d.data(), false);
    }
    for (std::int64_t i = 0; i < n; ++i) out.x[static_cast<std::size_t>(i)] += d[static_cast<std::size_t>(i)];
    ++out.steps;
    const double dnorm = inf_norm(n, d.data()), xnorm = inf_norm(n, out.x.data());
    last_correction = dnorm;
    if (!std::isfinite(dnorm) || !std::isfinite(xnorm)) break;
    const double ratio = dnorm / previous;
    if (step > 0) out.rho = std::max(out.rho, ratio);
    // Carson–Higham: stop once the correction is below u‖x‖ (converged) or no longer halves (the limiting
    // accuracy is reached, or the iteration does not converge: the contraction so far tells which).
    if (dnorm <= kU * xnorm) {
      out.converged = out.small_correction = true;
      out.estimate = dnorm / xnorm / (1.0 - std::min(out.rho, 0.5));
      out.res = detail::residual(n, a, lda, out.x.data(), b, rp, o.core.threads, with_scale);
      break;
    }
    if (adaptive && out.how == Refinement::lu_ir && step > 0 && ratio > 0.5 && dnorm > std::sqrt(kU) * xnorm) {
      out.how = Refinement::gmres_ir;  // LU-IR stalls far from fp64 accuracy: continue with GMRES corrections
      out.rho = 0.0;
      previous = kInf;
      continue;
    }
    if (step > 0 && ratio > 0.5) {
      // Stagnation after contracting steps is the limiting accuracy; growth from the start is divergence.
      out.converged = out.steps > 2 || dnorm <= std::sqrt(kU) * xnorm;
      out.estimate = out.converged ? dnorm / xnorm : kInf;
      out.res = detail::residual(n, a, lda, out.x.data(), b, rp, o.core.threads, with_scale);
      break;
    }
    previous = dnorm;
  }
  return out;
}

// v ↦ Â⁻¹v and v ↦ Â⁻ᵀv with the factors as they are (fp64 arithmetic).
detail::Inverse factor_inverse(const Factorization& f) {
  return {[&f](double* v) { f.solve_working(v, false); }, [&f](double* v) { f.solve_working(v, true); }};
}

detail::Inverse inverse_of(const System& s, const Factorization& f, Refinement how, const SolveOptions& o) {
  const std::int64_t n = s.n;
  // fp64 factors, or LU-IR's: Â⁻¹ itself (a good inverse when LU-IR converges: corrections < ½ of the error).
  if (f.precision == FactorPrecision::fp64 || how == Refinement::lu_ir) return factor_inverse(f);
  // GMRES-IR: Â⁻¹ alone can be a poor inverse; solve with the preconditioned GMRES to 1e-6.
  const auto solve = [&s, &f, n, &o](double* v, bool transpose) {
    trncore::Options host;
    host.threads = o.core.threads;
    const detail::Apply op = [&](const double* in, double* out) {
      trnblas::gemv<double>(trncore::Layout::col_major, transpose ? trnblas::Op::trans : trnblas::Op::no_trans, n, n,
                            1.0, s.a, s.lda, in, 1, 0.0, out, 1, host);
    };
    const detail::Precondition pre = [&](double* w) { f.solve_working(w, transpose); };
    std::vector<double> rhs(v, v + n);
    detail::correction_gmres(n, op, pre, rhs.data(), v, 1e-6, o.max_gmres_iterations);
  };
  return {[solve](double* v) { solve(v, false); }, [solve](double* v) { solve(v, true); }};
}

// What the overloads without a report do with it: no solution (info > 0) or a target not met is an error.
void require_solution(const SolveReport& report, const SolveOptions& options) {
  if (report.info > 0)
    throw trncore::InvalidArgument(kFunction, "A is singular to working precision: U(" + std::to_string(report.info) +
                                                  ", " + std::to_string(report.info) + ") = 0 in the fp64 LU",
                                   "check the matrix, or call the overload with a SolveReport to get info");
  if (options.core.target_forward_error) trncore::require_target_met(report.accuracy, kFunction);
}

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
  report.accuracy.target = options.core.target_forward_error;
  report.accuracy.references = {
      "Carson, Higham, Accelerating the solution of linear systems by iterative refinement in three precisions, "
      "SIAM J. Sci. Comput. 40(2) A817-A847 (2018)",
      "error bounds as LAPACK xGERFSX: Demmel, Hida, Kahan, Li, Mukherjee, Riedy, ACM TOMS 32(2) 325-351 (2006); "
      "norms by Higham's estimator, ACM TOMS 14 (1988) 381-396"};
  if (n == 0 || nrhs == 0) {
    report.converged = true;
    report.accuracy.met = true;
    report.accuracy.trajectory.push_back({"empty system: nothing to solve"});
    return 0;
  }
  System s = gather(layout, n, nrhs, a, lda, b, ldb);
  for (double v : s.b)
    if (!std::isfinite(v))
      throw trncore::InvalidArgument(kFunction, "B has a non-finite entry", "pass right-hand sides of finite values");

  const bool sim = options.core.backend == trncore::Backend::sim;
  const FactorPrecision low = options.factor.value_or(sim ? FactorPrecision::bf16 : FactorPrecision::fp32);
  const bool bounds = options.error_bounds || options.core.target_forward_error.has_value();
  std::map<FactorPrecision, Factorization> factors;
  const auto factor = [&](FactorPrecision p) -> const Factorization& {
    auto it = factors.find(p);
    if (it == factors.end()) {
      // fp64 factors always come from LAPACK on the host with pivoting (the TensorEngine has no fp64).
      trncore::Options fo = options.core;
      if (p == FactorPrecision::fp64) fo.backend = trncore::Backend::host;
      it = factors.emplace(p, detail::factorize(n, s.a, s.lda, p, p == FactorPrecision::fp64 || options.pivoting, fo)).first;
      report.accuracy.trajectory.push_back({it->second.method + (it->second.info != 0
                                                                     ? ": zero pivot at " + std::to_string(it->second.info)
                                                                     : "")});
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
      if (low == FactorPrecision::fp64) attempts = {{Refinement::fp64_lu, FactorPrecision::fp64}};
      else attempts = {{Refinement::lu_ir, low, true}};
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

  const std::optional<double> target = options.core.target_forward_error;
  std::vector<double> xs(static_cast<std::size_t>(n * nrhs));
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
          report.accuracy.trajectory.push_back({"chose gmres_ir: condition estimate " + sci(kappa) + ", kappa*u_f = " +
                                                sci(kappa * uf) + " > 0.5 (too large for LU-IR)"});
        }
        if (kappa * uf * std::sqrt(kU) > 1.0 && !last) {
          report.accuracy.trajectory.push_back({"skipped " + std::string(to_string(at.factor)) +
                                                " refinement: condition estimate " + sci(kappa) +
                                                " is beyond GMRES-IR's reach (Carson-Higham)"});
          ++report.fallbacks;
          continue;
        }
      }
    }
    if (options.residual) rp = *options.residual;
    report.refinement = how;
    report.residual = rp;
    bool converged = true;
    double estimate = 0.0, bound_n = 0.0, bound_c = 0.0, bwd_n = 0.0, bwd_c = 0.0;
    std::vector<Refined> columns;
    for (std::int64_t c = 0; c < nrhs; ++c) {
      columns.push_back(refine(s, c, f, how, adaptive, rp, bounds, options));
      if (columns.back().how == Refinement::gmres_ir) report.refinement = Refinement::gmres_ir;
    }
    // The condition estimate with the inverse the strategy trusts (the bounds need it).
    if (bounds)
      report.condition_estimate = std::max(
          report.condition_estimate, s.anorm * detail::inverse_norm_estimate(n, inverse_of(s, f, report.refinement, options)));
    const double kappa = report.condition_estimate;
    for (std::int64_t c = 0; c < nrhs; ++c) {
      const Refined& r = columns[static_cast<std::size_t>(c)];
      report.refinements += r.steps;
      report.gmres_iterations += r.gmres;
      converged = converged && r.converged;
      estimate = std::max(estimate, r.estimate);
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
        const auto eb = detail::forward_error_bounds(n, inverse_of(s, f, r.how, options), r.res, r.x.data());
        // LU-IR's Â⁻¹ stands in for A⁻¹: ‖A⁻¹M‖ ≤ ‖Â⁻¹M‖/(1 − ρ) with ρ the observed contraction.
        const double widen = r.how == Refinement::lu_ir ? 1.0 / (1.0 - std::min(r.rho, 0.5)) : 1.0;
        double normwise = eb.normwise * widen;
        if (rp == ResidualPrecision::double_double && r.small_correction) {
          // The refinement converged to its fixed point: with u_r = u², the error there is the final rounding
          // plus the residual's contribution (Carson–Higham Thm 3.2: ≈ u + 4(n+1)·cond·u²), and the distance to
          // it is the last correction over 1 − ρ (Demmel et al. 2006), all times the estimator's 3.
          const double refined = 3.0 * (r.estimate + 2.0 * kU + 4.0 * static_cast<double>(n + 1) * kappa * kU * kU);
          normwise = std::min(normwise, refined);
        }
        bound_n = std::max(bound_n, r.converged ? normwise : kInf);
        bound_c = std::max(bound_c, r.converged ? eb.componentwise * widen : kInf);
      }
      std::copy(r.x.begin(), r.x.end(), xs.begin() + c * n);
    }
    report.converged = converged;
    report.forward_error_estimate = converged ? estimate : kInf;
    report.forward_error_bound_normwise = bounds ? bound_n : kInf;
    report.forward_error_bound_componentwise = bounds ? bound_c : kInf;
    report.backward_error_normwise = bwd_n;
    report.backward_error_componentwise = bwd_c;
    std::string step = std::string(to_string(report.refinement)) +
                       (adaptive && report.refinement != how ? " (after lu_ir stalled)" : "") + ", residual " + std::string(to_string(rp)) + ": " +
                       std::to_string(report.refinements) + " refinement step(s)";
    if (report.refinement == Refinement::gmres_ir) step += ", " + std::to_string(report.gmres_iterations) + " GMRES iterations";
    step += converged ? ", converged" : ", not converged";
    if (bounds) step += ", forward error bound " + sci(report.forward_error_bound_normwise);
    report.accuracy.trajectory.push_back({step});
    const bool good = converged && (!target || report.forward_error_bound_normwise <= *target);
    if (good || last) break;
    ++report.fallbacks;
  }
  report.accuracy.a_priori_bound = report.forward_error_bound_normwise;
  report.accuracy.a_posteriori_estimate = report.forward_error_estimate;
  report.accuracy.iterations = report.refinements;
  report.accuracy.met = report.info == 0 && report.converged &&
                        (!target || report.forward_error_bound_normwise <= *target);
  if (report.info == 0) {
    const bool rm = layout == trncore::Layout::row_major;
    for (std::int64_t j = 0; j < nrhs; ++j)
      for (std::int64_t i = 0; i < n; ++i) (rm ? x[i * ldx + j] : x[i + j * ldx]) = xs[static_cast<std::size_t>(i + j * n)];
  }
  return report.info;
}

void solve(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
           const double* b, std::int64_t ldb, double* x, std::int64_t ldx, const SolveOptions& options) {
  SolveReport report;
  solve(layout, n, nrhs, a, lda, b, ldb, x, ldx, options, report);
  require_solution(report, options);
}

std::vector<double> solve(trncore::MatrixView<const double> a, std::span<const double> b, const SolveOptions& options,
                          SolveReport& report) {
  if (a.rows() != a.cols() || static_cast<std::int64_t>(b.size()) != a.rows())
    throw trncore::DimensionMismatch(kFunction,
                                     "A is " + std::to_string(a.rows()) + "x" + std::to_string(a.cols()) + " and b has " +
                                         std::to_string(b.size()) + " entries",
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
  require_solution(report, options);
  return x;
}

}  // namespace trnsolver
