// trnsolver's randomized SVD against LAPACK gesdd (truncated to the same rank) in one binary, on n×n
// matrices A = U·diag(σ)·Vᵀ with Haar-random U, V and a prescribed decaying spectrum, so the optimal
// rank-k errors are known exactly: ‖A − A_k‖₂ = σ_{k+1}, ‖A − A_k‖_F = (Σ_{j>k} σ_j²)^{1/2}.
//
// BM_Gesdd runs LAPACKE_dgesdd (jobz 'S') on a fresh copy each iteration (the copy is not timed) and keeps
// the first k triplets. BM_Rsvd runs trnsolver::rsvd(A, k) (oversampling 10, 2 power iterations) per sketch
// kind; BM_RsvdSim runs it on the sim backend (bf16 TensorEngine GEMMs) at a smaller n. Counters:
// - speedup    = mean gesdd time / mean rsvd time (gesdd timed first in the same process; issue target ≥ 20
//                at n = 4000, k = 50);
// - err_fro    = ‖A − UΣVᵀ‖_F / optimal (residual formed explicitly in double);
// - err_2      = ‖A − UΣVᵀ‖₂ / σ_{k+1}, ‖·‖₂ estimated by 30 power iterations on the residual operator
//                (a lower estimate; converges quickly since the residual's top singular values are separated
//                only mildly — it is reported, not asserted);
// - ms         = mean time per call.
// Spectra: "exp" σ_j = e^{−j/10}, "poly" σ_j = (j + 1)^{−2}; both relative to σ₁ = 1.
//
// Run as a ctest smoke test (--benchmark_min_time < 0.01) it registers n = 160, k = 10 only.
#include <trnsolver/randomized.hpp>

#include <trnblas/gemm.hpp>

#include "smoke_run.hpp"

#include <benchmark/benchmark.h>
#include <lapacke.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using trncore::Layout;
using Clock = std::chrono::steady_clock;

struct Problem {
  std::int64_t n = 0, k = 0;
  std::vector<double> a;      // column-major n×n
  std::vector<double> sigma;  // prescribed singular values
  double opt_fro = 0.0, opt_2 = 0.0;
};

std::vector<double> haar_orthogonal(std::int64_t n, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  std::vector<double> q(static_cast<std::size_t>(n * n)), tau(static_cast<std::size_t>(n));
  for (double& v : q) v = g(rng);
  const auto ni = static_cast<lapack_int>(n);
  LAPACKE_dgeqrf(LAPACK_COL_MAJOR, ni, ni, q.data(), ni, tau.data());
  LAPACKE_dorgqr(LAPACK_COL_MAJOR, ni, ni, ni, q.data(), ni, tau.data());
  return q;
}

const Problem& problem(const std::string& spectrum, std::int64_t n, std::int64_t k) {
  static std::map<std::string, Problem> cache;
  const std::string key = spectrum + std::to_string(n);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  Problem p;
  p.n = n;
  p.k = k;
  p.sigma.resize(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    p.sigma[static_cast<std::size_t>(j)] =
        spectrum == "exp" ? std::exp(-static_cast<double>(j) / 10.0) : std::pow(static_cast<double>(j + 1), -2.0);
  std::mt19937_64 rng(2026);
  const auto u = haar_orthogonal(n, rng), v = haar_orthogonal(n, rng);
  std::vector<double> us(u);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      us[static_cast<std::size_t>(i + j * n)] *= p.sigma[static_cast<std::size_t>(j)];
  p.a.resize(static_cast<std::size_t>(n * n));
  trnblas::gemm(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::trans, n, n, n, 1.0, us.data(), n, v.data(), n,
                0.0, p.a.data(), n);
  for (std::int64_t j = k; j < n; ++j)
    p.opt_fro += p.sigma[static_cast<std::size_t>(j)] * p.sigma[static_cast<std::size_t>(j)];
  p.opt_fro = std::sqrt(p.opt_fro);
  p.opt_2 = p.sigma[static_cast<std::size_t>(k)];
  return cache.emplace(key, std::move(p)).first->second;
}

// ‖A − U·diag(s)·Vᵀ‖_F (U n×k ld n, Vᵀ k×n ld k), residual formed in double.
double residual_fro(const Problem& p, const double* u, const double* s, const double* vt, std::int64_t k) {
  const std::int64_t n = p.n;
  std::vector<double> us(u, u + n * k), r(p.a);
  for (std::int64_t j = 0; j < k; ++j)
    for (std::int64_t i = 0; i < n; ++i) us[static_cast<std::size_t>(i + j * n)] *= s[j];
  trnblas::gemm(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, n, n, k, -1.0, us.data(), n, vt, k,
                1.0, r.data(), n);
  double f = 0.0;
  for (double x : r) f += x * x;
  return std::sqrt(f);
}

// ‖A − U·diag(s)·Vᵀ‖₂ by 30 power iterations on RᵀR with R applied implicitly.
double residual_2(const Problem& p, const double* u, const double* s, const double* vt, std::int64_t k) {
  const std::int64_t n = p.n;
  std::vector<double> x(static_cast<std::size_t>(n), 1.0), y(static_cast<std::size_t>(n)),
      c(static_cast<std::size_t>(k));
  const auto apply = [&](bool transpose, const std::vector<double>& in, std::vector<double>& out) {
    using trnblas::Op;
    trnblas::gemm(Layout::col_major, transpose ? Op::trans : Op::no_trans, Op::no_trans, n, 1, n, 1.0, p.a.data(), n,
                  in.data(), n, 0.0, out.data(), n);
    // out −= U·diag(s)·Vᵀ·in (or V·diag(s)·Uᵀ·in)
    trnblas::gemm(Layout::col_major, transpose ? Op::trans : Op::no_trans, Op::no_trans, k, 1, n, 1.0,
                  transpose ? u : vt, transpose ? n : k, in.data(), n, 0.0, c.data(), k);
    for (std::int64_t j = 0; j < k; ++j) c[static_cast<std::size_t>(j)] *= s[j];
    trnblas::gemm(Layout::col_major, transpose ? Op::trans : Op::no_trans, Op::no_trans, n, 1, k, -1.0,
                  transpose ? vt : u, transpose ? k : n, c.data(), k, 1.0, out.data(), n);
  };
  double norm = 0.0;
  std::vector<double> t(static_cast<std::size_t>(n));
  for (int it = 0; it < 30; ++it) {
    double xn = 0.0;
    for (double v : x) xn += v * v;
    xn = std::sqrt(xn);
    for (double& v : x) v /= xn;
    apply(false, x, t);
    double tn = 0.0;
    for (double v : t) tn += v * v;
    norm = std::sqrt(tn);
    apply(true, t, x);
  }
  return norm;
}

std::map<std::string, double> gesdd_seconds;  // per problem key, set by BM_Gesdd (registered first)

void BM_Gesdd(benchmark::State& state, std::string spectrum, std::int64_t n, std::int64_t k) {
  const Problem& p = problem(spectrum, n, k);
  std::vector<double> a, s(static_cast<std::size_t>(n)), u(static_cast<std::size_t>(n * n)),
      vt(static_cast<std::size_t>(n * n));
  double total = 0.0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    a = p.a;
    const auto t0 = Clock::now();
    const auto ni = static_cast<lapack_int>(n);
    LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'S', ni, ni, a.data(), ni, s.data(), u.data(), ni, vt.data(), ni);
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    state.SetIterationTime(dt);
    total += dt;
    ++runs;
  }
  // Truncate: first k columns of U, first k rows of Vᵀ (as a k×n matrix with ld k).
  std::vector<double> vtk(static_cast<std::size_t>(k * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < k; ++i)
      vtk[static_cast<std::size_t>(i + j * k)] = vt[static_cast<std::size_t>(i + j * n)];
  gesdd_seconds[spectrum + std::to_string(n)] = total / static_cast<double>(runs);
  state.counters["ms"] = 1e3 * total / static_cast<double>(runs);
  state.counters["err_fro"] = residual_fro(p, u.data(), s.data(), vtk.data(), k) / p.opt_fro;
  state.counters["err_2"] = residual_2(p, u.data(), s.data(), vtk.data(), k) / p.opt_2;
}

