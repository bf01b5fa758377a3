// Bad input to every public entry point of the dense layer throws the documented exception whose
// message starts with the function's name, names the offending values and says what to do; numerical
// failures never throw (tested with each routine).
#include "dense_test_support.hpp"

#include <trncore/options.hpp>

namespace {

using namespace dense_test;
using trncore::DimensionMismatch;
using trncore::InvalidArgument;
using trncore::NotSupported;
using trnsolver::EigJob;
using trnsolver::Job;
using trnsolver::Norm;

constexpr Layout R = Layout::row_major;
constexpr Layout C = Layout::col_major;

TEST(DenseArguments, LeadingDimensionMessageNamesEverything) {
  std::vector<double> a(40);
  std::vector<std::int64_t> ipiv(4);
  try {
    trnsolver::getrf(R, 4, 5, a.data(), 3, ipiv.data());
    FAIL() << "no throw";
  } catch (const DimensionMismatch& e) {
    EXPECT_STREQ(e.what(), "trnsolver::getrf: lda = 3 is below n = 5 for a row-major 4x5 matrix: pass lda >= 5");
  }
  try {
    trnsolver::getrf(C, 4, 5, a.data(), 3, ipiv.data());
    FAIL() << "no throw";
  } catch (const DimensionMismatch& e) {
    EXPECT_STREQ(e.what(), "trnsolver::getrf: lda = 3 is below m = 4 for a column-major 4x5 matrix: pass lda >= 4");
  }
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { trnsolver::getrf(C, 0, 0, a.data(), 0, ipiv.data()); }, "getrf",
                                              "lda = 0 is below 1"));
}

TEST(DenseArguments, SizesPointersAndPivots) {
  std::vector<double> a(100, 1.0), b(100, 1.0);
  std::vector<std::int64_t> ipiv(10, 1);
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { trnsolver::getrf(R, -1, 3, a.data(), 3, ipiv.data()); }, "getrf",
                                            "negative size m = -1, n = 3"));
  EXPECT_TRUE(
      throws_named<InvalidArgument>([&] { trnsolver::getrf(R, 3, 3, static_cast<double*>(nullptr), 3, ipiv.data()); },
                                    "getrf", "a is null for a 3x3 operand"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { trnsolver::getrf(R, 3, 3, a.data(), 3, nullptr); }, "getrf",
                                            "ipiv is null for 3 elements"));
  EXPECT_TRUE(throws_named<NotSupported>([&] { trnsolver::getrf(R, 3'000'000'000LL, 1, a.data(), 1, ipiv.data()); },
                                         "getrf", "32-bit"));
  // Garbage pivots would index outside B: checked.
  std::vector<std::int64_t> bad = {1, 7, 3};
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::getrs(R, Op::no_trans, 3, 1, a.data(), 3, bad.data(), b.data(), 1); }, "getrs",
      "ipiv[1] = 7 is outside [1, 3]"));
  EXPECT_TRUE(throws_named<DimensionMismatch>(
      [&] { trnsolver::getrs(C, Op::no_trans, 3, 2, a.data(), 3, ipiv.data(), b.data(), 2); }, "getrs",
      "ldb = 2 is below n = 3"));
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { trnsolver::gesv(R, 3, 2, a.data(), 3, ipiv.data(), b.data(), 1); },
                                              "gesv", "ldb = 1 is below nrhs = 2"));
  // sytrs: a 2x2 block without its partner.
  std::vector<std::int64_t> lone = {1, -2, 3};
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::sytrs(R, Uplo::lower, 3, 1, a.data(), 3, lone.data(), b.data(), 1); }, "sytrs",
      "partner entry"));
  std::vector<std::int64_t> zero = {1, 0, 3};
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::sytrs(R, Uplo::upper, 3, 1, a.data(), 3, zero.data(), b.data(), 1); }, "sytrs", "ipiv[1] = 0"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { trnsolver::potrf(R, Uplo::lower, -2, a.data(), 1); }, "potrf",
                                            "negative size n = -2"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { trnsolver::potrf(R, static_cast<Uplo>(9), 2, a.data(), 2); }, "potrf",
                                            "uplo"));
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { trnsolver::potrs(C, Uplo::lower, 4, 1, a.data(), 3, b.data(), 4); },
                                              "potrs", "lda = 3 is below n = 4"));
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { trnsolver::posv(R, Uplo::upper, 2, 3, a.data(), 2, b.data(), 2); },
                                              "posv", "ldb = 2 is below nrhs = 3"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { trnsolver::sytrf(C, Uplo::lower, 3, a.data(), 3, nullptr); }, "sytrf",
                                            "ipiv is null"));
}

