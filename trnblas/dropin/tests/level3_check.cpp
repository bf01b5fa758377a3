// Checks the routed Level-3 routines — ?symm, ?syrk, ?syr2k, ?trmm for s and d (and ?gemm with the hard operands
// of issue 18; gemm_check.cpp covers its shapes), through the
// Fortran symbols (column-major) and the CBLAS ones (column- and row-major) — BLAS's alpha = 0 / beta = 0
// semantics of every routed routine, and the symbols the library implements itself (reference CBLAS's
// ?dotsub_ … helpers, cblas_?cabs1) or forwards with a COMPLEX result. `trnblas_dropin_level3_check MODE`
// with TRNBLAS_MODE (and TRNBLAS_PRODUCT_MODEL) set by ctest.
//
// Oracles: each result element against a long-double evaluation of the routine's definition, within the
// mode's documented bound for the GEMM the routine runs as (mode_bound.hpp; inner dimension K = m or n for
// symm and trmm, k for syrk, 2k for syr2k), relative to the same sum of magnitudes; the unreferenced parts
// (the other triangle of A or C, a unit diagonal, padding) hold NaN or sentinels and must be neither read nor
// written; OpenBLAS itself (opened privately), whose results host mode must reproduce bit for bit and every
// routed mode must differ from somewhere (else the call was not routed).
#include "mode_bound.hpp"

#include <trncore/detail/format_number.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using FLen = std::size_t;

