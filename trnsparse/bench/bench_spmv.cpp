// Host CSR SpMV against Eigen's sparse matrix-vector product (row-major SparseMatrix * VectorXd) in the
// same binary, on three matrices with 10^6+ nonzeros (3-D Poisson, uniformly random, power-law rows).
#include <trnsparse/eigen.hpp>
#include <trnsparse/ops.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

// 7-point 3-D Laplacian on an n^3 grid (n = 60: 216000 rows, 1.5e6 nonzeros).
trnsparse::Csr<double> poisson3d(std::int64_t n) {
  trnsparse::Coo<double> coo;
  coo.rows = coo.cols = n * n * n;
  auto add = [&](std::int64_t r, std::int64_t c, double v) {
    coo.row.push_back(static_cast<int>(r));
    coo.col.push_back(static_cast<int>(c));
    coo.values.push_back(v);
  };
  for (std::int64_t k = 0; k < n; ++k)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t r = (k * n + j) * n + i;
        add(r, r, 6.0);
        if (i > 0) add(r, r - 1, -1.0);
        if (i + 1 < n) add(r, r + 1, -1.0);
        if (j > 0) add(r, r - n, -1.0);
        if (j + 1 < n) add(r, r + n, -1.0);
        if (k > 0) add(r, r - n * n, -1.0);
        if (k + 1 < n) add(r, r + n * n, -1.0);
      }
  return trnsparse::to_csr(coo);
}

// rows x rows with `per_row` uniformly random columns per row (duplicates summed): irregular access.
trnsparse::Csr<double> random_csr(std::int64_t rows, std::int64_t per_row) {
  std::mt19937_64 gen(42);
  std::uniform_int_distribution<std::int64_t> col(0, rows - 1);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  trnsparse::Coo<double> coo;
  coo.rows = coo.cols = rows;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t k = 0; k < per_row; ++k) {
      coo.row.push_back(static_cast<int>(r));
      coo.col.push_back(static_cast<int>(col(gen)));
      coo.values.push_back(val(gen));
    }
  return trnsparse::to_csr(coo);
}

// rows x rows with row lengths from a power law (most rows short, a few with thousands of entries), as
// in web/social graphs: tests that the row split balances nonzeros, not rows.
trnsparse::Csr<double> skewed_csr(std::int64_t rows) {
  std::mt19937_64 gen(7);
  std::uniform_int_distribution<std::int64_t> col(0, rows - 1);
  std::uniform_real_distribution<double> val(-1.0, 1.0), u(0.0, 1.0);
  trnsparse::Coo<double> coo;
  coo.rows = coo.cols = rows;
  for (std::int64_t r = 0; r < rows; ++r) {
    // P(len > L) ~ L^-1.5, capped at 5000 entries; mean about 6.
    const auto len = std::min<std::int64_t>(5000, static_cast<std::int64_t>(2.0 / std::pow(1.0 - u(gen), 1.0 / 1.5)));
    for (std::int64_t k = 0; k < len; ++k) {
      coo.row.push_back(static_cast<int>(r));
      coo.col.push_back(static_cast<int>(col(gen)));
      coo.values.push_back(val(gen));
    }
  }
  return trnsparse::to_csr(coo);
}

const trnsparse::Csr<double>& matrix(int which) {
  static const trnsparse::Csr<double> poisson = poisson3d(60);
  static const trnsparse::Csr<double> random = random_csr(200000, 10);
  static const trnsparse::Csr<double> skewed = skewed_csr(300000);
  return which == 0 ? poisson : which == 1 ? random : skewed;
}

// Each iteration times one block of trnsparse::spmv and one block of Eigen's y = A*x (which goes first
// alternates, so load from other processes and cache state hit both alike). Counters:
//   speedup      = Σ Eigen block time / Σ trnsparse block time (issue target ≥ 1.0; > 1 = trnsparse faster)
//   best_speedup = fastest Eigen block / fastest trnsparse block
//   trn_us, eigen_us = fastest block / reps, microseconds per product
// Eigen is built without OpenMP here (as in most builds), so it is single-threaded; range(1) sets
// trnsparse's threads (1, or 0 = all cores, the default of trncore::Options).
void BM_spmv_vs_eigen(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const auto& a = matrix(static_cast<int>(state.range(0)));
  const int threads = static_cast<int>(state.range(1));
  const auto e = trnsparse::to_eigen(a);
  std::vector<double> x(static_cast<std::size_t>(a.cols)), y(static_cast<std::size_t>(a.rows));
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& v : x) v = u(gen);
  const Eigen::Map<const Eigen::VectorXd> ex(x.data(), a.cols);
  Eigen::VectorXd ey(a.rows);
  const auto opts = trncore::Options{}.with_threads(threads);
  constexpr int reps = 10;
  auto time = [&](auto&& f) {
    const auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) f();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  auto trn = [&] {
    trnsparse::spmv<double, int>(trnblas::Op::no_trans, 1.0, a, x, 0.0, y, opts);
    benchmark::DoNotOptimize(y.data());
  };
  auto eig = [&] {
    ey.noalias() = e * ex;
    benchmark::DoNotOptimize(ey.data());
  };
  double trn_total = 0, eig_total = 0, trn_best = 1e30, eig_best = 1e30;
  bool trn_first = true;
  for (auto _ : state) {
    double t_trn = 0, t_eig = 0;
    if (trn_first) {
      t_trn = time(trn);
      t_eig = time(eig);
    } else {
      t_eig = time(eig);
      t_trn = time(trn);
    }
    trn_first = !trn_first;
    trn_total += t_trn;
    eig_total += t_eig;
    trn_best = std::min(trn_best, t_trn);
    eig_best = std::min(eig_best, t_eig);
  }
  state.counters["nnz"] = static_cast<double>(a.nnz());
  state.counters["speedup"] = eig_total / trn_total;
  state.counters["best_speedup"] = eig_best / trn_best;
  state.counters["trn_us"] = trn_best / reps * 1e6;
  state.counters["eigen_us"] = eig_best / reps * 1e6;
}

}  // namespace

// range(0): 0 = 3-D Poisson 60^3 (1.49e6 nnz), 1 = random 200000^2 with 10 per row (2.0e6 nnz),
// 2 = power-law row lengths, 300000^2. range(1): trnsparse threads (1, or 0 = all cores).
BENCHMARK(BM_spmv_vs_eigen)->ArgsProduct({{0, 1, 2}, {1, 0}})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