TEST(DenseArguments, QrLeastSquaresSvd) {
  std::vector<double> a(200, 1.0), b(200, 1.0), s(20), u(200), vt(200);
  EXPECT_TRUE(
      throws_named<InvalidArgument>([&] { trnsolver::geqrf(R, 4, 3, a.data(), 3, static_cast<double*>(nullptr)); },
                                    "geqrf", "tau is null for 3 elements"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { trnsolver::orgqr(C, 3, 4, 2, a.data(), 3, s.data()); }, "orgqr",
                                            "m >= n >= k"));
  EXPECT_TRUE(
      throws_named<DimensionMismatch>([&] { trnsolver::gels(C, Op::no_trans, 5, 3, 1, a.data(), 5, b.data(), 3); },
                                      "gels", "ldb = 3 is below max(m, n) = 5"));
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] {
        std::int64_t rank = 0;
        trnsolver::gelsd(C, 3, 3, 1, a.data(), 3, b.data(), 3, s.data(), std::nan(""), &rank);
      },
      "gelsd", "rcond is NaN"));
  a[4] = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] {
        std::int64_t rank = 0;
        trnsolver::gelsd(R, 3, 3, 1, a.data(), 3, b.data(), 1, s.data(), -1.0, &rank);
      },
      "gelsd", "a(1, 1) = inf is not finite"));
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::gesdd(R, Job::thin, 3, 3, a.data(), 3, s.data(), u.data(), 3, vt.data(), 3); }, "gesdd",
      "not finite"));
  a[4] = 1;
  EXPECT_TRUE(throws_named<DimensionMismatch>(
      [&] { trnsolver::gesdd(R, Job::full, 5, 3, a.data(), 3, s.data(), u.data(), 3, vt.data(), 3); }, "gesdd",
      "ldu = 3 is below m = 5"));
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::gesdd(R, Job::thin, 3, 3, a.data(), 3, s.data(), nullptr, 3, vt.data(), 3); }, "gesdd",
      "u is null"));
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::gesdd(R, static_cast<Job>(7), 3, 3, a.data(), 3, s.data(), u.data(), 3, vt.data(), 3); },
      "gesdd", "job"));
  const trncore::MatrixView<const double> v(a.data(), 4, 3, 3, R), vb(b.data(), 5, 1, 1, R);
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { (void)trnsolver::lstsq(v, vb); }, "lstsq", "b's rows = 5"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { (void)trnsolver::pinv(v, -1.0); }, "pinv", "rcond = -1"));
  b[2] = std::nan("");
  const trncore::MatrixView<const double> vn(b.data(), 3, 3, 3, C);
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { (void)trnsolver::pinv(vn); }, "pinv", "a(2, 0) = nan"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { (void)trnsolver::svd(vn); }, "svd", "a(2, 0) = nan"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { (void)trnsolver::schur(vn); }, "schur", "a(2, 0) = nan"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { (void)trnsolver::eigh(vn); }, "eigh", "a(2, 0) = nan"));
  b[2] = 1;
  // Views: span lengths and layouts.
  Mat<double> m(4, 3, R), mc(4, 1, C);
  std::vector<double> tau(2);
  std::vector<std::int64_t> ipiv(2);
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { trnsolver::geqrf(m.view(), std::span(tau)); }, "geqrf",
                                              "tau has 2 elements but 3 are needed"));
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { trnsolver::getrf(m.view(), std::span(ipiv)); }, "getrf",
                                              "ipiv has 2 elements"));
  Mat<double> sq(4, 4, R);
  std::vector<std::int64_t> p4(4);
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { trnsolver::gesv(sq.view(), std::span(p4), mc.view()); }, "gesv",
                                              "a is row_major but b is col_major"));
  EXPECT_TRUE(
      throws_named<DimensionMismatch>([&] { trnsolver::posv(Uplo::lower, m.view(), m.view()); }, "posv", "a is 4x3"));
}