extern "C" {
void ssymm_(const char*, const char*, const int*, const int*, const float*, const float*, const int*, const float*,
            const int*, const float*, float*, const int*, FLen, FLen);
void dsymm_(const char*, const char*, const int*, const int*, const double*, const double*, const int*, const double*,
            const int*, const double*, double*, const int*, FLen, FLen);
void ssyrk_(const char*, const char*, const int*, const int*, const float*, const float*, const int*, const float*,
            float*, const int*, FLen, FLen);
void dsyrk_(const char*, const char*, const int*, const int*, const double*, const double*, const int*, const double*,
            double*, const int*, FLen, FLen);
void ssyr2k_(const char*, const char*, const int*, const int*, const float*, const float*, const int*, const float*,
             const int*, const float*, float*, const int*, FLen, FLen);
void dsyr2k_(const char*, const char*, const int*, const int*, const double*, const double*, const int*, const double*,
             const int*, const double*, double*, const int*, FLen, FLen);
void strmm_(const char*, const char*, const char*, const char*, const int*, const int*, const float*, const float*,
            const int*, float*, const int*, FLen, FLen, FLen, FLen);
void dtrmm_(const char*, const char*, const char*, const char*, const int*, const int*, const double*, const double*,
            const int*, double*, const int*, FLen, FLen, FLen, FLen);
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*, FLen, FLen);
void cblas_ssymm(int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
void cblas_dsymm(int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
void cblas_ssyrk(int, int, int, int, int, float, const float*, int, float, float*, int);
void cblas_dsyrk(int, int, int, int, int, double, const double*, int, double, double*, int);
void cblas_ssyr2k(int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
void cblas_dsyr2k(int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
void cblas_strmm(int, int, int, int, int, int, int, float, const float*, int, float*, int);
void cblas_dtrmm(int, int, int, int, int, int, int, double, const double*, int, double*, int);
void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*, const float*, const int*,
            const float*, const int*, const float*, float*, const int*, FLen, FLen);
void cblas_sgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
// Implemented by the library (reference symbols OpenBLAS lacks) or forwarded with a COMPLEX result.
void sdotsub_(const int*, const float*, const int*, const float*, const int*, float*);
void ddotsub_(const int*, const double*, const int*, const double*, const int*, double*);
void sdsdotsub_(const int*, const float*, const float*, const int*, const float*, const int*, float*);
void dsdotsub_(const int*, const float*, const int*, const float*, const int*, double*);
void cdotusub_(const int*, const std::complex<float>*, const int*, const std::complex<float>*, const int*,
               std::complex<float>*);
void zdotcsub_(const int*, const std::complex<double>*, const int*, const std::complex<double>*, const int*,
               std::complex<double>*);
void dnrm2sub_(const int*, const double*, const int*, double*);
void scnrm2sub_(const int*, const std::complex<float>*, const int*, float*);
void dzasumsub_(const int*, const std::complex<double>*, const int*, double*);
void isamaxsub_(const int*, const float*, const int*, int*);
void izamaxsub_(const int*, const std::complex<double>*, const int*, int*);
void dcabs1sub_(const std::complex<double>*, double*);
float cblas_scabs1(const void*);
double cblas_dcabs1(const void*);
// gfortran returns COMPLEX by value with the C ABI of std::complex (a pair of floats/doubles in registers),
// which is what the drop-in exports; Clang warns about C linkage for a C++ type regardless.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreturn-type-c-linkage"
#endif
std::complex<float> cdotc_(const int*, const std::complex<float>*, const int*, const std::complex<float>*, const int*);
std::complex<double> zdotu_(const int*, const std::complex<double>*, const int*, const std::complex<double>*,
                            const int*);
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
extern int RowMajorStrg;
extern int CBLAS_CallFromC;
}

namespace {

using trnblas_dropin_test::mode_bound;

std::string g_mode, g_product;
int failures = 0;
long hard_cases = 0;  // results checked with the hard operands (the adversarial count)
std::mt19937_64 rng(20261123);
// Per routine (double data): whether some call's result differed from OpenBLAS's.
std::map<std::string, bool> differs_from_openblas;

void check(bool ok, const std::string& what) {
  if (!ok) {
    if (++failures <= 20) std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  }
}

void* openblas(const char* name) {
  static void* h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  void* f = h != nullptr ? dlsym(h, name) : nullptr;
  if (f == nullptr) {
    std::fprintf(stderr, "cannot find OpenBLAS's %s\n", name);
    std::exit(2);
  }
  return f;
}
template <class F>
F ob(const char* name) {
  return reinterpret_cast<F>(openblas(name));
}

using trncore::detail::sci;

bool same_bits(const void* x, const void* y, std::size_t bytes) { return std::memcmp(x, y, bytes) == 0; }

// Magnitudes in [1/64, 1] with random signs: a modest spread, so that fp8/fp16 inputs scaled into range stay
// normal and every mode's bound is certified.
template <class T>
T value() {
  std::uniform_real_distribution<double> mag(1.0 / 64, 1.0);
  std::bernoulli_distribution sign(0.5);
  return static_cast<T>(sign(rng) ? mag(rng) : -mag(rng));
}

// The operands' magnitudes (issue 18): `modest` as above; the others make ozaki's fixed-point slices lose
// digits or run out of slices, and the routed call must then be certified anyway or forwarded to OpenBLAS:
//  scaled  rows and columns of every operand times 2^e, e ∈ [−40, 40] from a hash of (operand, row) and
//          (operand, column) (exact);
//  graded  entry (i, j) times 2^(−3(i + j)): a row spans 2^(−3·cols), far beyond ozaki's ≈ 2^-110 slice reach;
//  mixed   B times 2^66 (≈ 1e20) and C times 2^33 while A ≈ 1 with every third entry times 2^-100 (≈ 1e-30)
//          and every seventh times 2^-116 (≈ 1e-35): rows of [1, 1e-30]-type spans, and A and B of very
//          different magnitudes in one call (?syr2k).
//  two_scales  B times 2^66 (≈ 1e20), A and C ≈ 1: issue 18's dsyr2k case (one GEMM of [A B]·[B A]ᵀ lost
//          20 digits of the A·Bᵀ part).
enum class Kind { modest, scaled, graded, mixed, two_scales };
Kind g_kind = Kind::modest;
const char* kind_name(Kind k) {
  return k == Kind::modest   ? "modest"
         : k == Kind::scaled ? "scaled"
         : k == Kind::graded ? "graded"
         : k == Kind::mixed  ? "mixed"
                             : "two_scales";
}

int hash_exponent(char tag, int line, int which) {  // splitmix64 of (tag, line, which) → [−40, 40]
  std::uint64_t z = (static_cast<std::uint64_t>(tag) << 40) ^ (static_cast<std::uint64_t>(which) << 32) ^
                    static_cast<std::uint64_t>(line) ^ 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<int>(z % 81) - 40;
}

// Entry (i, j) of operand `tag` ('A', 'B', 'C') under g_kind (the power-of-two factors are exact; float
// data keeps its range: the factors are capped to it, see below).
template <class T>
T entry(char tag, int i, int j) {
  const double v = static_cast<double>(value<T>());
  int e = 0;
  switch (g_kind) {
    case Kind::modest: break;
    case Kind::scaled: e = hash_exponent(tag, i, 0) + hash_exponent(tag, j, 1); break;
    case Kind::graded: e = -3 * (i + j); break;
    case Kind::mixed:
      e = tag == 'B' ? 66 : tag == 'C' ? 33 : (i + 2 * j) % 7 == 0 ? -116 : (i + 2 * j) % 3 == 0 ? -100 : 0;
      break;
    case Kind::two_scales: e = tag == 'B' ? 66 : 0; break;
  }
  // float: |entries| in [2^-61, 2^55], so no product of two (times alpha) leaves fp32's normal range — where
  // no BLAS, OpenBLAS included, keeps the relative bound.
  // double likewise: |entries| ≥ 2^-506, so the graded 129-row shapes stay in range.
  if (std::is_same_v<T, float>)
    e = std::max(-55, std::min(55, e));
  else
    e = std::max(-500, std::min(500, e));
  return static_cast<T>(std::ldexp(v, e));
}

enum class Api { fortran, cblas_col, cblas_row };
const char* api_name(Api a) { return a == Api::fortran ? "fortran" : a == Api::cblas_col ? "cblas col" : "cblas row"; }
int order(Api a) { return a == Api::cblas_row ? 101 : 102; }

// A rows x cols matrix stored column- or row-major with padding in its leading dimension; padding and
// unset entries hold the sentinel 7.
template <class T>
struct Mat {
  Mat(int r, int c, bool row_major, int pad, char t = 'X')
      : rows(r),
        cols(c),
        ld((row_major ? c : r) + pad),
        row(row_major),
        tag(t),
        v(static_cast<std::size_t>(ld) * static_cast<std::size_t>(row_major ? r : c) + 1, T(7)) {
    if (ld < 1) ld = 1;
  }
  T& operator()(int i, int j) { return v[index(i, j)]; }
  const T& operator()(int i, int j) const { return v[index(i, j)]; }
  std::size_t index(int i, int j) const {
    return row ? static_cast<std::size_t>(i) * ld + j : static_cast<std::size_t>(j) * ld + i;
  }
  void fill() {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) (*this)(i, j) = entry<T>(tag, i, j);
  }
  int rows, cols, ld;
  bool row;
  char tag;
  std::vector<T> v;
};

template <class T>
double unit_roundoff() {
  return std::numeric_limits<T>::epsilon() / 2;
}

template <class T>
const char* prefix() {
  return std::is_same_v<T, float> ? "s" : "d";
}

// Compares out(i, j) with the oracle where `referenced`, else bitwise with `before`; records the comparison
// with OpenBLAS's result.
// The documented bound of a routed call: the mode's GEMM bound with inner dimension K (two GEMMs for ?syr2k:
// b1 + b2 + b1·b2), or — for a call the mode cannot certify, which the library forwards to OpenBLAS — the
// host's γ_{K+2} (times 2 for ?syr2k's two products in one OpenBLAS call, γ_{2K+2}); whichever is larger.
template <class T>
double routed_bound(long k, bool two_gemms) {
  const double u = unit_roundoff<T>();
  const double b = mode_bound(g_mode, g_product, k, u);
  const double routed = two_gemms ? 2 * b + b * b : b;
  const double host = mode_bound("host", g_product, two_gemms ? 2 * k : k, u);
  return std::max(routed, host);
}

// The oracle of every level-3 case: exact = alpha·Σ_l term(i, j, l) + beta·C0(i, j) in long double, and
// scale = |alpha|·Σ_l |term| + |beta·C0(i, j)|, the magnitude the componentwise bound multiplies. term
// returns one l's contribution and its magnitude (two products for syr2k). c0 = nullptr means beta·C0 = 0.
template <class T, class Term>
auto product_oracle(int count, T alpha, T beta, const Mat<T>* c0, Term term) {
  return [=](int i, int j, long double& exact, long double& scale) {
    long double s = 0, mag = 0;
    for (int l = 0; l < count; ++l) {
      const auto [value, magnitude] = term(i, j, l);
      s += value;
      mag += magnitude;
    }
    const long double c = c0 ? static_cast<long double>(beta) * (*c0)(i, j) : 0.0L;
    exact = static_cast<long double>(alpha) * s + c;
    scale = std::fabs(static_cast<long double>(alpha)) * mag + std::fabs(c);
  };
}

template <class T, class Want, class Ref>
void compare(const std::string& what, Mat<T>& out, const Mat<T>& before, const Mat<T>& openblas_out, double bound,
             Want want, Ref referenced) {
  double worst = 0;
  for (int i = 0; i < out.rows; ++i)
    for (int j = 0; j < out.cols; ++j) {
      if (!referenced(i, j)) continue;
      long double exact = 0, scale = 0;
      want(i, j, exact, scale);
      const long double err = std::fabs(static_cast<long double>(out(i, j)) - exact);
      const double ratio = scale > 0 ? static_cast<double>(err / scale) : (err == 0 ? 0.0 : 1e300);
      if (!(ratio <= bound)) worst = std::max(worst, std::isnan(ratio) ? 1e300 : ratio);
    }
  if (g_kind != Kind::modest) ++hard_cases;
  check(worst == 0, what + " (" + kind_name(g_kind) + "): error " + sci(worst) +
                        " x (|alpha||A||B| + |beta||C|) above the bound " + sci(bound));
  // Everything outside the referenced part (other triangle, padding) keeps its bits.
  bool untouched = true;
  Mat<T> copy = out;
  for (int i = 0; i < out.rows; ++i)
    for (int j = 0; j < out.cols; ++j)
      if (referenced(i, j)) copy(i, j) = before(i, j);
  untouched = same_bits(copy.v.data(), before.v.data(), copy.v.size() * sizeof(T));
  check(untouched, what + ": wrote outside the referenced part of the output");
  const bool same = same_bits(out.v.data(), openblas_out.v.data(), out.v.size() * sizeof(T));
  if (g_mode == "host") check(same, what + ": host mode differs from OpenBLAS");
  if (std::is_same_v<T, double> && !same) differs_from_openblas[what.substr(0, what.find(' '))] = true;
}

// ---- symm: C = alpha*A*B + beta*C (left) or alpha*B*A + beta*C (right), A symmetric in its uplo triangle ----
template <class T>
void symm_case(Api api, char side, char uplo, int m, int n) {
  const bool row = api == Api::cblas_row, left = side == 'L';
  const int ka = left ? m : n;
  Mat<T> a(ka, ka, row, 1, 'A'), b(m, n, row, 2, 'B'), c(m, n, row, 1, 'C');
  b.fill();
  c.fill();
  for (int i = 0; i < ka; ++i)
    for (int j = 0; j < ka; ++j)
      a(i, j) = (uplo == 'U' ? i <= j : i >= j) ? entry<T>('A', i, j) : std::numeric_limits<T>::quiet_NaN();
  const Mat<T> c0 = c;
  Mat<T> c_ob = c;
  const T alpha = T(0.75), beta = T(-0.5);
  const int cs = left ? 141 : 142, cu = uplo == 'U' ? 121 : 122;
  if (api == Api::fortran) {
    if constexpr (std::is_same_v<T, float>) {
      ssymm_(&side, &uplo, &m, &n, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta, c.v.data(), &c.ld, 1, 1);
      ob<decltype(&ssymm_)>("ssymm_")(&side, &uplo, &m, &n, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta,
                                      c_ob.v.data(), &c_ob.ld, 1, 1);
    } else {
      dsymm_(&side, &uplo, &m, &n, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta, c.v.data(), &c.ld, 1, 1);
      ob<decltype(&dsymm_)>("dsymm_")(&side, &uplo, &m, &n, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta,
                                      c_ob.v.data(), &c_ob.ld, 1, 1);
    }
  } else {
    if constexpr (std::is_same_v<T, float>) {
      cblas_ssymm(order(api), cs, cu, m, n, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta, c.v.data(), c.ld);
      ob<decltype(&cblas_ssymm)>("cblas_ssymm")(order(api), cs, cu, m, n, alpha, a.v.data(), a.ld, b.v.data(), b.ld,
                                                beta, c_ob.v.data(), c_ob.ld);
    } else {
      cblas_dsymm(order(api), cs, cu, m, n, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta, c.v.data(), c.ld);
      ob<decltype(&cblas_dsymm)>("cblas_dsymm")(order(api), cs, cu, m, n, alpha, a.v.data(), a.ld, b.v.data(), b.ld,
                                                beta, c_ob.v.data(), c_ob.ld);
    }
  }
  const auto sym = [&](int i, int j) -> long double { return (uplo == 'U' ? i <= j : i >= j) ? a(i, j) : a(j, i); };
  compare<T>(std::string(prefix<T>()) + "symm " + api_name(api) + " side " + side + " uplo " + uplo + " " +
                 std::to_string(m) + "x" + std::to_string(n),
             c, c0, c_ob, routed_bound<T>(ka, false),
             product_oracle(ka, alpha, beta, &c0,
                            [&](int i, int j, int l) {
                              const long double p = left ? sym(i, l) * b(l, j) : b(i, l) * sym(l, j);
                              return std::pair{p, std::fabs(p)};
                            }),
             [](int, int) { return true; });
}

// ---- gemm: C = alpha*op(A)*op(B) + beta*C (the routed GEMM itself, with the same operand kinds) ----
template <class T>
void gemm_case(Api api, char ta, char tb, int m, int n, int k) {
  const bool row = api == Api::cblas_row;
  Mat<T> a(ta == 'N' ? m : k, ta == 'N' ? k : m, row, 1, 'A'), b(tb == 'N' ? k : n, tb == 'N' ? n : k, row, 2, 'B'),
      c(m, n, row, 1, 'C');
  a.fill();
  b.fill();
  c.fill();
  const Mat<T> c0 = c;
  Mat<T> c_ob = c;
  const T alpha = T(0.75), beta = T(-0.5);
  const int cta = ta == 'N' ? 111 : 112, ctb = tb == 'N' ? 111 : 112;
  if (api == Api::fortran) {
    if constexpr (std::is_same_v<T, float>) {
      sgemm_(&ta, &tb, &m, &n, &k, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta, c.v.data(), &c.ld, 1, 1);
      ob<decltype(&sgemm_)>("sgemm_")(&ta, &tb, &m, &n, &k, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta,
                                      c_ob.v.data(), &c_ob.ld, 1, 1);
    } else {
      dgemm_(&ta, &tb, &m, &n, &k, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta, c.v.data(), &c.ld, 1, 1);
      ob<decltype(&dgemm_)>("dgemm_")(&ta, &tb, &m, &n, &k, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta,
                                      c_ob.v.data(), &c_ob.ld, 1, 1);
    }
  } else {
    const int o = order(api);
    if constexpr (std::is_same_v<T, float>) {
      cblas_sgemm(o, cta, ctb, m, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta, c.v.data(), c.ld);
      ob<decltype(&cblas_sgemm)>("cblas_sgemm")(o, cta, ctb, m, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta,
                                                c_ob.v.data(), c_ob.ld);
    } else {
      cblas_dgemm(o, cta, ctb, m, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta, c.v.data(), c.ld);
      ob<decltype(&cblas_dgemm)>("cblas_dgemm")(o, cta, ctb, m, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta,
                                                c_ob.v.data(), c_ob.ld);
    }
  }
  const auto opa = [&](int i, int l) -> long double { return ta == 'N' ? a(i, l) : a(l, i); };
  const auto opb = [&](int l, int j) -> long double { return tb == 'N' ? b(l, j) : b(j, l); };
  compare<T>(std::string(prefix<T>()) + "gemm " + api_name(api) + " " + ta + tb + " " + std::to_string(m) + "x" +
                 std::to_string(n) + "x" + std::to_string(k),
             c, c0, c_ob, routed_bound<T>(k, false),
             product_oracle(k, alpha, beta, &c0,
                            [&](int i, int j, int l) {
                              const long double p = opa(i, l) * opb(l, j);
                              return std::pair{p, std::fabs(p)};
                            }),
             [](int, int) { return true; });
}

// ---- syrk / syr2k: the uplo triangle of C = alpha*op(A)*op(A)^T (+ op(B)*op(A)^T …) + beta*C ----
template <class T>
void syrk_case(Api api, bool two, char uplo, char trans, int n, int k) {
  const bool row = api == Api::cblas_row, notrans = trans == 'N';
  Mat<T> a(notrans ? n : k, notrans ? k : n, row, 1, 'A'), b(notrans ? n : k, notrans ? k : n, row, 3, 'B'),
      c(n, n, row, 2, 'C');
  a.fill();
  b.fill();
  for (int i = 0; i < n; ++i)  // the other triangle holds NaN: never read, never written
    for (int j = 0; j < n; ++j)
      c(i, j) = (uplo == 'U' ? i <= j : i >= j) ? entry<T>('C', i, j) : std::numeric_limits<T>::quiet_NaN();
  const Mat<T> c0 = c;
  Mat<T> c_ob = c;
  const T alpha = T(-1.25), beta = T(0.5);
  const int cu = uplo == 'U' ? 121 : 122, ct = notrans ? 111 : 112;
  const std::string name = std::string(prefix<T>()) + (two ? "syr2k" : "syrk");
  if (api == Api::fortran) {
    if constexpr (std::is_same_v<T, float>) {
      if (two) {
        ssyr2k_(&uplo, &trans, &n, &k, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta, c.v.data(), &c.ld, 1, 1);
        ob<decltype(&ssyr2k_)>("ssyr2k_")(&uplo, &trans, &n, &k, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta,
                                          c_ob.v.data(), &c_ob.ld, 1, 1);
      } else {
        ssyrk_(&uplo, &trans, &n, &k, &alpha, a.v.data(), &a.ld, &beta, c.v.data(), &c.ld, 1, 1);
        ob<decltype(&ssyrk_)>("ssyrk_")(&uplo, &trans, &n, &k, &alpha, a.v.data(), &a.ld, &beta, c_ob.v.data(),
                                        &c_ob.ld, 1, 1);
      }
    } else {
      if (two) {
        dsyr2k_(&uplo, &trans, &n, &k, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta, c.v.data(), &c.ld, 1, 1);
        ob<decltype(&dsyr2k_)>("dsyr2k_")(&uplo, &trans, &n, &k, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, &beta,
                                          c_ob.v.data(), &c_ob.ld, 1, 1);
      } else {
        dsyrk_(&uplo, &trans, &n, &k, &alpha, a.v.data(), &a.ld, &beta, c.v.data(), &c.ld, 1, 1);
        ob<decltype(&dsyrk_)>("dsyrk_")(&uplo, &trans, &n, &k, &alpha, a.v.data(), &a.ld, &beta, c_ob.v.data(),
                                        &c_ob.ld, 1, 1);
      }
    }
  } else {
    const int o = order(api);
    if constexpr (std::is_same_v<T, float>) {
      if (two) {
        cblas_ssyr2k(o, cu, ct, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta, c.v.data(), c.ld);
        ob<decltype(&cblas_ssyr2k)>("cblas_ssyr2k")(o, cu, ct, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta,
                                                    c_ob.v.data(), c_ob.ld);
      } else {
        cblas_ssyrk(o, cu, ct, n, k, alpha, a.v.data(), a.ld, beta, c.v.data(), c.ld);
        ob<decltype(&cblas_ssyrk)>("cblas_ssyrk")(o, cu, ct, n, k, alpha, a.v.data(), a.ld, beta, c_ob.v.data(),
                                                  c_ob.ld);
      }
    } else {
      if (two) {
        cblas_dsyr2k(o, cu, ct, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta, c.v.data(), c.ld);
        ob<decltype(&cblas_dsyr2k)>("cblas_dsyr2k")(o, cu, ct, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta,
                                                    c_ob.v.data(), c_ob.ld);
      } else {
        cblas_dsyrk(o, cu, ct, n, k, alpha, a.v.data(), a.ld, beta, c.v.data(), c.ld);
        ob<decltype(&cblas_dsyrk)>("cblas_dsyrk")(o, cu, ct, n, k, alpha, a.v.data(), a.ld, beta, c_ob.v.data(),
                                                  c_ob.ld);
      }
    }
  }
  const auto opa = [&](int i, int l) -> long double { return notrans ? a(i, l) : a(l, i); };
  const auto opb = [&](int i, int l) -> long double { return notrans ? b(i, l) : b(l, i); };
  compare<T>(name + " " + api_name(api) + " uplo " + uplo + " trans " + trans + " " + std::to_string(n) + "x" +
                 std::to_string(k),
             c, c0, c_ob, routed_bound<T>(k, two),
             product_oracle(k, alpha, beta, &c0,
                            [&](int i, int j, int l) {
                              const long double p = two ? opa(i, l) * opb(j, l) : opa(i, l) * opa(j, l);
                              const long double q = two ? opb(i, l) * opa(j, l) : 0;
                              return std::pair{p + q, std::fabs(p) + std::fabs(q)};
                            }),
             [&](int i, int j) { return uplo == 'U' ? i <= j : i >= j; });
}

// ---- trmm: B = alpha*op(A)*B (left) or alpha*B*op(A) (right), A triangular ----
template <class T>
void trmm_case(Api api, char side, char uplo, char trans, char diag, int m, int n) {
  const bool row = api == Api::cblas_row, left = side == 'L', unit = diag == 'U';
  const int ka = left ? m : n;
  Mat<T> a(ka, ka, row, 2, 'A'), b(m, n, row, 1, 'B');
  b.fill();
  for (int i = 0; i < ka; ++i)  // the other triangle and a unit diagonal hold NaN: never read
    for (int j = 0; j < ka; ++j)
      a(i, j) = (i == j && unit) || !(uplo == 'U' ? i <= j : i >= j) ? std::numeric_limits<T>::quiet_NaN()
                                                                     : entry<T>('A', i, j);
  const Mat<T> b0 = b;
  Mat<T> b_ob = b;
  const T alpha = T(1.5);
  const int cs = left ? 141 : 142, cu = uplo == 'U' ? 121 : 122, ct = trans == 'N' ? 111 : 112, cd = unit ? 132 : 131;
  if (api == Api::fortran) {
    if constexpr (std::is_same_v<T, float>) {
      strmm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, 1, 1, 1, 1);
      ob<decltype(&strmm_)>("strmm_")(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.v.data(), &a.ld, b_ob.v.data(),
                                      &b_ob.ld, 1, 1, 1, 1);
    } else {
      dtrmm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.v.data(), &a.ld, b.v.data(), &b.ld, 1, 1, 1, 1);
      ob<decltype(&dtrmm_)>("dtrmm_")(&side, &uplo, &trans, &diag, &m, &n, &alpha, a.v.data(), &a.ld, b_ob.v.data(),
                                      &b_ob.ld, 1, 1, 1, 1);
    }
  } else {
    const int o = order(api);
    if constexpr (std::is_same_v<T, float>) {
      cblas_strmm(o, cs, cu, ct, cd, m, n, alpha, a.v.data(), a.ld, b.v.data(), b.ld);
      ob<decltype(&cblas_strmm)>("cblas_strmm")(o, cs, cu, ct, cd, m, n, alpha, a.v.data(), a.ld, b_ob.v.data(),
                                                b_ob.ld);
    } else {
      cblas_dtrmm(o, cs, cu, ct, cd, m, n, alpha, a.v.data(), a.ld, b.v.data(), b.ld);
      ob<decltype(&cblas_dtrmm)>("cblas_dtrmm")(o, cs, cu, ct, cd, m, n, alpha, a.v.data(), a.ld, b_ob.v.data(),
                                                b_ob.ld);
    }
  }
  const auto tri = [&](int i, int j) -> long double {
    if (i == j) return unit ? 1.0L : static_cast<long double>(a(i, j));
    return (uplo == 'U' ? i < j : i > j) ? static_cast<long double>(a(i, j)) : 0.0L;
  };
  const auto opa = [&](int i, int j) { return trans == 'N' ? tri(i, j) : tri(j, i); };
  compare<T>(std::string(prefix<T>()) + "trmm " + api_name(api) + " side " + side + " uplo " + uplo + " trans " +
                 trans + " diag " + diag + " " + std::to_string(m) + "x" + std::to_string(n),
             b, b0, b_ob, routed_bound<T>(ka, false),
             product_oracle(ka, alpha, T(0), static_cast<const Mat<T>*>(nullptr),
                            [&](int i, int j, int l) {
                              const long double p = left ? opa(i, l) * b0(l, j) : b0(i, l) * opa(l, j);
                              return std::pair{p, std::fabs(p)};
                            }),
             [](int, int) { return true; });
}

