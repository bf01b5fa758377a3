// trnfft plan execution against the same FFTW plan called directly, in one binary, on the same arrays.
// Both plans are made with FFTW_MEASURE, the raw one first, so trnfft's planner call finds its wisdom and
// picks the same algorithm (the label says whether fftw_sprint_plan agrees). Each benchmark iteration
// times one block of trnfft executions and one block of raw executions (which goes first alternates), so
// load from other processes hits both alike; counters:
//   overhead_ratio  = Σ trnfft block time / Σ raw block time (issue target ≤ 1.03; 1.00 = no overhead)
//   best_ratio      = fastest trnfft block / fastest raw block
//   raw_ns          = fastest raw execution, ns per transform
// Modes: "execute" (the creation arrays: plan.execute() vs fftw_execute), "new-array" (other arrays of
// the same layout: plan.execute(in, out) with its checks vs fftw_execute_dft), and "control" (a second raw
// FFTW plan of the same geometry in trnfft's place: the spread between two identical FFTW plans).
#include <trnfft/trnfft.hpp>

#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

template <class E>
E* aligned(std::size_t n) {
  return static_cast<E*>(fftw_malloc(n * sizeof(E)));
}

template <class E>
void fill(E* p, std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<E>)
      p[i] = static_cast<E>(u(rng));
    else
      p[i] = E(static_cast<typename E::value_type>(u(rng)), static_cast<typename E::value_type>(u(rng)));
  }
}

struct Timing {
  double trn_total = 0, raw_total = 0, trn_best = 1e30, raw_best = 1e30;
  bool trn_first = true;
  template <class A, class B>
  void block(int reps, A&& trn, B&& raw) {
    auto time = [reps](auto&& f) {
      const auto t0 = Clock::now();
      for (int r = 0; r < reps; ++r) f();
      return std::chrono::duration<double>(Clock::now() - t0).count();
    };
    // Alternate which block runs first, so neither always inherits the other's cache state.
    double a = 0, b = 0;
    if (trn_first) {
      a = time(trn);
      b = time(raw);
    } else {
      b = time(raw);
      a = time(trn);
    }
    trn_first = !trn_first;
    trn_total += a;
    raw_total += b;
    trn_best = std::min(trn_best, a);
    raw_best = std::min(raw_best, b);
  }
  void report(benchmark::State& state, int reps) const {
    state.counters["overhead_ratio"] = trn_total / raw_total;
    state.counters["best_ratio"] = trn_best / raw_best;
    state.counters["raw_ns"] = raw_best / reps * 1e9;
  }
};

std::string same(char* raw, const std::string& trn) {
  const bool eq = raw != nullptr && trn == raw;
  std::free(raw);
  return eq ? "same algorithm" : "DIFFERENT algorithm";
}

// Repetitions per block: about 2 ms of work.
int reps_for(double points) { return std::max(1, static_cast<int>(2e6 / (points * 5.0))); }

// 1-D c2c, double or float, `howmany` contiguous transforms of n points.
template <class T>
void BM_C2c(benchmark::State& state) {
  const std::int64_t n = state.range(0), howmany = state.range(1);
  const bool new_array = state.range(2) == 1;
  const bool control = state.range(2) == 2;
  using C = std::complex<T>;
  const auto total = static_cast<std::size_t>(n * howmany);
  C *in = aligned<C>(total), *out = aligned<C>(total), *in2 = aligned<C>(total), *out2 = aligned<C>(total);
  const int ni = static_cast<int>(n);
  std::string label;
  Timing t;
  const int reps = reps_for(static_cast<double>(total));
  if constexpr (std::is_same_v<T, double>) {
    fftw_plan raw =
        fftw_plan_many_dft(1, &ni, static_cast<int>(howmany), reinterpret_cast<fftw_complex*>(in), nullptr, 1, ni,
                           reinterpret_cast<fftw_complex*>(out), nullptr, 1, ni, FFTW_FORWARD, FFTW_MEASURE);
    auto plan = trnfft::plan_many_dft<double>({n}, howmany, in, {}, 1, n, out, {}, 1, n, trnfft::Direction::forward,
                                              trnfft::PlanOptions{}.with_rigor(trnfft::Rigor::measure).with_threads(1));
    fftw_plan twin =
        fftw_plan_many_dft(1, &ni, static_cast<int>(howmany), reinterpret_cast<fftw_complex*>(in), nullptr, 1, ni,
                           reinterpret_cast<fftw_complex*>(out), nullptr, 1, ni, FFTW_FORWARD, FFTW_MEASURE);
    label = same(fftw_sprint_plan(raw), plan.algorithm());
    fill(in, total, 1);
    fill(in2, total, 2);
    for (auto _ : state) {
      if (control)
        t.block(
            reps, [&] { fftw_execute(twin); }, [&] { fftw_execute(raw); });
      else if (new_array)
        t.block(
            reps, [&] { plan.execute(in2, out2); },
            [&] {
              fftw_execute_dft(raw, reinterpret_cast<fftw_complex*>(in2), reinterpret_cast<fftw_complex*>(out2));
            });
      else
        t.block(
            reps, [&] { plan.execute(); }, [&] { fftw_execute(raw); });
      benchmark::DoNotOptimize(out[0]);
      benchmark::DoNotOptimize(out2[0]);
    }
    fftw_destroy_plan(raw);
    fftw_destroy_plan(twin);
  } else {
    fftwf_plan raw =
        fftwf_plan_many_dft(1, &ni, static_cast<int>(howmany), reinterpret_cast<fftwf_complex*>(in), nullptr, 1, ni,
                            reinterpret_cast<fftwf_complex*>(out), nullptr, 1, ni, FFTW_FORWARD, FFTW_MEASURE);
    auto plan = trnfft::plan_many_dft<float>({n}, howmany, in, {}, 1, n, out, {}, 1, n, trnfft::Direction::forward,
                                             trnfft::PlanOptions{}.with_rigor(trnfft::Rigor::measure).with_threads(1));
    label = same(fftwf_sprint_plan(raw), plan.algorithm());
    fill(in, total, 1);
    fill(in2, total, 2);
    for (auto _ : state) {
      if (new_array)
        t.block(
            reps, [&] { plan.execute(in2, out2); },
            [&] {
              fftwf_execute_dft(raw, reinterpret_cast<fftwf_complex*>(in2), reinterpret_cast<fftwf_complex*>(out2));
            });
      else
        t.block(
            reps, [&] { plan.execute(); }, [&] { fftwf_execute(raw); });
      benchmark::DoNotOptimize(out[0]);
      benchmark::DoNotOptimize(out2[0]);
    }
    fftwf_destroy_plan(raw);
  }
  t.report(state, reps);
  state.SetLabel(std::string(control     ? "control: a second raw plan, "
                             : new_array ? "new-array, "
                                         : "execute, ") +
                 label);
  for (C* p : {in, out, in2, out2}) fftw_free(p);
}

