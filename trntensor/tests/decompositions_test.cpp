// Decompositions recover synthetic tensors of known low rank (built here from random factors with plain loops,
// not with the library), and truncations meet their certified bounds, measured explicitly as ‖X − X̂‖/‖X‖.
#include <trntensor/decompositions.hpp>

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace trntensor {
namespace {

std::vector<double> random_vector(std::size_t n, std::uint64_t seed, bool nonnegative = false) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0, 1);
  std::vector<double> v(n);
  for (auto& x : v) x = nonnegative ? std::fabs(g(rng)) : g(rng);
  return v;
}

// Σ_r Π_n A_n[i_n, r] for 3-way shapes, factors row-major I_n × R.
Tensor<double> cp_tensor3(const Shape& s, std::int64_t r, std::uint64_t seed, bool nonnegative = false) {
  std::vector<std::vector<double>> a;
  for (int d = 0; d < 3; ++d)
    a.push_back(random_vector(static_cast<std::size_t>(s[static_cast<std::size_t>(d)] * r), seed + d, nonnegative));
  Tensor<double> x(s);
  for (std::int64_t i = 0; i < s[0]; ++i)
    for (std::int64_t j = 0; j < s[1]; ++j)
      for (std::int64_t k = 0; k < s[2]; ++k) {
        double v = 0;
        for (std::int64_t q = 0; q < r; ++q)
          v += a[0][static_cast<std::size_t>(i * r + q)] * a[1][static_cast<std::size_t>(j * r + q)] *
               a[2][static_cast<std::size_t>(k * r + q)];
        x(i, j, k) = v;
      }
  return x;
}

double rel_diff(const Tensor<double>& a, const Tensor<double>& b) {
  long double d = 0, n = 0;
  for (std::size_t i = 0; i < a.values().size(); ++i) {
    d += (static_cast<long double>(a.values()[i]) - b.values()[i]) *
         (static_cast<long double>(a.values()[i]) - b.values()[i]);
    n += static_cast<long double>(a.values()[i]) * a.values()[i];
  }
  return static_cast<double>(std::sqrt(d / n));
}

TEST(CpAls, RecoversARankThreeTensor) {
  const Tensor<double> x = cp_tensor3({6, 7, 5}, 3, 10);
  for (const bool line_search : {false, true}) {
    CpOptions o;
    o.rank = 3;
    o.max_iterations = 3000;
    o.tolerance = 1e-15;
    o.line_search = line_search;
    o.seed = 1;
    const CpDecomposition cp = cp_als(x.view(), o);
    // Exactly rank 3 and generic (Kruskal's condition holds with probability 1), so ALS converges to the
    // exact factors; 1e-8 leaves room for ALS's slow final convergence, a wrong MTTKRP would stall near 0.5.
    EXPECT_LT(rel_diff(x, cp_reconstruct(cp)), 1e-8) << "line_search " << line_search << " its " << cp.iterations;
    EXPECT_GT(cp.fit, 1 - 1e-8);
    RecordProperty(line_search ? "iterations_line_search" : "iterations_plain", std::to_string(cp.iterations));
  }
}

TEST(CpAls, NonNegativeVariant) {
  const Tensor<double> x = cp_tensor3({8, 6, 7}, 2, 20, true);
  CpOptions o;
  o.rank = 2;
  o.max_iterations = 5000;
  o.tolerance = 1e-15;
  o.nonnegative = true;
  const CpDecomposition cp = cp_als(x.view(), o);
  for (const auto& f : cp.factors)
    for (double v : f.values()) EXPECT_GE(v, 0.0);
  // Exact non-negative rank 2: HALS reaches it; 1e-5 allows its sublinear tail.
  EXPECT_LT(rel_diff(x, cp_reconstruct(cp)), 1e-5) << cp.iterations;
  Tensor<double> neg = x;
  neg.values()[3] = -1;
  EXPECT_THROW(cp_als(neg.view(), o), trncore::InvalidArgument);
}

