// BLAS level 3 other than gemm on the host: the shared checks, then one CBLAS call.
#include "../checks.hpp"
#include "cblas_args.hpp"

#include <trnblas/level3.hpp>
#include <trncore/error.hpp>

#include <cblas.h>

#include <complex>
#include <cstdint>
#include <string>

namespace trnblas {

namespace {

using namespace detail;

template <class T>
Region region(const T* x, Layout layout, Op op, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return matrix_region(x, layout, op, rows, cols, ld, sizeof(T));
}

// symm/hemm: C (m×n) is written while A (ka×ka) and B (m×n) are read.
template <class T>
void sym_or_herm_mm(const char* f, Layout layout, Side side, Uplo uplo, std::int64_t m, std::int64_t n, T alpha,
                    const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
                    const trncore::Options& options, bool hermitian) {
  check_enums(f, {enum_arg("layout", layout), enum_arg("side", side), enum_arg("uplo", uplo)});
  check_host_call<T>(f, {{"m", m}, {"n", n}}, options);
  const std::int64_t ka = side == Side::left ? m : n;
  check_matrix(f, "a", layout, Op::no_trans, ka, ka, a, lda, sizeof(T), false);
  check_matrix(f, "b", layout, Op::no_trans, m, n, b, ldb, sizeof(T), false);
  check_matrix(f, "c", layout, Op::no_trans, m, n, c, ldc, sizeof(T), false);
  check_blasint(f, {{"m", m}, {"n", n}, {"lda", lda}, {"ldb", ldb}, {"ldc", ldc}});
  if (m == 0 || n == 0) return;
  const Region cs = region(c, layout, Op::no_trans, m, n, ldc);
  check_no_overlap(f, "C", cs, "A", region(a, layout, Op::no_trans, ka, ka, lda));
  check_no_overlap(f, "C", cs, "B", region(b, layout, Op::no_trans, m, n, ldb));
  const auto run = [&](auto routine) {
    routine(cblas_order(layout), cblas_side(side), cblas_uplo(uplo), bi(m), bi(n), scalar(alpha), a, bi(lda), b,
            bi(ldb), scalar(beta), c, bi(ldc));
  };
  if constexpr (is_complex_v<T>) {
    if (hermitian) return run(pick<T>(nullptr, nullptr, cblas_chemm, cblas_zhemm));
  }
  run(pick<T>(cblas_ssymm, cblas_dsymm, cblas_csymm, cblas_zsymm));
}

// The transposes a rank-k update defines: symmetric ones (syrk, syr2k) take no_trans or trans (and
// conj_trans as trans for real data, as BLAS); Hermitian ones (herk, her2k) no_trans or conj_trans.
void check_rank_k_trans(const char* f, Op trans, bool complex, bool hermitian) {
  const bool ok = hermitian ? trans != Op::trans : (!complex || trans != Op::conj_trans);
  if (!ok)
    throw trncore::InvalidArgument(
        f,
        "trans = " + std::string(to_string(trans)) + " is not defined for " +
            (hermitian ? "a Hermitian" : "a complex symmetric") + " rank-k update",
        hermitian ? "use Op::no_trans or Op::conj_trans" : "use Op::no_trans or Op::trans (herk/her2k compute A·A^H)");
}

// syrk/herk (b == nullptr, has_b false) and syr2k/her2k: C (n×n) is written while op(A), op(B) (n×k) are read.
template <class T>
bool check_rank_k(const char* f, Layout layout, Op trans, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
                  const T* b, std::int64_t ldb, bool has_b, const T* c, std::int64_t ldc, bool hermitian) {
  check_rank_k_trans(f, trans, is_complex_v<T>, hermitian);
  check_matrix(f, "a", layout, trans, n, k, a, lda, sizeof(T));
  if (has_b) check_matrix(f, "b", layout, trans, n, k, b, ldb, sizeof(T));
  check_matrix(f, "c", layout, Op::no_trans, n, n, c, ldc, sizeof(T), false);
  check_blasint(f, {{"n", n}, {"k", k}, {"lda", lda}, {"ldb", has_b ? ldb : 1}, {"ldc", ldc}});
  if (n == 0) return false;
  const Region cs = region(c, layout, Op::no_trans, n, n, ldc);
  if (k > 0) {
    check_no_overlap(f, "C", cs, "A", region(a, layout, trans, n, k, lda));
    if (has_b) check_no_overlap(f, "C", cs, "B", region(b, layout, trans, n, k, ldb));
  }
  return true;
}

// trmm/trsm: B (m×n) is overwritten while A (ka×ka) is read.
template <class T>
bool check_tr_mm(const char* f, Layout layout, Side side, std::int64_t m, std::int64_t n, const T* a, std::int64_t lda,
                 const T* b, std::int64_t ldb) {
  const std::int64_t ka = side == Side::left ? m : n;
  check_matrix(f, "a", layout, Op::no_trans, ka, ka, a, lda, sizeof(T), false);
  check_matrix(f, "b", layout, Op::no_trans, m, n, b, ldb, sizeof(T), false);
  check_blasint(f, {{"m", m}, {"n", n}, {"lda", lda}, {"ldb", ldb}});
  if (m == 0 || n == 0) return false;
  check_no_overlap(f, "B", region(b, layout, Op::no_trans, m, n, ldb), "A",
                   region(a, layout, Op::no_trans, ka, ka, lda));
  return true;
}

}  // namespace

template <class T>
void symm(Layout layout, Side side, Uplo uplo, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, std::type_identity_t<T> beta, T* c,
          std::int64_t ldc, const trncore::Options& options) {
  sym_or_herm_mm<T>("trnblas::symm", layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, options, false);
}

template <class T>
requires is_complex_v<T>
void hemm(Layout layout, Side side, Uplo uplo, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, std::type_identity_t<T> beta, T* c,
          std::int64_t ldc, const trncore::Options& options) {
  sym_or_herm_mm<T>("trnblas::hemm", layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, options, true);
}

template <class T>
void syrk(Layout layout, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, std::type_identity_t<T> alpha, const T* a,
          std::int64_t lda, std::type_identity_t<T> beta, T* c, std::int64_t ldc, const trncore::Options& options) {
  constexpr const char* f = "trnblas::syrk";
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo), enum_arg("trans", trans)});
  check_host_call<T>(f, {{"n", n}, {"k", k}}, options);
  if (!check_rank_k<T>(f, layout, trans, n, k, a, lda, nullptr, 1, false, c, ldc, false)) return;
  pick<T>(cblas_ssyrk, cblas_dsyrk, cblas_csyrk, cblas_zsyrk)(cblas_order(layout), cblas_uplo(uplo), cblas_trans(trans),
                                                              bi(n), bi(k), scalar(alpha), a, bi(lda), scalar(beta), c,
                                                              bi(ldc));
}

