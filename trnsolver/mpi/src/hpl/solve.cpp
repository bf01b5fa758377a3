// trnsolver::mpi::solve: collective argument checks, the distributed LU, GMRES-IR on replicated vectors and the
// report (docs/distributed.md, "trnsolver: HPL-MxP and solve").
#include <trnsolver/mpi/solve.hpp>

#include "hpl/dist_lu.hpp"
#include "mixed/correction_gmres.hpp"
#include "mixed/refinement_loop.hpp"
#include "mixed/error_bounds.hpp"
#include "mixed/residual.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/monitor.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace trnsolver::mpi {

namespace {

namespace tm = trncore::mpi;
using trncore::detail::sci;
using trncore::mpi::ErrorKind;

constexpr char kFunction[] = "trnsolver::mpi::solve";
constexpr double kU = 0x1p-53;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kGmresTolerance = 1e-8;  // solve()'s inner tolerance

double inf_norm(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) {
    if (std::isnan(x)) return x;
    m = std::max(m, std::abs(x));
  }
  return m;
}

double gamma(double k) { return k * kU / (1.0 - k * kU); }

// Local elements of a descriptor on this process, or -1 when the descriptor cannot describe a layout.
std::int64_t local_elements(const tm::Descriptor& d, const ProcessGrid& grid) {
  if (d.m < 0 || d.n < 0 || d.mb < 1 || d.nb < 1 || d.rsrc < 0 || d.rsrc >= grid.rows() || d.csrc < 0 ||
      d.csrc >= grid.cols())
    return -1;
  const std::int64_t rows = tm::numroc(d.m, d.mb, grid.row(), d.rsrc, grid.rows());
  const std::int64_t cols = tm::numroc(d.n, d.nb, grid.col(), d.csrc, grid.cols());
  if (d.lld < std::max<std::int64_t>(1, rows)) return -1;
  return rows * cols == 0 ? 0 : d.lld * cols;
}