// ---- Issue 18's dgemm_ cases: C = A·B (column-major, m×k times k×n) within the routed bound componentwise ----
void dgemm_case(const std::string& what, int m, int n, int k, const std::vector<double>& a,
                const std::vector<double>& b) {
  std::vector<double> c(static_cast<std::size_t>(m) * n, 7.0);
  const double one = 1, zero = 0;
  dgemm_("N", "N", &m, &n, &k, &one, a.data(), &m, b.data(), &k, &zero, c.data(), &m, 1, 1);
  const double bound = routed_bound<double>(k, false);
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      long double exact = 0, mag = 0;
      for (int l = 0; l < k; ++l) {
        const long double p =
            static_cast<long double>(a[static_cast<std::size_t>(i + l * m)]) * b[static_cast<std::size_t>(l + j * k)];
        exact += p;
        mag += std::fabs(p);
      }
      const long double err = std::fabs(c[static_cast<std::size_t>(i + j * m)] - exact);
      const double ratio = mag > 0 ? static_cast<double>(err / mag) : (err == 0 ? 0.0 : 1e300);
      worst = std::max(worst, std::isnan(ratio) ? 1e300 : ratio);
    }
  ++hard_cases;
  check(worst <= bound, "dgemm_ " + what + ": error " + sci(worst) + " x |A||B| above the bound " + sci(bound));
}

