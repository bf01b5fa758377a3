// The cross-suite types: names round-trip and bad names throw ParseError naming the text; Options
// validation rejects every invalid target; views address the documented elements and reject every bad
// argument with the values in the message; the spec table matches the published figures it cites; the
// cost model is cycles over clock with max/sum bounds.
#include <trncore/accuracy_report.hpp>
#include <trncore/backend.hpp>
#include <trncore/error.hpp>
#include <trncore/math_mode.hpp>
#include <trncore/options.hpp>
#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/spec.hpp>
#include <trncore/view.hpp>

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using trnsci_testing::message_of;

TEST(Api, EnumNamesRoundTripAndBadNamesThrow) {
  for (auto b : {trncore::Backend::host, trncore::Backend::sim})
    EXPECT_EQ(trncore::parse_backend(trncore::to_string(b)), b);
  for (int m = 0; m <= static_cast<int>(trncore::MathMode::ozaki); ++m) {
    const auto mode = static_cast<trncore::MathMode>(m);
    EXPECT_EQ(trncore::parse_math_mode(trncore::to_string(mode)), mode);
  }
  for (auto l : {trncore::Layout::row_major, trncore::Layout::col_major})
    EXPECT_EQ(trncore::parse_layout(trncore::to_string(l)), l);
  EXPECT_THROW(trncore::parse_backend("gpu"), trncore::ParseError);
  EXPECT_NE(message_of([] { trncore::parse_math_mode("fp128"); }).find("'fp128'"), std::string::npos);
  EXPECT_NE(message_of([] { trncore::parse_math_mode("fp128"); }).find("ozaki"), std::string::npos);
}

TEST(Api, InputFormatOfEachMode) {
  EXPECT_EQ(trncore::input_format(trncore::MathMode::bf16)->name, "bf16");
  EXPECT_EQ(trncore::input_format(trncore::MathMode::sr)->name, "bf16");
  EXPECT_EQ(trncore::input_format(trncore::MathMode::fp8_e4m3)->name, "fp8_e4m3");
  EXPECT_EQ(trncore::input_format(trncore::MathMode::tf32)->mantissa_bits, 10);
  EXPECT_FALSE(trncore::input_format(trncore::MathMode::ozaki).has_value());
  EXPECT_FALSE(trncore::input_format(trncore::MathMode::automatic).has_value());
}

TEST(Api, OptionsDefaultsNeverLosePrecisionAndValidateTargets) {
  const trncore::Options o;
  EXPECT_EQ(o.backend, trncore::Backend::host);
  EXPECT_EQ(o.math_mode, trncore::MathMode::automatic);
  EXPECT_FALSE(o.target_forward_error.has_value());
  EXPECT_EQ(trncore::product_model(o), trncore::sim::ProductModel::bf16);  // trn2's default
  EXPECT_EQ(trncore::product_model(trncore::Options{}.with_product(trncore::sim::ProductModel::exact)),
            trncore::sim::ProductModel::exact);
  EXPECT_NO_THROW(trncore::validate(trncore::Options{}.with_target(1e-12), "f"));
  const double bad[] = {
      0.0, -1e-3, 1.0, 2.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()};
  for (double t : bad) {
    const std::string m = message_of([&] { trncore::validate(trncore::Options{}.with_target(t), "trnx::call"); });
    EXPECT_EQ(m.rfind("trnx::call: target_forward_error = ", 0), 0u) << m;
  }
  EXPECT_THROW(trncore::validate(trncore::Options{}.with_threads(-1), "f"), trncore::InvalidArgument);
  const std::string s = trncore::to_string(trncore::Options{}.with_backend(trncore::Backend::sim).with_target(1e-6));
  EXPECT_NE(s.find("backend=sim"), std::string::npos);
  EXPECT_NE(s.find("target=1.000e-06"), std::string::npos);
  EXPECT_NE(s.find("product=bf16 (default)"), std::string::npos);
}

// Messages print doubles in scientific notation: a tiny target must not read "0.000000" (std::to_string).
TEST(Api, ValidateNamesTinyTargetsInScientificNotation) {
  const std::string m = message_of([&] { trncore::validate(trncore::Options{}.with_target(-1e-10), "trnx::call"); });
  EXPECT_NE(m.find("target_forward_error = -1.000e-10 is not in (0, 1)"), std::string::npos) << m;
}

// Out-of-range enum values (a cast from an unchecked integer) are rejected by the one check every
// package's entry points run, with the field and the value in the message.
TEST(Api, ValidateRejectsEnumValuesOutsideTheirSets) {
  trncore::Options o;
  o.backend = static_cast<trncore::Backend>(7);
  std::string m = message_of([&] { trncore::validate(o, "trnx::call"); });
  EXPECT_EQ(m.rfind("trnx::call: options.backend = 7 is not one of its enum's values", 0), 0u) << m;
  o = trncore::Options{};
  o.math_mode = static_cast<trncore::MathMode>(99);
  m = message_of([&] { trncore::validate(o, "trnx::call"); });
  EXPECT_NE(m.find("options.math_mode = 99"), std::string::npos) << m;
  o = trncore::Options{};
  o.generation = static_cast<trncore::sim::Generation>(42);
  EXPECT_THROW(trncore::validate(o, "f"), trncore::InvalidArgument);
  o = trncore::Options{}.with_product(static_cast<trncore::sim::ProductModel>(42));
  EXPECT_THROW(trncore::validate(o, "f"), trncore::InvalidArgument);
  EXPECT_NO_THROW(trncore::validate(trncore::Options{}.with_backend(trncore::Backend::sim), "f"));
}

