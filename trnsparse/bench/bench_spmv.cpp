// Host CSR SpMV against Eigen's sparse matrix-vector product (row-major SparseMatrix * VectorXd), on
// 2-D/3-D Poisson matrices and a random matrix with 10^6+ nonzeros. Run with --benchmark_min_time=... for
// steady numbers; the ratio is Eigen time / trnsparse time (> 1 means trnsparse is faster).
#include <trnsparse/eigen.hpp>
#include <trnsparse/ops.hpp>

#include <benchmark/benchmark.h>

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

const trnsparse::Csr<double>& matrix(int which) {
  static const trnsparse::Csr<double> poisson = poisson3d(60);
  static const trnsparse::Csr<double> random = random_csr(200000, 10);
  return which == 0 ? poisson : random;
}

void BM_trnsparse_spmv(benchmark::State& state) {
  const auto& a = matrix(static_cast<int>(state.range(0)));
  const int threads = static_cast<int>(state.range(1));
  std::vector<double> x(static_cast<std::size_t>(a.cols), 1.0), y(static_cast<std::size_t>(a.rows));
  const auto opts = trncore::Options{}.with_threads(threads);
  for (auto _ : state) {
    trnsparse::spmv<double, int>(trnblas::Op::no_trans, 1.0, a, x, 0.0, y, opts);
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["nnz"] = static_cast<double>(a.nnz());
  state.SetItemsProcessed(state.iterations() * a.nnz());
}

void BM_eigen_spmv(benchmark::State& state) {
  const auto& a = matrix(static_cast<int>(state.range(0)));
  const auto e = trnsparse::to_eigen(a);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(a.cols), y(a.rows);
  for (auto _ : state) {
    y.noalias() = e * x;
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["nnz"] = static_cast<double>(a.nnz());
  state.SetItemsProcessed(state.iterations() * a.nnz());
}

}  // namespace

// range(0): 0 = 3-D Poisson 60^3 (1.50e6 nnz), 1 = random 200000 x 200000, 10 per row (2.0e6 nnz).
// range(1): threads (0 = all cores).
BENCHMARK(BM_trnsparse_spmv)->ArgsProduct({{0, 1}, {1, 0}})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_eigen_spmv)->Args({0})->Args({1})->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
