#include <trnsparse/screening.hpp>
#include <trnsparse/ops.hpp>

#include <trncore/detail/checks.hpp>
#include "host/host_checks.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace trnsparse {
namespace {

void check_q(std::int64_t n, std::span<const double> q, double tau, const char* fn) {
  trncore::detail::check_nonnegative(fn, {{"n", n}});
  if (static_cast<std::int64_t>(q.size()) != trncore::detail::checked_product(fn, {{"n", n}, {"n", n}}))
    throw trncore::InvalidArgument(fn, "Q has " + std::to_string(q.size()) + " entries for n = " + std::to_string(n),
                                   "pass the n*n Schwarz factors (row-major)");
  for (std::size_t k = 0; k < q.size(); ++k)
    if (!(q[k] >= 0) || !std::isfinite(q[k]))
      throw trncore::InvalidArgument(
          fn, "Q[" + std::to_string(k) + "] = " + trncore::detail::sci(static_cast<double>(q[k])),
          "Schwarz factors are finite and >= 0 (schwarz_bounds computes them)");
  if (!(tau >= 0) || !std::isfinite(tau))
    throw trncore::InvalidArgument(fn, "tau = " + trncore::detail::sci(tau), "pass a finite threshold >= 0");
}

// Number of ordered pairs (a, b) with w_a·v_b > τ, for w, v ≥ 0: sort v, binary-search per a.
std::int64_t count_products_above(std::span<const double> w, std::vector<double> v, double tau) {
  std::sort(v.begin(), v.end());
  std::int64_t count = 0;
  for (double x : w) {
    if (x == 0) continue;
    // v_b > τ/x, computed as the first v with x·v > τ (the product itself, so rounding matches the rule).
    const auto it = std::partition_point(v.begin(), v.end(), [&](double y) { return x * y <= tau; });
    count += v.end() - it;
  }
  return count;
}

ScreeningStats finish(std::int64_t n, std::int64_t kept, std::int64_t significant) {
  ScreeningStats s;
  s.pairs = n * n;
  s.quartets = s.pairs * s.pairs;
  s.kept_quartets = kept;
  s.significant_pairs = significant;
  s.kept_fraction = s.quartets == 0 ? 0.0 : static_cast<double>(kept) / static_cast<double>(s.quartets);
  return s;
}

}  // namespace

std::string ScreeningStats::to_string() const {
  char line[200];
  std::snprintf(line, sizeof line, "%lld of %lld quartets kept (%.3g%%), %lld of %lld pairs significant",
                static_cast<long long>(kept_quartets), static_cast<long long>(quartets), 100 * kept_fraction,
                static_cast<long long>(significant_pairs), static_cast<long long>(pairs));
  return line;
}

std::string SparsityStats::to_string() const {
  char line[240];
  std::snprintf(line, sizeof line,
                "%lldx%lld, %lld nonzeros (%.3g%%), rows %lld..%lld (mean %.1f), %lld empty, bandwidth %lld",
                static_cast<long long>(rows), static_cast<long long>(cols), static_cast<long long>(nonzeros),
                100 * density, static_cast<long long>(min_row_nonzeros), static_cast<long long>(max_row_nonzeros),
                mean_row_nonzeros, static_cast<long long>(empty_rows), static_cast<long long>(bandwidth));
  return line;
}

std::vector<double> schwarz_bounds(std::int64_t n, std::span<const double> g) {
  constexpr const char* fn = "trnsparse::schwarz_bounds";
  trncore::detail::check_nonnegative(fn, {{"n", n}});
  if (static_cast<std::int64_t>(g.size()) != trncore::detail::checked_product(fn, {{"n", n}, {"n", n}}))
    throw trncore::InvalidArgument(
        fn, "diagonal_integrals has " + std::to_string(g.size()) + " entries for n = " + std::to_string(n),
        "pass the n*n diagonal integrals (ij|ij), row-major");
  double largest = 0;
  for (double x : g) {
    if (!std::isfinite(x))
      throw trncore::InvalidArgument(fn, "a diagonal integral is not finite", "check the integral code");
    largest = std::max(largest, std::fabs(x));
  }
  std::vector<double> q(g.size());
  for (std::size_t k = 0; k < g.size(); ++k) {
    if (g[k] < -1e-14 * largest)
      throw trncore::InvalidArgument(
          fn, "(ij|ij) at " + std::to_string(k) + " is " + trncore::detail::sci(static_cast<double>(g[k])),
          "diagonal integrals are >= 0 (a norm squared); check the input");
    q[k] = std::sqrt(std::max(0.0, g[k]));
  }
  return q;
}

ScreeningStats quartet_screening(std::int64_t n, std::span<const double> q, double tau) {
  check_q(n, q, tau, "trnsparse::quartet_screening");
  const double qmax = q.empty() ? 0.0 : *std::max_element(q.begin(), q.end());
  const auto significant =
      static_cast<std::int64_t>(std::count_if(q.begin(), q.end(), [&](double x) { return x * qmax > tau; }));
  return finish(n, count_products_above(q, std::vector<double>(q.begin(), q.end()), tau), significant);
}

Csr<double, std::int64_t> significant_pairs(std::int64_t n, std::span<const double> q, double tau) {
  check_q(n, q, tau, "trnsparse::significant_pairs");
  const double qmax = q.empty() ? 0.0 : *std::max_element(q.begin(), q.end());
  Csr<double, std::int64_t> out;
  out.rows = out.cols = n;
  out.indptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      const double x = q[static_cast<std::size_t>(i * n + j)];
      if (x * qmax > tau) {
        out.indices.push_back(j);
        out.values.push_back(x);
      }
    }
    out.indptr[static_cast<std::size_t>(i) + 1] = static_cast<std::int64_t>(out.values.size());
  }
  return out;
}

