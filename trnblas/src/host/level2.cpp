// BLAS level 2 on the host: the shared checks, then one CBLAS call.
#include "../checks.hpp"
#include "cblas_args.hpp"

#include <trnblas/level2.hpp>

#include <cblas.h>

#include <complex>
#include <cstdint>

namespace trnblas {

namespace {

using namespace detail;

// Operand checks and regions of this file: A stored rows×cols (no op: level 2 passes op separately).
template <class T>
void check_a(const char* f, Layout layout, std::int64_t rows, std::int64_t cols, const T* a, std::int64_t lda) {
  check_matrix(f, "a", layout, Op::no_trans, rows, cols, a, lda, sizeof(T), false);
}
template <class T>
Region region_a(Layout layout, std::int64_t rows, std::int64_t cols, const T* a, std::int64_t lda) {
  return matrix_region(a, layout, Op::no_trans, rows, cols, lda, sizeof(T));
}
template <class T>
Region region_v(const T* x, std::int64_t n, std::int64_t inc) {
  return vector_region(x, n, inc, sizeof(T));
}

// gemv and symv/hemv: y (ny elements) is written while A and x (nx elements) are read. BLAS returns at
// once for an empty A, before looking at x or y, so their pointers are checked only otherwise.
template <class T>
bool check_mv(const char* f, Layout layout, std::int64_t m, std::int64_t n, const T* a, std::int64_t lda,
              std::int64_t nx, const T* x, std::int64_t incx, std::int64_t ny, const T* y, std::int64_t incy) {
  check_a(f, layout, m, n, a, lda);
  const bool empty = m == 0 || n == 0;
  check_vector(f, "x", empty ? 0 : nx, x, incx, sizeof(T));
  check_vector(f, "y", empty ? 0 : ny, y, incy, sizeof(T));
  check_blasint(f, {{"m", m}, {"n", n}, {"lda", lda}, {"incx", incx}, {"incy", incy}});
  if (empty) return false;
  check_no_overlap(f, "y", region_v(y, ny, incy), "A", region_a(layout, m, n, a, lda));
  check_no_overlap(f, "y", region_v(y, ny, incy), "x", region_v(x, nx, incx));
  return true;
}

// Rank updates: A (m×n) is written while x (m elements) and y (n elements, if any) are read.
template <class T>
bool check_update(const char* f, Layout layout, std::int64_t m, std::int64_t n, const T* x, std::int64_t incx,
                  const T* y, std::int64_t incy, bool has_y, const T* a, std::int64_t lda) {
  check_a(f, layout, m, n, a, lda);
  const bool empty = m == 0 || n == 0;
  check_vector(f, "x", empty ? 0 : m, x, incx, sizeof(T));
  if (has_y) check_vector(f, "y", empty ? 0 : n, y, incy, sizeof(T));
  check_blasint(f, {{"m", m}, {"n", n}, {"lda", lda}, {"incx", incx}, {"incy", has_y ? incy : 1}});
  if (empty) return false;
  check_no_overlap(f, "A", region_a(layout, m, n, a, lda), "x", region_v(x, m, incx));
  if (has_y) check_no_overlap(f, "A", region_a(layout, m, n, a, lda), "y", region_v(y, n, incy));
  return true;
}

// trmv/trsv: x is overwritten while A is read.
template <class T>
bool check_tr(const char* f, Layout layout, std::int64_t n, const T* a, std::int64_t lda, const T* x,
              std::int64_t incx) {
  check_a(f, layout, n, n, a, lda);
  check_vector(f, "x", n, x, incx, sizeof(T));
  check_blasint(f, {{"n", n}, {"lda", lda}, {"incx", incx}});
  if (n == 0) return false;
  check_no_overlap(f, "x", region_v(x, n, incx), "A", region_a(layout, n, n, a, lda));
  return true;
}

template <class T>
void sym_or_herm_mv(const char* f, Layout layout, Uplo uplo, std::int64_t n, T alpha, const T* a, std::int64_t lda,
                    const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy, const trncore::Options& options) {
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo)});
  check_host_call<T>(f, {{"n", n}}, options);
  if (!check_mv(f, layout, n, n, a, lda, n, x, incx, n, y, incy)) return;
  pick<T>(cblas_ssymv, cblas_dsymv, cblas_chemv, cblas_zhemv)(
      cblas_order(layout), cblas_uplo(uplo), bi(n), scalar(alpha), a, bi(lda), x, bi(incx), scalar(beta), y, bi(incy));
}

