// matmul_psum: the fast TensorEngine numerics against (1) the scalar reference of the same rules, bit for
// bit, and (2) independent oracles where the rules make the answer known: fp64 arithmetic when every
// partial sum is exact, and the published effect of the product model on split products.
#include <trncore/error.hpp>
#include <trncore/format.hpp>
#include <trncore/sim/matmul.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using trncore::sim::MatmulOptions;
using trncore::sim::ProductModel;
using trncore::sim::detail::MatmulTarget;

float to_bf16(float x) {
  return static_cast<float>(
      trncore::decode(trncore::formats::bf16, trncore::encode(trncore::formats::bf16, x, trncore::Rounding())));
}

// bf16 values with a sprinkling of zeros, subnormals, huge values, infinities and NaNs.
std::vector<float> special_bf16_matrix(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::uint64_t seed,
                                       double special_fraction) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<float> x(static_cast<std::size_t>(std::max<std::int64_t>(rows * ld, 1)), -7.0f);
  const float specials[] = {0.0f,
                            -0.0f,
                            0x1p-130f,
                            -0x1p-133f,
                            0x1p-126f,
                            3e38f,
                            -3e38f,
                            INFINITY,
                            -INFINITY,
                            NAN,
                            std::bit_cast<float>(0x7F800001u)};
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      float v = normal(rng);
      if (u(rng) < special_fraction) v = specials[rng() % std::size(specials)];
      x[static_cast<std::size_t>(i * ld + j)] = to_bf16(v);
    }
  return x;
}

bool same_bits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

using Shape = std::tuple<std::int64_t, std::int64_t, std::int64_t>;

class MatmulMatchesReference : public ::testing::TestWithParam<Shape> {};

