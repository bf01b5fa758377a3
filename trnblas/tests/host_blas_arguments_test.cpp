// Every bad-argument path of the host BLAS routines throws the documented exception with a message that
// names the function, the values and a fix; the enum names round-trip.
#include "host_blas_test_support.hpp"

#include <limits>

namespace {

using namespace trnblas_test;
using trncore::Backend;
using trncore::MathMode;
using trncore::Options;

const std::int64_t kBig = std::int64_t{1} << 31;  // one past OpenBLAS's 32-bit blasint

TEST(HostBlasNames, RoundTripAndParseErrors) {
  for (Op v : {Op::no_trans, Op::trans, Op::conj_trans}) EXPECT_EQ(trnblas::parse_op(trnblas::to_string(v)), v);
  for (Uplo v : {Uplo::upper, Uplo::lower}) EXPECT_EQ(trnblas::parse_uplo(trnblas::to_string(v)), v);
  for (Diag v : {Diag::non_unit, Diag::unit}) EXPECT_EQ(trnblas::parse_diag(trnblas::to_string(v)), v);
  for (Side v : {Side::left, Side::right}) EXPECT_EQ(trnblas::parse_side(trnblas::to_string(v)), v);
  EXPECT_EQ(message_of([] { trnblas::parse_op("T"); }),
            "trnblas::parse_op: unknown op 'T' (line 1, column 1): use no_trans, trans or conj_trans");
  EXPECT_THROW(trnblas::parse_side("up"), trncore::ParseError);
}

TEST(HostBlasArguments, Level1) {
  std::vector<double> x(16, 1.0), y(16, 2.0);
  EXPECT_EQ(message_of([&] { trnblas::axpy(-1, 1.0, x.data(), 1, y.data(), 1); }),
            "trnblas::axpy: negative size n = -1: pass sizes >= 0");
  EXPECT_EQ(message_of([&] { trnblas::axpy(3, 1.0, x.data(), 0, y.data(), 1); }),
            "trnblas::axpy: incx = 0: pass a nonzero incx (a negative one walks x backwards, as in BLAS)");
  EXPECT_EQ(message_of([&] { trnblas::copy(3, x.data(), 1, y.data(), 0); }),
            "trnblas::copy: incy = 0: pass a nonzero incy (a negative one walks y backwards, as in BLAS)");
  EXPECT_EQ(message_of([&] { trnblas::dot(3, static_cast<const double*>(nullptr), 1, y.data(), 1); }),
            "trnblas::dot: x is null for n = 3 elements: pass x's storage");
  EXPECT_NO_THROW(trnblas::dot(0, static_cast<const double*>(nullptr), 1, static_cast<const double*>(nullptr), 1));
  EXPECT_EQ(message_of([&] { trnblas::axpy(4, 1.0, x.data(), 1, x.data() + 3, 1); }),
            "trnblas::axpy: y overlaps x: pass a y that shares no storage with x (BLAS reads x while writing y)");
  EXPECT_THROW(trnblas::swap(4, x.data(), 2, x.data() + 4, 1), trncore::InvalidArgument);
  EXPECT_THROW(trnblas::rot(4, x.data(), -1, x.data(), -1, 0.6, 0.8), trncore::InvalidArgument);
  // The even and odd elements of one array interleave without sharing an element: not aliasing.
  EXPECT_NO_THROW(trnblas::axpy(8, 1.0, x.data(), 2, x.data() + 1, 2));
  EXPECT_EQ(message_of([&] { trnblas::scal(3, 2.0, x.data(), std::int64_t{1} << 62); }),
            "trnblas::scal: x's storage extent (n - 1) x |incx| with n = 3, incx = 4611686018427387904 overflows "
            "int64: pass smaller sizes");
  EXPECT_EQ(message_of([&] { trnblas::nrm2(kBig, x.data(), 1); }),
            "trnblas::nrm2: n = 2147483648 exceeds OpenBLAS's 32-bit integers (limit 2147483647): split the call "
            "into pieces below that size");
  EXPECT_THROW(trnblas::asum(1, x.data(), -kBig), trncore::NotSupported);
  EXPECT_EQ(message_of([&] { trnblas::iamax(3, x.data(), -1); }),
            "trnblas::iamax: incx = -1 is negative: pass incx > 0 (BLAS defines no index order for a negative "
            "increment)");
  double a = 1, b = 2, c, s;
  EXPECT_EQ(message_of([&] { trnblas::rotg(&a, &b, static_cast<double*>(nullptr), &s); }),
            "trnblas::rotg: c is null: pass the addresses of a, b, c and s");
  EXPECT_NO_THROW(trnblas::rotg(&a, &b, &c, &s));
}

TEST(HostBlasArguments, OptionsOfHostOnlyRoutines) {
  std::vector<float> x(4, 1.0f), y(4, 2.0f);
  const auto axpy = [&](const Options& o) { trnblas::axpy(4, 1.0f, x.data(), 1, y.data(), 1, o); };
  EXPECT_EQ(message_of([&] { axpy(Options{}.with_backend(Backend::sim)); }),
            "trnblas::axpy: the sim backend models gemm (float, double) only; trnblas::axpy runs on the host backend "
            "only: use trncore::Backend::host (the default)");
  // Also for n = 0: what is not modelled is refused whatever the sizes.
  EXPECT_THROW(trnblas::nrm2(0, x.data(), 1, Options{}.with_backend(Backend::sim)), trncore::NotSupported);
  EXPECT_EQ(message_of([&] { axpy(Options{}.with_math_mode(MathMode::bf16)); }),
            "trnblas::axpy: math mode bf16 is not a host mode for single-precision data: use MathMode::automatic: "
            "host routines compute in the precision of their data");
  EXPECT_THROW(axpy(Options{}.with_math_mode(MathMode::fp64)), trncore::NotSupported);
  EXPECT_NO_THROW(axpy(Options{}.with_math_mode(MathMode::fp32)));
  EXPECT_EQ(message_of([&] { axpy(Options{}.with_target(1e-6)); }),
            "trnblas::axpy: target_forward_error = 1.000e-06 is certified by gemm only; this routine has a fixed "
            "(documented) bound: leave target_forward_error unset for this call");
  EXPECT_THROW(axpy(Options{}.with_target(2.0)), trncore::InvalidArgument);  // invalid options come first
  std::vector<std::complex<double>> z(4);
  EXPECT_THROW(trnblas::dotc(4, z.data(), 1, z.data(), 1, Options{}.with_backend(Backend::sim)), trncore::NotSupported);
  EXPECT_THROW(trnblas::trsm(Layout::row_major, Side::left, Uplo::upper, Op::no_trans, Diag::unit, 2, 2, 1.0, z.data(),
                             2, z.data(), 2, Options{}.with_backend(Backend::sim)),
               trncore::NotSupported);
}

TEST(HostBlasArguments, Level2) {
  std::vector<double> a(64, 1.0), x(16, 1.0), y(16, 1.0);
  const auto gemv = [&](Layout l, Op op, std::int64_t m, std::int64_t n, std::int64_t lda, double* yp,
                        std::int64_t incy) {
    trnblas::gemv(l, op, m, n, 1.0, a.data(), lda, x.data(), 1, 0.0, yp, incy);
  };
  EXPECT_EQ(message_of([&] { gemv(Layout::row_major, Op::no_trans, 3, 5, 4, y.data(), 1); }),
            "trnblas::gemv: lda = 4 is less than 5 (row_major, a stored 3x5): pass lda >= 5");
  EXPECT_THROW(gemv(Layout::col_major, Op::trans, 3, 5, 2, y.data(), 1), trncore::DimensionMismatch);
  EXPECT_NO_THROW(gemv(Layout::col_major, Op::trans, 3, 5, 3, y.data(), 1));
  EXPECT_EQ(message_of([&] { gemv(Layout::row_major, Op::no_trans, -3, 5, 5, y.data(), 1); }),
            "trnblas::gemv: negative size m = -3, n = 5: pass sizes >= 0");
  EXPECT_THROW(gemv(Layout::row_major, Op::no_trans, 3, 5, 5, y.data(), 0), trncore::InvalidArgument);
  EXPECT_NE(message_of([&] { gemv(Layout::row_major, Op::no_trans, 3, 5, 5, a.data() + 2, 1); }).find("y overlaps A"),
            std::string::npos);
  EXPECT_NE(message_of([&] { gemv(Layout::row_major, Op::no_trans, 3, 5, 5, x.data() + 1, 1); }).find("y overlaps x"),
            std::string::npos);
  EXPECT_THROW(gemv(Layout::row_major, Op::no_trans, 3, 5, kBig, y.data(), 1), trncore::NotSupported);
  EXPECT_EQ(message_of([&] {
              trnblas::trsv(Layout::col_major, Uplo::upper, Op::no_trans, Diag::non_unit, 4, a.data(), 4, a.data() + 5,
                            1);
            }),
            "trnblas::trsv: x overlaps A: pass a x that shares no storage with A (BLAS reads A while writing x)");
  EXPECT_THROW(trnblas::trmv(Layout::col_major, Uplo::upper, Op::no_trans, Diag::non_unit, 4,
                             static_cast<const double*>(nullptr), 4, x.data(), 1),
               trncore::InvalidArgument);
  EXPECT_NE(message_of([&] {
              trnblas::ger(Layout::row_major, 2, 2, 1.0, a.data(), 1, y.data(), 1, a.data(), 2);
            }).find("A overlaps x"),
            std::string::npos);
  EXPECT_THROW(trnblas::syr(Layout::row_major, Uplo::lower, 3, 1.0, x.data(), 1, a.data(), 2),
               trncore::DimensionMismatch);
  std::vector<std::complex<float>> z(16);
  EXPECT_THROW(trnblas::her2(Layout::row_major, Uplo::lower, 2, std::complex<float>(1), z.data(), -1, z.data() + 8, 0,
                             z.data() + 12, 2),
               trncore::InvalidArgument);
}

TEST(HostBlasArguments, Level3) {
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 0.0);
  EXPECT_EQ(message_of([&] {
              trnblas::symm(Layout::col_major, Side::left, Uplo::upper, 4, 3, 1.0, a.data(), 4, b.data(), 4, 0.0,
                            c.data(), 3);
            }),
            "trnblas::symm: ldc = 3 is less than 4 (col_major, c stored 4x3): pass ldc >= 4");
  EXPECT_EQ(message_of([&] {
              trnblas::symm(Layout::col_major, Side::right, Uplo::upper, 4, 3, 1.0, a.data(), 2, b.data(), 4, 0.0,
                            c.data(), 4);
            }),
            "trnblas::symm: lda = 2 is less than 3 (col_major, a stored 3x3): pass lda >= 3");
  EXPECT_NE(message_of([&] {
              trnblas::symm(Layout::col_major, Side::left, Uplo::upper, 4, 3, 1.0, a.data(), 4, b.data(), 4, 0.0,
                            b.data() + 8, 4);
            }).find("C overlaps B"),
            std::string::npos);
  EXPECT_EQ(message_of([&] {
              trnblas::syrk(Layout::row_major, Uplo::upper, Op::trans, 3, 5, 1.0, a.data(), 2, 0.0, c.data(), 3);
            }),
            "trnblas::syrk: lda = 2 is less than 3 (row_major, op(a) = trans, a stored 5x3): pass lda >= 3");
  std::vector<std::complex<double>> z(64), w(64);
  EXPECT_EQ(message_of([&] {
              trnblas::syrk(Layout::row_major, Uplo::upper, Op::conj_trans, 3, 2, std::complex<double>(1), z.data(), 3,
                            std::complex<double>(0), w.data(), 3);
            }),
            "trnblas::syrk: trans = conj_trans is not defined for a complex symmetric rank-k update: use Op::no_trans "
            "or Op::trans (herk/her2k compute A·A^H)");
  EXPECT_EQ(message_of([&] {
              trnblas::herk(Layout::row_major, Uplo::upper, Op::trans, 3, 2, 1.0, z.data(), 3, 0.0, w.data(), 3);
            }),
            "trnblas::herk: trans = trans is not defined for a Hermitian rank-k update: use Op::no_trans or "
            "Op::conj_trans");
  EXPECT_THROW(trnblas::her2k(Layout::col_major, Uplo::lower, Op::no_trans, 3, 2, std::complex<double>(1), z.data(), 3,
                              z.data() + 1, 3, 0.0, z.data() + 4, 3),
               trncore::InvalidArgument);  // C overlaps A and B
  // k = 0 needs no A: C := beta·C (the BLAS quick path), null A accepted.
  std::vector<double> cc{1, 2, 3, 4};
  trnblas::syrk(Layout::row_major, Uplo::upper, Op::no_trans, 2, 0, 1.0, static_cast<const double*>(nullptr), 1, 2.0,
                cc.data(), 2);
  EXPECT_EQ(cc, (std::vector<double>{2, 4, 3, 8}));  // the lower element (1, 0) is not referenced
  EXPECT_EQ(message_of([&] {
              trnblas::trsm(Layout::row_major, Side::right, Uplo::lower, Op::trans, Diag::unit, 2, 3, 1.0, a.data(), 3,
                            a.data() + 1, 3);
            }),
            "trnblas::trsm: B overlaps A: pass a B that shares no storage with A (BLAS reads A while writing B)");
  EXPECT_THROW(trnblas::trmm(Layout::row_major, Side::left, Uplo::lower, Op::trans, Diag::unit, 2, 3, 1.0, a.data(), 2,
                             b.data(), kBig),
               trncore::NotSupported);
  EXPECT_THROW(trnblas::trmm(Layout::row_major, Side::left, Uplo::lower, Op::trans, Diag::unit, 2, -3, 1.0, a.data(), 2,
                             b.data(), 3),
               trncore::InvalidArgument);
}

