// Bad input to every plan entry point: the exception type, and a message naming the function, the
// offending values and a fix ("<function>: <problem>: <hint>").
#include "fft_test_support.hpp"

#include <trnfft/trnfft.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace {

using namespace trnfft_test;
using trnfft::Direction;
using trnfft::IoDim;
using C = std::complex<double>;
using Cf = std::complex<float>;

TEST(PlanArguments, LengthsBelowOne) {
  std::vector<C> a(16), b(16);
  std::vector<double> r(16);
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::min()}) {
    expect_error<trncore::InvalidArgument>(
        [&] { (void)trnfft::plan_dft_1d(n, a.data(), b.data(), Direction::forward); }, "trnfft::plan_dft",
        {"n[0] = " + std::to_string(n)});
    expect_error<trncore::InvalidArgument>([&] { (void)trnfft::plan_dft_r2c_1d(n, r.data(), a.data()); },
                                           "trnfft::plan_dft_r2c", {"n[0] = " + std::to_string(n)});
    expect_error<trncore::InvalidArgument>([&] { (void)trnfft::plan_dft_c2r_1d(n, a.data(), r.data()); },
                                           "trnfft::plan_dft_c2r", {"n[0] = " + std::to_string(n)});
  }
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_guru_dft<double>({{4, 1, 1}, {0, 1, 1}}, {}, a.data(), b.data(), Direction::forward);
      },
      "trnfft::plan_guru_dft", {"transform dimension 1 has n = 0"});
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_guru_dft<double>({{4, 1, 1}}, {{0, 4, 4}}, a.data(), b.data(), Direction::forward);
      },
      "trnfft::plan_guru_dft", {"batch dimension 0 has n = 0"});
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnfft::plan_many_dft<double>({4}, 0, a.data(), {}, 1, 4, b.data(), {}, 1, 4, Direction::forward); },
      "trnfft::plan_many_dft", {"howmany = 0"});
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnfft::plan_guru_dft<double>({}, {}, a.data(), b.data(), Direction::forward); },
      "trnfft::plan_guru_dft", {"rank 0"});
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnfft::plan_dft<double>({}, a.data(), b.data(), Direction::forward); }, "trnfft::plan_dft",
      {"rank 0"});
}

TEST(PlanArguments, StridesFftwCannotDo) {
  std::vector<C> a(64), b(64);
  // Negative and zero strides.
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_guru_dft<double>({{8, -1, 1}}, {}, a.data() + 7, b.data(), Direction::forward);
      },
      "trnfft::plan_guru_dft", {"input stride -1", "positive"});
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_guru_dft<double>({{8, 1, 0}}, {}, a.data(), b.data(), Direction::forward);
      },
      "trnfft::plan_guru_dft", {"output stride 0"});
  // A batch distance inside one transform: elements overlap.
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnfft::plan_many_dft<double>({8}, 4, a.data(), {}, 1, 4, b.data(), {}, 1, 8, Direction::forward); },
      "trnfft::plan_many_dft", {"elements of array 'in' overlap", "stride 4", "span 8"});
  // Two dimensions with equal strides.
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_guru_dft<double>({{4, 2, 1}, {2, 2, 4}}, {}, a.data(), b.data(), Direction::forward);
      },
      "trnfft::plan_guru_dft", {"overlap"});
  // n = 1 dimensions may have any stride (they are never stepped).
  EXPECT_NO_THROW(
      (void)trnfft::plan_guru_dft<double>({{1, -5, 0}, {8, 1, 1}}, {}, a.data(), b.data(), Direction::forward));
}

TEST(PlanArguments, EmbeddingsAndOverflow) {
  std::vector<C> a(64), b(64);
  expect_error<trncore::DimensionMismatch>(
      [&] {
        (void)trnfft::plan_many_dft<double>({4, 8}, 1, a.data(), {4, 6}, 1, 0, b.data(), {}, 1, 0, Direction::forward);
      },
      "trnfft::plan_many_dft", {"inembed[1] = 6", "8 points"});
  expect_error<trncore::DimensionMismatch>(
      [&] {
        (void)trnfft::plan_many_dft<double>({4, 8}, 1, a.data(), {}, 1, 0, b.data(), {32}, 1, 0, Direction::forward);
      },
      "trnfft::plan_many_dft", {"onembed has 1 entries for a rank 2"});
  std::vector<double> r(64);
  // The r2c output embedding must hold n/2 + 1 = 5 points, not 4.
  expect_error<trncore::DimensionMismatch>(
      [&] {
        (void)trnfft::plan_many_dft_r2c<double>({2, 8}, 1, r.data(), {}, 1, 0, a.data(), {2, 4}, 1, 0);
      },
      "trnfft::plan_many_dft_r2c", {"onembed[1] = 4", "5 points"});
  // c2r: the complex input embedding must hold n/2 + 1 = 4 points for n = 7, not 3.
  expect_error<trncore::DimensionMismatch>(
      [&] {
        (void)trnfft::plan_many_dft_c2r<double>({3, 7}, 2, a.data(), {3, 3}, 1, 12, r.data(), {}, 1, 21);
      },
      "trnfft::plan_many_dft_c2r", {"inembed[1] = 3", "4 points"});
  const std::int64_t big = std::int64_t{1} << 40;
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnfft::plan_dft_2d<double>(big, big, a.data(), b.data(), Direction::forward); }, "trnfft::plan_dft",
      {"overflows int64"});
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_guru_dft<double>({{4, std::int64_t{1} << 62, 1}}, {}, a.data(), b.data(),
                                            Direction::forward);
      },
      "trnfft::plan_guru_dft", {"overflows int64"});
}