void check_arguments(const ProcessGrid& grid, DistMatrix<const double> a, DistMatrix<const double> b,
                     DistMatrix<double> x, const SolveOptions& o) {
  tm::CollectiveCheck check(grid.comm(), kFunction);
  tm::check_descriptor(check, grid, a.desc, "a");
  tm::check_descriptor(check, grid, b.desc, "b");
  tm::check_descriptor(check, grid, x.desc, "x");
  const tm::Descriptor &da = a.desc, &db = b.desc, &dx = x.desc;
  check.require(da.m == da.n, ErrorKind::dimension_mismatch,
                "A is " + std::to_string(da.m) + "x" + std::to_string(da.n) + ", not square", "pass a square A");
  check.require(da.mb == da.nb, ErrorKind::not_supported,
                "A's blocks are " + std::to_string(da.mb) + "x" + std::to_string(da.nb) + ", not square",
                "distribute A in square nb x nb blocks");
  check.require(da.rsrc == 0 && da.csrc == 0, ErrorKind::not_supported,
                "A's source process is (" + std::to_string(da.rsrc) + ", " + std::to_string(da.csrc) + ")",
                "distribute A from process (0, 0) (rsrc = csrc = 0)");
  check.require(db.m == da.m && db.mb == da.mb && db.rsrc == da.rsrc, ErrorKind::dimension_mismatch,
                "B has " + std::to_string(db.m) + " rows in blocks of " + std::to_string(db.mb) + " from process row " +
                    std::to_string(db.rsrc) + ", A " + std::to_string(da.m) + " in blocks of " + std::to_string(da.mb) +
                    " from " + std::to_string(da.rsrc),
                "give B (and X) A's row count, row block size and rsrc");
  check.require(
      dx.m == db.m && dx.n == db.n && dx.mb == db.mb && dx.nb == db.nb && dx.rsrc == db.rsrc && dx.csrc == db.csrc,
      ErrorKind::dimension_mismatch, "X's layout differs from B's", "pass X with B's descriptor (its lld may differ)");
  const std::int64_t la = local_elements(da, grid), lb = local_elements(db, grid), lx = local_elements(dx, grid);
  check.require(!(la > 0 && a.data == nullptr) && !(lb > 0 && b.data == nullptr) && !(lx > 0 && x.data == nullptr),
                ErrorKind::invalid_argument, "null local data with a nonzero local size",
                "pass each rank's local array (lld x local columns)");
  if (lx > 0 && x.data != nullptr) {  // x is written while a and b are read
    const auto overlaps = [&](const double* p, std::int64_t len) {
      return p != nullptr && len > 0 && x.data < p + len && p < x.data + lx;
    };
    check.require(!overlaps(a.data, la) && !overlaps(b.data, lb), ErrorKind::invalid_argument,
                  "x's local array overlaps a's or b's", "pass an output array that shares no storage with a and b");
  }
  check.capture([&] {
    trncore::validate(o, kFunction);
    if (to_string(o.refinement) == "invalid" || (o.factor && to_string(*o.factor) == "invalid") ||
        (o.residual && to_string(*o.residual) == "invalid"))
      throw trncore::InvalidArgument(kFunction, "options.refinement, factor or residual has an invalid enum value",
                                     "pass one of the enumerators");
    if (o.max_refinements < 1 || o.max_gmres_iterations < 1)
      throw trncore::InvalidArgument(kFunction,
                                     "max_refinements = " + std::to_string(o.max_refinements) +
                                         ", max_gmres_iterations = " + std::to_string(o.max_gmres_iterations),
                                     "both must be at least 1");
    const bool sim = o.backend == trncore::Backend::sim;
    if (o.factor == FactorPrecision::bf16 && !sim)
      throw trncore::InvalidArgument(kFunction, "a bf16 factorization needs the sim backend (options.backend = host)",
                                     "set options.backend = trncore::Backend::sim, or use FactorPrecision::fp32");
    if (o.pivoting)
      throw trncore::NotSupported(kFunction, "options.pivoting = true: the distributed LU does not pivot",
                                  "set options.pivoting = false for a matrix that needs no pivoting (e.g. diagonally "
                                  "dominant), or gather A and call trnsolver::solve");
    if (o.refinement == Refinement::lu_ir || o.refinement == Refinement::fp64_lu)
      throw trncore::NotSupported(kFunction,
                                  "refinement " + std::string(to_string(o.refinement)) + " is not offered distributed",
                                  "use Refinement::automatic or gmres_ir (GMRES-IR on the low-precision LU)");
    if (o.factor == FactorPrecision::fp64)
      throw trncore::NotSupported(kFunction, "an fp64 factorization is not offered distributed",
                                  "use FactorPrecision::fp32 (host or sim) or bf16 (sim)");
    if (o.residual == ResidualPrecision::double_double)
      throw trncore::NotSupported(kFunction, "a double-double residual is not offered distributed",
                                  "leave options.residual unset or fp64");
  });
  if (la > 0 && a.data != nullptr) {
    bool finite = true;
    const std::int64_t rows = tm::numroc(da.m, da.mb, grid.row(), da.rsrc, grid.rows());
    for (std::int64_t j = 0; j < la / da.lld && finite; ++j)
      for (std::int64_t i = 0; i < rows; ++i)
        if (!std::isfinite(a.data[i + j * da.lld])) {
          finite = false;
          break;
        }
    check.require(finite, ErrorKind::invalid_argument, "A has a non-finite entry", "pass a matrix of finite values");
  }
  if (lb > 0 && b.data != nullptr) {
    bool finite = true;
    const std::int64_t rows = tm::numroc(db.m, db.mb, grid.row(), db.rsrc, grid.rows());
    for (std::int64_t j = 0; j < lb / db.lld && finite; ++j)
      for (std::int64_t i = 0; i < rows; ++i)
        if (!std::isfinite(b.data[i + j * db.lld])) {
          finite = false;
          break;
        }
    check.require(finite, ErrorKind::invalid_argument, "B has a non-finite entry",
                  "pass right-hand sides of finite values");
  }
  check.same("monitor set", o.monitor ? 1 : 0);  // every rank calls its monitor, or none does
  check.finish();
}