TEST(DenseArguments, EigenSchurConditionInverseSqrt) {
  std::vector<double> a(100, 1.0), b(100, 1.0), w(10), wi(10), vs(100);
  a[0] = std::nan("");
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::syevd(R, EigJob::vectors, Uplo::lower, 3, a.data(), 3, w.data()); }, "syevd",
      "a(0, 0) = nan is not finite"));
  a[0] = 1;
  a[1] = std::nan("");  // (0, 1) row-major: outside the lower triangle, not read
  EXPECT_NO_THROW(trnsolver::syevd(R, EigJob::values_only, Uplo::lower, 3, a.data(), 3, w.data()));
  a.assign(100, 1.0);
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::syevd(R, static_cast<EigJob>(5), Uplo::lower, 3, a.data(), 3, w.data()); }, "syevd", "job"));
  EXPECT_TRUE(throws_named<DimensionMismatch>(
      [&] { trnsolver::sygvd(C, EigJob::vectors, Uplo::upper, 3, a.data(), 3, b.data(), 2, w.data()); }, "sygvd",
      "ldb = 2 is below n = 3"));
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::gees(R, EigJob::vectors, 3, a.data(), 3, w.data(), wi.data(), nullptr, 3); }, "gees",
      "vs is null"));
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::gees(R, EigJob::values_only, 3, a.data(), 3, w.data(), nullptr, nullptr, 1); }, "gees",
      "wi is null"));
  const trncore::MatrixView<const double> rect(a.data(), 3, 4, 4, R), sq(a.data(), 3, 3, 3, R),
      sq2(b.data(), 2, 2, 2, R);
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { (void)trnsolver::eigh(rect); }, "eigh", "a is 3x4"));
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { (void)trnsolver::schur(rect); }, "schur", "a is 3x4"));
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { (void)trnsolver::eigh_generalized(sq, sq2); }, "eigh_generalized",
                                              "b's rows = 2 but n = 3"));
  double rcond = 0;
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { trnsolver::gecon(R, Norm::fro, 3, a.data(), 3, 1.0, &rcond); },
                                            "gecon", "norm = fro"));
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { trnsolver::gecon(R, Norm::one, 3, a.data(), 3, -1.0, &rcond); },
                                            "gecon", "anorm"));
  EXPECT_TRUE(throws_named<InvalidArgument>(
      [&] { trnsolver::gecon(R, Norm::one, 3, a.data(), 3, std::nan(""), &rcond); }, "gecon", "NaN"));
  EXPECT_NO_THROW((void)trnsolver::lange(Norm::one, rect.transposed()));
  trnsolver::InvSqrtOptions o;
  o.max_iterations = 0;
  EXPECT_TRUE(throws_named<InvalidArgument>([&] { (void)trnsolver::inv_sqrt_spd(sq, o); }, "inv_sqrt_spd",
                                            "max_iterations = 0"));
  o = {};
  o.tolerance = -1;
  EXPECT_TRUE(
      throws_named<InvalidArgument>([&] { (void)trnsolver::inv_sqrt_spd(sq, o); }, "inv_sqrt_spd", "tolerance"));
  EXPECT_TRUE(throws_named<DimensionMismatch>([&] { (void)trnsolver::inv_sqrt_spd(rect); }, "inv_sqrt_spd", "3x4"));
}