template <class T>
requires is_complex_v<T>
void herk(Layout layout, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, real_type<T> alpha, const T* a,
          std::int64_t lda, real_type<T> beta, T* c, std::int64_t ldc, const trncore::Options& options) {
  constexpr const char* f = "trnblas::herk";
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo), enum_arg("trans", trans)});
  check_host_call<T>(f, {{"n", n}, {"k", k}}, options);
  if (!check_rank_k<T>(f, layout, trans, n, k, a, lda, nullptr, 1, false, c, ldc, true)) return;
  pick<T>(nullptr, nullptr, cblas_cherk, cblas_zherk)(cblas_order(layout), cblas_uplo(uplo), cblas_trans(trans), bi(n),
                                                      bi(k), alpha, a, bi(lda), beta, c, bi(ldc));
}

template <class T>
void syr2k(Layout layout, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, std::type_identity_t<T> alpha,
           const T* a, std::int64_t lda, const T* b, std::int64_t ldb, std::type_identity_t<T> beta, T* c,
           std::int64_t ldc, const trncore::Options& options) {
  constexpr const char* f = "trnblas::syr2k";
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo), enum_arg("trans", trans)});
  check_host_call<T>(f, {{"n", n}, {"k", k}}, options);
  if (!check_rank_k(f, layout, trans, n, k, a, lda, b, ldb, true, c, ldc, false)) return;
  pick<T>(cblas_ssyr2k, cblas_dsyr2k, cblas_csyr2k, cblas_zsyr2k)(cblas_order(layout), cblas_uplo(uplo),
                                                                  cblas_trans(trans), bi(n), bi(k), scalar(alpha), a,
                                                                  bi(lda), b, bi(ldb), scalar(beta), c, bi(ldc));
}