// Options::monitor over the whole solve: steps counted over all columns; a stop asked on any rank stops all.
struct Monitoring {
  const ProcessGrid* grid = nullptr;
  trncore::detail::ProgressMonitor monitor;
  std::int64_t steps = 0;
  bool stopped = false;
  bool stop_requested(double relative_correction) {
    if (!monitor.active()) return false;
    const bool local = monitor.stop_requested(++steps, relative_correction);
    return stopped = grid->comm().any_of(local);
  }
};

using trnsolver::detail::Refined;

// One right-hand side refined by GMRES-IR with solve()'s stopping rules (fp64 residual, replicated vectors).
Refined refine(const detail::Cyclic& cy, DistMatrix<const double> a, const detail::DistLu& lu, double anorm,
               const std::vector<double>& b, bool with_scale, const SolveOptions& o, Monitoring& monitoring) {
  const std::int64_t n = cy.n;
  const auto residual = [&](const std::vector<double>& x, bool scale) {
    trnsolver::detail::Residual res;
    std::vector<double> y;
    detail::row_products(cy, a.data, a.desc.lld, x.data(), y, scale ? &res.scale : nullptr);
    res.r.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < res.r.size(); ++i) res.r[i] = b[i] - y[i];
    if (scale) {
      const double up = 1.0 + gamma(static_cast<double>(n + 1));
      for (std::size_t i = 0; i < res.scale.size(); ++i) res.scale[i] = (res.scale[i] + std::abs(b[i])) * up;
    }
    res.error_factor = gamma(static_cast<double>(n + 1));
    return res;
  };
  const trnsolver::detail::Apply apply_a = [&](const double* in, double* out) {
    std::vector<double> y;
    detail::row_products(cy, a.data, a.desc.lld, in, y, nullptr);
    std::copy(y.begin(), y.end(), out);
  };
  const trnsolver::detail::Precondition precondition = [&](double* v) { lu.solve(v, false); };
  Refined out;
  out.how = Refinement::gmres_ir;
  out.x = b;
  lu.solve(out.x.data(), false);
  trnsolver::detail::RefinementSteps steps;
  steps.n = n;
  steps.anorm = anorm;
  steps.max_refinements = o.max_refinements;
  steps.backward_error_stop = !o.target_forward_error;
  steps.stopped_before = monitoring.stopped;
  steps.residual = residual;
  steps.correct = [&](const trnsolver::detail::Residual& res, std::vector<double>& d) {
    return trnsolver::detail::correction_gmres(n, apply_a, precondition, res.r.data(), d.data(), kGmresTolerance,
                                               o.max_gmres_iterations)
        .iterations;
  };
  steps.stop_requested = [&](double relative_correction) { return monitoring.stop_requested(relative_correction); };
  trnsolver::detail::refine_to_stop(steps, with_scale, out);
  return out;
}

double relative_to_solution(double beta) { return beta < 1.0 ? beta / (1.0 - beta) * (1.0 + 4.0 * kU) : kInf; }

}  // namespace

