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
  trnsci_testing::expect_error<DimensionMismatch>([&] { trnsolver::getrf(C, 0, 0, a.data(), 0, ipiv.data()); },
                                                  "trnsolver::getrf", {"lda = 0 is below 1"});
}

TEST(DenseArguments, SizesPointersAndPivots) {
  std::vector<double> a(100, 1.0), b(100, 1.0);
  std::vector<std::int64_t> ipiv(10, 1);
  trnsci_testing::expect_error<InvalidArgument>([&] { trnsolver::getrf(R, -1, 3, a.data(), 3, ipiv.data()); },
                                                "trnsolver::getrf", {"negative size m = -1, n = 3"});
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::getrf(R, 3, 3, static_cast<double*>(nullptr), 3, ipiv.data()); }, "trnsolver::getrf",
      {"a is null for a 3x3 operand"});
  trnsci_testing::expect_error<InvalidArgument>([&] { trnsolver::getrf(R, 3, 3, a.data(), 3, nullptr); },
                                                "trnsolver::getrf", {"ipiv is null for 3 elements"});
  trnsci_testing::expect_error<NotSupported>([&] { trnsolver::getrf(R, 3'000'000'000LL, 1, a.data(), 1, ipiv.data()); },
                                             "trnsolver::getrf", {"32-bit"});
  // Garbage pivots would index outside B: checked.
  std::vector<std::int64_t> bad = {1, 7, 3};
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::getrs(R, Op::no_trans, 3, 1, a.data(), 3, bad.data(), b.data(), 1); }, "trnsolver::getrs",
      {"ipiv[1] = 7 is outside [1, 3]"});
  trnsci_testing::expect_error<DimensionMismatch>(
      [&] { trnsolver::getrs(C, Op::no_trans, 3, 2, a.data(), 3, ipiv.data(), b.data(), 2); }, "trnsolver::getrs",
      {"ldb = 2 is below n = 3"});
  trnsci_testing::expect_error<DimensionMismatch>(
      [&] { trnsolver::gesv(R, 3, 2, a.data(), 3, ipiv.data(), b.data(), 1); }, "trnsolver::gesv",
      {"ldb = 1 is below nrhs = 2"});
  // sytrs: a 2x2 block without its partner.
  std::vector<std::int64_t> lone = {1, -2, 3};
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::sytrs(R, Uplo::lower, 3, 1, a.data(), 3, lone.data(), b.data(), 1); }, "trnsolver::sytrs",
      {"partner entry"});
  std::vector<std::int64_t> zero = {1, 0, 3};
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::sytrs(R, Uplo::upper, 3, 1, a.data(), 3, zero.data(), b.data(), 1); }, "trnsolver::sytrs",
      {"ipiv[1] = 0"});
  trnsci_testing::expect_error<InvalidArgument>([&] { trnsolver::potrf(R, Uplo::lower, -2, a.data(), 1); },
                                                "trnsolver::potrf", {"negative size n = -2"});
  trnsci_testing::expect_error<InvalidArgument>([&] { trnsolver::potrf(R, static_cast<Uplo>(9), 2, a.data(), 2); },
                                                "trnsolver::potrf", {"uplo"});
  trnsci_testing::expect_error<DimensionMismatch>(
      [&] { trnsolver::potrs(C, Uplo::lower, 4, 1, a.data(), 3, b.data(), 4); }, "trnsolver::potrs",
      {"lda = 3 is below n = 4"});
  trnsci_testing::expect_error<DimensionMismatch>(
      [&] { trnsolver::posv(R, Uplo::upper, 2, 3, a.data(), 2, b.data(), 2); }, "trnsolver::posv",
      {"ldb = 2 is below nrhs = 3"});
  trnsci_testing::expect_error<InvalidArgument>([&] { trnsolver::sytrf(C, Uplo::lower, 3, a.data(), 3, nullptr); },
                                                "trnsolver::sytrf", {"ipiv is null"});
}