TEST(Api, ReportToStringAndRequireTargetMet) {
  trncore::AccuracyReport r;
  r.target = 1e-8;
  r.certify(3e-7);  // certified, but above the target
  EXPECT_TRUE(r.certified);
  EXPECT_FALSE(r.met);
  r.trajectory.push_back({"bf16 one pass"});
  r.references.push_back("Higham 2002");
  const std::string s = r.to_string();
  for (const char* piece : {"1.000e-08", "3.000e-07", "NOT met", "bf16 one pass", "Higham 2002"})
    EXPECT_NE(s.find(piece), std::string::npos) << piece;
  const std::string m = message_of([&] { trncore::require_target_met(r, "trnx::solve"); });
  EXPECT_EQ(m.rfind("trnx::solve: the certified bound 3.000e-07 does not meet target_forward_error = 1.000e-08", 0), 0u)
      << m;
  EXPECT_THROW(trncore::require_target_met(r, "f"), trncore::TargetNotMet);
  r.certify(1e-9);
  EXPECT_TRUE(r.met);
  EXPECT_NO_THROW(trncore::require_target_met(r, "f"));
}

// The contract (docs/trncore.md, "Certificates"): met == certified && (!target || bound <= target); an
// uncertified result fails require_target_met with its reason, with or without a target, and never with a
// bound-versus-target comparison (the bound does not hold).
TEST(Api, UncertifiedResultsNameTheirReasonWithOrWithoutATarget) {
  for (const bool with_target : {false, true}) {
    trncore::AccuracyReport r;
    if (with_target) r.target = 1e-3;
    r.certify(4.1e-5);
    EXPECT_TRUE(r.met);
    r.uncertify("NaN or Inf in the input");
    EXPECT_FALSE(r.certified);
    EXPECT_FALSE(r.met);
    const std::string m = message_of([&] { trncore::require_target_met(r, "trnx::fft"); });
    EXPECT_EQ(m.rfind("trnx::fft: the result is not certified: NaN or Inf in the input", 0), 0u) << m;
    EXPECT_EQ(m.find("does not meet"), std::string::npos) << m;
    EXPECT_NE(r.to_string().find("not certified: NaN or Inf in the input"), std::string::npos);
    r.certify(4.1e-5);
    EXPECT_TRUE(r.certified);
    EXPECT_TRUE(r.uncertified_reason.empty());
    EXPECT_NO_THROW(trncore::require_target_met(r, "f"));
  }
}

TEST(Api, MatrixViewAddressesBothLayouts) {
  std::vector<int> data(40);
  for (int i = 0; i < 40; ++i) data[static_cast<std::size_t>(i)] = i;
  const trncore::MatrixView<int> rm(data.data(), 3, 4, 6, trncore::Layout::row_major);
  const trncore::MatrixView<int> cm(data.data(), 3, 4, 5, trncore::Layout::col_major);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(rm(i, j), i * 6 + j);
      EXPECT_EQ(cm(i, j), i + j * 5);
      EXPECT_EQ(rm.transposed()(j, i), rm(i, j));
      EXPECT_EQ(cm.transposed()(j, i), cm(i, j));
    }
  const auto sub = rm.submatrix(1, 2, 2, 2);
  EXPECT_EQ(sub(0, 0), 8);
  EXPECT_EQ(sub(1, 1), 15);
  const trncore::MatrixView<const int> ro = rm;
  EXPECT_EQ(ro.at(2, 3), 15);
  EXPECT_THROW(ro.at(3, 0), trncore::InvalidArgument);
  EXPECT_THROW(rm.submatrix(2, 0, 2, 1), trncore::InvalidArgument);
  trncore::MatrixView<int> dense(std::span<int>(data), 5, 8);
  EXPECT_EQ(dense(4, 7), 39);
  EXPECT_THROW(trncore::MatrixView<int>(std::span<int>(data), 5, 9), trncore::DimensionMismatch);
}

TEST(Api, MatrixViewRejectsBadArgumentsNamingTheValues) {
  int x = 0;
  EXPECT_NE(message_of([&] { trncore::MatrixView<int>(&x, -1, 2, 2); }).find("-1x2"), std::string::npos);
  EXPECT_NE(message_of([&] { trncore::MatrixView<int>(&x, 2, 5, 4); }).find("ld = 4 is less than cols = 5"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              trncore::MatrixView<int>(&x, 5, 2, 4, trncore::Layout::col_major);
            }).find("ld = 4 is less than rows = 5"),
            std::string::npos);
  EXPECT_THROW(trncore::MatrixView<int>(nullptr, 2, 2, 2), trncore::InvalidArgument);
  EXPECT_NO_THROW(trncore::MatrixView<int>(nullptr, 0, 2, 2));
  // rows × ld overflows int64 although each is representable.
  EXPECT_NE(message_of([&] { trncore::MatrixView<int>(&x, std::int64_t{1} << 62, 4, 4); }).find("overflows int64"),
            std::string::npos);
}