// Bit identity: any blocking, SIMD width or thread count changes only which elements are in flight,
// never an element's operation sequence, so every bit must agree, NaN canonicalisation included.
TEST_P(MatmulMatchesReference, OnEveryTargetModelThreadCountAndAccumulateFlag) {
  const auto [m, n, k] = GetParam();
  const std::int64_t lda = k + 3, ldb = n + 1, ldc = n + 2;  // padded: the kernels must honour ld
  for (double special : {0.0, 0.02}) {
    const auto a = special_bf16_matrix(m, k, lda, 1 + m * 7 + k, special);
    const auto b = special_bf16_matrix(k, n, ldb, 2 + n * 5 + k, special);
    const auto c0 = special_bf16_matrix(m, n, ldc, 3 + m + n, special);
    for (ProductModel model : {ProductModel::exact, ProductModel::bf16}) {
      for (bool accumulate : {false, true}) {
        MatmulOptions options;
        options.product = model;
        options.accumulate = accumulate;
        auto expected = c0;
        trncore::sim::matmul_psum_reference(m, n, k, a.data(), lda, b.data(), ldb, expected.data(), ldc, options);
        for (MatmulTarget target : {MatmulTarget::generic, MatmulTarget::avx2, MatmulTarget::avx512}) {
          if (!trncore::sim::detail::cpu_supports(target)) continue;
          for (int threads : {1, 2, 3}) {
            options.threads = threads;
            auto got = c0;
            trncore::sim::detail::matmul_psum_on(target, m, n, k, a.data(), lda, b.data(), ldb, got.data(), ldc,
                                                 options);
            ASSERT_TRUE(same_bits(got, expected))
                << "m=" << m << " n=" << n << " k=" << k << " model=" << trncore::sim::to_string(model)
                << " accumulate=" << accumulate << " target=" << static_cast<int>(target) << " threads=" << threads
                << " specials=" << special;
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, MatmulMatchesReference,
                         ::testing::Values(Shape{0, 0, 0}, Shape{0, 5, 3}, Shape{4, 0, 3}, Shape{3, 4, 0},
                                           Shape{1, 1, 1}, Shape{7, 13, 5}, Shape{8, 32, 17}, Shape{9, 33, 257},
                                           Shape{127, 129, 128}, Shape{128, 128, 129}, Shape{65, 511, 130},
                                           Shape{3, 513, 300}, Shape{130, 40, 512}, Shape{1, 512, 1}));

// Independent oracle: small integers make every product and partial sum exact in fp32, so both models
// and any order must give the fp64 result exactly.
TEST(MatmulPsum, ExactIntegerProblemsEqualFp64) {
  const std::int64_t m = 37, n = 70, k = 300;
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> small(-15, 15);  // |products| ≤ 225, |sums| ≤ 67500 < 2^24
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (auto& x : a) x = static_cast<float>(small(rng));
  for (auto& x : b) x = static_cast<float>(small(rng));
  for (ProductModel model : {ProductModel::exact, ProductModel::bf16}) {
    MatmulOptions options;
    options.product = model;
    trncore::sim::matmul_psum(m, n, k, a.data(), k, b.data(), n, c.data(), n, options);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (std::int64_t kk = 0; kk < k; ++kk) s += double(a[i * k + kk]) * double(b[kk * n + j]);
        ASSERT_EQ(double(c[i * n + j]), s) << i << "," << j;
      }
  }
}

// Independent oracle for the bf16 product model: 255·255 = 65025 needs 16 bits; bf16 keeps 8, and the
// nearest-even 8-bit value is 65024. Under the exact model the product survives.
TEST(MatmulPsum, Bf16ProductModelRoundsEachProduct) {
  const float a = 255.0f, b = 255.0f;
  float c = 0.0f;
  MatmulOptions options;
  options.product = ProductModel::bf16;
  trncore::sim::matmul_psum(1, 1, 1, &a, 1, &b, 1, &c, 1, options);
  EXPECT_EQ(c, 65024.0f);
  options.product = ProductModel::exact;
  trncore::sim::matmul_psum(1, 1, 1, &a, 1, &b, 1, &c, 1, options);
  EXPECT_EQ(c, 65025.0f);
}

// The effect reported on trn1/trn2: splitting A = hi + lo into two bf16 parts and adding hi·B + lo·B
// recovers ~8 more bits under exact products, and gains nothing when every product is rounded to bf16
// (the product error, ~2^-9 relative, dominates the representation error the split removes).
TEST(MatmulPsum, SplitProductsHelpOnlyUnderTheExactModel) {
  const std::int64_t m = 16, n = 16, k = 128;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> u(0.5f, 1.0f);  // positive: no cancellation, clean error ratios
  std::vector<float> a(m * k), hi(m * k), lo(m * k), b(k * n);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = u(rng);
    hi[i] = to_bf16(a[i]);
    lo[i] = to_bf16(a[i] - hi[i]);
  }
  for (auto& x : b) x = to_bf16(u(rng));
  const auto max_relative_error = [&](const std::vector<float>& c) {
    double worst = 0;
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (std::int64_t kk = 0; kk < k; ++kk) s += double(a[i * k + kk]) * double(b[kk * n + j]);
        worst = std::max(worst, std::abs(c[i * n + j] - s) / s);
      }
    return worst;
  };
  for (ProductModel model : {ProductModel::exact, ProductModel::bf16}) {
    MatmulOptions options;
    options.product = model;
    std::vector<float> one_pass(m * n), split(m * n);
    trncore::sim::matmul_psum(m, n, k, hi.data(), k, b.data(), n, one_pass.data(), n, options);
    trncore::sim::matmul_psum(m, n, k, hi.data(), k, b.data(), n, split.data(), n, options);
    options.accumulate = true;
    trncore::sim::matmul_psum(m, n, k, lo.data(), k, b.data(), n, split.data(), n, options);
    const double e1 = max_relative_error(one_pass), e2 = max_relative_error(split);
    if (model == ProductModel::exact) {
      // One pass: |A − hi| ≤ 2^-9|A| per entry (~2^-10 on average over k terms); split: fp32 accumulation,
      // ≤ k·2^-24 worst case. A 16× improvement is far inside both bounds.
      EXPECT_LT(e2 * 16, e1) << "one pass " << e1 << ", split " << e2;
    } else {
      // Each product carries up to 2^-9 relative rounding in both computations; the split cannot remove it.
      EXPECT_GT(e2 * 2, e1) << "one pass " << e1 << ", split " << e2;
    }
  }
}

TEST(MatmulPsum, BadArgumentsThrowWithTheValues) {
  std::vector<float> x(64, 1.0f);
  const auto message = [&](auto call) {
    try {
      call();
    } catch (const trncore::InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_NE(message([&] {
              trncore::sim::matmul_psum(-1, 2, 2, x.data(), 2, x.data(), 2, x.data(), 2);
            }).find("trncore::sim::matmul_psum: negative size: m = -1, n = 2, k = 2"),
            std::string::npos);
  EXPECT_NE(message([&] {
              trncore::sim::matmul_psum(2, 2, 3, x.data(), 2, x.data(), 2, x.data(), 2);
            }).find("lda = 2 is less than max(1, k = 3)"),
            std::string::npos);
  EXPECT_NE(message([&] {
              trncore::sim::matmul_psum(2, 4, 3, x.data(), 3, x.data(), 3, x.data(), 4);
            }).find("ldb = 3 is less than max(1, n = 4)"),
            std::string::npos);
  EXPECT_NE(message([&] {
              trncore::sim::matmul_psum(2, 2, 2, nullptr, 2, x.data(), 2, x.data(), 2);
            }).find("null matrix pointer"),
            std::string::npos);
  MatmulOptions bad;
  bad.product = static_cast<ProductModel>(9);
  EXPECT_NE(message([&] {
              trncore::sim::matmul_psum(1, 1, 1, x.data(), 1, x.data(), 1, x.data(), 1, bad);
            }).find("product model value 9"),
            std::string::npos);
  EXPECT_EQ(trncore::sim::parse_product_model("exact"), ProductModel::exact);
  EXPECT_THROW(trncore::sim::parse_product_model("fp8"), trncore::ParseError);
}

TEST(MatmulPsum, EmptyKGivesZeroOrTheAccumulator) {
  std::vector<float> c = {1.5f, -2.0f, NAN, 4.0f};
  MatmulOptions options;
  options.accumulate = true;
  trncore::sim::matmul_psum(2, 2, 0, nullptr, 1, nullptr, 2, c.data(), 2, options);
  EXPECT_EQ(c[0], 1.5f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(c[2]), 0x7FC00000u);  // NaN comes back canonical
  options.accumulate = false;
  trncore::sim::matmul_psum(2, 2, 0, nullptr, 1, nullptr, 2, c.data(), 2, options);
  for (float x : c) EXPECT_EQ(std::bit_cast<std::uint32_t>(x), 0u);  // +0, as a cleared PSUM tile
}

}  // namespace
