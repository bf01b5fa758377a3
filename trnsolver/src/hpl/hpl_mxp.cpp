#include <trnsolver/hpl_mxp.hpp>

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trnrand/stream.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "hpl/hpl_report.hpp"

namespace trnsolver {

namespace {

constexpr char kFunction[] = "trnsolver::hpl_mxp";

std::string fixed(double x, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

}  // namespace

void hpl_mxp_system(std::int64_t n, std::uint64_t seed, std::vector<double>& a, std::vector<double>& b,
                    const trncore::Options& options) {
  if (n < 1)
    throw trncore::InvalidArgument("trnsolver::hpl_mxp_system", "n = " + std::to_string(n), "pass an order n >= 1");
  trncore::validate(options, "trnsolver::hpl_mxp_system");
  const trncore::Options fill = trncore::Options{}.with_threads(options.threads);
  a.resize(static_cast<std::size_t>(n * n));
  b.resize(static_cast<std::size_t>(n));
  trnrand::fill_uniform(trnrand::make_stream(seed, 0), std::span<double>(a), trnrand::Interval::open_closed, fill);
  trnrand::fill_uniform(trnrand::make_stream(seed, 1), std::span<double>(b), trnrand::Interval::open_closed, fill);
  for (double& v : a) v -= 0.5;  // exact: v in (0, 1] has at most 53 bits at exponents ≥ −53
  for (double& v : b) v -= 0.5;
  std::vector<double> row(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (i != j) row[static_cast<std::size_t>(i)] += std::abs(a[static_cast<std::size_t>(i + j * n)]);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i + i * n)] = row[static_cast<std::size_t>(i)];
}

HplMxpResult hpl_mxp(const HplMxpOptions& options) {
  if (options.n < 1)
    throw trncore::InvalidArgument(kFunction, "n = " + std::to_string(options.n), "pass an order n >= 1");
  if (options.target_forward_error)
    throw trncore::NotSupported(kFunction,
                                "target_forward_error = " + trncore::detail::sci(*options.target_forward_error) +
                                    " was given, but HPL-MxP's rules fix the strategy and check the scaled residual",
                                "leave it unset (or call trnsolver::solve for a certified solve to a target)");
  const std::int64_t n = options.n;
  std::vector<double> a, b;
  hpl_mxp_system(n, options.seed, a, b, trncore::Options{}.with_threads(options.threads));
  SolveOptions so;
  static_cast<trncore::Options&>(so) = options;
  so.factor = options.factor;
  so.refinement = Refinement::gmres_ir;
  so.residual = ResidualPrecision::fp64;
  so.pivoting = false;
  so.fallback = false;
  so.error_bounds = false;
  HplMxpResult r;
  r.n = n;
  std::vector<double> x(static_cast<std::size_t>(n));
  const auto start = std::chrono::steady_clock::now();
  solve(trncore::Layout::col_major, n, 1, a.data(), n, b.data(), n, x.data(), n, so, r.report);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double nd = static_cast<double>(n);
  r.gflops = (2.0 / 3.0 * nd * nd * nd + 2.0 * nd * nd) / r.seconds * 1e-9;
  // The residual check, independent of solve(): plain fp64 sums.
  std::vector<double> res(b), row(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      const double aij = a[static_cast<std::size_t>(i + j * n)];
      res[static_cast<std::size_t>(i)] -= aij * x[static_cast<std::size_t>(j)];
      row[static_cast<std::size_t>(i)] += std::abs(aij);
    }
  double rnorm = 0, anorm = 0, xnorm = 0, bnorm = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    rnorm = std::max(rnorm, std::abs(res[static_cast<std::size_t>(i)]));
    anorm = std::max(anorm, row[static_cast<std::size_t>(i)]);
    xnorm = std::max(xnorm, std::abs(x[static_cast<std::size_t>(i)]));
    bnorm = std::max(bnorm, std::abs(b[static_cast<std::size_t>(i)]));
  }
  r.scaled_residual = rnorm / ((anorm * xnorm + bnorm) * nd * 0x1p-53);
  r.passed = r.report.info == 0 && std::isfinite(r.scaled_residual) && r.scaled_residual <= 16.0;
  return r;
}

namespace detail {

std::string hpl_report(const HplMxpResult& result, std::int64_t nb, int p, int q) {
  const std::string rule(80, '=');
  const std::string dash(80, '-');
  const auto& report = result.report;
  const bool sim =
      report.trajectory.empty() ? false : report.trajectory.front().description.find("sim") != std::string::npos;
  char line[200];
  std::snprintf(
      line, sizeof line, "%-16s %8lld %5lld %5d %5d %18s %20s",
      (std::string("WR_trnsci_") + (sim ? "sim_" : "") + std::string(trnsolver::to_string(report.factor))).c_str(),
      static_cast<long long>(result.n), static_cast<long long>(nb), p, q, fixed(result.seconds, 3).c_str(),
      trncore::detail::sci(result.gflops).c_str());
  std::string s = rule + "\nT/V                     N    NB     P     Q               Time               Gflops\n" +
                  dash + "\n" + line + "\n";
  for (const auto& step : report.trajectory) s += "  " + step.description + "\n";
  s += dash + "\n||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)= " + trncore::detail::sci(result.scaled_residual) +
       " ...... " + (result.passed ? "PASSED" : "FAILED") + "\n" + rule + "\n";
  return s;
}

}  // namespace detail

// The single-process run: one process, the blocked LU's tile of 128.
std::string HplMxpResult::to_string() const { return detail::hpl_report(*this, 128, 1, 1); }

}  // namespace trnsolver