template <class T>
void general_update(const char* f, bool conjugate, Layout layout, std::int64_t m, std::int64_t n, T alpha, const T* x,
                    std::int64_t incx, const T* y, std::int64_t incy, T* a, std::int64_t lda,
                    const trncore::Options& options) {
  check_enums(f, {enum_arg("layout", layout)});
  check_host_call<T>(f, {{"m", m}, {"n", n}}, options);
  if (!check_update(f, layout, m, n, x, incx, y, incy, true, a, lda)) return;
  const auto order = cblas_order(layout);
  if constexpr (is_complex_v<T>) {
    if (conjugate)
      pick<T>(nullptr, nullptr, cblas_cgerc, cblas_zgerc)(order, bi(m), bi(n), scalar(alpha), x, bi(incx), y, bi(incy),
                                                          a, bi(lda));
    else
      pick<T>(nullptr, nullptr, cblas_cgeru, cblas_zgeru)(order, bi(m), bi(n), scalar(alpha), x, bi(incx), y, bi(incy),
                                                          a, bi(lda));
  } else {
    pick<T>(cblas_sger, cblas_dger, nullptr, nullptr)(order, bi(m), bi(n), alpha, x, bi(incx), y, bi(incy), a, bi(lda));
  }
}

}  // namespace

template <class T>
void gemv(Layout layout, Op trans, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha, const T* a,
          std::int64_t lda, const T* x, std::int64_t incx, std::type_identity_t<T> beta, T* y, std::int64_t incy,
          const trncore::Options& options) {
  constexpr const char* f = "trnblas::gemv";
  check_enums(f, {enum_arg("layout", layout), enum_arg("trans", trans)});
  check_host_call<T>(f, {{"m", m}, {"n", n}}, options);
  const bool t = trans != Op::no_trans;
  if (!check_mv(f, layout, m, n, a, lda, t ? m : n, x, incx, t ? n : m, y, incy)) return;
  pick<T>(cblas_sgemv, cblas_dgemv, cblas_cgemv, cblas_zgemv)(cblas_order(layout), cblas_trans(trans), bi(m), bi(n),
                                                              scalar(alpha), a, bi(lda), x, bi(incx), scalar(beta), y,
                                                              bi(incy));
}

template <class T>
requires std::is_floating_point_v<T>
void symv(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* a, std::int64_t lda,
          const T* x, std::int64_t incx, std::type_identity_t<T> beta, T* y, std::int64_t incy,
          const trncore::Options& options) {
  sym_or_herm_mv<T>("trnblas::symv", layout, uplo, n, alpha, a, lda, x, incx, beta, y, incy, options);
}

template <class T>
requires is_complex_v<T>
void hemv(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* a, std::int64_t lda,
          const T* x, std::int64_t incx, std::type_identity_t<T> beta, T* y, std::int64_t incy,
          const trncore::Options& options) {
  sym_or_herm_mv<T>("trnblas::hemv", layout, uplo, n, alpha, a, lda, x, incx, beta, y, incy, options);
}

template <class T>
void trmv(Layout layout, Uplo uplo, Op trans, Diag diag, std::int64_t n, const T* a, std::int64_t lda, T* x,
          std::int64_t incx, const trncore::Options& options) {
  constexpr const char* f = "trnblas::trmv";
  check_enums(f,
              {enum_arg("layout", layout), enum_arg("uplo", uplo), enum_arg("trans", trans), enum_arg("diag", diag)});
  check_host_call<T>(f, {{"n", n}}, options);
  if (!check_tr(f, layout, n, a, lda, x, incx)) return;
  pick<T>(cblas_strmv, cblas_dtrmv, cblas_ctrmv, cblas_ztrmv)(cblas_order(layout), cblas_uplo(uplo), cblas_trans(trans),
                                                              cblas_diag(diag), bi(n), a, bi(lda), x, bi(incx));
}

template <class T>
void trsv(Layout layout, Uplo uplo, Op trans, Diag diag, std::int64_t n, const T* a, std::int64_t lda, T* x,
          std::int64_t incx, const trncore::Options& options) {
  constexpr const char* f = "trnblas::trsv";
  check_enums(f,
              {enum_arg("layout", layout), enum_arg("uplo", uplo), enum_arg("trans", trans), enum_arg("diag", diag)});
  check_host_call<T>(f, {{"n", n}}, options);
  if (!check_tr(f, layout, n, a, lda, x, incx)) return;
  pick<T>(cblas_strsv, cblas_dtrsv, cblas_ctrsv, cblas_ztrsv)(cblas_order(layout), cblas_uplo(uplo), cblas_trans(trans),
                                                              cblas_diag(diag), bi(n), a, bi(lda), x, bi(incx));
}

template <class T>
requires std::is_floating_point_v<T>
void ger(Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
         const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options) {
  general_update<T>("trnblas::ger", false, layout, m, n, alpha, x, incx, y, incy, a, lda, options);
}

template <class T>
requires is_complex_v<T>
void geru(Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
          const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options) {
  general_update<T>("trnblas::geru", false, layout, m, n, alpha, x, incx, y, incy, a, lda, options);
}

template <class T>
requires is_complex_v<T>
void gerc(Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
          const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options) {
  general_update<T>("trnblas::gerc", true, layout, m, n, alpha, x, incx, y, incy, a, lda, options);
}

