// The symbols of reference BLAS/CBLAS 3.11 (Debian's libblas.so.3) that OpenBLAS does not export, so the
// drop-in library exports the reference's complete set:
// - the Fortran helper subroutines of reference CBLAS (sdotsub_ … dcabs1sub_): a BLAS function's value
//   returned through the last argument; here they call OpenBLAS's function;
// - cblas_scabs1 / cblas_dcabs1: |Re z| + |Im z|;
// - RowMajorStrg and CBLAS_CallFromC, reference CBLAS's error-reporting state. This library's CBLAS
//   routines report bad arguments through OpenBLAS (xerbla_), so it never sets them; they exist so programs
//   built against reference CBLAS that name them (Debian's CBLAS test programs) load.
#include "openblas.hpp"

#include <cmath>
#include <complex>

namespace {

template <class F>
F real_function(const char* name) {
  return reinterpret_cast<F>(trnblas::dropin::openblas_symbol(name));
}

using cf = std::complex<float>;
using cd = std::complex<double>;

// The Fortran BLAS functions the helpers call (gfortran ABI: arguments by reference, COMPLEX results by value).
template <class R, class X>
using Dot = R (*)(const int*, const X*, const int*, const X*, const int*);
template <class R, class X>
using Norm = R (*)(const int*, const X*, const int*);

}  // namespace

extern "C" {

void sdotsub_(const int* n, const float* x, const int* incx, const float* y, const int* incy, float* dot) {
  static const auto f = real_function<Dot<float, float>>("sdot_");
  *dot = f(n, x, incx, y, incy);
}
void ddotsub_(const int* n, const double* x, const int* incx, const double* y, const int* incy, double* dot) {
  static const auto f = real_function<Dot<double, double>>("ddot_");
  *dot = f(n, x, incx, y, incy);
}
void sdsdotsub_(const int* n, const float* sb, const float* x, const int* incx, const float* y, const int* incy,
                float* dot) {
  using F = float (*)(const int*, const float*, const float*, const int*, const float*, const int*);
  static const auto f = real_function<F>("sdsdot_");
  *dot = f(n, sb, x, incx, y, incy);
}
void dsdotsub_(const int* n, const float* x, const int* incx, const float* y, const int* incy, double* dot) {
  static const auto f = real_function<Dot<double, float>>("dsdot_");
  *dot = f(n, x, incx, y, incy);
}
void cdotusub_(const int* n, const cf* x, const int* incx, const cf* y, const int* incy, cf* dot) {
  static const auto f = real_function<Dot<cf, cf>>("cdotu_");
  *dot = f(n, x, incx, y, incy);
}
void cdotcsub_(const int* n, const cf* x, const int* incx, const cf* y, const int* incy, cf* dot) {
  static const auto f = real_function<Dot<cf, cf>>("cdotc_");
  *dot = f(n, x, incx, y, incy);
}
void zdotusub_(const int* n, const cd* x, const int* incx, const cd* y, const int* incy, cd* dot) {
  static const auto f = real_function<Dot<cd, cd>>("zdotu_");
  *dot = f(n, x, incx, y, incy);
}
void zdotcsub_(const int* n, const cd* x, const int* incx, const cd* y, const int* incy, cd* dot) {
  static const auto f = real_function<Dot<cd, cd>>("zdotc_");
  *dot = f(n, x, incx, y, incy);
}
void snrm2sub_(const int* n, const float* x, const int* incx, float* r) {
  static const auto f = real_function<Norm<float, float>>("snrm2_");
  *r = f(n, x, incx);
}
void dnrm2sub_(const int* n, const double* x, const int* incx, double* r) {
  static const auto f = real_function<Norm<double, double>>("dnrm2_");
  *r = f(n, x, incx);
}
void scnrm2sub_(const int* n, const cf* x, const int* incx, float* r) {
  static const auto f = real_function<Norm<float, cf>>("scnrm2_");
  *r = f(n, x, incx);
}
void dznrm2sub_(const int* n, const cd* x, const int* incx, double* r) {
  static const auto f = real_function<Norm<double, cd>>("dznrm2_");
  *r = f(n, x, incx);
}
void sasumsub_(const int* n, const float* x, const int* incx, float* r) {
  static const auto f = real_function<Norm<float, float>>("sasum_");
  *r = f(n, x, incx);
}
void dasumsub_(const int* n, const double* x, const int* incx, double* r) {
  static const auto f = real_function<Norm<double, double>>("dasum_");
  *r = f(n, x, incx);
}
void scasumsub_(const int* n, const cf* x, const int* incx, float* r) {
  static const auto f = real_function<Norm<float, cf>>("scasum_");
  *r = f(n, x, incx);
}
void dzasumsub_(const int* n, const cd* x, const int* incx, double* r) {
  static const auto f = real_function<Norm<double, cd>>("dzasum_");
  *r = f(n, x, incx);
}
void isamaxsub_(const int* n, const float* x, const int* incx, int* r) {
  static const auto f = real_function<Norm<int, float>>("isamax_");
  *r = f(n, x, incx);
}
void idamaxsub_(const int* n, const double* x, const int* incx, int* r) {
  static const auto f = real_function<Norm<int, double>>("idamax_");
  *r = f(n, x, incx);
}
void icamaxsub_(const int* n, const cf* x, const int* incx, int* r) {
  static const auto f = real_function<Norm<int, cf>>("icamax_");
  *r = f(n, x, incx);
}
void izamaxsub_(const int* n, const cd* x, const int* incx, int* r) {
  static const auto f = real_function<Norm<int, cd>>("izamax_");
  *r = f(n, x, incx);
}
void scabs1sub_(const cf* z, float* r) {
  static const auto f = real_function<float (*)(const cf*)>("scabs1_");
  *r = f(z);
}
void dcabs1sub_(const cd* z, double* r) {
  static const auto f = real_function<double (*)(const cd*)>("dcabs1_");
  *r = f(z);
}

float cblas_scabs1(const void* z) {
  const float* v = static_cast<const float*>(z);
  return std::fabs(v[0]) + std::fabs(v[1]);
}
double cblas_dcabs1(const void* z) {
  const double* v = static_cast<const double*>(z);
  return std::fabs(v[0]) + std::fabs(v[1]);
}

int RowMajorStrg = 0;
int CBLAS_CallFromC = 0;

}  // extern "C"
