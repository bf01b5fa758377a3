#pragma once
// What the sim backend's dense routines share: the checks beyond the host's sizes and storage (float data,
// no target_forward_error), and moves between the caller's matrices (either layout, any leading dimension)
// and the dense column-major fp32 copies (leading dimension = rows) the sim algorithms work on.

#include "dense/common.hpp"

#include <trncore/error.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace trnsolver::detail {

/// @throws NotSupported for double data or a target_forward_error; InvalidArgument for invalid options.
template <class T>
inline void check_sim(const char* f, const trncore::Options& options) {
  trncore::validate(options, f);
  if constexpr (!std::is_same_v<T, float>)
    throw trncore::NotSupported(f, "the sim backend factors float data only (the TensorEngine has no fp64)",
                                "pass float data, or use trnsolver::solve with a bf16/fp32 factorization and fp64 "
                                "refinement for double systems");
  if (options.target_forward_error)
    throw trncore::NotSupported(f, "target_forward_error on a factorization",
                                "use trnsolver::solve, which certifies the solution");
}

// The sim factorizations work on dense column-major fp32 copies (leading dimension = rows); these move a
// matrix, or one triangle of it, between the caller's storage and such a copy.

// Element (i, j) of the caller's matrix.
template <class T>
inline T& element(Layout layout, T* a, std::int64_t lda, std::int64_t i, std::int64_t j) {
  return layout == Layout::row_major ? a[i * lda + j] : a[i + j * lda];
}

inline std::vector<float> to_col_major(Layout layout, std::int64_t m, std::int64_t n, const float* a,
                                       std::int64_t lda) {
  std::vector<float> w(static_cast<std::size_t>(m * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) w[static_cast<std::size_t>(i + j * m)] = element(layout, a, lda, i, j);
  return w;
}

inline void from_col_major(Layout layout, std::int64_t m, std::int64_t n, const std::vector<float>& w, float* a,
                           std::int64_t lda) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) element(layout, a, lda, i, j) = w[static_cast<std::size_t>(i + j * m)];
}

// The `uplo` triangle of the n×n A as the lower triangle of a column-major copy (zero above), and back
// (uplo = upper: the copy's L lands as U = Lᵀ).
inline std::vector<float> lower_triangle(Layout layout, Uplo uplo, std::int64_t n, const float* a, std::int64_t lda) {
  std::vector<float> w(static_cast<std::size_t>(n * n), 0.0f);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i)
      w[static_cast<std::size_t>(i + j * n)] =
          uplo == Uplo::lower ? element(layout, a, lda, i, j) : element(layout, a, lda, j, i);
  return w;
}

inline void store_lower_triangle(Layout layout, Uplo uplo, std::int64_t n, const std::vector<float>& w, float* a,
                                 std::int64_t lda) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i)
      (uplo == Uplo::lower ? element(layout, a, lda, i, j) : element(layout, a, lda, j, i)) =
          w[static_cast<std::size_t>(i + j * n)];
}

}  // namespace trnsolver::detail