std::int64_t solve(const ProcessGrid& grid, DistMatrix<const double> a, DistMatrix<const double> b,
                   DistMatrix<double> x, const SolveOptions& options, SolveReport& report) {
  check_arguments(grid, a, b, x, options);
  report = SolveReport{};
  report.target = options.target_forward_error;
  report.refinement = Refinement::gmres_ir;
  report.residual = ResidualPrecision::fp64;
  const bool sim = options.backend == trncore::Backend::sim;
  report.factor = options.factor.value_or(sim ? FactorPrecision::bf16 : FactorPrecision::fp32);
  report.references = {
      "Carson, Higham, Accelerating the solution of linear systems by iterative refinement in three precisions, "
      "SIAM J. Sci. Comput. 40(2) A817-A847 (2018)",
      "bounds: |x - x^| <= |A^-1|(|r| + dr) (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., sec. "
      "7.2; LAPACK xGERFSX), norms by Higham's estimator (ACM TOMS 14 (1988) 381-396), A^-1 by the LU with "
      "||A^-1 M|| <= ||A^-1_LU M||/(1 - mu), mu from |L||U| (ASNA Thm 9.3)"};
  const std::int64_t n = a.desc.m, nrhs = b.desc.n;
  if (n == 0 || nrhs == 0) {
    report.converged = true;
    report.certify(0.0);
    report.trajectory.push_back({"empty system: nothing to solve"});
    return 0;
  }
  const detail::Cyclic cy(grid, n, a.desc.nb);
  const bool bounds = options.error_bounds || options.target_forward_error.has_value();
  const detail::DistLu lu = detail::factorize(cy, a.data, a.desc.lld, report.factor, options, bounds);
  report.trajectory.push_back({lu.method + (lu.info != 0 ? ": zero pivot at " + std::to_string(lu.info) : "")});
  std::vector<double> rowsum;
  {
    const std::vector<double> ones(static_cast<std::size_t>(n), 1.0);
    detail::row_products(cy, a.data, a.desc.lld, ones.data(), rowsum, nullptr, true);
  }
  const double anorm = inf_norm(rowsum);
  if (!std::isfinite(anorm))
    throw trncore::InvalidArgument(kFunction, "the row sums of |A| overflow", "scale A");  // the same on every rank
  if (lu.info != 0) {
    report.converged = false;
    report.uncertify(std::string(to_string(report.factor)) + " LU hit a zero pivot at " + std::to_string(lu.info) +
                     " (no pivoting, and the distributed solve has no fp64 fallback); X not written");
    report.a_priori_bound = kInf;
    return report.info;
  }
  // Bounds (error_bounds or a target): the residual bound through Â⁻¹ widened by 1/(1 − μ).
  bool a_in_fp32_range = true;
  if (bounds && cy.mloc > 0)
    for (std::int64_t j = 0; j < cy.nloc && a_in_fp32_range; ++j)
      for (std::int64_t i = 0; i < cy.mloc; ++i) {
        const double v = std::abs(a.data[i + j * a.desc.lld]);
        if (v != 0.0 && (v < static_cast<double>(std::numeric_limits<float>::min()) ||
                         v > static_cast<double>(std::numeric_limits<float>::max()))) {
          a_in_fp32_range = false;
          break;
        }
      }
  if (bounds) a_in_fp32_range = grid.comm().all_of(a_in_fp32_range);

  std::vector<Refined> columns;
  std::vector<std::vector<double>> bs;
  Monitoring monitoring{&grid, trncore::detail::ProgressMonitor(options.monitor, kFunction)};
  for (std::int64_t c = 0; c < nrhs; ++c) {
    bs.push_back(detail::replicate_column(cy, b, c));
    columns.push_back(refine(cy, a, lu, anorm, bs.back(), bounds, options, monitoring));
  }
  const trnsolver::detail::Inverse inverse{[&lu](double* v) { lu.solve(v, false); },
                                           [&lu](double* v) { lu.solve(v, true); }};
  double widen = kInf, mu = kInf;
  std::string bound_reason;
  if (bounds) {
    const std::vector<double> w = lu.lu_magnitude();
    if (!lu.gemms_certified)
      bound_reason = "a GEMM of the LU was not certified by trnblas (an operand below fp32's normal range)";
    else if (!a_in_fp32_range)
      bound_reason = "A has entries outside fp32's normal range, where the LU's backward error bound does not hold";
    else if (w.empty())
      bound_reason = "a factor entry is subnormal or not finite, where the LU's backward error bound does not hold";
    if (bound_reason.empty()) {
      const double k = 2.0 * static_cast<double>(n);
      const double c = lu.backward_error_constant() + k * kU / (1.0 - k * kU);
      mu = c * trnsolver::detail::abs_inverse_norm(n, inverse, w);
      if (mu < 0.5) {
        widen = 1.0 / (1.0 - mu);
        report.condition_estimate = anorm * trnsolver::detail::inverse_norm_estimate(n, inverse) * widen;
      } else {
        bound_reason = "mu = " + sci(mu) +
                       " >= 1/2: the low-precision LU is no trustworthy stand-in for A^-1, and the distributed solve "
                       "has neither the measured distance nor the GMRES inverse the single-process solve uses then";
      }
    }
  }
  bool converged = true, stagnated = false, non_finite = false, stopped = false;
  double estimate = 0.0, bound_n = 0.0, bound_c = 0.0, bwd_n = 0.0, bwd_c = 0.0;
  const auto worst = [](double so_far, double col) { return std::isnan(col) ? kInf : std::max(so_far, col); };
  for (std::int64_t c = 0; c < nrhs; ++c) {
    const Refined& r = columns[static_cast<std::size_t>(c)];
    report.refinements += r.steps;
    report.gmres_iterations += r.gmres;
    converged = converged && r.converged;
    stopped = stopped || r.stopped;
    stagnated = stagnated || r.stagnated;
    non_finite = non_finite || r.non_finite;
    estimate = worst(estimate, r.estimate);
    const double xnorm = inf_norm(r.x), bnorm = inf_norm(bs[static_cast<std::size_t>(c)]);
    const double rnorm = inf_norm(r.res.r);
    const double denom = anorm * xnorm + bnorm;
    bwd_n = std::max(bwd_n, denom > 0.0 ? rnorm / denom : (rnorm > 0.0 ? kInf : 0.0));
    // No componentwise backward error without the scale, nor for a non-finite column (the shared refinement
    // loop forms the scale even then, for the single-process bounds).
    if (r.res.scale.empty() || r.non_finite) bwd_c = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < r.res.scale.size(); ++i) {
      const double sc = r.res.scale[i], ri = std::abs(r.res.r[i]);
      bwd_c = std::max(bwd_c, sc > 0.0 ? ri / sc : (ri > 0.0 ? kInf : 0.0));
    }
    if (bounds && bound_reason.empty() && !r.non_finite) {
      const auto fb = trnsolver::detail::forward_error_bounds(n, inverse, r.res, r.x.data());
      bound_n = worst(bound_n, fb.normwise * widen);
      bound_c = worst(bound_c, fb.componentwise * widen);
    } else {
      bound_n = bound_c = kInf;
    }
  }
  report.converged = converged;
  report.forward_error_estimate = converged ? estimate : kInf;
  report.forward_error_bound_normwise = bounds ? bound_n : kInf;
  report.forward_error_bound_componentwise = bounds ? bound_c : kInf;
  report.backward_error_normwise = bwd_n;
  report.backward_error_componentwise = bwd_c;
  report.iterations = report.refinements;
  report.a_posteriori_estimate = report.forward_error_estimate;
  std::string step =
      "gmres_ir, residual fp64: " + std::to_string(report.refinements) + " refinement step(s), " +
      std::to_string(report.gmres_iterations) + " GMRES iterations" +
      (converged ? ", converged"
                 : (stopped ? ", stopped by the monitor" : (stagnated ? ", stagnated" : ", not converged")));
  if (bounds) step += ", forward error bound " + sci(report.forward_error_bound_normwise);
  report.trajectory.push_back({step});
  std::string uncertified;
  report.stopped_by_monitor = monitoring.stopped;
  if (stopped)
    uncertified = "stopped by the monitor at refinement step " + std::to_string(monitoring.steps);
  else if (non_finite)
    uncertified = "gmres_ir with " + std::string(to_string(report.factor)) + " factors produced a non-finite iterate";
  else if (!converged)
    uncertified =
        stagnated ? "gmres_ir stagnated before its stopping test held (the backward error " + sci(bwd_n) +
                        " is above sqrt(n)*u)"
                  : "gmres_ir did not converge within " + std::to_string(options.max_refinements) + " refinement steps";
  else if (!bounds)
    uncertified = "error bounds not computed (options.error_bounds = false and no target)";
  else if (!bound_reason.empty())
    uncertified = bound_reason;
  if (uncertified.empty())
    report.certify(relative_to_solution(report.forward_error_bound_normwise));
  else {
    report.a_priori_bound = relative_to_solution(report.forward_error_bound_normwise);
    report.uncertify(uncertified);
  }
  for (std::int64_t c = 0; c < nrhs; ++c) detail::write_column(cy, x, c, columns[static_cast<std::size_t>(c)].x);
  return 0;
}

void solve(const ProcessGrid& grid, DistMatrix<const double> a, DistMatrix<const double> b, DistMatrix<double> x,
           const SolveOptions& options) {
  SolveReport report;
  solve(grid, a, b, x, options, report);
  trncore::require_target_met(report, kFunction);
}

}  // namespace trnsolver::mpi
