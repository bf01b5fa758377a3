#pragma once
// What the sim eigensolvers share around their algorithms: the argument checks, the symmetric working copy
// of A's lower triangle, and the eigenpairs written out in ascending order.

#include <trnsolver/jacobi.hpp>

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace trnsolver::detail {

/// The checks both eigensolvers make. @throws as eigh_jacobi documents.
template <class T>
void check_symmetric_eigen_call(const char* function, trncore::Layout layout, std::int64_t n, const T* a,
                                std::int64_t lda, const T* w, const T* v, std::int64_t ldv,
                                const JacobiOptions& options) {
  if (layout != trncore::Layout::row_major && layout != trncore::Layout::col_major)
    throw trncore::InvalidArgument(function, "layout has the invalid value " + std::to_string(static_cast<int>(layout)),
                                   "pass trncore::Layout::row_major or col_major");
  if (n < 0) throw trncore::InvalidArgument(function, "n = " + std::to_string(n), "pass n >= 0");
  trncore::detail::check_matrix(function, n, n, lda, layout, a == nullptr);
  if (options.vectors) trncore::detail::check_matrix(function, n, n, ldv, layout, v == nullptr);
  if (n > 0 && w == nullptr) throw trncore::InvalidArgument(function, "w is null", "pass an array of n eigenvalues");
  trncore::validate(options, function);
  if (options.target_forward_error)
    throw trncore::NotSupported(function,
                                "target_forward_error = " + trncore::detail::sci(*options.target_forward_error) +
                                    " is not certified by this eigensolver (its accuracy statement is fixed)",
                                "leave target_forward_error unset");
}

/// A's lower triangle as a full symmetric n×n row-major matrix in the working type W.
/// @throws trncore::InvalidArgument naming the first non-finite entry.
template <class W, class T>
std::vector<W> symmetric_copy(const char* function, trncore::Layout layout, std::int64_t n, const T* a,
                              std::int64_t lda) {
  const auto N = static_cast<std::size_t>(n);
  std::vector<W> out(N * N);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      const T x = layout == trncore::Layout::row_major ? a[i * lda + j] : a[i + j * lda];
      if (!std::isfinite(x))
        throw trncore::InvalidArgument(function,
                                       "A(" + std::to_string(i) + ", " + std::to_string(j) + ") is not finite",
                                       "pass a matrix of finite values");
      out[static_cast<std::size_t>(i) * N + static_cast<std::size_t>(j)] =
          out[static_cast<std::size_t>(j) * N + static_cast<std::size_t>(i)] = static_cast<W>(x);
    }
  return out;
}

/// w = the eigenvalues `lambda` in ascending order; with vectors (z row-major n×n, column k the vector of
/// lambda[k]) the columns of V (in `layout`, leading dimension ldv) in the same order.
template <class W, class T>
void write_sorted(trncore::Layout layout, std::int64_t n, const std::vector<W>& lambda, const std::vector<W>& z, T* w,
                  T* v, std::int64_t ldv) {
  const auto N = static_cast<std::size_t>(n);
  std::vector<std::size_t> order(N);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return lambda[x] < lambda[y]; });
  for (std::size_t k = 0; k < N; ++k) w[k] = static_cast<T>(lambda[order[k]]);
  if (z.empty()) return;
  for (std::size_t k = 0; k < N; ++k)
    for (std::size_t i = 0; i < N; ++i) {
      const auto I = static_cast<std::int64_t>(i), K = static_cast<std::int64_t>(k);
      (layout == trncore::Layout::row_major ? v[I * ldv + K] : v[I + K * ldv]) = static_cast<T>(z[i * N + order[k]]);
    }
}

}  // namespace trnsolver::detail