template <class T>
requires std::is_floating_point_v<T>
void syr(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx, T* a,
         std::int64_t lda, const trncore::Options& options) {
  constexpr const char* f = "trnblas::syr";
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo)});
  check_host_call<T>(f, {{"n", n}}, options);
  if (!check_update<T>(f, layout, n, n, x, incx, nullptr, 1, false, a, lda)) return;
  pick<T>(cblas_ssyr, cblas_dsyr, nullptr, nullptr)(cblas_order(layout), cblas_uplo(uplo), bi(n), alpha, x, bi(incx), a,
                                                    bi(lda));
}

template <class T>
requires std::is_floating_point_v<T>
void syr2(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
          const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options) {
  constexpr const char* f = "trnblas::syr2";
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo)});
  check_host_call<T>(f, {{"n", n}}, options);
  if (!check_update(f, layout, n, n, x, incx, y, incy, true, a, lda)) return;
  pick<T>(cblas_ssyr2, cblas_dsyr2, nullptr, nullptr)(cblas_order(layout), cblas_uplo(uplo), bi(n), alpha, x, bi(incx),
                                                      y, bi(incy), a, bi(lda));
}

template <class T>
requires is_complex_v<T>
void her(Layout layout, Uplo uplo, std::int64_t n, real_type<T> alpha, const T* x, std::int64_t incx, T* a,
         std::int64_t lda, const trncore::Options& options) {
  constexpr const char* f = "trnblas::her";
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo)});
  check_host_call<T>(f, {{"n", n}}, options);
  if (!check_update<T>(f, layout, n, n, x, incx, nullptr, 1, false, a, lda)) return;
  pick<T>(nullptr, nullptr, cblas_cher, cblas_zher)(cblas_order(layout), cblas_uplo(uplo), bi(n), alpha, x, bi(incx), a,
                                                    bi(lda));
}

template <class T>
requires is_complex_v<T>
void her2(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
          const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options) {
  constexpr const char* f = "trnblas::her2";
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo)});
  check_host_call<T>(f, {{"n", n}}, options);
  if (!check_update(f, layout, n, n, x, incx, y, incy, true, a, lda)) return;
  pick<T>(nullptr, nullptr, cblas_cher2, cblas_zher2)(cblas_order(layout), cblas_uplo(uplo), bi(n), scalar(alpha), x,
                                                      bi(incx), y, bi(incy), a, bi(lda));
}

using trncore::Options;
#define TRNBLAS_LEVEL2_ALL(T)                                                                                         \
  template void gemv<T>(Layout, Op, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*, std::int64_t, T, \
                        T*, std::int64_t, const Options&);                                                            \
  template void trmv<T>(Layout, Uplo, Op, Diag, std::int64_t, const T*, std::int64_t, T*, std::int64_t,               \
                        const Options&);                                                                              \
  template void trsv<T>(Layout, Uplo, Op, Diag, std::int64_t, const T*, std::int64_t, T*, std::int64_t, const Options&);
#define TRNBLAS_LEVEL2_REAL(T)                                                                                    \
  template void symv<T>(Layout, Uplo, std::int64_t, T, const T*, std::int64_t, const T*, std::int64_t, T, T*,     \
                        std::int64_t, const Options&);                                                            \
  template void ger<T>(Layout, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*, std::int64_t, T*, \
                       std::int64_t, const Options&);                                                             \
  template void syr<T>(Layout, Uplo, std::int64_t, T, const T*, std::int64_t, T*, std::int64_t, const Options&);  \
  template void syr2<T>(Layout, Uplo, std::int64_t, T, const T*, std::int64_t, const T*, std::int64_t, T*,        \
                        std::int64_t, const Options&);
#define TRNBLAS_LEVEL2_COMPLEX(T)                                                                                  \
  template void hemv<T>(Layout, Uplo, std::int64_t, T, const T*, std::int64_t, const T*, std::int64_t, T, T*,      \
                        std::int64_t, const Options&);                                                             \
  template void geru<T>(Layout, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*, std::int64_t, T*, \
                        std::int64_t, const Options&);                                                             \
  template void gerc<T>(Layout, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*, std::int64_t, T*, \
                        std::int64_t, const Options&);                                                             \
  template void her<T>(Layout, Uplo, std::int64_t, real_type<T>, const T*, std::int64_t, T*, std::int64_t,         \
                       const Options&);                                                                            \
  template void her2<T>(Layout, Uplo, std::int64_t, T, const T*, std::int64_t, const T*, std::int64_t, T*,         \
                        std::int64_t, const Options&);
TRNBLAS_LEVEL2_ALL(float)
TRNBLAS_LEVEL2_ALL(double)
TRNBLAS_LEVEL2_ALL(std::complex<float>)
TRNBLAS_LEVEL2_ALL(std::complex<double>)
TRNBLAS_LEVEL2_REAL(float)
TRNBLAS_LEVEL2_REAL(double)
TRNBLAS_LEVEL2_COMPLEX(std::complex<float>)
TRNBLAS_LEVEL2_COMPLEX(std::complex<double>)
#undef TRNBLAS_LEVEL2_ALL
#undef TRNBLAS_LEVEL2_REAL
#undef TRNBLAS_LEVEL2_COMPLEX

}  // namespace trnblas