// Options::monitor: called once per sweep with increasing sweep numbers and the fit change; it changes
// nothing; a stop returns the iterate of that sweep — bitwise the decomposition max_iterations = that sweep
// gives (the oracle), with stopped_by_monitor set and converged false.
TEST(CpAls, MonitorSeesEverySweepAndCanStop) {
  const Tensor<double> x = cp_tensor3({6, 7, 5}, 3, 10);
  CpOptions o;
  o.rank = 3;
  o.max_iterations = 40;
  o.tolerance = 0;  // every sweep runs
  o.seed = 1;
  const CpDecomposition plain = cp_als(x.view(), o);
  std::vector<std::int64_t> seen;
  std::vector<double> changes;
  o.monitor = [&](const trncore::Progress& p) {
    EXPECT_EQ(p.routine, "trntensor::cp_als");
    EXPECT_GE(p.elapsed_seconds, 0.0);
    seen.push_back(p.iteration);
    changes.push_back(p.residual);
    return trncore::MonitorAction::proceed;
  };
  const CpDecomposition watched = cp_als(x.view(), o);
  ASSERT_EQ(seen.size(), 40u);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], static_cast<std::int64_t>(i + 1));
  for (double c : changes) EXPECT_GE(c, 0.0);
  EXPECT_EQ(watched.fit, plain.fit);
  EXPECT_EQ(watched.weights, plain.weights);
  EXPECT_FALSE(watched.stopped_by_monitor);

  o.monitor = [](const trncore::Progress& p) {
    return p.iteration == 5 ? trncore::MonitorAction::stop : trncore::MonitorAction::proceed;
  };
  const CpDecomposition stopped = cp_als(x.view(), o);
  EXPECT_TRUE(stopped.stopped_by_monitor);
  EXPECT_FALSE(stopped.converged);
  EXPECT_EQ(stopped.iterations, 5);
  CpOptions five = o;
  five.monitor = nullptr;
  five.max_iterations = 5;
  const CpDecomposition oracle = cp_als(x.view(), five);
  EXPECT_EQ(stopped.fit, oracle.fit);
  EXPECT_EQ(stopped.weights, oracle.weights);
  for (std::size_t d = 0; d < oracle.factors.size(); ++d)
    EXPECT_EQ(stopped.factors[d].values(), oracle.factors[d].values());
  EXPECT_LT(stopped.fit, plain.fit);  // stopped early: not yet the 40-sweep fit
}

// options.threads never changes a result.
TEST(CpAls, ThreadCountDoesNotChangeTheResult) {
  const Tensor<double> x = cp_tensor3({9, 8, 7}, 3, 12);
  CpOptions o;
  o.rank = 3;
  o.max_iterations = 20;
  o.tolerance = 0;
  o.threads = 1;
  const CpDecomposition one = cp_als(x.view(), o);
  o.threads = 2;
  const CpDecomposition two = cp_als(x.view(), o);
  EXPECT_EQ(one.fit, two.fit);
  EXPECT_EQ(one.weights, two.weights);
  for (std::size_t d = 0; d < one.factors.size(); ++d) EXPECT_EQ(one.factors[d].values(), two.factors[d].values());
}

TEST(Decompositions, SimBackendIsNotSupported) {
  const Tensor<double> x = cp_tensor3({4, 3, 5}, 2, 3);
  CpOptions cp;
  cp.backend = trncore::Backend::sim;
  trnsci_testing::expect_error<trncore::NotSupported>([&] { cp_als(x.view(), cp); }, "trntensor::cp_als",
                                                      {"backend sim"});
  HooiOptions hooi;
  hooi.backend = trncore::Backend::sim;
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        tucker_hooi(x.view(), {2, 2, 2}, hooi);
      },
      "trntensor::tucker_hooi", {"backend sim"});
  const auto sim = trncore::Options{}.with_backend(trncore::Backend::sim);
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        tucker_hosvd(x.view(), {2, 2, 2}, sim);
      },
      "trntensor::tucker_hosvd", {"backend sim"});
  trnsci_testing::expect_error<trncore::NotSupported>([&] { tt_svd(x.view(), 0.1, 4, sim); }, "trntensor::tt_svd",
                                                      {"backend sim"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { tt_svd(x.view(), 0.1, 4, trncore::Options{}.with_threads(-1)); }, "trntensor::tt_svd", {"threads"});
}

// A zero extent is refused like cp_als refuses it (it crashed inside the SVD before trntensor 0.5.0).
TEST(Decompositions, TtSvdRefusesAZeroExtent) {
  for (const Shape& shape : {Shape{2, 0}, Shape{0, 3}, Shape{3, 0, 2}}) {
    const Tensor<double> empty(shape);
    const std::string printed = detail::shape_string(shape);
    trnsci_testing::expect_error<trncore::InvalidArgument>([&] { tt_svd(empty.view(), 0.1); }, "trntensor::tt_svd",
                                                           {printed, "zero extent"});
  }
}

