#pragma once
// trnblas's enums and int64 sizes as CBLAS arguments. Only after the checks: the casts to blasint are
// exact because check_blasint has rejected every value outside its range.
#include <trnblas/types.hpp>

#include <cblas.h>

#include <complex>
#include <cstdint>
#include <type_traits>

namespace trnblas::detail {

inline CBLAS_ORDER cblas_order(Layout layout) { return layout == Layout::row_major ? CblasRowMajor : CblasColMajor; }
inline CBLAS_TRANSPOSE cblas_trans(Op op) {
  return op == Op::no_trans ? CblasNoTrans : op == Op::trans ? CblasTrans : CblasConjTrans;
}
inline CBLAS_UPLO cblas_uplo(Uplo uplo) { return uplo == Uplo::upper ? CblasUpper : CblasLower; }
inline CBLAS_DIAG cblas_diag(Diag diag) { return diag == Diag::unit ? CblasUnit : CblasNonUnit; }
inline CBLAS_SIDE cblas_side(Side side) { return side == Side::left ? CblasLeft : CblasRight; }
inline blasint bi(std::int64_t v) { return static_cast<blasint>(v); }

}  // namespace trnblas::detail

namespace trnblas::detail {

/// The CBLAS function of T's precision: pick<T>(cblas_saxpy, cblas_daxpy, cblas_caxpy, cblas_zaxpy).
template <class T, class S, class D, class C, class Z>
constexpr auto pick(S s, D d, C c, Z z) {
  if constexpr (std::is_same_v<T, float>)
    return s;
  else if constexpr (std::is_same_v<T, double>)
    return d;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return c;
  else
    return z;
}

/// A scalar as CBLAS takes it: real ones by value, complex ones by address (which lives as long as the
/// caller's argument, i.e. for the whole call).
template <class T>
auto scalar(const T& v) {
  if constexpr (is_complex_v<T>)
    return static_cast<const void*>(&v);
  else
    return v;
}

}  // namespace trnblas::detail
