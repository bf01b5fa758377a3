// trnsolver's host factorizations (getrf, potrf, geqrf; double) against LAPACKE called directly, in one
// binary. Every iteration runs both on fresh copies of the same matrix, alternately, and times only the
// factorization (manual timing: the copies are outside the timed region). Counters:
// - ratio      = Σ trnsolver time / Σ LAPACKE time over the iterations (issue target ≤ 1.03 at n ≥ 500);
// - ratio_best = best trnsolver time / best LAPACKE time (less sensitive to a shared machine's noise);
// - lapacke_ms, trnsolver_ms (means).
// The LAPACKE peer is the _work routine in the same layout (no NaN scan): for row-major data LAPACKE
// transposes into a column-major copy and back. trnsolver does that too for getrf (LAPACK has no row-
// pivoted LU of a transposed matrix) and geqrf (the copy-free gelqf of the transpose measured slower), but
// not for potrf (uplo swap). BM_Copy_* times LAPACKE's row-major overhead itself: row-major LAPACKE /
// column-major LAPACKE on the same matrix.
//
// Run as a ctest smoke test (--benchmark_min_time=0.001) it registers n = 64 only.
#include <trnsolver/dense.hpp>

#include "smoke_run.hpp"

#include <benchmark/benchmark.h>
#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using trncore::Layout;
using Clock = std::chrono::steady_clock;

enum class Routine { getrf, potrf, geqrf };

std::vector<double> matrix(Routine r, std::int64_t n) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(n));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (double& x : a) x = u(rng);
  if (r == Routine::potrf) {
    // Symmetric, diagonally dominant: SPD.
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < i; ++j)
        a[static_cast<std::size_t>(j * n + i)] = a[static_cast<std::size_t>(i * n + j)];
      a[static_cast<std::size_t>(i * n + i)] = static_cast<double>(n);
    }
  }
  return a;
}

double run_trnsolver(Routine r, Layout layout, std::int64_t n, double* a, std::vector<std::int64_t>& ipiv,
                     std::vector<double>& tau) {
  const auto t0 = Clock::now();
  switch (r) {
    case Routine::getrf: trnsolver::getrf(layout, n, n, a, n, ipiv.data()); break;
    case Routine::potrf: trnsolver::potrf(layout, trnsolver::Uplo::lower, n, a, n); break;
    case Routine::geqrf: trnsolver::geqrf(layout, n, n, a, n, tau.data()); break;
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// LAPACKE as a caller would use it directly: the _work routine, workspace queried once per call for geqrf
// (as trnsolver does), in the given layout.
double run_lapacke(Routine r, Layout layout, std::int64_t n, double* a, std::vector<lapack_int>& ipiv,
                   std::vector<double>& tau) {
  const int lay = layout == Layout::row_major ? LAPACK_ROW_MAJOR : LAPACK_COL_MAJOR;
  const auto ni = static_cast<lapack_int>(n);
  const auto t0 = Clock::now();
  switch (r) {
    case Routine::getrf: LAPACKE_dgetrf_work(lay, ni, ni, a, ni, ipiv.data()); break;
    case Routine::potrf: LAPACKE_dpotrf_work(lay, 'L', ni, a, ni); break;
    case Routine::geqrf: {
      double q = 0;
      LAPACKE_dgeqrf_work(lay, ni, ni, a, ni, tau.data(), &q, -1);
      std::vector<double> work(static_cast<std::size_t>(q));
      LAPACKE_dgeqrf_work(lay, ni, ni, a, ni, tau.data(), work.data(), static_cast<lapack_int>(work.size()));
      break;
    }
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void BM_Factor(benchmark::State& state, Routine r, Layout layout) {
  const std::int64_t n = state.range(0);
  const std::vector<double> a0 = matrix(r, n);
  std::vector<double> a1(a0.size()), a2(a0.size());
  std::vector<std::int64_t> ipiv(static_cast<std::size_t>(n));
  std::vector<lapack_int> ipiv32(static_cast<std::size_t>(n));
  std::vector<double> tau(static_cast<std::size_t>(n));
  double sum_t = 0, sum_p = 0, best_t = 1e300, best_p = 1e300;
  std::int64_t count = 0;
  for (auto _ : state) {
    std::memcpy(a1.data(), a0.data(), a0.size() * sizeof(double));
    std::memcpy(a2.data(), a0.data(), a0.size() * sizeof(double));
    // Alternate which goes first, so cache warmth and frequency drift do not favour one side.
    double t = 0, p = 0;
    if (count % 2 == 0) {
      t = run_trnsolver(r, layout, n, a1.data(), ipiv, tau);
      p = run_lapacke(r, layout, n, a2.data(), ipiv32, tau);
    } else {
      p = run_lapacke(r, layout, n, a2.data(), ipiv32, tau);
      t = run_trnsolver(r, layout, n, a1.data(), ipiv, tau);
    }
    state.SetIterationTime(t);
    sum_t += t;
    sum_p += p;
    best_t = std::min(best_t, t);
    best_p = std::min(best_p, p);
    ++count;
  }
  state.counters["ratio"] = sum_t / sum_p;
  state.counters["ratio_best"] = best_t / best_p;
  state.counters["trnsolver_ms"] = 1e3 * sum_t / static_cast<double>(count);
  state.counters["lapacke_ms"] = 1e3 * sum_p / static_cast<double>(count);
}

// LAPACKE's own row-major cost: row-major / column-major time of the same LAPACKE routine.
void BM_Copy(benchmark::State& state, Routine r) {
  const std::int64_t n = state.range(0);
  const std::vector<double> a0 = matrix(r, n);
  std::vector<double> a1(a0.size()), a2(a0.size());
  std::vector<lapack_int> ipiv32(static_cast<std::size_t>(n));
  std::vector<double> tau(static_cast<std::size_t>(n));
  double sum_r = 0, sum_c = 0;
  for (auto _ : state) {
    std::memcpy(a1.data(), a0.data(), a0.size() * sizeof(double));
    std::memcpy(a2.data(), a0.data(), a0.size() * sizeof(double));
    const double c = run_lapacke(r, Layout::col_major, n, a1.data(), ipiv32, tau);
    const double rr = run_lapacke(r, Layout::row_major, n, a2.data(), ipiv32, tau);
    state.SetIterationTime(rr);
    sum_r += rr;
    sum_c += c;
  }
  state.counters["row_over_col"] = sum_r / sum_c;
}

}  // namespace

int main(int argc, char** argv) {
  const bool smoke = trnsolver_bench::smoke_run(argc, argv);
  const std::vector<std::int64_t> sizes =
      smoke ? std::vector<std::int64_t>{64} : std::vector<std::int64_t>{500, 1000, 2000};
  const std::pair<const char*, Routine> routines[] = {
      {"getrf", Routine::getrf}, {"potrf", Routine::potrf}, {"geqrf", Routine::geqrf}};
  for (const auto& [name, r] : routines) {
    for (Layout layout : {Layout::col_major, Layout::row_major}) {
      const std::string label = std::string("BM_") + name + (layout == Layout::col_major ? "/col" : "/row");
      auto* b = benchmark::RegisterBenchmark(label.c_str(), BM_Factor, r, layout);
      for (auto n : sizes) b->Arg(n);
      b->UseManualTime()->Unit(benchmark::kMillisecond);
    }
    auto* c = benchmark::RegisterBenchmark((std::string("BM_Copy_") + name).c_str(), BM_Copy, r);
    for (auto n : sizes) c->Arg(n);
    c->UseManualTime()->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
