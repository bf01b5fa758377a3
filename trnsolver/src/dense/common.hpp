#pragma once
// What every dense routine shares: the argument checks beyond the suite's vocabulary of
// <trncore/detail/checks.hpp> (DESIGN.md §5.3: always on, one wording) — LAPACK's 32-bit range, the options a
// host routine accepts, a leading dimension named by the size it must cover — the int64 → lapack_int
// narrowing after them, LAPACKE's enums as characters, and workspace queries. The generic checks
// (check_pointer, check_span, check_square, check_nonnegative) are trncore::detail's, called directly.

#include <trnsolver/dense.hpp>

#include <trncore/detail/checks.hpp>
#include <trncore/error.hpp>

#include <lapacke.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace trnsolver::detail {

/// A size with the name the caller knows it by ("m", "nrhs", "max(m, n)").
using Dim = trncore::detail::Named;

/// @throws InvalidArgument listing every size when any is negative (trncore::detail::check_nonnegative);
///         NotSupported when one exceeds LAPACK's 32-bit integers.
void check_sizes(const char* f, std::initializer_list<Dim> sizes);

/// Everything a host dense routine requires of its options: valid, Backend::host, math mode automatic or
/// T's precision, no target_forward_error.
void check_options(const char* f, const trncore::Options& options, bool double_precision);

template <class T>
void check_call(const char* f, std::initializer_list<Dim> sizes, const trncore::Options& options) {
  check_sizes(f, sizes);
  check_options(f, options, std::is_same_v<T, double>);
}

/// A rows×cols matrix `name` at p with leading dimension `ld` (called "ld<name>"): the layout's value, ld
/// against the size it must cover, named ("lda = 3 is below n = 5 for a row-major 4x5 matrix: pass lda >= 5"),
/// then trncore::detail::check_matrix (null storage, an extent beyond int64) and LAPACK's 32-bit range.
/// @throws InvalidArgument for an invalid layout, a null p with rows, cols > 0 or an extent beyond int64;
///         DimensionMismatch for a short ld; NotSupported for ld beyond 32-bit.
void check_matrix(const char* f, const char* name, trncore::Layout layout, Dim rows, Dim cols, const void* p,
                  std::int64_t ld, std::size_t elem);

/// @throws DimensionMismatch when a view's layout differs from the first one's.
void check_layouts(const char* f, std::initializer_list<std::pair<const char*, trncore::Layout>> views);

/// @throws DimensionMismatch "<name>'s rows = <have> but <what> = <need>" (trncore::detail::check_equal).
void check_extent(const char* f, const char* name, const char* which, std::int64_t have, Dim need);

/// The checks of an m×n factorization that writes min(m, n) pivots or scalars to `out` (getrf's ipiv,
/// geqrf's tau): options and sizes (check_call), A's storage, then `out`. Returns k = min(m, n).
template <class T>
std::int64_t check_factorization(const char* f, trncore::Layout layout, std::int64_t m, std::int64_t n, const T* a,
                                 std::int64_t lda, const char* out_name, const void* out,
                                 const trncore::Options& options);

/// The storage of an SVD (gesdd, host and sim): A m×n, s (min(m, n) entries), and U, Vᵀ as `job` asks (thin:
/// m×k and k×n; full: m×m and n×n; values_only: not referenced). The caller checked sizes, options and job.
template <class T>
void check_svd_storage(const char* f, trncore::Layout layout, Job job, std::int64_t m, std::int64_t n, const T* a,
                       std::int64_t lda, const T* s, const T* u, std::int64_t ldu, const T* vt, std::int64_t ldvt);

/// @throws InvalidArgument naming the first non-finite entry of the matrix (only the `uplo` triangle when
///         `triangle` is set), for the routines that iterate (SVD, eigensolvers, Schur).
template <class T>
void check_finite(const char* f, const char* name, trncore::Layout layout, std::int64_t rows, std::int64_t cols,
                  const T* a, std::int64_t ld, const Uplo* triangle = nullptr);

/// A LAPACK info < 0 after the checks is a bug of this layer, never the caller's: throws trncore::Error.
[[noreturn]] void lapack_rejected(const char* f, std::int64_t info);

/// Returns info, converting a negative one into lapack_rejected.
inline std::int64_t result(const char* f, lapack_int info) {
  if (info < 0) lapack_rejected(f, info);
  return info;
}

inline lapack_int li(std::int64_t v) { return static_cast<lapack_int>(v); }
inline int lapack_layout(trncore::Layout layout) {
  return layout == trncore::Layout::row_major ? LAPACK_ROW_MAJOR : LAPACK_COL_MAJOR;
}
inline char uplo_char(Uplo uplo) { return uplo == Uplo::upper ? 'U' : 'L'; }
inline Uplo other(Uplo uplo) { return uplo == Uplo::upper ? Uplo::lower : Uplo::upper; }
inline char trans_char(Op op) { return op == Op::no_trans ? 'N' : 'T'; }

/// The LAPACKE function of T's precision: pick<T>(LAPACKE_sgetrf_work, LAPACKE_dgetrf_work).
template <class T, class S, class D>
constexpr auto pick(S s, D d) {
  if constexpr (std::is_same_v<T, float>)
    return s;
  else
    return d;
}

/// The workspace size a LAPACK query (lwork = −1) wrote into its first work element, at least `least`.
template <class T>
std::size_t work_size(T queried, std::int64_t least = 1) {
  const auto n = static_cast<std::int64_t>(queried);
  return static_cast<std::size_t>(n > least ? n : least);
}

/// Runs a LAPACKE _work routine that takes a T and a lapack_int workspace: the size query (lwork = liwork =
/// −1), then the call with workspaces of the queried sizes. `call(work, lwork, iwork, liwork)` returns
/// LAPACK's info; the result is the call's info (negative ones through lapack_rejected).
template <class T, class Call>
std::int64_t with_workspaces(const char* f, Call call) {
  T query{};
  lapack_int iquery = 0;
  result(f, call(&query, lapack_int{-1}, &iquery, lapack_int{-1}));
  std::vector<T> work(work_size(query));
  std::vector<lapack_int> iwork(work_size(iquery));
  return result(f, call(work.data(), li(std::ssize(work)), iwork.data(), li(std::ssize(iwork))));
}

/// In-place transposition of the n×n matrix at a with leading dimension ld.
template <class T>
void transpose_square(std::int64_t n, T* a, std::int64_t ld) {
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = i + 1; j < n; ++j) std::swap(a[i * ld + j], a[j * ld + i]);
}

/// Copies the rows×cols matrix (src, lds) into (dst, ldd), both in `layout`.
template <class T>
void copy_matrix(trncore::Layout layout, std::int64_t rows, std::int64_t cols, const T* src, std::int64_t lds, T* dst,
                 std::int64_t ldd) {
  const bool rm = layout == trncore::Layout::row_major;
  const std::int64_t lines = rm ? rows : cols, len = rm ? cols : rows;
  for (std::int64_t l = 0; l < lines; ++l)
    for (std::int64_t e = 0; e < len; ++e) dst[l * ldd + e] = src[l * lds + e];
}

/// 1-based pivots as lapack_int, each checked to lie in [1, n] (getrs: garbage would index outside B).
std::vector<lapack_int> lapack_pivots(const char* f, const std::int64_t* ipiv, std::int64_t count, std::int64_t n);

}  // namespace trnsolver::detail
