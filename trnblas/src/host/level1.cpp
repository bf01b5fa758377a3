// BLAS level 1 on the host: the shared checks, then one CBLAS call.
#include "../checks.hpp"
#include "cblas_args.hpp"

#include <trnblas/level1.hpp>
#include <trncore/error.hpp>

#include <cblas.h>

#include <complex>
#include <cstdint>
#include <string>

namespace trnblas {

namespace {

using namespace detail;

// The checks every routine on one or two vectors of n elements runs first.
template <class T>
void check_start(const char* function, std::int64_t n, const trncore::Options& options) {
  check_host_call<T>(function, {{"n", n}}, options);
}

template <class T>
void check_x(const char* function, std::int64_t n, const T* x, std::int64_t incx) {
  check_vector(function, "x", n, x, incx, sizeof(T));
  check_blasint(function, {{"n", n}, {"incx", incx}});
}

// Both vectors; when the routine writes (y, or x and y), they must not share storage.
template <class T>
void check_xy(const char* function, std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy,
              bool writes) {
  check_vector(function, "x", n, x, incx, sizeof(T));
  check_vector(function, "y", n, y, incy, sizeof(T));
  check_blasint(function, {{"n", n}, {"incx", incx}, {"incy", incy}});
  if (writes)
    check_no_overlap(function, "y", vector_region(y, n, incy, sizeof(T)), "x", vector_region(x, n, incx, sizeof(T)));
}

// A single vector's elements are the same set for inc and −inc; the routines whose result does not depend
// on their order get |inc| (OpenBLAS, like reference BLAS, returns without computing for inc < 0).
std::int64_t magnitude(std::int64_t inc) { return inc < 0 ? -inc : inc; }

}  // namespace

template <class T>
void axpy(std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx, T* y, std::int64_t incy,
          const trncore::Options& options) {
  constexpr const char* f = "trnblas::axpy";
  check_start<T>(f, n, options);
  check_xy(f, n, x, incx, y, incy, true);
  if (n == 0) return;
  pick<T>(cblas_saxpy, cblas_daxpy, cblas_caxpy, cblas_zaxpy)(bi(n), scalar(alpha), x, bi(incx), y, bi(incy));
}

template <class T>
void scal(std::int64_t n, std::type_identity_t<T> alpha, T* x, std::int64_t incx, const trncore::Options& options) {
  constexpr const char* f = "trnblas::scal";
  check_start<T>(f, n, options);
  check_x(f, n, x, incx);
  if (n == 0) return;
  pick<T>(cblas_sscal, cblas_dscal, cblas_cscal, cblas_zscal)(bi(n), scalar(alpha), x, bi(magnitude(incx)));
}

template <class T>
void copy(std::int64_t n, const T* x, std::int64_t incx, T* y, std::int64_t incy, const trncore::Options& options) {
  constexpr const char* f = "trnblas::copy";
  check_start<T>(f, n, options);
  check_xy(f, n, x, incx, y, incy, true);
  if (n == 0) return;
  pick<T>(cblas_scopy, cblas_dcopy, cblas_ccopy, cblas_zcopy)(bi(n), x, bi(incx), y, bi(incy));
}

template <class T>
void swap(std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy, const trncore::Options& options) {
  constexpr const char* f = "trnblas::swap";
  check_start<T>(f, n, options);
  check_xy<T>(f, n, x, incx, y, incy, true);
  if (n == 0) return;
  pick<T>(cblas_sswap, cblas_dswap, cblas_cswap, cblas_zswap)(bi(n), x, bi(incx), y, bi(incy));
}

template <class T>
requires std::is_floating_point_v<T> T dot(std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy,
                                           const trncore::Options& options) {
  constexpr const char* f = "trnblas::dot";
  check_start<T>(f, n, options);
  check_xy<T>(f, n, x, incx, y, incy, false);
  if (n == 0) return T(0);
  if constexpr (std::is_same_v<T, float>)
    return cblas_sdot(bi(n), x, bi(incx), y, bi(incy));
  else
    return cblas_ddot(bi(n), x, bi(incx), y, bi(incy));
}

namespace {

template <class T>
T complex_dot(const char* f, bool conjugate, std::int64_t n, const T* x, std::int64_t incx, const T* y,
              std::int64_t incy, const trncore::Options& options) {
  check_start<T>(f, n, options);
  check_xy<T>(f, n, x, incx, y, incy, false);
  T result(0);
  if (n == 0) return result;
  // The _sub forms return through a pointer: no dependence on how the library returns a C complex.
  if constexpr (std::is_same_v<T, std::complex<float>>)
    (conjugate ? cblas_cdotc_sub : cblas_cdotu_sub)(bi(n), x, bi(incx), y, bi(incy), &result);
  else
    (conjugate ? cblas_zdotc_sub : cblas_zdotu_sub)(bi(n), x, bi(incx), y, bi(incy), &result);
  return result;
}

}  // namespace

template <class T>
requires is_complex_v<T> T dotu(std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy,
                                const trncore::Options& options) {
  return complex_dot("trnblas::dotu", false, n, x, incx, y, incy, options);
}

template <class T>
requires is_complex_v<T> T dotc(std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy,
                                const trncore::Options& options) {
  return complex_dot("trnblas::dotc", true, n, x, incx, y, incy, options);
}

template <class T>
real_type<T> nrm2(std::int64_t n, const T* x, std::int64_t incx, const trncore::Options& options) {
  constexpr const char* f = "trnblas::nrm2";
  check_start<T>(f, n, options);
  check_x(f, n, x, incx);
  if (n == 0) return 0;
  return pick<T>(cblas_snrm2, cblas_dnrm2, cblas_scnrm2, cblas_dznrm2)(bi(n), x, bi(magnitude(incx)));
}

template <class T>
real_type<T> asum(std::int64_t n, const T* x, std::int64_t incx, const trncore::Options& options) {
  constexpr const char* f = "trnblas::asum";
  check_start<T>(f, n, options);
  check_x(f, n, x, incx);
  if (n == 0) return 0;
  return pick<T>(cblas_sasum, cblas_dasum, cblas_scasum, cblas_dzasum)(bi(n), x, bi(magnitude(incx)));
}

template <class T>
std::int64_t iamax(std::int64_t n, const T* x, std::int64_t incx, const trncore::Options& options) {
  constexpr const char* f = "trnblas::iamax";
  check_start<T>(f, n, options);
  check_x(f, n, x, incx);
  if (incx < 0)
    throw trncore::InvalidArgument(f, "incx = " + std::to_string(incx) + " is negative",
                                   "pass incx > 0 (BLAS defines no index order for a negative increment)");
  if (n == 0) return -1;
  return static_cast<std::int64_t>(pick<T>(cblas_isamax, cblas_idamax, cblas_icamax, cblas_izamax)(bi(n), x, bi(incx)));
}

template <class T>
void rot(std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy, real_type<T> c, real_type<T> s,
         const trncore::Options& options) {
  constexpr const char* f = "trnblas::rot";
  check_start<T>(f, n, options);
  check_xy<T>(f, n, x, incx, y, incy, true);
  if (n == 0) return;
  pick<T>(cblas_srot, cblas_drot, cblas_csrot, cblas_zdrot)(bi(n), x, bi(incx), y, bi(incy), c, s);
}

template <class T>
void rotg(T* a, T* b, real_type<T>* c, T* s, const trncore::Options& options) {
  constexpr const char* f = "trnblas::rotg";
  check_host_options(f, options, is_double_precision<T>);
  const char* null = a == nullptr ? "a" : b == nullptr ? "b" : c == nullptr ? "c" : s == nullptr ? "s" : nullptr;
  if (null != nullptr)
    throw trncore::InvalidArgument(f, std::string(null) + " is null", "pass the addresses of a, b, c and s");
  pick<T>(cblas_srotg, cblas_drotg, cblas_crotg, cblas_zrotg)(a, b, c, s);
}

#define TRNBLAS_LEVEL1(T)                                                                                    \
  template void axpy<T>(std::int64_t, T, const T*, std::int64_t, T*, std::int64_t, const trncore::Options&); \
  template void scal<T>(std::int64_t, T, T*, std::int64_t, const trncore::Options&);                         \
  template void copy<T>(std::int64_t, const T*, std::int64_t, T*, std::int64_t, const trncore::Options&);    \
  template void swap<T>(std::int64_t, T*, std::int64_t, T*, std::int64_t, const trncore::Options&);          \
  template real_type<T> nrm2<T>(std::int64_t, const T*, std::int64_t, const trncore::Options&);              \
  template real_type<T> asum<T>(std::int64_t, const T*, std::int64_t, const trncore::Options&);              \
  template std::int64_t iamax<T>(std::int64_t, const T*, std::int64_t, const trncore::Options&);             \
  template void rot<T>(std::int64_t, T*, std::int64_t, T*, std::int64_t, real_type<T>, real_type<T>,         \
                       const trncore::Options&);                                                             \
  template void rotg<T>(T*, T*, real_type<T>*, T*, const trncore::Options&);
TRNBLAS_LEVEL1(float)
TRNBLAS_LEVEL1(double)
TRNBLAS_LEVEL1(std::complex<float>)
TRNBLAS_LEVEL1(std::complex<double>)
#undef TRNBLAS_LEVEL1

template float dot<float>(std::int64_t, const float*, std::int64_t, const float*, std::int64_t,
                          const trncore::Options&);
template double dot<double>(std::int64_t, const double*, std::int64_t, const double*, std::int64_t,
                            const trncore::Options&);
#define TRNBLAS_COMPLEX_DOT(T)                                                                               \
  template T dotu<T>(std::int64_t, const T*, std::int64_t, const T*, std::int64_t, const trncore::Options&); \
  template T dotc<T>(std::int64_t, const T*, std::int64_t, const T*, std::int64_t, const trncore::Options&);
TRNBLAS_COMPLEX_DOT(std::complex<float>)
TRNBLAS_COMPLEX_DOT(std::complex<double>)
#undef TRNBLAS_COMPLEX_DOT

}  // namespace trnblas