TEST(PlanArguments, PointersAndOverlap) {
  std::vector<C> a(64), b(64);
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnfft::plan_dft_1d<double>(8, nullptr, b.data(), Direction::forward); }, "trnfft::plan_dft",
      {"in is null"});
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnfft::plan_dft_1d<double>(8, a.data(), a.data() + 3, Direction::forward); }, "trnfft::plan_dft",
      {"'in' and output array 'out' overlap"});
  std::vector<double> ri(8), ii(8), io(8);
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnfft::plan_guru_split_dft<double>({{8, 1, 1}}, {}, ri.data(), ii.data(), ri.data(), io.data(),
                                                  Direction::forward);
      },
      "trnfft::plan_guru_split_dft", {"partly in place", "ri == ro", "ii != io"});
  std::vector<double> r(8);
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnfft::plan_dft_c2r_1d<double>(8, a.data(), reinterpret_cast<double*>(a.data()) + 1); },
      "trnfft::plan_dft_c2r", {"overlap"});
}

TEST(PlanArguments, GeometriesFftwRefuses) {
  // Multi-dimensional c2r cannot preserve its input (FFTW documents this).
  std::vector<C> a(4 * 5);
  std::vector<double> r(4 * 8);
  expect_error<trncore::NotSupported>(
      [&] {
        (void)trnfft::plan_dft_c2r_2d<double>(4, 8, a.data(), r.data(), trnfft::PlanOptions{}.with_preserve_input());
      },
      "trnfft::plan_dft_c2r", {"FFTW cannot plan c2r", "dims [n=4"});
  // …while 1-D can.
  std::vector<C> h(5);
  std::vector<double> o(8);
  EXPECT_NO_THROW(
      (void)trnfft::plan_dft_c2r_1d<double>(8, h.data(), o.data(), trnfft::PlanOptions{}.with_preserve_input()));
}

TEST(PlanArguments, Options) {
  std::vector<C> a(8), b(8);
  std::vector<Cf> af(8), bf(8);
  auto plan = [&](trncore::Options o) {
    (void)trnfft::plan_dft_1d<double>(8, a.data(), b.data(), Direction::forward, o);
  };
  expect_error<trncore::NotSupported>([&] { plan(trncore::Options{}.with_math_mode(trncore::MathMode::bf16)); },
                                      "trnfft::plan_dft", {"math mode bf16", "fp64"});
  expect_error<trncore::NotSupported>(
      [&] {
        (void)trnfft::plan_dft_1d<float>(8, af.data(), bf.data(), Direction::forward,
                                         trncore::Options{}.with_math_mode(trncore::MathMode::fp64));
      },
      "trnfft::plan_dft", {"math mode fp64", "float"});
  expect_error<trncore::NotSupported>([&] { plan(trncore::Options{}.with_target(1e-10)); }, "trnfft::plan_dft",
                                      {"target_forward_error"});
  EXPECT_THROW(plan(trncore::Options{}.with_threads(-1)), trncore::InvalidArgument);
  EXPECT_NO_THROW(plan(trncore::Options{}.with_math_mode(trncore::MathMode::fp64)));
  EXPECT_THROW((void)trnfft::plan_dft_1d<double>(8, a.data(), b.data(), static_cast<Direction>(3)),
               trncore::InvalidArgument);
}