void issue_gemm_cases() {
  // A row [1, 1e-30] (and [1, 1e-35]) against B = [1e-30; 1]: P = 2e-30 (2e-35) needs slices down to 2^-100
  // (2^-116) below the row's largest entry. Before the fix: relative error 1.6e-3, and 0 returned for 1e-35.
  for (const double tiny : {1e-30, 1e-35}) {
    const std::vector<double> a{1.0, tiny}, b{tiny, 1.0};  // A 1x2 (column-major), B 2x1
    dgemm_case("row [1, " + sci(tiny) + "]", 1, 1, 2, a, b);
  }
  // Graded 64x64 in opposite directions: A_il = v·2^(-4l), B_lj = v·2^(4(l-63)), so every term of every
  // entry is ≈ 2^-252 while each row of A and column of B spans 2^252: capped fixed-point slices keep only
  // the first ≈ 27 terms (before the fix: errors of order 1 relative to |A||B|, reported as certified).
  const int n = 64;
  std::vector<double> a(static_cast<std::size_t>(n) * n), b(a.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      a[static_cast<std::size_t>(i + j * n)] = std::ldexp(value<double>(), -4 * j);
      b[static_cast<std::size_t>(i + j * n)] = std::ldexp(value<double>(), 4 * (i - 63));
    }
  dgemm_case("graded 64x64", n, n, n, a, b);
}

