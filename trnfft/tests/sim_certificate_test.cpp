// The certificate contract on the sim backend (docs/trncore.md, "Certificates: the contract every package
// keeps"): a run whose bound's hypotheses fail (NaN/Inf in the input, overflow on the way, a GEMM that
// cannot certify) is reported uncertified with the real reason; the no-report execute throws TargetNotMet
// with that reason whenever met is false, with or without a target; a run whose GEMMs are certified but
// whose componentwise GEMM bounds exceed the FFT's target (bf16_refined) is still certified and met; and
// invalid enum arguments are refused.
#include "sim_test_support.hpp"

#include <trnfft/functions.hpp>
#include <trnfft/plan.hpp>
#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace trnfft_test;
using trnfft::Direction;
using trnfft::Kind;

// The issue's case: a sim FFT with a NaN input failed with "the certified bound 4.1e-05 does not meet target
// 1e-03" — the bound meets it; the input is what cannot be certified.
TEST(TrnfftSimCertificate, NanOrInfInputIsUncertifiedWithItsReason) {
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()})
    for (const bool with_target : {true, false}) {
      SCOPED_TRACE(std::string(std::isnan(bad) ? "NaN" : "Inf") + (with_target ? ", target 1e-3" : ", no target"));
      auto x = random_complex<float>(64, 7);
      x[5] = {bad, 0.0f};
      std::vector<std::complex<float>> y(64);
      auto o = sim_options();
      if (with_target) o.target_forward_error = 1e-3;
      auto plan = trnfft::plan_dft_1d<float>(64, x.data(), y.data(), Direction::forward,
                                             trnfft_test::with_mode(kCompensated, o));
      EXPECT_TRUE(trnfft_test::a_priori(plan).met);  // a-priori: the mode's bound meets the target
      trncore::AccuracyReport rep;
      plan.execute(rep);  // the report overload never throws for a numerical outcome
      EXPECT_FALSE(rep.certified);
      EXPECT_FALSE(rep.met);
      EXPECT_EQ(rep.uncertified_reason, "NaN or Inf in the input") << rep.to_string();
      const std::string m = message_of([&] { plan.execute(); });
      EXPECT_NE(m.find("trnfft::Plan::execute"), std::string::npos) << m;
      EXPECT_NE(m.find("not certified: NaN or Inf in the input"), std::string::npos) << m;
      EXPECT_EQ(m.find("does not meet"), std::string::npos) << m;
      // The free functions take the no-report path too.
      const std::vector<std::complex<float>> xv(x.begin(), x.end());
      const std::string f = message_of([&] { (void)trnfft::fft(xv, std::nullopt, trnfft::Norm::backward, o); });
      EXPECT_NE(f.find("NaN or Inf in the input"), std::string::npos) << f;
    }
}

// A finite input whose transform overflows: float entries near FLT_MAX summed by the DFT.
TEST(TrnfftSimCertificate, OverflowOfAFiniteInputIsUncertified) {
  std::vector<std::complex<float>> x(16, {3e38f, 0.0f}), y(16);
  auto plan = trnfft::plan_dft_1d<float>(16, x.data(), y.data(), Direction::forward,
                                         trnfft_test::with_mode(kFp32, sim_options()));
  trncore::AccuracyReport rep;
  plan.execute(rep);
  EXPECT_FALSE(rep.certified);
  EXPECT_FALSE(rep.met);
  EXPECT_FALSE(rep.uncertified_reason.empty());
  EXPECT_THROW(plan.execute(), trncore::TargetNotMet);
}

// Without a target, an uncertified run used to return silently from the no-report execute.
TEST(TrnfftSimCertificate, NoReportExecuteThrowsWithoutATargetToo) {
  std::vector<std::complex<double>> x(32, {1.0, 0.0}), y(32);
  x[3] = {std::numeric_limits<double>::infinity(), 0.0};
  auto plan = trnfft::plan_dft_1d<double>(32, x.data(), y.data(), Direction::backward,
                                          trnfft_test::with_mode(kOzaki, sim_options()));
  EXPECT_THROW(plan.execute(), trncore::TargetNotMet);
  x[3] = {2.0, 0.0};
  EXPECT_NO_THROW(plan.execute());
}

// A GEMM that cannot certify (bf16 mode, an input entry below bf16's normal range) makes the run
// uncertified, and the report names the GEMM and trnblas's reason.
TEST(TrnfftSimCertificate, AnUncertifiedGemmGivesItsReason) {
  auto x = random_complex<float>(64, 3);
  x[9] = {1e-39f, 0.0f};
  std::vector<std::complex<float>> y(64);
  auto plan = trnfft::plan_dft_1d<float>(64, x.data(), y.data(), Direction::forward,
                                         trnfft_test::with_mode(kBf16, sim_options()));
  trncore::AccuracyReport rep;
  plan.execute(rep);
  EXPECT_FALSE(rep.certified);
  EXPECT_FALSE(rep.met);
  EXPECT_EQ(rep.uncertified_reason.rfind("a radix-", 0), 0U) << rep.uncertified_reason;
  EXPECT_NE(rep.uncertified_reason.find("GEMM is not certified: "), std::string::npos) << rep.uncertified_reason;
  EXPECT_NE(message_of([&] { plan.execute(); }).find(rep.uncertified_reason), std::string::npos);
}

TEST(TrnfftSimCertificate, InvalidEnumArgumentsAreRefused) {
  std::vector<std::complex<float>> x(8), y(8);
  EXPECT_THROW((void)trnfft::plan_dft_1d<float>(8, x.data(), y.data(), Direction::forward,
                                                trnfft::PlanOptions{}.with_rigor(static_cast<trnfft::Rigor>(9))),
               trncore::InvalidArgument);
  EXPECT_THROW((void)trnfft::fft(std::vector<std::complex<double>>(4), std::nullopt, static_cast<trnfft::Norm>(5)),
               trncore::InvalidArgument);
}

}  // namespace