// 2-D r2c (double), n × n, out-of-place.
void BM_R2c2d(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const bool new_array = state.range(1) != 0;
  const auto real = static_cast<std::size_t>(n * n), half = static_cast<std::size_t>(n * (n / 2 + 1));
  double *in = aligned<double>(real), *in2 = aligned<double>(real);
  auto *out = aligned<std::complex<double>>(half), *out2 = aligned<std::complex<double>>(half);
  fftw_plan raw = fftw_plan_dft_r2c_2d(static_cast<int>(n), static_cast<int>(n), in,
                                       reinterpret_cast<fftw_complex*>(out), FFTW_MEASURE);
  auto plan = trnfft::plan_dft_r2c_2d<double>(n, n, in, out,
                                              trnfft::PlanOptions{}.with_rigor(trnfft::Rigor::measure).with_threads(1));
  const std::string label = same(fftw_sprint_plan(raw), plan.algorithm());
  fill(in, real, 1);
  fill(in2, real, 2);
  Timing t;
  const int reps = reps_for(static_cast<double>(real));
  for (auto _ : state) {
    if (new_array)
      t.block(
          reps, [&] { plan.execute(in2, out2); },
          [&] { fftw_execute_dft_r2c(raw, in2, reinterpret_cast<fftw_complex*>(out2)); });
    else
      t.block(
          reps, [&] { plan.execute(); }, [&] { fftw_execute(raw); });
    benchmark::DoNotOptimize(out[0]);
    benchmark::DoNotOptimize(out2[0]);
  }
  fftw_destroy_plan(raw);
  t.report(state, reps);
  state.SetLabel(std::string(new_array ? "new-array, " : "execute, ") + label);
  fftw_free(in);
  fftw_free(in2);
  fftw_free(out);
  fftw_free(out2);
}

}  // namespace

// Args: n, howmany, mode (0 execute, 1 new-array, 2 control: a second raw FFTW plan in trnfft's place,
// which shows the spread between two identical FFTW plans; double only).
// N = 2^8 … 2^20, single and batched (the range).
BENCHMARK_TEMPLATE(BM_C2c, double)
    ->Args({256, 1, 0})
    ->Args({1024, 1, 0})
    ->Args({1024, 1, 1})
    ->Args({1024, 1, 2})
    ->Args({4096, 1, 0})
    ->Args({65536, 1, 0})
    ->Args({65536, 1, 1})
    ->Args({1 << 20, 1, 0})
    ->Args({1 << 20, 1, 2})
    ->Args({256, 64, 0})
    ->Args({256, 64, 2})
    ->Args({4096, 16, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_TEMPLATE(BM_C2c, float)
    ->Args({256, 1, 0})
    ->Args({1024, 1, 0})
    ->Args({1024, 1, 1})
    ->Args({65536, 1, 0})
    ->Args({1 << 20, 1, 0})
    ->Args({256, 64, 0})
    ->Args({4096, 16, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// Args: n, new-array (0/1).
BENCHMARK(BM_R2c2d)->Args({512, 0})->Args({512, 1})->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