TEST(HostBlasArguments, Batched) {
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 0.0);
  const auto strided = [&](std::int64_t sa, std::int64_t sc, std::int64_t batch, double* cp, const Options& o = {}) {
    trnblas::gemm_strided_batched(Layout::row_major, Op::no_trans, Op::no_trans, 2, 2, 2, 1.0, a.data(), 2, sa,
                                  b.data(), 2, 4, 0.0, cp, 2, sc, batch, o);
  };
  EXPECT_EQ(message_of([&] { strided(0, 4, -1, c.data()); }),
            "trnblas::gemm_strided_batched: negative size m = 2, n = 2, k = 2, batch = -1: pass sizes >= 0");
  EXPECT_EQ(message_of([&] { strided(-4, 4, 2, c.data()); }),
            "trnblas::gemm_strided_batched: stride_a = -4 is negative: pass stride_a >= 0");
  EXPECT_EQ(message_of([&] { strided(0, 3, 2, c.data()); }),
            "trnblas::gemm_strided_batched: C[0] overlaps C[1]: pass C entries that share no storage with each other "
            "or with any A or B entry");
  EXPECT_NE(message_of([&] { strided(0, 4, 3, a.data() + 2); }).find("overlaps A[0]"), std::string::npos);
  EXPECT_THROW(strided(0, 4, 2, c.data(), Options{}.with_backend(Backend::sim)), trncore::NotSupported);
  EXPECT_NO_THROW(strided(0, 4, 3, c.data()));
  EXPECT_EQ(c[0], 2.0);
  // Interleaved but disjoint: entry i is columns [2i, 2i+2) of a 2×8 row-major C (ld 8, stride 2).
  std::vector<double> wide(16, 0.0);
  EXPECT_NO_THROW(trnblas::gemm_strided_batched(Layout::row_major, Op::no_trans, Op::no_trans, 2, 2, 2, 1.0, a.data(),
                                                2, 0, b.data(), 2, 0, 0.0, wide.data(), 8, 2, 4));
  EXPECT_EQ(wide, std::vector<double>(16, 2.0));
  const double* pa[] = {a.data(), nullptr};
  const double* pb[] = {b.data(), b.data()};
  double* pc[] = {c.data(), c.data() + 8};
  EXPECT_EQ(message_of([&] {
              trnblas::gemm_batched(Layout::row_major, Op::no_trans, Op::no_trans, 2, 2, 2, 1.0, pa, 2, pb, 2, 0.0, pc,
                                    2, 2);
            }),
            "trnblas::gemm_batched: a[1] is null (m = 2, n = 2, k = 2): pass storage for every entry of the batch");
  EXPECT_EQ(message_of([&] {
              trnblas::gemm_batched(Layout::row_major, Op::no_trans, Op::no_trans, 2, 2, 2, 1.0,
                                    static_cast<const double* const*>(nullptr), 2, pb, 2, 0.0, pc, 2, 2);
            }),
            "trnblas::gemm_batched: the pointer array a is null for batch = 2: pass an array of batch pointers");
  EXPECT_NO_THROW(trnblas::gemm_batched(
      Layout::row_major, Op::no_trans, Op::no_trans, 2, 2, 2, 1.0, static_cast<const double* const*>(nullptr), 2,
      static_cast<const double* const*>(nullptr), 2, 0.0, static_cast<double* const*>(nullptr), 2, 0));
  double* same[] = {c.data(), c.data()};
  pa[1] = a.data();
  EXPECT_NE(message_of([&] {
              trnblas::gemm_batched(Layout::row_major, Op::no_trans, Op::no_trans, 2, 2, 2, 1.0, pa, 2, pb, 2, 0.0,
                                    same, 2, 2);
            }).find("overlaps C["),
            std::string::npos);
  EXPECT_THROW(
      trnblas::gemm_batched(Layout::col_major, Op::trans, Op::no_trans, 2, 2, 3, 1.0, pa, 2, pb, 3, 0.0, pc, 2, 2),
      trncore::DimensionMismatch);  // op(A) = Aᵀ is 2×3: A stored 3×2, column-major lda ≥ 3
}