// ---- alpha = 0 and beta = 0: BLAS does not reference A and B (resp. C), so inf/NaN there must not appear ----
void quick_semantics() {
  const int n = 3, k = 2, ld = 3;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> a(9, inf), b(9, nan), c(9, 2.0);
  a[1] = 1;
  b[0] = 1;
  const double zero = 0, half = 0.5;
  const auto all_equal = [](const std::vector<double>& v, double x) {
    for (double y : v)
      if (y != x) return false;
    return true;
  };
  std::vector<double> c1 = c;
  dgemm_("N", "N", &n, &n, &k, &zero, a.data(), &ld, b.data(), &ld, &half, c1.data(), &ld, 1, 1);
  check(all_equal(c1, 1.0), "dgemm_ alpha = 0 with inf/NaN in A, B: C must be beta*C");
  c1 = c;
  cblas_dgemm(101, 111, 111, n, n, k, 0.0, a.data(), ld, b.data(), ld, 0.5, c1.data(), ld);
  check(all_equal(c1, 1.0), "cblas_dgemm alpha = 0 with inf/NaN in A, B: C must be beta*C");
  c1 = c;
  dsymm_("L", "U", &n, &n, &zero, a.data(), &ld, b.data(), &ld, &half, c1.data(), &ld, 1, 1);
  check(all_equal(c1, 1.0), "dsymm_ alpha = 0: C must be beta*C");
  c1 = c;
  dsyrk_("L", "N", &n, &k, &zero, a.data(), &ld, &half, c1.data(), &ld, 1, 1);
  check(c1[0] == 1 && c1[1] == 1 && c1[3] == 2,
        "dsyrk_ alpha = 0: the lower triangle must be beta*C, the upper untouched");
  c1 = c;
  dsyr2k_("U", "T", &n, &k, &zero, a.data(), &ld, b.data(), &ld, &half, c1.data(), &ld, 1, 1);
  check(c1[0] == 1 && c1[3] == 1 && c1[1] == 2,
        "dsyr2k_ alpha = 0: the upper triangle must be beta*C, the lower untouched");
  c1 = c;
  dtrmm_("R", "L", "T", "N", &n, &n, &zero, a.data(), &ld, c1.data(), &ld, 1, 1, 1, 1);
  check(all_equal(c1, 0.0), "dtrmm_ alpha = 0: B must be zero");
  // beta = 0: C is not read (NaN in C must not survive).
  std::vector<double> x(9, 0.25), c2(9, nan);
  const double one = 1;
  dgemm_("T", "N", &n, &n, &n, &one, x.data(), &ld, x.data(), &ld, &zero, c2.data(), &ld, 1, 1);
  check(!std::isnan(c2[4]), "dgemm_ beta = 0 read C's NaN");
  c2.assign(9, nan);
  dsymm_("R", "L", &n, &n, &one, x.data(), &ld, x.data(), &ld, &zero, c2.data(), &ld, 1, 1);
  check(!std::isnan(c2[4]), "dsymm_ beta = 0 read C's NaN");
  c2.assign(9, nan);
  dsyrk_("U", "T", &n, &n, &one, x.data(), &ld, &zero, c2.data(), &ld, 1, 1);
  check(!std::isnan(c2[3]) && std::isnan(c2[1]), "dsyrk_ beta = 0 read C's NaN or wrote the lower triangle");
  c2.assign(9, nan);
  dsyr2k_("L", "N", &n, &n, &one, x.data(), &ld, x.data(), &ld, &zero, c2.data(), &ld, 1, 1);
  check(!std::isnan(c2[1]) && std::isnan(c2[3]), "dsyr2k_ beta = 0 read C's NaN or wrote the upper triangle");
}