// X = G ×_n U_n with random G (ranks) and random U_n: exact multilinear rank.
Tensor<double> tucker_tensor(const Shape& s, const Shape& r, std::uint64_t seed) {
  const auto g = random_vector(static_cast<std::size_t>(r[0] * r[1] * r[2]), seed);
  std::vector<std::vector<double>> u;
  for (int d = 0; d < 3; ++d)
    u.push_back(random_vector(static_cast<std::size_t>(s[static_cast<std::size_t>(d)] * r[static_cast<std::size_t>(d)]),
                              seed + 1 + d));
  Tensor<double> x(s);
  for (std::int64_t i = 0; i < s[0]; ++i)
    for (std::int64_t j = 0; j < s[1]; ++j)
      for (std::int64_t k = 0; k < s[2]; ++k) {
        double v = 0;
        for (std::int64_t a = 0; a < r[0]; ++a)
          for (std::int64_t b = 0; b < r[1]; ++b)
            for (std::int64_t c = 0; c < r[2]; ++c)
              v += g[static_cast<std::size_t>((a * r[1] + b) * r[2] + c)] *
                   u[0][static_cast<std::size_t>(i * r[0] + a)] * u[1][static_cast<std::size_t>(j * r[1] + b)] *
                   u[2][static_cast<std::size_t>(k * r[2] + c)];
        x(i, j, k) = v;
      }
  return x;
}

TEST(Tucker, HosvdAndHooiRecoverExactMultilinearRank) {
  const Tensor<double> x = tucker_tensor({8, 7, 9}, {3, 2, 4}, 30);
  const TuckerDecomposition h = tucker_hosvd(x.view(), {3, 2, 4});
  // Exact rank: the discarded singular values are round-off, so the error is O(u·cond).
  EXPECT_LT(h.relative_error, 1e-12);
  EXPECT_LT(rel_diff(x, tucker_reconstruct(h)), 1e-12);
  for (const auto& f : h.factors) {  // orthonormal columns: UᵀU = I
    const std::int64_t n = f.extent(0), r = f.extent(1);
    for (std::int64_t a = 0; a < r; ++a)
      for (std::int64_t b = 0; b < r; ++b) {
        double d = 0;
        for (std::int64_t i = 0; i < n; ++i) d += f(i, a) * f(i, b);
        EXPECT_NEAR(d, a == b ? 1.0 : 0.0, 1e-13);
      }
  }
  const TuckerDecomposition o = tucker_hooi(x.view(), {3, 2, 4});
  EXPECT_LT(o.relative_error, 1e-12);
}

TEST(Tucker, TruncationHooiNoWorseThanHosvd) {
  Tensor<double> x({6, 7, 5});
  const auto v = random_vector(static_cast<std::size_t>(x.size()), 40);
  x.values() = v;
  const TuckerDecomposition h = tucker_hosvd(x.view(), {2, 3, 2});
  HooiOptions ho;
  ho.max_iterations = 100;
  ho.tolerance = 1e-14;
  const TuckerDecomposition o = tucker_hooi(x.view(), {2, 3, 2}, ho);
  EXPECT_LE(o.relative_error, h.relative_error + 1e-12);
  EXPECT_GT(h.relative_error, 0.1);  // a random tensor is far from rank (2,3,2)
  EXPECT_LT(h.relative_error, 1.0);
  EXPECT_THROW(tucker_hosvd(x.view(), {2, 3}), trncore::InvalidArgument);
  EXPECT_THROW(tucker_hosvd(x.view(), {7, 3, 2}), trncore::InvalidArgument);
  HooiOptions negative;
  negative.max_iterations = -1;
  EXPECT_THROW(tucker_hooi(x.view(), {2, 3, 2}, negative), trncore::InvalidArgument);
}