template <class T>
requires is_complex_v<T>
void her2k(Layout layout, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, std::type_identity_t<T> alpha,
           const T* a, std::int64_t lda, const T* b, std::int64_t ldb, real_type<T> beta, T* c, std::int64_t ldc,
           const trncore::Options& options) {
  constexpr const char* f = "trnblas::her2k";
  check_enums(f, {enum_arg("layout", layout), enum_arg("uplo", uplo), enum_arg("trans", trans)});
  check_host_call<T>(f, {{"n", n}, {"k", k}}, options);
  if (!check_rank_k(f, layout, trans, n, k, a, lda, b, ldb, true, c, ldc, true)) return;
  pick<T>(nullptr, nullptr, cblas_cher2k, cblas_zher2k)(cblas_order(layout), cblas_uplo(uplo), cblas_trans(trans),
                                                        bi(n), bi(k), scalar(alpha), a, bi(lda), b, bi(ldb), beta, c,
                                                        bi(ldc));
}

template <class T>
void trmm(Layout layout, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n,
          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, T* b, std::int64_t ldb,
          const trncore::Options& options) {
  constexpr const char* f = "trnblas::trmm";
  check_enums(f, {enum_arg("layout", layout), enum_arg("side", side), enum_arg("uplo", uplo), enum_arg("trans", trans),
                  enum_arg("diag", diag)});
  check_host_call<T>(f, {{"m", m}, {"n", n}}, options);
  if (!check_tr_mm(f, layout, side, m, n, a, lda, b, ldb)) return;
  pick<T>(cblas_strmm, cblas_dtrmm, cblas_ctrmm, cblas_ztrmm)(cblas_order(layout), cblas_side(side), cblas_uplo(uplo),
                                                              cblas_trans(trans), cblas_diag(diag), bi(m), bi(n),
                                                              scalar(alpha), a, bi(lda), b, bi(ldb));
}

template <class T>
void trsm(Layout layout, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n,
          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, T* b, std::int64_t ldb,
          const trncore::Options& options) {
  constexpr const char* f = "trnblas::trsm";
  check_enums(f, {enum_arg("layout", layout), enum_arg("side", side), enum_arg("uplo", uplo), enum_arg("trans", trans),
                  enum_arg("diag", diag)});
  check_host_call<T>(f, {{"m", m}, {"n", n}}, options);
  if (!check_tr_mm(f, layout, side, m, n, a, lda, b, ldb)) return;
  pick<T>(cblas_strsm, cblas_dtrsm, cblas_ctrsm, cblas_ztrsm)(cblas_order(layout), cblas_side(side), cblas_uplo(uplo),
                                                              cblas_trans(trans), cblas_diag(diag), bi(m), bi(n),
                                                              scalar(alpha), a, bi(lda), b, bi(ldb));
}

using trncore::Options;
#define TRNBLAS_LEVEL3_ALL(T)                                                                                         \
  template void symm<T>(Layout, Side, Uplo, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*,          \
                        std::int64_t, T, T*, std::int64_t, const Options&);                                           \
  template void syrk<T>(Layout, Uplo, Op, std::int64_t, std::int64_t, T, const T*, std::int64_t, T, T*, std::int64_t, \
                        const Options&);                                                                              \
  template void syr2k<T>(Layout, Uplo, Op, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*,           \
                         std::int64_t, T, T*, std::int64_t, const Options&);                                          \
  template void trmm<T>(Layout, Side, Uplo, Op, Diag, std::int64_t, std::int64_t, T, const T*, std::int64_t, T*,      \
                        std::int64_t, const Options&);                                                                \
  template void trsm<T>(Layout, Side, Uplo, Op, Diag, std::int64_t, std::int64_t, T, const T*, std::int64_t, T*,      \
                        std::int64_t, const Options&);
#define TRNBLAS_LEVEL3_COMPLEX(T)                                                                            \
  template void hemm<T>(Layout, Side, Uplo, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*, \
                        std::int64_t, T, T*, std::int64_t, const Options&);                                  \
  template void herk<T>(Layout, Uplo, Op, std::int64_t, std::int64_t, real_type<T>, const T*, std::int64_t,  \
                        real_type<T>, T*, std::int64_t, const Options&);                                     \
  template void her2k<T>(Layout, Uplo, Op, std::int64_t, std::int64_t, T, const T*, std::int64_t, const T*,  \
                         std::int64_t, real_type<T>, T*, std::int64_t, const Options&);
TRNBLAS_LEVEL3_ALL(float)
TRNBLAS_LEVEL3_ALL(double)
TRNBLAS_LEVEL3_ALL(std::complex<float>)
TRNBLAS_LEVEL3_ALL(std::complex<double>)
TRNBLAS_LEVEL3_COMPLEX(std::complex<float>)
TRNBLAS_LEVEL3_COMPLEX(std::complex<double>)
#undef TRNBLAS_LEVEL3_ALL
#undef TRNBLAS_LEVEL3_COMPLEX

}  // namespace trnblas