// PlanOptions is one options object: a trncore::Options converts to it with the planner defaults, and its
// setters return PlanOptions& so that a chain through the trncore setters keeps the planner fields.
TEST(PlanArguments, PlanOptionsCarryTheCoreOptionsAndThePlannerFlags) {
  const trnfft::PlanOptions chained = trnfft::PlanOptions{}
                                          .with_rigor(trnfft::Rigor::patient)
                                          .with_threads(3)
                                          .with_preserve_input()
                                          .with_backend(trncore::Backend::sim)
                                          .with_unaligned()
                                          .with_math_mode(trncore::MathMode::bf16)
                                          .with_refine()
                                          .with_target(0.5);
  EXPECT_EQ(chained.rigor, trnfft::Rigor::patient);
  EXPECT_TRUE(chained.preserve_input);
  EXPECT_TRUE(chained.unaligned);
  EXPECT_TRUE(chained.refine);
  EXPECT_EQ(chained.threads, 3);
  EXPECT_EQ(chained.backend, trncore::Backend::sim);
  EXPECT_EQ(chained.math_mode, trncore::MathMode::bf16);
  EXPECT_EQ(chained.target_forward_error, 0.5);
  const trnfft::PlanOptions converted = trncore::Options{}.with_threads(2).with_seed(7);
  EXPECT_EQ(converted.threads, 2);
  EXPECT_EQ(converted.seed, 7U);
  EXPECT_EQ(converted.rigor, trnfft::Rigor::estimate);
  EXPECT_FALSE(converted.preserve_input || converted.unaligned || converted.refine);
  // The threads reach the plan; the preserve_input flag reaches FFTW (c2r then leaves its input alone).
  std::vector<C> h(5, C(1, 0));
  std::vector<double> r(8);
  const auto c2r = trnfft::plan_dft_c2r_1d<double>(8, h.data(), r.data(),
                                                   trnfft::PlanOptions{}.with_preserve_input().with_threads(2));
  EXPECT_EQ(c2r.threads(), 2);
  h.assign(5, C(0.5, 0.25));
  c2r.execute();
  EXPECT_EQ(h[2], C(0.5, 0.25));
  EXPECT_DOUBLE_EQ(r[0], 0.5 + 2 * 0.5 * 3 + 0.5);  // X_0 + 2·Re(X_1 + X_2 + X_3) + X_4 at t = 0
}

TEST(PlanArguments, EmptyAndMovedFromPlans) {
  trnfft::C2CPlan<double> empty;
  EXPECT_FALSE(empty);
  expect_error<trncore::InvalidArgument>([&] { empty.execute(); }, "trnfft::Plan::execute", {"empty"});
  expect_error<trncore::InvalidArgument>([&] { (void)empty.kind(); }, "trnfft::Plan::kind", {"empty"});
  std::vector<C> a(8), b(8);
  auto p = trnfft::plan_dft_1d(8, a.data(), b.data(), Direction::forward);
  auto q = std::move(p);
  EXPECT_FALSE(p);  // NOLINT(bugprone-use-after-move): moved-from plans are documented empty
  EXPECT_TRUE(q);
  expect_error<trncore::InvalidArgument>([&] { p.execute(a.data(), b.data()); }, "trnfft::C2CPlan::execute", {"empty"});
  p = std::move(q);
  EXPECT_NO_THROW(p.execute());
  EXPECT_EQ(p.kind(), trnfft::Kind::c2c);
}

