// The sim backend's FFT against FFTW in the same binary, and its error table.
//
// Benchmarks (Google Benchmark): one sim c2c plan execution (float data, batched) against the FFTW
// plan of the same geometry (FFTW_MEASURE). Counters:
//   fftw_ratio      = host wall time of the sim execution / FFTW's (the cost of simulating, not a speed claim)
//   trn2_lower_us   = the modelled trn2 time of one execution, engines perfectly overlapped (report.cost)
//   trn2_upper_us   = the same with nothing overlapped
//   trn2_vs_fftw    = trn2_lower_us / FFTW's measured time on this machine (a modelled-vs-measured ratio)
//   bound           = the run's certified normwise relative bound
// Table mode (`trnfft_bench_sim --table`): for N = 8 … 65536 and the primes 17, 257, 4099, each sim mode's
// measured error (largest per-transform relative 2-norm error against FFTW in long double, random
// complex inputs in [-1, 1)) and reported bound, under the trn2 default product model (bf16) and, for the
// modes it changes, under the exact product model. Printed as the Markdown table of docs/trnfft.md.
#include <trnfft/trnfft.hpp>

#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <chrono>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

// A sim precision: PlanOptions::math_mode, with PlanOptions::refine for bf16's refinement step (bf16_refined).
struct SimPrecision {
  trncore::MathMode math_mode;
  bool refine = false;
};
constexpr SimPrecision kFp32{trncore::MathMode::fp32}, kBf16{trncore::MathMode::bf16},
    kBf16Refined{trncore::MathMode::bf16, true}, kCompensated{trncore::MathMode::compensated},
    kOzaki{trncore::MathMode::ozaki};

// The name the sim plan's description gives the precision: the math mode's, bf16_refined for bf16 with refine.
std::string to_string(SimPrecision p) {
  return std::string(trncore::to_string(p.math_mode)) + (p.refine ? "_refined" : "");
}

trnfft::PlanOptions with_mode(SimPrecision p, trnfft::PlanOptions o) {
  o.math_mode = p.math_mode;
  o.refine = p.refine;
  return o;
}

template <class T>
std::vector<std::complex<T>> random_complex(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::complex<T>> v(n);
  for (auto& x : v) {
    const double re = u(rng);
    x = {static_cast<T>(re), static_cast<T>(u(rng))};
  }
  return v;
}

trncore::Options sim_options(std::optional<trncore::sim::ProductModel> product = std::nullopt) {
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.threads = 1;
  o.product = product;
  return o;
}

// Every sim precision, in the tables' column order; BM_SimFft's third argument is an index into it.
const SimPrecision kModes[] = {kFp32, kBf16, kBf16Refined, kCompensated, kOzaki};

void BM_SimFft(benchmark::State& state) {
  const std::int64_t n = state.range(0), batch = state.range(1);
  const SimPrecision mode = kModes[static_cast<std::size_t>(state.range(2))];
  auto x = random_complex<float>(static_cast<std::size_t>(n * batch), 1);
  std::vector<std::complex<float>> y(x.size());
  auto plan = trnfft::plan_many_dft<float>({n}, batch, x.data(), {}, 1, n, y.data(), {}, 1, n,
                                           trnfft::Direction::forward, with_mode(mode, sim_options()));
  // The peer: FFTW on the same geometry, timed in the same loop.
  auto* fi = static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * x.size()));
  auto* fo = static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * x.size()));
  const int ni = static_cast<int>(n);
  fftwf_plan fp = fftwf_plan_many_dft(1, &ni, static_cast<int>(batch), fi, nullptr, 1, ni, fo, nullptr, 1, ni,
                                      FFTW_FORWARD, FFTW_MEASURE);
  std::memcpy(fi, x.data(), sizeof(fftwf_complex) * x.size());
  trncore::AccuracyReport rep;
  double sim_s = 0, fftw_s = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    plan.execute(rep);
    const auto t1 = std::chrono::steady_clock::now();
    for (int r = 0; r < 10; ++r) fftwf_execute(fp);
    const auto t2 = std::chrono::steady_clock::now();
    sim_s += std::chrono::duration<double>(t1 - t0).count();
    fftw_s += std::chrono::duration<double>(t2 - t1).count() / 10;
    benchmark::DoNotOptimize(y.data());
  }
  const double fftw_each = fftw_s / static_cast<double>(state.iterations());
  state.counters["fftw_ratio"] = sim_s / fftw_s;
  state.counters["fftw_us"] = fftw_each * 1e6;
  state.counters["trn2_lower_us"] = rep.cost->lower_bound_seconds * 1e6;
  state.counters["trn2_upper_us"] = rep.cost->upper_bound_seconds * 1e6;
  state.counters["trn2_vs_fftw"] = rep.cost->lower_bound_seconds / fftw_each;
  state.counters["bound"] = rep.a_priori_bound;
  state.SetLabel(to_string(mode));
  fftwf_destroy_plan(fp);
  fftwf_free(fi);
  fftwf_free(fo);
}

