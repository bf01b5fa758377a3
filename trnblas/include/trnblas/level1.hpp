#pragma once
/// @file
/// BLAS level 1: vector-vector operations on the host backend (OpenBLAS CBLAS), BLAS++ calling style.
///
/// Conventions shared by every routine here (docs/trnblas.md, "Host BLAS"):
/// - T is float, double, std::complex<float> or std::complex<double>; scalars are not deduced (pass 2 or
///   2.0 for any T), the type comes from the pointers.
/// - A vector is n elements at x with increment incx ≠ 0; with incx < 0 the elements are taken backwards,
///   x pointing at the lowest address (element i is x[(n − 1 − i)·|incx|]), as in BLAS.
/// - Errors (always checked, trncore exceptions, messages "<function>: <values>: <fix>"):
///   InvalidArgument for negative n, incx = 0, a null pointer with n > 0, an extent beyond int64, or a
///   written vector sharing storage with a read one; NotSupported for sizes or increments beyond
///   OpenBLAS's 32-bit integers, for options.backend = sim (the sim backend models gemm only), a math mode
///   other than automatic or the data's own precision, or a target_forward_error (only gemm certifies
///   one). options.threads is ignored on the host (OpenBLAS's own thread pool runs the call).
/// - Accuracy: the bounds stated are the standard rounding-error bounds (Higham, Accuracy and Stability
///   of Numerical Algorithms, 2nd ed., ch. 3), γ_n = n·u/(1 − n·u), u = 2^-24 (float) or 2^-53
///   (double); for complex data u is replaced by 4u, which covers a complex product's √2·γ₂ (§3.6).

#include <trnblas/detail/view_checks.hpp>
#include <trnblas/types.hpp>
#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <type_traits>