TEST(DenseArguments, QrLeastSquaresSvd) {
  std::vector<double> a(200, 1.0), b(200, 1.0), s(20), u(200), vt(200);
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::geqrf(R, 4, 3, a.data(), 3, static_cast<double*>(nullptr)); }, "trnsolver::geqrf",
      {"tau is null for 3 elements"});
  trnsci_testing::expect_error<InvalidArgument>([&] { trnsolver::orgqr(C, 3, 4, 2, a.data(), 3, s.data()); },
                                                "trnsolver::orgqr", {"m >= n >= k"});
  trnsci_testing::expect_error<DimensionMismatch>(
      [&] { trnsolver::gels(C, Op::no_trans, 5, 3, 1, a.data(), 5, b.data(), 3); }, "trnsolver::gels",
      {"ldb = 3 is below max(m, n) = 5"});
  trnsci_testing::expect_error<InvalidArgument>(
      [&] {
        std::int64_t rank = 0;
        trnsolver::gelsd(C, 3, 3, 1, a.data(), 3, b.data(), 3, s.data(), std::nan(""), &rank);
      },
      "trnsolver::gelsd", {"rcond is NaN"});
  a[4] = std::numeric_limits<double>::infinity();
  trnsci_testing::expect_error<InvalidArgument>(
      [&] {
        std::int64_t rank = 0;
        trnsolver::gelsd(R, 3, 3, 1, a.data(), 3, b.data(), 1, s.data(), -1.0, &rank);
      },
      "trnsolver::gelsd", {"a(1, 1) = inf is not finite"});
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::gesdd(R, Job::thin, 3, 3, a.data(), 3, s.data(), u.data(), 3, vt.data(), 3); },
      "trnsolver::gesdd", {"not finite"});
  a[4] = 1;
  trnsci_testing::expect_error<DimensionMismatch>(
      [&] { trnsolver::gesdd(R, Job::full, 5, 3, a.data(), 3, s.data(), u.data(), 3, vt.data(), 3); },
      "trnsolver::gesdd", {"ldu = 3 is below m = 5"});
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::gesdd(R, Job::thin, 3, 3, a.data(), 3, s.data(), nullptr, 3, vt.data(), 3); },
      "trnsolver::gesdd", {"u is null"});
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::gesdd(R, static_cast<Job>(7), 3, 3, a.data(), 3, s.data(), u.data(), 3, vt.data(), 3); },
      "trnsolver::gesdd", {"job"});
  const trncore::MatrixView<const double> v(a.data(), 4, 3, 3, R), vb(b.data(), 5, 1, 1, R);
  trnsci_testing::expect_error<DimensionMismatch>([&] { (void)trnsolver::lstsq(v, vb); }, "trnsolver::lstsq",
                                                  {"b's rows = 5"});
  trnsci_testing::expect_error<InvalidArgument>([&] { (void)trnsolver::pinv(v, -1.0); }, "trnsolver::pinv",
                                                {"rcond = -1"});
  b[2] = std::nan("");
  const trncore::MatrixView<const double> vn(b.data(), 3, 3, 3, C);
  trnsci_testing::expect_error<InvalidArgument>([&] { (void)trnsolver::pinv(vn); }, "trnsolver::pinv",
                                                {"a(2, 0) = nan"});
  trnsci_testing::expect_error<InvalidArgument>([&] { (void)trnsolver::svd(vn); }, "trnsolver::svd", {"a(2, 0) = nan"});
  trnsci_testing::expect_error<InvalidArgument>([&] { (void)trnsolver::schur(vn); }, "trnsolver::schur",
                                                {"a(2, 0) = nan"});
  trnsci_testing::expect_error<InvalidArgument>([&] { (void)trnsolver::eigh(vn); }, "trnsolver::eigh",
                                                {"a(2, 0) = nan"});
  b[2] = 1;
  // Views: span lengths and layouts.
  Mat<double> m(4, 3, R), mc(4, 1, C);
  std::vector<double> tau(2);
  std::vector<std::int64_t> ipiv(2);
  trnsci_testing::expect_error<DimensionMismatch>([&] { trnsolver::geqrf(m.view(), std::span(tau)); },
                                                  "trnsolver::geqrf", {"tau has 2 elements but 3 are needed"});
  trnsci_testing::expect_error<DimensionMismatch>([&] { trnsolver::getrf(m.view(), std::span(ipiv)); },
                                                  "trnsolver::getrf", {"ipiv has 2 elements"});
  Mat<double> sq(4, 4, R);
  std::vector<std::int64_t> p4(4);
  trnsci_testing::expect_error<DimensionMismatch>([&] { trnsolver::gesv(sq.view(), std::span(p4), mc.view()); },
                                                  "trnsolver::gesv", {"a is row_major but b is col_major"});
  trnsci_testing::expect_error<DimensionMismatch>([&] { trnsolver::posv(Uplo::lower, m.view(), m.view()); },
                                                  "trnsolver::posv", {"a is 4x3"});
}

