#include "mixed/residual.hpp"

#include <trnblas/level2.hpp>
#include <trncore/dd.hpp>
#include <trncore/detail/parallel.hpp>

#include <algorithm>
#include <cmath>

namespace trnsolver::detail {

namespace {

constexpr double kU = 0x1p-53;

double gamma(double k) { return k * kU / (1.0 - k * kU); }

// Rows [begin, end): the column-major matrix is read a column at a time, each column's slice of rows
// contiguous, so every row's sum runs in the same order (j = 0, 1, …) whichever block computes it.
void rows_fp64(std::int64_t n, const double* a, std::int64_t lda, const double* x, const double* b, std::int64_t begin,
               std::int64_t end, double* r, double* scale) {
  for (std::int64_t i = begin; i < end; ++i) {
    r[i] = b[i];
    scale[i] = std::abs(b[i]);
  }
  for (std::int64_t j = 0; j < n; ++j) {
    const double xj = x[j], axj = std::abs(x[j]);
    const double* col = a + j * lda;
    for (std::int64_t i = begin; i < end; ++i) {
      r[i] -= col[i] * xj;
      scale[i] += std::abs(col[i]) * axj;
    }
  }
}

void rows_dd(std::int64_t n, const double* a, std::int64_t lda, const double* x, const double* b, std::int64_t begin,
             std::int64_t end, double* r, double* scale) {
  const std::int64_t len = end - begin;
  std::vector<trncore::dd> acc(static_cast<std::size_t>(len));
  for (std::int64_t i = begin; i < end; ++i) {
    acc[static_cast<std::size_t>(i - begin)] = trncore::dd(b[i]);
    scale[i] = std::abs(b[i]);
  }
  for (std::int64_t j = 0; j < n; ++j) {
    const double xj = x[j], axj = std::abs(x[j]);
    const double* col = a + j * lda;
    for (std::int64_t i = begin; i < end; ++i) {
      auto& s = acc[static_cast<std::size_t>(i - begin)];
      s = s - trncore::dd::from_product(col[i], xj);  // the product exactly, the sum in double-double
      scale[i] += std::abs(col[i]) * axj;
    }
  }
  for (std::int64_t i = begin; i < end; ++i) r[i] = acc[static_cast<std::size_t>(i - begin)].to_double();
}

}  // namespace

Residual residual(std::int64_t n, const double* a, std::int64_t lda, const double* x, const double* b,
                  ResidualPrecision precision, int threads, bool with_scale) {
  Residual out;
  if (!with_scale && precision == ResidualPrecision::fp64) {
    out.r.assign(b, b + n);
    trncore::Options o;
    o.threads = threads;
    if (n > 0)
      trnblas::gemv<double>(trncore::Layout::col_major, trnblas::Op::no_trans, n, n, -1.0, a, lda, x, 1, 1.0,
                            out.r.data(), 1, o);
    out.error_factor = gamma(static_cast<double>(n + 1));
    return out;
  }
  out.r.resize(static_cast<std::size_t>(n));
  out.scale.resize(static_cast<std::size_t>(n));
  constexpr std::int64_t kRowsPerTask = 256;
  const std::int64_t tasks = (n + kRowsPerTask - 1) / kRowsPerTask;
  trncore::detail::parallel_for(n >= 1024 ? tasks : std::min<std::int64_t>(tasks, 1), threads, [&](std::int64_t t) {
    const std::int64_t begin = n >= 1024 ? t * kRowsPerTask : 0;
    const std::int64_t end = n >= 1024 ? std::min(n, begin + kRowsPerTask) : n;
    if (precision == ResidualPrecision::fp64)
      rows_fp64(n, a, lda, x, b, begin, end, out.r.data(), out.scale.data());
    else
      rows_dd(n, a, lda, x, b, begin, end, out.r.data(), out.scale.data());
  });
  // |A||x| + |b| is a sum of n+1 non-negative products: the computed value times 1 + γ_{n+1} bounds it.
  const double up = 1.0 + gamma(static_cast<double>(n + 1));
  for (double& s : out.scale) s *= up;
  out.error_factor = precision == ResidualPrecision::fp64 ? gamma(static_cast<double>(n + 1))
                                                          : 4.0 * static_cast<double>(n + 2) * kU * kU;
  return out;
}

}  // namespace trnsolver::detail
