// sytrf on the sim backend: the blocked Bunch–Kaufman LDLᵀ of src/sim/blocked_bunch_kaufman_ldlt (fp32 panels, GEMM trailing updates).
// It factors a lower triangle; uplo = upper runs it on B = J·A·J (J the reversal permutation), whose lower
// triangle is A's upper one read backwards: B = L'·D'·L'ᵀ gives A = (J·L'·J)·(J·D'·J)·(J·L'·J)ᵀ with J·L'·J
// unit upper — LAPACK's upper format, which walks the matrix from the bottom with the same pivoting rule —
// and a step of B at k' (interchanging k' + s − 1 with p') is A's step ending at n−1−k' (interchanging its
// first row n−1−(k'+s−1) with n−1−p').
#include "sim/dense_routines.hpp"
#include "sim/dense_storage.hpp"

#include "sim/blocked_bunch_kaufman_ldlt.hpp"

#include <vector>

namespace trnsolver::detail {

template <class T>
std::int64_t sim_sytrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                       const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sytrf";
  check_sizes(f, {{"n", n}});
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  trncore::detail::check_pointer(f, "ipiv", ipiv, n);
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    const auto N = static_cast<std::size_t>(n);
    const bool lower = uplo == Uplo::lower;
    // The working lower triangle: A's (lower), or B(i', j') = A(n−1−i', n−1−j') (upper).
    const auto source = [&](std::int64_t i, std::int64_t j) -> T& {
      return lower ? element(layout, a, lda, i, j) : element(layout, a, lda, n - 1 - i, n - 1 - j);
    };
    std::vector<float> w(N * N, 0.0f);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) w[static_cast<std::size_t>(i + j * n)] = source(i, j);
    std::vector<std::int64_t> piv(N);
    const std::int64_t info = blocked_ldlt(n, w.data(), n, piv.data(), options);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) source(i, j) = w[static_cast<std::size_t>(i + j * n)];
    if (lower) {
      for (std::int64_t i = 0; i < n; ++i) ipiv[i] = piv[static_cast<std::size_t>(i)];
      return info;
    }
    for (std::int64_t k = 0; k < n; ++k) {
      const std::int64_t p = piv[static_cast<std::size_t>(k)];
      const std::int64_t mapped = n - (p < 0 ? -p : p) + 1;  // 1-based row n−1−(|p|−1)
      ipiv[n - 1 - k] = p < 0 ? -mapped : mapped;
    }
    // The first zero pivot counted from the bottom is LAPACK's upper info (the first step that met it).
    return info == 0 ? 0 : n - info + 1;
  } else {
    return 0;  // unreachable: check_sim threw
  }
}

template std::int64_t sim_sytrf<float>(Layout, Uplo, std::int64_t, float*, std::int64_t, std::int64_t*,
                                       const trncore::Options&);
template std::int64_t sim_sytrf<double>(Layout, Uplo, std::int64_t, double*, std::int64_t, std::int64_t*,
                                        const trncore::Options&);

}  // namespace trnsolver::detail