// HOOI's monitor: increasing sweeps, residual |‖G_k‖ − ‖G_{k−1}‖| / ‖X‖ ≥ 0; a stop after sweep 2 returns
// bitwise what max_iterations = 2 (tolerance 0) returns.
TEST(Tucker, HooiMonitorSeesEverySweepAndCanStop) {
  Tensor<double> x({6, 7, 5});
  x.values() = random_vector(static_cast<std::size_t>(x.size()), 41);
  HooiOptions o;
  o.max_iterations = 6;
  o.tolerance = 0;
  std::vector<std::int64_t> seen;
  o.monitor = [&](const trncore::Progress& p) {
    EXPECT_EQ(p.routine, "trntensor::tucker_hooi");
    EXPECT_GE(p.residual, 0.0);
    seen.push_back(p.iteration);
    return trncore::MonitorAction::proceed;
  };
  const TuckerDecomposition all = tucker_hooi(x.view(), {2, 3, 2}, o);
  ASSERT_EQ(seen.size(), static_cast<std::size_t>(all.iterations));
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], static_cast<std::int64_t>(i + 1));
  EXPECT_FALSE(all.stopped_by_monitor);
  o.monitor = [](const trncore::Progress& p) {
    return p.iteration == 2 ? trncore::MonitorAction::stop : trncore::MonitorAction::proceed;
  };
  const TuckerDecomposition stopped = tucker_hooi(x.view(), {2, 3, 2}, o);
  EXPECT_TRUE(stopped.stopped_by_monitor);
  EXPECT_EQ(stopped.iterations, 2);
  HooiOptions two;
  two.max_iterations = 2;
  two.tolerance = 0;
  const TuckerDecomposition oracle = tucker_hooi(x.view(), {2, 3, 2}, two);
  EXPECT_EQ(stopped.core.values(), oracle.core.values());
  EXPECT_EQ(stopped.relative_error, oracle.relative_error);
}

TEST(TensorTrain, RecoversExactTtRanks) {
  // Cores 1×5×2, 2×6×3, 3×7×1 contracted by loops.
  const auto g0 = random_vector(10, 50), g1 = random_vector(36, 51), g2 = random_vector(21, 52);
  Tensor<double> x({5, 6, 7});
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 7; ++k) {
        double v = 0;
        for (int a = 0; a < 2; ++a)
          for (int b = 0; b < 3; ++b)
            v += g0[static_cast<std::size_t>(i * 2 + a)] * g1[static_cast<std::size_t>((a * 6 + j) * 3 + b)] *
                 g2[static_cast<std::size_t>(b * 7 + k)];
        x(i, j, k) = v;
      }
  const TensorTrain tt = tt_svd(x.view(), 1e-10);
  ASSERT_EQ(tt.cores.size(), 3u);
  EXPECT_EQ(tt.cores[0].extent(2), 2);
  EXPECT_EQ(tt.cores[1].extent(2), 3);
  EXPECT_LT(rel_diff(x, tt_reconstruct(tt)), 1e-12);
}

TEST(TensorTrain, EpsilonTruncationMeetsEpsilonAndMaxRankCaps) {
  Tensor<double> x({6, 5, 4, 3});
  x.values() = random_vector(static_cast<std::size_t>(x.size()), 60);
  for (const double eps : {0.6, 0.3, 0.1, 0.01, 0.0}) {
    const TensorTrain tt = tt_svd(x.view(), eps);
    const double err = rel_diff(x, tt_reconstruct(tt));
    // Oseledets 2011, Thm 2.2: ‖X − TT‖ ≤ √(Σ discarded σ²) = error_bound·‖X‖ ≤ ε‖X‖.
    EXPECT_LE(tt.error_bound, eps + 1e-15) << eps;
    EXPECT_LE(err, tt.error_bound * (1 + 1e-10) + 1e-14) << eps;
  }
  const TensorTrain capped = tt_svd(x.view(), 0.0, 2);
  for (const auto& c : capped.cores) EXPECT_LE(c.extent(2), 2);
  const double err = rel_diff(x, tt_reconstruct(capped));
  EXPECT_LE(err, capped.error_bound * (1 + 1e-10));
  EXPECT_GT(capped.error_bound, 0.1);  // rank 2 cannot represent a random 6×5×4×3 tensor
  EXPECT_THROW(tt_svd(x.view(), -1), trncore::InvalidArgument);
  EXPECT_THROW(tt_svd(x.view(), 0.1, 0), trncore::InvalidArgument);
  Tensor<double> bad({2, 2});
  bad.values()[0] = NAN;
  EXPECT_THROW(tt_svd(bad.view(), 0.1), trncore::InvalidArgument);
  EXPECT_THROW(cp_als(bad.view(), CpOptions{}), trncore::InvalidArgument);
}

}  // namespace
}  // namespace trntensor
