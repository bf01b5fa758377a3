// trntensor::einsum against Eigen's Tensor contraction in one binary. Counter `speedup_vs_eigen` = Eigen time /
// trntensor time (issue target ≥ 1.0). Eigen runs on a 2-thread ThreadPoolDevice (joined before trntensor is
// timed), the same thread budget OpenBLAS (under trnblas) uses here, and is given the optimal contraction order by hand, so the ratio
// measures execution, not planning luck. Sizes: a skewed 3-operand chain and the DF-MP2 pair contraction
// (ia|jb) = Σ_Q B_iaQ B_jbQ at o = 20, v = 100, Q = 300 (water-in-a-large-basis scale).
#define EIGEN_USE_THREADS
#include <trntensor/einsum.hpp>

#include <benchmark/benchmark.h>
#include <unsupported/Eigen/CXX11/Tensor>

#include <chrono>
#include <cmath>
#include <span>
#include <random>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

template <int R>
using ETensor = Eigen::Tensor<double, R, Eigen::RowMajor>;

void fill(double* x, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::int64_t i = 0; i < n; ++i) x[i] = u(rng);
}

template <class F>
double best_seconds(F&& f, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

// Eigen's best time over `reps` runs of f(device) on a 2-thread pool that is joined before returning: its
// workers spin for a while after each task and would otherwise steal the cores OpenBLAS's threads need.
template <class F>
double eigen_seconds(F&& f, int reps) {
  Eigen::ThreadPool pool(2);
  Eigen::ThreadPoolDevice dev(&pool, 2);
  return best_seconds([&] { f(dev); }, reps);
}

// The benchmark loop over plan.execute, then the counters: the ratio of the peer's best time to ours, both
// times, and the largest difference from the peer's result (same row-major layout).
void time_plan_against(benchmark::State& state, const trntensor::ContractionPlan& plan,
                       std::span<const trntensor::TensorView<const double>> ops, trntensor::Tensor<double>& y,
                       double peer_seconds, const double* peer_result) {
  // Best iteration, as the peer's best run: both sides get the same treatment of a noisy machine.
  double ours = 1e30;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    plan.execute<double>(ops, 1.0, 0.0, y.view());
    benchmark::DoNotOptimize(y.data());
    ours = std::min(ours, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  double diff = 0;
  for (std::int64_t x = 0; x < y.size(); ++x) diff = std::max(diff, std::fabs(y.data()[x] - peer_result[x]));
  state.counters["speedup_vs_eigen"] = peer_seconds / ours;
  state.counters["trntensor_ms"] = ours * 1e3;
  state.counters["eigen_ms"] = peer_seconds * 1e3;
  state.counters["max_abs_diff"] = diff;
  state.counters["plan_gflop"] = plan.total_flops() * 1e-9;
}

// ij,jk,kl->il with i = 600, j = 40, k = 700, l = 500. Eigen gets the cheaper of the two orders (by the
// planner's own FLOP formula, computed here independently).
void BM_Chain3(benchmark::State& state) {
  const Eigen::Index i = 600, j = 40, k = 700, l = 500;
  ETensor<2> a(i, j), b(j, k), c(k, l);
  fill(a.data(), a.size(), 1);
  fill(b.data(), b.size(), 2);
  fill(c.data(), c.size(), 3);
  trntensor::Tensor<double> ta({i, j}, std::vector<double>(a.data(), a.data() + a.size()));
  trntensor::Tensor<double> tb({j, k}, std::vector<double>(b.data(), b.data() + b.size()));
  trntensor::Tensor<double> tc({k, l}, std::vector<double>(c.data(), c.data() + c.size()));
  const std::vector<trntensor::Shape> shapes{{i, j}, {j, k}, {k, l}};
  const trntensor::ContractionPlan plan("ij,jk,kl->il", shapes);
  trntensor::Tensor<double> y({i, l});
  const trntensor::TensorView<const double> ops[] = {ta.view(), tb.view(), tc.view()};
  ETensor<2> ab(i, k), bc(j, l), ey(i, l);
  const Eigen::array<Eigen::IndexPair<int>, 1> inner{Eigen::IndexPair<int>(1, 0)};
  const bool left_first = 2.0 * i * j * k + 2.0 * i * k * l <= 2.0 * j * k * l + 2.0 * i * j * l;
  const double eigen = eigen_seconds(
      [&](const Eigen::ThreadPoolDevice& dev) {
        if (left_first) {
          ab.device(dev) = a.contract(b, inner);
          ey.device(dev) = ab.contract(c, inner);
        } else {
          bc.device(dev) = b.contract(c, inner);
          ey.device(dev) = a.contract(bc, inner);
        }
      },
      5);
  time_plan_against(state, plan, ops, y, eigen, ey.data());
}
BENCHMARK(BM_Chain3)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DfMp2Pair(benchmark::State& state) {
  const Eigen::Index o = 20, v = 100, q = 300;
  ETensor<3> b(o, v, q);
  fill(b.data(), b.size(), 4);
  trntensor::Tensor<double> tb({o, v, q}, std::vector<double>(b.data(), b.data() + b.size()));
  const std::vector<trntensor::Shape> shapes{{o, v, q}, {o, v, q}};
  const trntensor::ContractionPlan plan("iaQ,jbQ->iajb", shapes);
  trntensor::Tensor<double> y({o, v, o, v});
  const trntensor::TensorView<const double> ops[] = {tb.view(), tb.view()};
  ETensor<4> ey(o, v, o, v);
  const Eigen::array<Eigen::IndexPair<int>, 1> q_index{Eigen::IndexPair<int>(2, 2)};
  const double eigen =
      eigen_seconds([&](const Eigen::ThreadPoolDevice& dev) { ey.device(dev) = b.contract(b, q_index); }, 3);
  time_plan_against(state, plan, ops, y, eigen, ey.data());
}
BENCHMARK(BM_DfMp2Pair)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