TEST(PlanArguments, NewArrayExecuteChecks) {
  Buffer<C> a(16), b(16), c(17), d(17);
  auto p = trnfft::plan_dft_1d(16, a.data(), b.data(), Direction::forward);
  // Misaligned by one complex<double> (16 bytes) keeps FFTW's 16-byte SIMD alignment; by one double it
  // does not. Use float data to misalign by 8 bytes.
  Buffer<Cf> fa(16), fb(16), fc(17);
  auto pf = trnfft::plan_dft_1d(16, fa.data(), fb.data(), Direction::forward);
  expect_error<trncore::InvalidArgument>([&] { pf.execute(fc.data() + 1, fb.data()); }, "trnfft::C2CPlan::execute",
                                         {"alignment offset 8", "offset 0", "unaligned"});
  auto pu = trnfft::plan_dft_1d(16, fa.data(), fb.data(), Direction::forward, trnfft::PlanOptions{}.with_unaligned());
  for (int i = 0; i < 16; ++i) fc[static_cast<std::size_t>(i + 1)] = Cf(static_cast<float>(i), 0);
  EXPECT_NO_THROW(pu.execute(fc.data() + 1, fb.data()));
  EXPECT_FLOAT_EQ(fb[0].real(), 120.0f);  // Σ i
  expect_error<trncore::InvalidArgument>([&] { p.execute(c.data(), c.data()); }, "trnfft::C2CPlan::execute",
                                         {"made out-of-place", "new arrays are in-place"});
  expect_error<trncore::InvalidArgument>([&] { p.execute(nullptr, d.data()); }, "trnfft::C2CPlan::execute",
                                         {"in is null"});
  expect_error<trncore::InvalidArgument>([&] { p.execute(c.data(), c.data() + 2); }, "trnfft::C2CPlan::execute",
                                         {"overlap"});
  expect_error<trncore::InvalidArgument>([&] { p.execute_split(nullptr, nullptr, nullptr, nullptr); },
                                         "trnfft::C2CPlan::execute_split", {"interleaved layout", "execute("});
  std::vector<C> short_span(15), out(16);
  expect_error<trncore::DimensionMismatch>([&] { p.execute(std::span<const C>(short_span), std::span<C>(out)); },
                                           "trnfft::C2CPlan::execute", {"in has 15 elements", "16 are needed"});

  // Split plans: the separations ii - ri and io - ro must not change.
  Buffer<double> s(64), t(64);
  auto sp = trnfft::plan_guru_split_dft<double>({{16, 1, 1}}, {}, s.data(), s.data() + 16, t.data(), t.data() + 16,
                                                Direction::forward);
  Buffer<double> u(64), v(64);
  EXPECT_NO_THROW(sp.execute_split(u.data(), u.data() + 16, v.data(), v.data() + 16));
  expect_error<trncore::InvalidArgument>([&] { sp.execute_split(u.data(), u.data() + 32, v.data(), v.data() + 16); },
                                         "trnfft::C2CPlan::execute_split", {"256 / 128 bytes", "128 / 128"});
  expect_error<trncore::InvalidArgument>([&] { sp.execute(a.data(), b.data()); }, "trnfft::C2CPlan::execute",
                                         {"split layout", "execute_split"});

  // r2c/c2r spans.
  std::vector<double> r(8);
  std::vector<C> h(5);
  auto rp = trnfft::plan_dft_r2c_1d(8, r.data(), h.data());
  std::vector<C> h4(4);
  expect_error<trncore::DimensionMismatch>([&] { rp.execute(std::span<const double>(r), std::span<C>(h4)); },
                                           "trnfft::R2CPlan::execute", {"out has 4 elements", "5 are needed"});
  auto cp = trnfft::plan_dft_c2r_1d(8, h.data(), r.data());
  std::vector<double> r7(7);
  expect_error<trncore::DimensionMismatch>([&] { cp.execute(std::span<C>(h), std::span<double>(r7)); },
                                           "trnfft::C2RPlan::execute", {"out has 7 elements", "8 are needed"});
}

TEST(PlanArguments, Wisdom) {
  expect_error<trncore::ParseError>([] { trnfft::import_wisdom<double>("(not wisdom at all"); },
                                    "trnfft::import_wisdom", {"rejected", "(double)"});
  expect_error<trncore::IoError>([] { trnfft::import_wisdom_from_file<float>("/nonexistent/dir/wisdom"); },
                                 "trnfft::import_wisdom_from_file", {"/nonexistent/dir/wisdom"});
  expect_error<trncore::IoError>([] { trnfft::export_wisdom_to_file<float>("/nonexistent/dir/wisdom"); },
                                 "trnfft::export_wisdom_to_file", {"/nonexistent/dir/wisdom"});
}

TEST(PlanArguments, EnumNames) {
  for (auto d : {Direction::forward, Direction::backward}) EXPECT_EQ(trnfft::parse_direction(trnfft::to_string(d)), d);
  for (auto r : {trnfft::Rigor::estimate, trnfft::Rigor::measure, trnfft::Rigor::patient, trnfft::Rigor::exhaustive})
    EXPECT_EQ(trnfft::parse_rigor(trnfft::to_string(r)), r);
  for (auto l : {trnfft::ComplexLayout::interleaved, trnfft::ComplexLayout::split})
    EXPECT_EQ(trnfft::parse_complex_layout(trnfft::to_string(l)), l);
  for (auto k : {trnfft::Kind::c2c, trnfft::Kind::r2c, trnfft::Kind::c2r})
    EXPECT_EQ(trnfft::parse_kind(trnfft::to_string(k)), k);
  for (auto n : {trnfft::Norm::backward, trnfft::Norm::ortho, trnfft::Norm::forward})
    EXPECT_EQ(trnfft::parse_norm(trnfft::to_string(n)), n);
  expect_error<trncore::ParseError>([] { (void)trnfft::parse_norm("orthonormal"); }, "trnfft::parse_norm",
                                    {"'orthonormal'", "backward, ortho or forward"});
  expect_error<trncore::ParseError>([] { (void)trnfft::parse_rigor("fast"); }, "trnfft::parse_rigor", {"'fast'"});
}

TEST(PlanArguments, DescriptionNamesTheGeometry) {
  std::vector<C> a(24), b(24);
  auto p = trnfft::plan_many_dft<double>({8}, 3, a.data(), {}, 1, 8, b.data(), {}, 1, 8, Direction::backward);
  EXPECT_EQ(p.description(),
            "c2c backward interleaved out-of-place dims [n=8 is=1 os=1] batch [n=3 is=8 os=8] threads 1");
  EXPECT_EQ(p.input_extent(), 24);
  EXPECT_EQ(p.output_extent(), 24);
}

}  // namespace