TEST(DenseArguments, OptionsTheHostLayerCannotHonour) {
  std::vector<double> a(9, 1.0);
  std::vector<std::int64_t> ipiv(3);
  trncore::Options sim;
  sim.backend = trncore::Backend::sim;
  EXPECT_TRUE(throws_named<NotSupported>([&] { trnsolver::getrf(R, 3, 3, a.data(), 3, ipiv.data(), sim); }, "getrf",
                                         "sim backend"));
  trncore::Options target;
  target.target_forward_error = 1e-10;
  EXPECT_TRUE(throws_named<NotSupported>([&] { trnsolver::potrf(R, Uplo::lower, 3, a.data(), 3, target); }, "potrf",
                                         "target_forward_error"));
  trncore::Options fp32;
  fp32.math_mode = trncore::MathMode::fp32;
  EXPECT_TRUE(throws_named<NotSupported>(
      [&] { (void)trnsolver::svd(trncore::MatrixView<const double>(a.data(), 3, 3, 3), Job::thin, fp32); }, "svd",
      "math mode fp32"));
  std::vector<float> af(9, 1.0f);
  EXPECT_NO_THROW(trnsolver::potrf(R, Uplo::lower, 3, af.data(), 3, fp32));  // fp32 is float's own precision
  trncore::Options bad;
  bad.threads = -1;
  EXPECT_THROW(trnsolver::geqrf(R, 3, 3, a.data(), 3, a.data(), bad), trncore::InvalidArgument);
  // Layout and backend values outside their enumerators (issue #18): InvalidArgument naming the value.
  std::vector<std::int64_t> piv(3);
  EXPECT_TRUE(throws_named<trncore::InvalidArgument>(
      [&] { trnsolver::getrf(static_cast<trncore::Layout>(9), 3, 3, a.data(), 3, piv.data()); }, "getrf", "layout"));
  EXPECT_TRUE(throws_named<trncore::InvalidArgument>(
      [&] { trnsolver::potrf(static_cast<trncore::Layout>(5), Uplo::lower, 3, a.data(), 3); }, "potrf", "layout"));
  trncore::Options backend;
  backend.backend = static_cast<trncore::Backend>(6);
  EXPECT_TRUE(throws_named<trncore::InvalidArgument>(
      [&] { trnsolver::getrf(R, 3, 3, a.data(), 3, piv.data(), backend); }, "getrf", "backend"));
}

TEST(DenseArguments, EnumNamesRoundTrip) {
  for (Job j : {Job::values_only, Job::thin, Job::full}) EXPECT_EQ(trnsolver::parse_job(trnsolver::to_string(j)), j);
  for (EigJob j : {EigJob::values_only, EigJob::vectors})
    EXPECT_EQ(trnsolver::parse_eig_job(trnsolver::to_string(j)), j);
  for (Norm n : {Norm::one, Norm::inf, Norm::fro, Norm::max})
    EXPECT_EQ(trnsolver::parse_norm(trnsolver::to_string(n)), n);
  for (auto m : {trnsolver::LstsqMethod::qr, trnsolver::LstsqMethod::svd})
    EXPECT_EQ(trnsolver::parse_lstsq_method(trnsolver::to_string(m)), m);
  for (auto m : {trnsolver::InvSqrtMethod::eigh, trnsolver::InvSqrtMethod::newton_schulz})
    EXPECT_EQ(trnsolver::parse_inv_sqrt_method(trnsolver::to_string(m)), m);
  EXPECT_THROW((void)trnsolver::parse_job("economy"), trncore::ParseError);
  EXPECT_THROW((void)trnsolver::parse_norm("two"), trncore::ParseError);
  EXPECT_EQ(trnsolver::to_string(static_cast<Job>(9)), "invalid");
}

}  // namespace