ScreeningStats density_weighted_screening(std::int64_t n, std::span<const double> q, std::span<const double> density,
                                          double tau) {
  constexpr const char* fn = "trnsparse::density_weighted_screening";
  check_q(n, q, tau, fn);
  if (density.size() != q.size())
    throw trncore::InvalidArgument(fn,
                                   "D has " + std::to_string(density.size()) + " entries for n = " + std::to_string(n),
                                   "pass the n*n density matrix (row-major)");
  std::vector<double> weighted(q.size());
  for (std::size_t k = 0; k < q.size(); ++k) {
    if (std::isnan(density[k]))
      throw trncore::InvalidArgument(fn, "D[" + std::to_string(k) + "] is NaN", "pass a finite density");
    weighted[k] = q[k] * std::fabs(density[k]);
  }
  const double wmax = weighted.empty() ? 0.0 : *std::max_element(weighted.begin(), weighted.end());
  const auto significant =
      static_cast<std::int64_t>(std::count_if(q.begin(), q.end(), [&](double x) { return x * wmax > tau; }));
  // Quartet (ij|kl) is kept when Q_ij·(Q_kl·|D_kl|) > τ.
  return finish(n, count_products_above(q, std::move(weighted), tau), significant);
}

template <class T, class I>
ScreenedProductReport screened_spmm(const Csr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb,
                                    std::span<T> c, std::int64_t ldc, double tau, const trncore::Options& options) {
  constexpr const char* fn = "trnsparse::screened_spmm";
  detail::require_host<T>(options, fn);
  validate(a, fn);
  if (!(tau >= 0) || !std::isfinite(tau))
    throw trncore::InvalidArgument(fn, "tau = " + trncore::detail::sci(tau), "pass a finite threshold >= 0");
  trncore::detail::check_nonnegative(fn, {{"n", n}});
  detail::require_dense(a.cols, n, ldb, b.size(), "b", fn);
  detail::require_dense(a.rows, n, ldc, c.size(), "c", fn);
  // ‖B(j,:)‖∞ per row of B.
  std::vector<double> row_max(static_cast<std::size_t>(a.cols), 0.0);
  for (std::int64_t j = 0; j < a.cols; ++j)
    for (std::int64_t l = 0; l < n; ++l)
      row_max[static_cast<std::size_t>(j)] =
          std::max(row_max[static_cast<std::size_t>(j)],
                   std::fabs(static_cast<double>(b[static_cast<std::size_t>(j * ldb + l)])));
  Csr<T, I> kept;
  kept.rows = a.rows;
  kept.cols = a.cols;
  kept.indptr.assign(static_cast<std::size_t>(a.rows) + 1, I{0});
  ScreenedProductReport report;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    double dropped = 0;
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k) {
      const double bound =
          std::fabs(static_cast<double>(a.values[k])) * row_max[static_cast<std::size_t>(a.indices[k])];
      if (bound <= tau) {
        dropped += bound;
        ++report.dropped_entries;
      } else {
        kept.indices.push_back(a.indices[k]);
        kept.values.push_back(a.values[k]);
      }
    }
    report.max_row_dropped_bound = std::max(report.max_row_dropped_bound, dropped);
    kept.indptr[static_cast<std::size_t>(r) + 1] = static_cast<I>(kept.values.size());
  }
  report.kept_entries = kept.nnz();
  spmm<T, I>(trnblas::Op::no_trans, T(1), kept, n, b, ldb, T(0), c, ldc, options);
  return report;
}

template <class T, class I>
SparsityStats sparsity_stats(const Csr<T, I>& a) {
  validate(a, "trnsparse::sparsity_stats");
  SparsityStats s;
  s.rows = a.rows;
  s.cols = a.cols;
  s.nonzeros = a.nnz();
  s.density = a.rows * a.cols == 0
                  ? 0.0
                  : static_cast<double>(a.nnz()) / (static_cast<double>(a.rows) * static_cast<double>(a.cols));
  s.min_row_nonzeros = a.rows == 0 ? 0 : a.nnz();
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const std::int64_t len = a.indptr[static_cast<std::size_t>(r) + 1] - a.indptr[static_cast<std::size_t>(r)];
    s.empty_rows += len == 0;
    s.min_row_nonzeros = std::min(s.min_row_nonzeros, len);
    s.max_row_nonzeros = std::max(s.max_row_nonzeros, len);
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k)
      s.bandwidth = std::max<std::int64_t>(s.bandwidth, std::abs(static_cast<std::int64_t>(a.indices[k]) - r));
  }
  s.mean_row_nonzeros = a.rows == 0 ? 0.0 : static_cast<double>(a.nnz()) / static_cast<double>(a.rows);
  return s;
}

#define TRNSPARSE_INSTANTIATE_SCREENING(T, I)                                                                    \
  template ScreenedProductReport screened_spmm(const Csr<T, I>&, std::int64_t, std::span<const T>, std::int64_t, \
                                               std::span<T>, std::int64_t, double, const trncore::Options&);     \
  template SparsityStats sparsity_stats(const Csr<T, I>&);

TRNSPARSE_INSTANTIATE_SCREENING(float, std::int32_t)
TRNSPARSE_INSTANTIATE_SCREENING(float, std::int64_t)
TRNSPARSE_INSTANTIATE_SCREENING(double, std::int32_t)
TRNSPARSE_INSTANTIATE_SCREENING(double, std::int64_t)

}  // namespace trnsparse