TEST(Api, VectorViewIncrementsAsBlas) {
  std::vector<int> data{0, 1, 2, 3, 4, 5, 6, 7, 8};
  const trncore::VectorView<int> fwd(data.data(), 3, 3);
  const trncore::VectorView<int> back(data.data(), 3, -3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(fwd[i], 3 * i);
    EXPECT_EQ(back[i], 3 * (2 - i));  // BLAS: a negative increment walks the storage from its end
  }
  EXPECT_THROW(trncore::VectorView<int>(data.data(), 3, 0), trncore::InvalidArgument);
  EXPECT_THROW(trncore::VectorView<int>(data.data(), -1, 1), trncore::InvalidArgument);
  EXPECT_THROW(trncore::VectorView<int>(nullptr, 2, 1), trncore::InvalidArgument);
  EXPECT_THROW(trncore::VectorView<int>(data.data(), std::int64_t{1} << 40, std::int64_t{1} << 40),
               trncore::InvalidArgument);
  EXPECT_THROW(fwd.at(3), trncore::InvalidArgument);
}

// The spec table against the published per-chip figures it is derived from (docs/numerics.md).
TEST(Api, SpecTableMatchesPublishedFigures) {
  using trncore::sim::Generation;
  const auto& t1 = trncore::sim::spec(Generation::trn1);
  const auto& t2 = trncore::sim::spec(Generation::trn2);
  const auto& t3 = trncore::sim::spec(Generation::trn3);
  EXPECT_DOUBLE_EQ(2 * t1.tensor_flops_bf16, 190e12);  // Trainium: 2 cores, 190 TFLOPS bf16
  EXPECT_DOUBLE_EQ(2 * t1.tensor_flops_fp32, 47.5e12);
  EXPECT_DOUBLE_EQ(t2.tensor_flops_bf16, 79e12);  // NeuronCore-v3: 79 TFLOPS bf16, 158 cFP8
  EXPECT_DOUBLE_EQ(t2.tensor_flops_fp8, 158e12);
  EXPECT_DOUBLE_EQ(8 * t3.tensor_flops_bf16, 671e12);  // Trainium3: 8 cores, 671 TFLOPS bf16
  for (const auto* s : {&t1, &t2, &t3}) {
    EXPECT_EQ(s->partitions, 128);
    EXPECT_EQ(s->psum_bytes_per_partition, 16 * 1024);
    EXPECT_EQ(s->psum_banks * 2048, s->psum_bytes_per_partition);
    EXPECT_EQ(s->max_k, 128);
    EXPECT_EQ(s->max_m, 128);
    EXPECT_EQ(s->max_n, 512);
    EXPECT_DOUBLE_EQ(s->clock_hz * 2 * 128 * 128, s->tensor_flops_bf16);
  }
  EXPECT_EQ(t1.sbuf_bytes_per_partition * 128, 24 * 1024 * 1024);
  EXPECT_EQ(t2.sbuf_bytes_per_partition * 128, 28 * 1024 * 1024);
  EXPECT_EQ(trncore::sim::default_product_model(Generation::trn1), trncore::sim::ProductModel::bf16);
  EXPECT_EQ(trncore::sim::default_product_model(Generation::trn2), trncore::sim::ProductModel::bf16);
}

TEST(Api, CostIsCyclesOverClockWithMaxAndSumBounds) {
  trncore::sim::EngineStats stats;
  stats[trncore::sim::Engine::tensor].cycles = 1000;
  stats[trncore::sim::Engine::vector].cycles = 3000;
  stats[trncore::sim::Engine::dma].bytes = 1 << 20;
  stats[trncore::sim::Engine::dma].instructions = 2;
  const auto& s = trncore::sim::spec(trncore::sim::Generation::trn2);
  const auto r = trncore::sim::estimate_cost(stats, trncore::sim::Generation::trn2);
  const double t = 1000 / s.clock_hz, v = 3000 / s.clock_hz;
  const double d = (1 << 20) / s.hbm_bytes_per_s + 2 * s.instruction_overhead_cycles / s.clock_hz;
  EXPECT_DOUBLE_EQ(r.busy_seconds[0], t);
  EXPECT_DOUBLE_EQ(r.busy_seconds[1], v);
  EXPECT_DOUBLE_EQ(r.busy_seconds[4], d);
  EXPECT_DOUBLE_EQ(r.lower_bound_seconds, std::max({t, v, d}));
  EXPECT_DOUBLE_EQ(r.upper_bound_seconds, t + v + d);
  EXPECT_NE(r.to_string().find("not a measurement"), std::string::npos);
  EXPECT_EQ(trncore::sim::parse_engine("gpsimd"), trncore::sim::Engine::gpsimd);
  EXPECT_THROW(trncore::sim::parse_engine("dsp"), trncore::ParseError);
}

}  // namespace