TEST(DenseArguments, EigenSchurConditionInverseSqrt) {
  std::vector<double> a(100, 1.0), b(100, 1.0), w(10), wi(10), vs(100);
  a[0] = std::nan("");
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::syevd(R, EigJob::vectors, Uplo::lower, 3, a.data(), 3, w.data()); }, "trnsolver::syevd",
      {"a(0, 0) = nan is not finite"});
  a[0] = 1;
  a[1] = std::nan("");  // (0, 1) row-major: outside the lower triangle, not read
  EXPECT_NO_THROW(trnsolver::syevd(R, EigJob::values_only, Uplo::lower, 3, a.data(), 3, w.data()));
  a.assign(100, 1.0);
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::syevd(R, static_cast<EigJob>(5), Uplo::lower, 3, a.data(), 3, w.data()); }, "trnsolver::syevd",
      {"job"});
  trnsci_testing::expect_error<DimensionMismatch>(
      [&] { trnsolver::sygvd(C, EigJob::vectors, Uplo::upper, 3, a.data(), 3, b.data(), 2, w.data()); },
      "trnsolver::sygvd", {"ldb = 2 is below n = 3"});
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::gees(R, EigJob::vectors, 3, a.data(), 3, w.data(), wi.data(), nullptr, 3); }, "trnsolver::gees",
      {"vs is null"});
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::gees(R, EigJob::values_only, 3, a.data(), 3, w.data(), nullptr, nullptr, 1); },
      "trnsolver::gees", {"wi is null"});
  const trncore::MatrixView<const double> rect(a.data(), 3, 4, 4, R), sq(a.data(), 3, 3, 3, R),
      sq2(b.data(), 2, 2, 2, R);
  trnsci_testing::expect_error<DimensionMismatch>([&] { (void)trnsolver::eigh(rect); }, "trnsolver::eigh",
                                                  {"a is 3x4"});
  trnsci_testing::expect_error<DimensionMismatch>([&] { (void)trnsolver::schur(rect); }, "trnsolver::schur",
                                                  {"a is 3x4"});
  trnsci_testing::expect_error<DimensionMismatch>([&] { (void)trnsolver::eigh_generalized(sq, sq2); },
                                                  "trnsolver::eigh_generalized", {"b's rows = 2 but n = 3"});
  double rcond = 0;
  trnsci_testing::expect_error<InvalidArgument>([&] { trnsolver::gecon(R, Norm::fro, 3, a.data(), 3, 1.0, &rcond); },
                                                "trnsolver::gecon", {"norm = fro"});
  trnsci_testing::expect_error<InvalidArgument>([&] { trnsolver::gecon(R, Norm::one, 3, a.data(), 3, -1.0, &rcond); },
                                                "trnsolver::gecon", {"anorm"});
  trnsci_testing::expect_error<InvalidArgument>(
      [&] { trnsolver::gecon(R, Norm::one, 3, a.data(), 3, std::nan(""), &rcond); }, "trnsolver::gecon", {"NaN"});
  EXPECT_NO_THROW((void)trnsolver::lange(Norm::one, rect.transposed()));
  trnsolver::InvSqrtOptions o;
  o.max_iterations = 0;
  trnsci_testing::expect_error<InvalidArgument>([&] { (void)trnsolver::inv_sqrt_spd(sq, o); },
                                                "trnsolver::inv_sqrt_spd", {"max_iterations = 0"});
  o = {};
  o.tolerance = -1;
  trnsci_testing::expect_error<InvalidArgument>([&] { (void)trnsolver::inv_sqrt_spd(sq, o); },
                                                "trnsolver::inv_sqrt_spd", {"tolerance"});
  trnsci_testing::expect_error<DimensionMismatch>([&] { (void)trnsolver::inv_sqrt_spd(rect); },
                                                  "trnsolver::inv_sqrt_spd", {"3x4"});
}

TEST(DenseArguments, OptionsTheHostLayerCannotHonour) {
  std::vector<double> a(9, 1.0);
  std::vector<std::int64_t> ipiv(3);
  trncore::Options sim;
  sim.backend = trncore::Backend::sim;
  trnsci_testing::expect_error<NotSupported>([&] { trnsolver::getrf(R, 3, 3, a.data(), 3, ipiv.data(), sim); },
                                             "trnsolver::getrf", {"sim backend"});
  trncore::Options target;
  target.target_forward_error = 1e-10;
  trnsci_testing::expect_error<NotSupported>([&] { trnsolver::potrf(R, Uplo::lower, 3, a.data(), 3, target); },
                                             "trnsolver::potrf", {"target_forward_error"});
  trncore::Options fp32;
  fp32.math_mode = trncore::MathMode::fp32;
  trnsci_testing::expect_error<NotSupported>(
      [&] { (void)trnsolver::svd(trncore::MatrixView<const double>(a.data(), 3, 3, 3), Job::thin, fp32); },
      "trnsolver::svd", {"math mode fp32"});
  std::vector<float> af(9, 1.0f);
  EXPECT_NO_THROW(trnsolver::potrf(R, Uplo::lower, 3, af.data(), 3, fp32));  // fp32 is float's own precision
  trncore::Options bad;
  bad.threads = -1;
  EXPECT_THROW(trnsolver::geqrf(R, 3, 3, a.data(), 3, a.data(), bad), trncore::InvalidArgument);
  // Layout and backend values outside their enumerators (issue #18): InvalidArgument naming the value.
  std::vector<std::int64_t> piv(3);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsolver::getrf(static_cast<trncore::Layout>(9), 3, 3, a.data(), 3, piv.data()); }, "trnsolver::getrf",
      {"layout"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsolver::potrf(static_cast<trncore::Layout>(5), Uplo::lower, 3, a.data(), 3); }, "trnsolver::potrf",
      {"layout"});
  trncore::Options backend;
  backend.backend = static_cast<trncore::Backend>(6);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsolver::getrf(R, 3, 3, a.data(), 3, piv.data(), backend); }, "trnsolver::getrf", {"backend"});
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