// Issue 18: an enum argument made with static_cast (Op(7), Layout(9), …) is InvalidArgument in every entry
// point, named with its value and the accepted enumerators — before anything else is checked or touched.
TEST(HostBlasArguments, InvalidEnumValuesAreRejectedEverywhere) {
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 0.0), x(16, 1.0), y(16, 1.0);
  const auto bad_op = static_cast<Op>(7);
  const auto bad_layout = static_cast<Layout>(9);
  const auto bad_uplo = static_cast<Uplo>(5);
  const auto bad_diag = static_cast<Diag>(3);
  const auto bad_side = static_cast<Side>(4);
  const auto rejects = [](const std::string& message, const std::string& function, const std::string& what) {
    return message.rfind(function + ": " + what + " has the invalid value ", 0) == 0 &&
           message.find(": pass ") != std::string::npos;
  };
  const auto invalid = [](auto&& f) {
    try {
      f();
    } catch (const trncore::InvalidArgument&) {
      return true;
    } catch (...) {}
    return false;
  };
  const auto gemm = [&](Layout l, Op ta, Op tb) {
    trnblas::gemm(l, ta, tb, 2, 2, 2, 1.0, a.data(), 2, b.data(), 2, 0.0, c.data(), 2);
  };
  EXPECT_EQ(message_of([&] { gemm(Layout::row_major, bad_op, Op::no_trans); }),
            "trnblas::gemm: transa has the invalid value 7: pass Op::no_trans, Op::trans or Op::conj_trans");
  EXPECT_EQ(message_of([&] { gemm(bad_layout, Op::no_trans, Op::no_trans); }),
            "trnblas::gemm: layout has the invalid value 9: pass Layout::row_major or Layout::col_major");
  EXPECT_TRUE(rejects(message_of([&] { gemm(Layout::col_major, Op::trans, bad_op); }), "trnblas::gemm", "transb"));
  // Also with a report, on sim, and in the view form (whose shapes depend on the ops).
  trncore::AccuracyReport report;
  EXPECT_TRUE(invalid([&] {
    trnblas::gemm(Layout::row_major, bad_op, Op::no_trans, 2, 2, 2, 1.0, a.data(), 2, b.data(), 2, 0.0, c.data(), 2,
                  Options{}.with_backend(Backend::sim).with_math_mode(MathMode::ozaki), report);
  }));
  const trncore::MatrixView<const double> av(a.data(), 2, 2, 2), bv(b.data(), 2, 2, 2);
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::gemm(bad_op, Op::no_trans, 1.0, av, bv, 0.0,
                                      trncore::MatrixView<double>(c.data(), 2, 2, 2));
                      }),
                      "trnblas::gemm", "transa"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::gemv(bad_op, 1.0, av, trncore::VectorView<const double>(x.data(), 2, 1), 0.0,
                                      trncore::VectorView<double>(y.data(), 2, 1));
                      }),
                      "trnblas::gemv", "trans"));
  // Level 2.
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::gemv(Layout::row_major, bad_op, 2, 2, 1.0, a.data(), 2, x.data(), 1, 0.0, y.data(), 1);
                      }),
                      "trnblas::gemv", "trans"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::gemv(bad_layout, Op::no_trans, 2, 2, 1.0, a.data(), 2, x.data(), 1, 0.0, y.data(), 1);
                      }),
                      "trnblas::gemv", "layout"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::symv(Layout::row_major, bad_uplo, 2, 1.0, a.data(), 2, x.data(), 1, 0.0, y.data(), 1);
                      }),
                      "trnblas::symv", "uplo"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::trmv(Layout::row_major, Uplo::upper, Op::no_trans, bad_diag, 2, a.data(), 2, x.data(),
                                      1);
                      }),
                      "trnblas::trmv", "diag"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::trsv(Layout::row_major, bad_uplo, Op::no_trans, Diag::unit, 2, a.data(), 2, x.data(),
                                      1);
                      }),
                      "trnblas::trsv", "uplo"));
  EXPECT_TRUE(rejects(message_of([&] { trnblas::ger(bad_layout, 2, 2, 1.0, x.data(), 1, y.data(), 1, a.data(), 2); }),
                      "trnblas::ger", "layout"));
  EXPECT_TRUE(rejects(message_of([&] { trnblas::syr(Layout::col_major, bad_uplo, 2, 1.0, x.data(), 1, a.data(), 2); }),
                      "trnblas::syr", "uplo"));
  EXPECT_TRUE(rejects(
      message_of([&] { trnblas::syr2(Layout::col_major, bad_uplo, 2, 1.0, x.data(), 1, y.data(), 1, a.data(), 2); }),
      "trnblas::syr2", "uplo"));
  std::vector<std::complex<double>> za(16), zx(4), zy(4);
  EXPECT_TRUE(
      rejects(message_of([&] { trnblas::her(Layout::col_major, bad_uplo, 2, 1.0, zx.data(), 1, za.data(), 2); }),
              "trnblas::her", "uplo"));
  EXPECT_TRUE(
      rejects(message_of([&] { trnblas::gerc(bad_layout, 2, 2, 1.0, zx.data(), 1, zy.data(), 1, za.data(), 2); }),
              "trnblas::gerc", "layout"));
  // Level 3.
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::symm(Layout::col_major, bad_side, Uplo::upper, 2, 2, 1.0, a.data(), 2, b.data(), 2,
                                      0.0, c.data(), 2);
                      }),
                      "trnblas::symm", "side"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::hemm(Layout::col_major, Side::left, bad_uplo, 2, 2, 1.0, za.data(), 2, za.data() + 4,
                                      2, 0.0, za.data() + 8, 2);
                      }),
                      "trnblas::hemm", "uplo"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::syrk(bad_layout, Uplo::upper, Op::no_trans, 2, 2, 1.0, a.data(), 2, 0.0, c.data(), 2);
                      }),
                      "trnblas::syrk", "layout"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::syr2k(Layout::row_major, Uplo::upper, bad_op, 2, 2, 1.0, a.data(), 2, b.data(), 2, 0.0,
                                       c.data(), 2);
                      }),
                      "trnblas::syr2k", "trans"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::herk(Layout::row_major, bad_uplo, Op::no_trans, 2, 2, 1.0, za.data(), 2, 0.0,
                                      za.data() + 8, 2);
                      }),
                      "trnblas::herk", "uplo"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::her2k(Layout::row_major, Uplo::lower, bad_op, 2, 2, 1.0, za.data(), 2, za.data() + 4,
                                       2, 0.0, za.data() + 8, 2);
                      }),
                      "trnblas::her2k", "trans"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::trmm(Layout::row_major, Side::left, Uplo::upper, Op::no_trans, bad_diag, 2, 2, 1.0,
                                      a.data(), 2, b.data(), 2);
                      }),
                      "trnblas::trmm", "diag"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::trsm(Layout::row_major, bad_side, Uplo::upper, Op::no_trans, Diag::unit, 2, 2, 1.0,
                                      a.data(), 2, b.data(), 2);
                      }),
                      "trnblas::trsm", "side"));
  // Batched.
  const double* ap[] = {a.data()};
  const double* bp[] = {b.data()};
  double* cp[] = {c.data()};
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::gemm_batched(Layout::row_major, Op::no_trans, bad_op, 2, 2, 2, 1.0, ap, 2, bp, 2, 0.0,
                                              cp, 2, 1);
                      }),
                      "trnblas::gemm_batched", "transb"));
  EXPECT_TRUE(rejects(message_of([&] {
                        trnblas::gemm_strided_batched(bad_layout, Op::no_trans, Op::no_trans, 2, 2, 2, 1.0, a.data(), 2,
                                                      4, b.data(), 2, 4, 0.0, c.data(), 2, 4, 1);
                      }),
                      "trnblas::gemm_strided_batched", "layout"));
  // Nothing was written by any rejected call.
  EXPECT_EQ(c, std::vector<double>(64, 0.0));
  EXPECT_EQ(y, std::vector<double>(16, 1.0));
}

}  // namespace
