// The certificate contract (docs/trncore.md, "Certificates: the contract every package keeps") for the
// AccuracyReport producers of trnsparse — sim bsr_spmm and block_sparse_attention: a result whose bound's
// hypotheses fail (NaN/Inf input, an uncertified block GEMM, overflow) is reported uncertified with the real
// reason (a sub-GEMM's reason propagated); the no-report attention throws TargetNotMet whenever met is
// false, with or without a target; and invalid enum values are refused by every entry point taking one.
#include <trnsparse/attention.hpp>
#include <trnsparse/direct.hpp>
#include <trnsparse/iterative.hpp>
#include <trnsparse/matrix_market.hpp>
#include <trnsparse/ops.hpp>
#include <trnsparse/sim.hpp>

#include "sparse_test_support.hpp"

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace {

using trncore::MathMode;

trncore::Options sim(MathMode mode) {
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.math_mode = mode;
  return o;
}

TEST(Certificate, BsrSpmmNamesANanInputAndPropagatesAGemmsReason) {
  const auto coo = trnsparse_test::random_coo<float, std::int32_t>(20, 24, 0.3, 3);
  const auto bsr = trnsparse::to_bsr(trnsparse::to_csr(coo), 4, 4);
  const std::int64_t n = 5;
  auto b = trnsparse_test::random_vector<float>(24 * n, 4);
  std::vector<float> c(20 * n, 0.0f);
  trncore::AccuracyReport rep;
  // Certified baseline.
  trnsparse::bsr_spmm<float, std::int32_t>(1.0f, bsr, n, b, n, 0.0f, c, n, sim(MathMode::fp32), rep);
  EXPECT_TRUE(rep.certified);
  EXPECT_TRUE(rep.met);
  // NaN in B: uncertified with that reason (with and without a target).
  b[7] = std::numeric_limits<float>::quiet_NaN();
  for (const bool target : {false, true}) {
    auto o = sim(MathMode::fp32);
    if (target) o.target_forward_error = 1e-2;
    trnsparse::bsr_spmm<float, std::int32_t>(1.0f, bsr, n, b, n, 0.0f, c, n, o, rep);
    EXPECT_FALSE(rep.certified);
    EXPECT_FALSE(rep.met);
    EXPECT_EQ(rep.uncertified_reason, "NaN or Inf in the input") << rep.to_string();
  }
  // NaN in C with beta = 0 is not read: still certified.
  b[7] = 0.5f;
  std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
  trnsparse::bsr_spmm<float, std::int32_t>(1.0f, bsr, n, b, n, 0.0f, c, n, sim(MathMode::fp32), rep);
  EXPECT_TRUE(rep.certified) << rep.to_string();
  // A block GEMM that cannot certify (bf16, B below bf16's normal range): its reason is propagated.
  std::vector<float> tiny(24 * n, 1e-39f);
  trnsparse::bsr_spmm<float, std::int32_t>(1.0f, bsr, n, tiny, n, 0.0f, c, n, sim(MathMode::bf16), rep);
  EXPECT_FALSE(rep.certified);
  EXPECT_EQ(rep.uncertified_reason.rfind("the GEMM of block (", 0), 0U) << rep.uncertified_reason;
  EXPECT_NE(rep.uncertified_reason.find("is not certified: "), std::string::npos) << rep.uncertified_reason;
  // Overflow of finite inputs.
  std::vector<float> big(24 * n, 3e38f);
  trnsparse::bsr_spmm<float, std::int32_t>(1.0f, bsr, n, big, n, 0.0f, c, n, sim(MathMode::fp32), rep);
  EXPECT_FALSE(rep.certified);
  EXPECT_FALSE(rep.uncertified_reason.empty());
}

TEST(Certificate, AttentionNoReportThrowsWithTheReasonWithOrWithoutATarget) {
  const auto mask = trnsparse::local_window_mask(32, 8, 1);
  const std::int64_t d = 4, dv = 3;
  auto q = trnsparse_test::random_vector<double>(32 * d, 1), k = trnsparse_test::random_vector<double>(32 * d, 2);
  const auto v = trnsparse_test::random_vector<double>(32 * dv, 3);
  std::vector<double> out(32 * dv);
  EXPECT_NO_THROW(trnsparse::block_sparse_attention<double>(mask, d, dv, q, k, v, out, 0.5));
  q[10] = std::numeric_limits<double>::infinity();
  for (const bool target : {false, true}) {
    trncore::Options o;
    if (target) o.target_forward_error = 1e-6;
    trncore::AccuracyReport rep;
    trnsparse::block_sparse_attention<double>(mask, d, dv, q, k, v, out, 0.5, o, rep);
    EXPECT_FALSE(rep.certified);
    EXPECT_FALSE(rep.met);
    EXPECT_EQ(rep.uncertified_reason, "NaN or Inf in the input");
    try {
      trnsparse::block_sparse_attention<double>(mask, d, dv, q, k, v, out, 0.5, o);
      ADD_FAILURE() << "no TargetNotMet";
    } catch (const trncore::TargetNotMet& e) {
      EXPECT_NE(std::string(e.what()).find("trnsparse::block_sparse_attention"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("not certified: NaN or Inf in the input"), std::string::npos) << e.what();
    }
  }
  // sim bf16 with inputs below bf16's normal range: a score GEMM's reason reaches the report.
  std::vector<float> qf(32 * d, 1e-39f), kf(32 * d, 1.0f), vf(32 * dv, 1.0f), of(32 * dv);
  trncore::AccuracyReport rep;
  trnsparse::block_sparse_attention<float>(mask, d, dv, qf, kf, vf, of, 1.0, sim(MathMode::bf16), rep);
  EXPECT_FALSE(rep.certified);
  EXPECT_EQ(rep.uncertified_reason.rfind("the score GEMM of query block 0 and key block 0 is not certified: ", 0), 0U)
      << rep.uncertified_reason;
  EXPECT_THROW(trnsparse::block_sparse_attention<float>(mask, d, dv, qf, kf, vf, of, 1.0, sim(MathMode::bf16)),
               trncore::TargetNotMet);
}

TEST(Certificate, InvalidEnumValuesAreRefused) {
  const auto coo = trnsparse_test::random_coo<double, std::int64_t>(6, 6, 0.5, 9);
  auto a = trnsparse::to_csr(coo);
  const auto bad_ordering = static_cast<trnsparse::Ordering>(7);
  EXPECT_THROW(trnsparse::Lu(a, bad_ordering), trncore::InvalidArgument);
  EXPECT_THROW(trnsparse::Qr(a, bad_ordering), trncore::InvalidArgument);
  EXPECT_THROW(trnsparse::Cholesky(a, bad_ordering), trncore::InvalidArgument);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { (void)trnsparse::lanczos_bounds(a, 5, static_cast<trnsparse::Preconditioner>(9)); },
      "trnsparse::lanczos_bounds");
  std::vector<double> b(6, 1.0), x(6, 0.0);
  trnsolver::KrylovOptions k;
  k.threads = -1;
  EXPECT_THROW(((void)trnsparse::cg<double, std::int64_t>(a, b, x, k)), trncore::InvalidArgument);
  // An invalid trnblas::Op used to run as trans.
  const auto bad_op = static_cast<trnblas::Op>(7);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::spmv<double, std::int64_t>(bad_op, 1.0, a, b, 0.0, x); }, "trnsparse::spmv");
  const auto bsr = trnsparse::to_bsr(a, 2, 2);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::spmv<double, std::int64_t>(bad_op, 1.0, bsr, b, 0.0, x); }, "trnsparse::spmv");
  std::vector<double> dense(12, 1.0), cc(12);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::spmm<double, std::int64_t>(bad_op, 1.0, a, 2, dense, 2, 0.0, cc, 2); }, "trnsparse::spmm");
  std::ostringstream s;
  EXPECT_THROW(trnsparse::write_matrix_market(s, a, static_cast<trnsparse::MmSymmetry>(5)), trncore::InvalidArgument);
  const auto mask = trnsparse::local_window_mask(8, 4, 1);
  std::vector<double> q(8), kk(8), v(8), out(8);
  trncore::Options negative;
  negative.threads = -2;
  EXPECT_THROW(trnsparse::block_sparse_attention<double>(mask, 1, 1, q, kk, v, out, 1.0, negative),
               trncore::InvalidArgument);
}

}  // namespace