// ---- The library's own symbols and forwarded COMPLEX results, against OpenBLAS ----
void own_symbols() {
  const int n = 5, one = 1, two = 2;
  std::vector<float> xs(10), ys(10);
  std::vector<double> xd(10);
  std::vector<std::complex<float>> xc(10), yc(10);
  std::vector<std::complex<double>> xz(10), yz(10);
  for (int i = 0; i < 10; ++i) {
    xs[i] = value<float>();
    ys[i] = value<float>();
    xd[i] = value<double>();
    xc[i] = {value<float>(), value<float>()};
    yc[i] = {value<float>(), value<float>()};
    xz[i] = {value<double>(), value<double>()};
    yz[i] = {value<double>(), value<double>()};
  }
  float rs = 0;
  double rd = 0;
  int ri = 0;
  std::complex<float> rc;
  std::complex<double> rz;
  using SDot = float (*)(const int*, const float*, const int*, const float*, const int*);
  sdotsub_(&n, xs.data(), &two, ys.data(), &one, &rs);
  check(rs == ob<SDot>("sdot_")(&n, xs.data(), &two, ys.data(), &one), "sdotsub_ differs from OpenBLAS sdot_");
  using DDot = double (*)(const int*, const double*, const int*, const double*, const int*);
  ddotsub_(&n, xd.data(), &one, xd.data(), &two, &rd);
  check(rd == ob<DDot>("ddot_")(&n, xd.data(), &one, xd.data(), &two), "ddotsub_ differs from OpenBLAS ddot_");
  const float sb = 0.25f;
  using SdsDot = float (*)(const int*, const float*, const float*, const int*, const float*, const int*);
  sdsdotsub_(&n, &sb, xs.data(), &one, ys.data(), &one, &rs);
  check(rs == ob<SdsDot>("sdsdot_")(&n, &sb, xs.data(), &one, ys.data(), &one), "sdsdotsub_ differs from sdsdot_");
  using DsDot = double (*)(const int*, const float*, const int*, const float*, const int*);
  dsdotsub_(&n, xs.data(), &one, ys.data(), &one, &rd);
  check(rd == ob<DsDot>("dsdot_")(&n, xs.data(), &one, ys.data(), &one), "dsdotsub_ differs from dsdot_");
  using CDot = std::complex<float> (*)(const int*, const std::complex<float>*, const int*, const std::complex<float>*,
                                       const int*);
  cdotusub_(&n, xc.data(), &one, yc.data(), &two, &rc);
  check(rc == ob<CDot>("cdotu_")(&n, xc.data(), &one, yc.data(), &two), "cdotusub_ differs from cdotu_");
  check(cdotc_(&n, xc.data(), &one, yc.data(), &one) == ob<CDot>("cdotc_")(&n, xc.data(), &one, yc.data(), &one),
        "cdotc_ (COMPLEX result) differs from OpenBLAS's");
  using ZDot = std::complex<double> (*)(const int*, const std::complex<double>*, const int*,
                                        const std::complex<double>*, const int*);
  zdotcsub_(&n, xz.data(), &two, yz.data(), &one, &rz);
  check(rz == ob<ZDot>("zdotc_")(&n, xz.data(), &two, yz.data(), &one), "zdotcsub_ differs from zdotc_");
  check(zdotu_(&n, xz.data(), &one, yz.data(), &one) == ob<ZDot>("zdotu_")(&n, xz.data(), &one, yz.data(), &one),
        "zdotu_ (COMPLEX*16 result) differs from OpenBLAS's");
  dnrm2sub_(&n, xd.data(), &one, &rd);
  check(rd == ob<double (*)(const int*, const double*, const int*)>("dnrm2_")(&n, xd.data(), &one), "dnrm2sub_");
  scnrm2sub_(&n, xc.data(), &one, &rs);
  check(rs == ob<float (*)(const int*, const std::complex<float>*, const int*)>("scnrm2_")(&n, xc.data(), &one),
        "scnrm2sub_");
  dzasumsub_(&n, xz.data(), &one, &rd);
  check(rd == ob<double (*)(const int*, const std::complex<double>*, const int*)>("dzasum_")(&n, xz.data(), &one),
        "dzasumsub_");
  isamaxsub_(&n, xs.data(), &one, &ri);
  check(ri == ob<int (*)(const int*, const float*, const int*)>("isamax_")(&n, xs.data(), &one), "isamaxsub_");
  izamaxsub_(&n, xz.data(), &one, &ri);
  check(ri == ob<int (*)(const int*, const std::complex<double>*, const int*)>("izamax_")(&n, xz.data(), &one),
        "izamaxsub_");
  // |Re z| + |Im z|, exact in the data's precision for these values.
  const std::complex<double> z(-0.75, 2.5);
  const std::complex<float> zf(3.5f, -0.125f);
  dcabs1sub_(&z, &rd);
  check(rd == 3.25, "dcabs1sub_(-0.75 + 2.5i) != 3.25");
  check(cblas_dcabs1(&z) == 3.25, "cblas_dcabs1(-0.75 + 2.5i) != 3.25");
  check(cblas_scabs1(&zf) == 3.625f, "cblas_scabs1(3.5 - 0.125i) != 3.625");
  check(RowMajorStrg == 0 && CBLAS_CallFromC == 0, "reference CBLAS's error state is not zero");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  g_mode = argv[1];
  const char* pm = std::getenv("TRNBLAS_PRODUCT_MODEL");
  g_product = pm != nullptr && *pm != '\0' ? pm : "bf16";  // trn2's default
  const int sizes[][2] = {{1, 1}, {7, 5}, {33, 17}, {4, 130}};
  for (const Api api : {Api::fortran, Api::cblas_col, Api::cblas_row})
    for (const auto& s : sizes) {
      for (const char side : {'L', 'R'})
        for (const char uplo : {'U', 'L'}) {
          symm_case<float>(api, side, uplo, s[0], s[1]);
          symm_case<double>(api, side, uplo, s[0], s[1]);
          for (const char trans : {'N', 'T'})
            for (const char diag : {'N', 'U'}) {
              trmm_case<float>(api, side, uplo, trans, diag, s[0], s[1]);
              trmm_case<double>(api, side, uplo, trans, diag, s[0], s[1]);
            }
        }
      for (const char uplo : {'U', 'L'})
        for (const char trans : {'N', 'T'})
          for (const bool two : {false, true}) {
            syrk_case<float>(api, two, uplo, trans, s[0], s[1]);
            syrk_case<double>(api, two, uplo, trans, s[0], s[1]);
          }
    }
  // The hard magnitudes (double and float, the Fortran symbols and row-major CBLAS; under
  // TRNSCI_ADVERSARIAL=full, ctest label adversarial, also column-major CBLAS and larger and skewed shapes):
  // every routed result within the documented bound, certified by the mode or forwarded to OpenBLAS.
  const char* adversarial = std::getenv("TRNSCI_ADVERSARIAL");
  const bool full = adversarial != nullptr && std::string(adversarial) == "full";
  std::vector<Api> hard_apis{Api::fortran, Api::cblas_row};
  std::vector<std::array<int, 2>> hard_sizes{{7, 5}, {33, 17}};
  if (full) {
    hard_apis.push_back(Api::cblas_col);
    hard_sizes.insert(hard_sizes.end(), {{1, 1}, {64, 64}, {129, 3}, {4, 130}});
  }
  for (const Kind kind : {Kind::scaled, Kind::graded, Kind::mixed, Kind::two_scales}) {
    g_kind = kind;
    for (const Api api : hard_apis)
      for (const auto& s : hard_sizes) {
        for (const char side : {'L', 'R'})
          for (const char uplo : {'U', 'L'}) {
            symm_case<float>(api, side, uplo, s[0], s[1]);
            symm_case<double>(api, side, uplo, s[0], s[1]);
            for (const char trans : {'N', 'T'}) {
              trmm_case<float>(api, side, uplo, trans, 'N', s[0], s[1]);
              trmm_case<double>(api, side, uplo, trans, 'N', s[0], s[1]);
            }
          }
        for (const char uplo : {'U', 'L'})
          for (const char trans : {'N', 'T'})
            for (const bool two : {false, true}) {
              syrk_case<float>(api, two, uplo, trans, s[0], s[1]);
              syrk_case<double>(api, two, uplo, trans, s[0], s[1]);
            }
        for (const char ta : {'N', 'T'})
          for (const char tb : {'N', 'T'}) {
            gemm_case<float>(api, ta, tb, s[0], s[1], s[0] + s[1]);
            gemm_case<double>(api, ta, tb, s[0], s[1], s[0] + s[1]);
          }
      }
  }
  g_kind = Kind::modest;
  issue_gemm_cases();
  quick_semantics();
  own_symbols();
  if (g_mode != "host")
    for (const char* r : {"dsymm", "dsyrk", "dsyr2k", "dtrmm"})
      check(differs_from_openblas[r], std::string(r) + ": every result equals OpenBLAS's bit for bit in mode " +
                                          g_mode + ": the calls were not routed");
  std::printf("adversarial trnblas drop-in level 3 (%s, %s products): %ld cases with hard operands\n", g_mode.c_str(),
              g_product.c_str(), hard_cases);
  std::printf("%s: %d failure(s)\n", g_mode.c_str(), failures);
  return failures == 0 ? 0 : 1;
}