void args(benchmark::internal::Benchmark* b) {
  for (std::int64_t m : {1, 0, 2, 3, 4}) {  // bf16, fp32, bf16_refined, compensated, ozaki
    b->Args({256, 1024, m});
    b->Args({4096, 16, m});
  }
}
BENCHMARK(BM_SimFft)->Apply(args)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- the error table ----

template <class T>
void measure(const std::vector<std::int64_t>& n, SimPrecision mode, std::optional<trncore::sim::ProductModel> product,
             double& err, double& bound) {
  std::int64_t size = 1;
  for (auto v : n) size *= v;
  const std::int64_t batch = std::max<std::int64_t>(1, std::min<std::int64_t>(8, 4096 / size));
  auto x = random_complex<T>(static_cast<std::size_t>(size * batch), static_cast<unsigned>(size));
  std::vector<std::complex<T>> y(x.size());
  auto plan = trnfft::plan_many_dft<T>(n, batch, x.data(), {}, 1, size, y.data(), {}, 1, size,
                                       trnfft::Direction::forward, with_mode(mode, sim_options(product)));
  trncore::AccuracyReport rep;
  plan.execute(rep);
  bound = rep.a_priori_bound;
  std::vector<fftwl_complex> a(x.size()), b(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    a[i][0] = x[i].real();
    a[i][1] = x[i].imag();
  }
  const std::vector<int> ni(n.begin(), n.end());
  const int si = static_cast<int>(size);
  fftwl_plan p = fftwl_plan_many_dft(static_cast<int>(ni.size()), ni.data(), static_cast<int>(batch), a.data(), nullptr,
                                     1, si, b.data(), nullptr, 1, si, FFTW_FORWARD, FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  err = 0;
  for (std::int64_t t = 0; t < batch; ++t) {
    long double num = 0, den = 0;
    for (std::int64_t k = 0; k < size; ++k) {
      const auto i = static_cast<std::size_t>(t * size + k);
      const long double dr = y[i].real() - b[i][0], di = y[i].imag() - b[i][1];
      num += dr * dr + di * di;
      den += b[i][0] * b[i][0] + b[i][1] * b[i][1];
    }
    err = std::max(err, static_cast<double>(std::sqrt(num / den)));
  }
}

// Multi-dimensional c2c (one pass per axis; the bound composes the passes').
int table_nd() {
  const std::vector<std::vector<std::int64_t>> shapes{{64, 64}, {256, 256}, {16, 16, 16}, {8, 4096}, {17, 257}};
  std::printf("measured / bound, multi-dimensional c2c (float data; ozaki64: double data), product model bf16\n\n");
  std::printf(
      "| shape | fp32 | bf16 | bf16_refined | compensated | ozaki | ozaki64 |\n|---|---|---|---|---|---|---|\n");
  for (const auto& n : shapes) {
    std::string label;
    for (std::size_t k = 0; k < n.size(); ++k) {
      if (k > 0) label += " × ";
      label += std::to_string(n[k]);
    }
    std::printf("| %s |", label.c_str());
    for (SimPrecision m : kModes) {
      double e = 0, b = 0;
      measure<float>(n, m, std::nullopt, e, b);
      std::printf(" %.1e / %.1e |", e, b);
    }
    double e = 0, b = 0;
    measure<double>(n, kOzaki, std::nullopt, e, b);
    std::printf(" %.1e / %.1e |\n", e, b);
    std::fflush(stdout);
  }
  return 0;
}

int table() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 8; n <= 65536; n *= 2) sizes.push_back(n);
  for (std::int64_t p : {17, 257, 4099}) sizes.push_back(p);
  std::printf("measured / bound (float data; ozaki64: double data), product model bf16 (trn2 default)\n\n");
  std::printf("| N | fp32 | bf16 | bf16_refined | compensated | ozaki | ozaki64 |\n|---|---|---|---|---|---|---|\n");
  for (std::int64_t n : sizes) {
    std::printf("| %lld |", static_cast<long long>(n));
    for (SimPrecision m : kModes) {
      double e = 0, b = 0;
      measure<float>({n}, m, std::nullopt, e, b);
      std::printf(" %.1e / %.1e |", e, b);
    }
    double e = 0, b = 0;
    measure<double>({n}, kOzaki, std::nullopt, e, b);
    std::printf(" %.1e / %.1e |\n", e, b);
    std::fflush(stdout);
  }
  std::printf("\nproduct model exact (the modes it changes)\n\n");
  std::printf("| N | fp32 | bf16 | bf16_refined | compensated |\n|---|---|---|---|---|\n");
  for (std::int64_t n : sizes) {
    std::printf("| %lld |", static_cast<long long>(n));
    for (SimPrecision m : {kFp32, kBf16, kBf16Refined, kCompensated}) {
      double e = 0, b = 0;
      measure<float>({n}, m, trncore::sim::ProductModel::exact, e, b);
      std::printf(" %.1e / %.1e |", e, b);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--table") == 0) return table();
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--table-nd") == 0) return table_nd();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