void BM_Rsvd(benchmark::State& state, std::string spectrum, std::int64_t n, std::int64_t k, trnsolver::SketchKind kind,
             trncore::Backend backend) {
  const Problem& p = problem(spectrum, n, k);
  const trncore::MatrixView<const double> view(p.a.data(), n, n, n, Layout::col_major);
  trnsolver::RsvdOptions o;
  o.sketch.kind = kind;
  o.sketch.seed = 1;
  o.backend = backend;
  if (backend == trncore::Backend::sim) o.math_mode = trncore::MathMode::bf16;
  trnsolver::RsvdResult<double> r;
  double total = 0.0;
  std::int64_t runs = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    r = trnsolver::rsvd<double>(view, k, o);
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    state.SetIterationTime(dt);
    total += dt;
    ++runs;
  }
  const double mean = total / static_cast<double>(runs);
  state.counters["ms"] = 1e3 * mean;
  const auto g = gesdd_seconds.find(spectrum + std::to_string(n));
  if (g != gesdd_seconds.end()) state.counters["speedup"] = g->second / mean;
  state.counters["err_fro"] = residual_fro(p, r.u.data.data(), r.s.data(), r.vt.data.data(), k) / p.opt_fro;
  state.counters["err_2"] = residual_2(p, r.u.data.data(), r.s.data(), r.vt.data.data(), k) / p.opt_2;
  if (r.cost) state.counters["model_ms"] = 1e3 * r.cost->lower_bound_seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const bool smoke = trnsolver_bench::smoke_run(argc, argv);
  const std::int64_t n = smoke ? 160 : 4000, k = smoke ? 10 : 50, n_sim = smoke ? 160 : 1000;
  using trnsolver::SketchKind;
  for (const std::string spectrum : {"exp", "poly"}) {
    const std::vector<std::int64_t> gesdd_sizes =
        n == n_sim ? std::vector<std::int64_t>{n} : std::vector<std::int64_t>{n, n_sim};
    for (std::int64_t size : gesdd_sizes) {
      benchmark::RegisterBenchmark(("BM_Gesdd/" + spectrum + "/" + std::to_string(size)).c_str(), BM_Gesdd, spectrum,
                                   size, k)
          ->Iterations(1)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
    for (SketchKind kind : {SketchKind::gaussian, SketchKind::rademacher, SketchKind::sparse_sign, SketchKind::srht})
      benchmark::RegisterBenchmark(
          ("BM_Rsvd/" + spectrum + "/" + std::to_string(n) + "/" + std::string(trnsolver::to_string(kind))).c_str(),
          BM_Rsvd, spectrum, n, k, kind, trncore::Backend::host)
          ->Iterations(smoke ? 1 : 5)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_RsvdSim_bf16/" + spectrum + "/" + std::to_string(n_sim)).c_str(), BM_Rsvd,
                                 spectrum, n_sim, k, SketchKind::gaussian, trncore::Backend::sim)
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