namespace trnblas {

/// y := alpha·x + y (n elements). Accuracy: componentwise |ŷ − y| ≤ γ₂·(|alpha||x| + |y|).
/// @throws as the file header says; y overlapping x is InvalidArgument.
template <class T>
void axpy(std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx, T* y, std::int64_t incy,
          const trncore::Options& options = {});

/// x := alpha·x. Accuracy: componentwise |x̂ − alpha·x| ≤ γ₁·|alpha||x|. incx < 0 scales the same
/// elements as |incx|.
template <class T>
void scal(std::int64_t n, std::type_identity_t<T> alpha, T* x, std::int64_t incx, const trncore::Options& options = {});

/// y := x. Exact. @throws InvalidArgument when y overlaps x.
template <class T>
void copy(std::int64_t n, const T* x, std::int64_t incx, T* y, std::int64_t incy, const trncore::Options& options = {});

/// Exchanges x and y. Exact. @throws InvalidArgument when x and y overlap.
template <class T>
void swap(std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy, const trncore::Options& options = {});

/// xᵀy for real data (for complex data use dotu or dotc). n = 0 gives 0.
/// Accuracy: |result − xᵀy| ≤ γ_n·|x|ᵀ|y| (Higham §3.1).
template <class T>
requires std::is_floating_point_v<T> T dot(std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy,
                                           const trncore::Options& options = {});

/// xᵀy (unconjugated) for complex data. Accuracy: |result − xᵀy| ≤ γ_n·|x|ᵀ|y| with 4u for u.
template <class T>
requires is_complex_v<T> T dotu(std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy,
                                const trncore::Options& options = {});

/// xᴴy (x conjugated) for complex data. Accuracy: |result − xᴴy| ≤ γ_n·|x|ᵀ|y| with 4u for u.
template <class T>
requires is_complex_v<T> T dotc(std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy,
                                const trncore::Options& options = {});

/// ‖x‖₂ (0 for n = 0). Accuracy: relative error ≤ γ_{n+1} (a working-precision sum of squares and one
/// square root; OpenBLAS's x86-64 kernels accumulate in a wider format, which only tightens this).
template <class T>
real_type<T> nrm2(std::int64_t n, const T* x, std::int64_t incx, const trncore::Options& options = {});

/// Σ|x_i| for real data, Σ(|Re x_i| + |Im x_i|) for complex data (the BLAS definition, not the 1-norm).
/// Accuracy: relative error ≤ γ_{n−1} (real), γ_{2n−1} (complex): a sum of nonnegative terms.
template <class T>
real_type<T> asum(std::int64_t n, const T* x, std::int64_t incx, const trncore::Options& options = {});

/// The 0-based index of the first element of largest |x_i| (real) or |Re x_i| + |Im x_i| (complex), as
/// in CBLAS; -1 when n = 0. Exact. Requires incx > 0: BLAS defines no order for a negative increment here
/// (reference BLAS returns 0 without looking), so incx < 0 is InvalidArgument rather than a guess.
template <class T>
std::int64_t iamax(std::int64_t n, const T* x, std::int64_t incx, const trncore::Options& options = {});

/// Plane rotation of the pairs (x_i, y_i): x_i := c·x_i + s·y_i, y_i := c·y_i − s·x_i, with real c and s
/// (for complex data: OpenBLAS ?srot/?drot). Accuracy: componentwise error ≤ γ₂·(|c||x_i| + |s||y_i|)
/// resp. γ₂·(|c||y_i| + |s||x_i|). @throws InvalidArgument when x and y overlap.
template <class T>
void rot(std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy, real_type<T> c, real_type<T> s,
         const trncore::Options& options = {});

/// Constructs the plane rotation that zeroes b: [c s; −conj(s) c]·[a; b] = [r; 0] with c real. On return
/// *a = r, *c and *s hold the rotation; for real data *b holds BLAS's reconstruction value z, for complex
/// data *b is unchanged. Signs follow BLAS (r takes the sign of the larger of a, b for real data; a/|a|
/// for complex data, r = b when a = 0). Accuracy: c, s, r each within a small multiple of u of the
/// exact rotation of the given a, b (no cancellation: r² is a sum of squares).
/// @throws InvalidArgument when a pointer is null.
template <class T>
void rotg(T* a, T* b, real_type<T>* c, T* s, const trncore::Options& options = {});

// ---- View forms (DESIGN.md §5.1): thin forwards to the pointer forms above. ----

/// y := alpha·x + y on views. @throws DimensionMismatch when the sizes differ; else as the pointer form.
template <class X, class T>
void axpy(std::type_identity_t<T> alpha, trncore::VectorView<X> x, trncore::VectorView<T> y,
          const trncore::Options& options = {}) {
  static_assert(std::is_same_v<std::remove_const_t<X>, T>, "trnblas::axpy: x and y must hold the same type");
  detail::check_same_size("trnblas::axpy", "x", x.size(), "y", y.size());
  axpy<T>(y.size(), alpha, x.data(), x.inc(), y.data(), y.inc(), options);
}

/// xᵀy of two real views, xᴴy (dotc) of two complex ones, as BLAS++'s dot.
/// @throws DimensionMismatch when the sizes differ; else as the pointer form.
template <class X, class Y>
std::remove_const_t<X> dot(trncore::VectorView<X> x, trncore::VectorView<Y> y, const trncore::Options& options = {}) {
  using T = std::remove_const_t<X>;
  static_assert(std::is_same_v<std::remove_const_t<Y>, T>, "trnblas::dot: x and y must hold the same type");
  detail::check_same_size("trnblas::dot", "x", x.size(), "y", y.size());
  if constexpr (is_complex_v<T>)
    return dotc<T>(x.size(), x.data(), x.inc(), y.data(), y.inc(), options);
  else
    return dot<T>(x.size(), x.data(), x.inc(), y.data(), y.inc(), options);
}

/// ‖x‖₂ of a view.
template <class X>
real_type<std::remove_const_t<X>> nrm2(trncore::VectorView<X> x, const trncore::Options& options = {}) {
  return nrm2<std::remove_const_t<X>>(x.size(), x.data(), x.inc(), options);
}

}  // namespace trnblas
