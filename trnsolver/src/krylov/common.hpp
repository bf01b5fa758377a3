#pragma once
// What every Krylov solver shares: argument checks, deterministic vector kernels, the residual monitor
// (history, stopping test, stagnation) and the confirm-and-restart driver.

#include <trnsolver/krylov.hpp>
#include <trncore/detail/parallel.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/monitor.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace trnsolver::detail {

// ---- Kernels. Each reduction sums fixed blocks of kBlock elements in ascending order, then the block
// sums in ascending order, so the value never depends on the thread count — nor, for vectors split over
// processes at multiples of kBlock (options.distributed), on the number of processes. ----

inline constexpr std::int64_t kBlock = DistributedReduction::block_size;
inline constexpr std::int64_t kParallelElements = std::int64_t{1} << 16;

// How a solver reduces: its thread count, and the distributed reduction when its vectors are parts.
struct Sums {
  int threads = 0;
  const DistributedReduction* distributed = nullptr;
  explicit Sums(const KrylovOptions& options) : threads(options.threads), distributed(options.distributed.get()) {}
  explicit Sums(int threads_) : threads(threads_) {}
};

// Σ f(i) over [0, n) in the blocked order, accumulated in Acc. Distributed: i runs over this part, whose
// element i is global element offset + i; the part is cut into pieces at global multiples of kBlock, each
// summed like a block and labelled by its first global index, and the pieces of all parts are added in label
// order. Adding the total to 0 last reproduces the single-process `s = 0; s += block…` exactly, signed
// zeros included (it differs from the chain without the leading 0 only by the sign of a zero total).
template <class Acc, class F>
Acc blocked_sum(std::int64_t n, const Sums& sums, F&& f) {
  if (sums.distributed != nullptr) {
    const DistributedReduction& d = *sums.distributed;
    std::vector<std::int64_t> labels;
    std::vector<std::int64_t> ends;
    for (std::int64_t i = 0; i < n;) {
      const std::int64_t global = d.offset + i;
      const std::int64_t end = std::min(n, i + (kBlock - global % kBlock));
      labels.push_back(global);
      ends.push_back(end);
      i = end;
    }
    std::vector<Acc> pieces(labels.size());
    auto piece_sum = [&](std::int64_t k) {
      Acc s = 0;
      const std::int64_t begin = labels[static_cast<std::size_t>(k)] - d.offset;
      for (std::int64_t i = begin; i < ends[static_cast<std::size_t>(k)]; ++i) s += f(i);
      pieces[static_cast<std::size_t>(k)] = s;
    };
    trncore::detail::parallel_for(static_cast<std::int64_t>(labels.size()), n >= kParallelElements ? sums.threads : 1,
                                  piece_sum);
    std::vector<Acc> total;
    if constexpr (std::is_same_v<Acc, float>)
      total = d.sum_float(labels, pieces, 1);
    else
      total = d.sum_double(labels, pieces, 1);
    const Acc sum = total.empty() ? Acc(0) : total[0];
    return d.global_size <= kBlock ? sum : Acc(0) + sum;
  }
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  auto block_sum = [&](std::int64_t k) {
    Acc s = 0;
    const std::int64_t end = std::min(n, (k + 1) * kBlock);
    for (std::int64_t i = k * kBlock; i < end; ++i) s += f(i);
    return s;
  };
  if (blocks <= 1) return blocks == 0 ? Acc(0) : block_sum(0);
  std::vector<Acc> partial(static_cast<std::size_t>(blocks));
  trncore::detail::parallel_for(blocks, n >= kParallelElements ? sums.threads : 1,
                                [&](std::int64_t k) { partial[static_cast<std::size_t>(k)] = block_sum(k); });
  Acc s = 0;
  for (Acc p : partial) s += p;
  return s;
}

// xᵀy in working precision.
template <class T>
T dot(std::span<const T> x, std::span<const T> y, const Sums& sums) {
  return blocked_sum<T>(static_cast<std::int64_t>(x.size()), sums, [&](std::int64_t i) {
    return x[static_cast<std::size_t>(i)] * y[static_cast<std::size_t>(i)];
  });
}

// ‖x‖₂ with a double accumulator (exact products for float data), scaled by the largest magnitude so
// that neither overflow nor underflow spoils it. NaN in x gives NaN (or ∞ when x also holds ∞).
template <class T>
double norm2(std::span<const T> x, const Sums& sums) {
  double big = 0;
  for (T v : x) {
    const double a = std::fabs(static_cast<double>(v));
    if (!(a <= big)) big = a;  // NaN propagates into big
  }
  if (sums.distributed != nullptr) {
    // MPI's max of NaN is unspecified: NaN travels as ∞, then a second maximum says whether one was NaN.
    const double global = sums.distributed->max(std::isnan(big) ? std::numeric_limits<double>::infinity() : big);
    if (!std::isfinite(global))
      big = sums.distributed->max(std::isnan(big) ? 1.0 : 0.0) > 0 ? std::numeric_limits<double>::quiet_NaN() : global;
    else
      big = global;
  }
  if (big == 0 || !std::isfinite(big)) return big;
  const double scale = 1.0 / big;
  const double s = blocked_sum<double>(static_cast<std::int64_t>(x.size()), sums, [&](std::int64_t i) {
    const double v = static_cast<double>(x[static_cast<std::size_t>(i)]) * scale;
    return v * v;
  });
  return big * std::sqrt(s);
}

// The length of the whole vector: this part's, or the distributed vector's.
template <class T>
std::int64_t global_size(const LinearOperator<T>& a, const KrylovOptions& options) {
  return options.distributed ? options.distributed->global_size : a.size();
}

// y := y + alpha·x
template <class T>
void axpy(T alpha, std::span<const T> x, std::span<T> y) {
  for (std::size_t i = 0; i < y.size(); ++i) y[i] += alpha * x[i];
}

// ---- Checks ----

// The checks every solver runs on its arguments; fn is e.g. "trnsolver::cg".
template <class T>
void check_solver_call(const char* fn, const LinearOperator<T>& a, std::span<const T> b, std::span<const T> x,
                       const KrylovOptions& options, const LinearOperator<T>& preconditioner);
// The matrix form's extra check: A square.
void check_square(const char* fn, std::int64_t rows, std::int64_t cols);
// Options alone: trncore::validate, then the Krylov fields; the backend must be host unless `model` (the
// bf16 variants, which model the NeuronCore on the host); target_forward_error must be unset.
void check_options(const char* fn, const KrylovOptions& options, bool model = false);
// The checks of matrix_operator and lanczos_bounds: trncore::validate and a host backend.
void check_host_options(const char* fn, const trncore::Options& options);
// @throws InvalidArgument naming the first non-finite element of v.
template <class T>
void check_finite(const char* fn, const char* name, std::span<const T> v);

// ---- The residual monitor ----

enum class Status { go, met, stagnated, non_finite, stopped };

struct Monitor {
  KrylovResult& result;
  double bnorm;  // ‖b‖₂ > 0
  double tol;    // absolute tolerance max(rtol·‖b‖, atol)
  std::int64_t max_iterations;
  std::int64_t window;
  double best = std::numeric_limits<double>::infinity();
  std::int64_t since_best = 0;
  // options.monitor, called by record() with (iterations, estimate/‖b‖); null = none.
  const trncore::detail::ProgressMonitor* progress = nullptr;
  bool stop = false;  // the monitor asked to stop

  bool exhausted() const { return result.iterations >= max_iterations; }
  // Appends estimate/‖b‖ to the history, reports it to the monitor and says what it means (non_finite
  // before met before a monitor stop before stagnation). Does not count the iteration.
  Status record(double estimate) {
    result.residual_history.push_back(estimate / bnorm);
    if (progress != nullptr && progress->stop_requested(result.iterations, estimate / bnorm)) stop = true;
    if (!std::isfinite(estimate)) return Status::non_finite;
    if (estimate <= tol) return Status::met;
    if (stop) return Status::stopped;
    if (estimate < best) {
      best = estimate;
      since_best = 0;
    } else if (window > 0 && ++since_best >= window) {
      return Status::stagnated;
    }
    return Status::go;
  }
};

// What one inner run of a solver ended with.
struct Outcome {
  enum Kind { met, cycle_end, stop } kind = stop;
  KrylovReason reason = KrylovReason::max_iterations;
  std::string detail;

  static Outcome estimate_met() { return {met, KrylovReason::converged, {}}; }
  static Outcome end_of_cycle() { return {cycle_end, KrylovReason::converged, {}}; }
  static Outcome stopped(KrylovReason reason, std::string detail) { return {stop, reason, std::move(detail)}; }
};

// Outcome for a Status other than go/met, with the solver's iteration in the text.
Outcome status_outcome(Status status, const Monitor& monitor);
// Outcome for iteration limit.
Outcome limit_outcome(const Monitor& monitor);

// r := b − A x (working precision); returns ‖r‖₂.
template <class T>
double true_residual(const LinearOperator<T>& a, std::span<const T> b, std::span<const T> x, std::span<T> r,
                     const Sums& sums) {
  a.callback()(x, r);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
  return norm2<T>(r, sums);
}

// The shared outer loop: r₀ = b − A x, then inner(r, monitor) runs the method from the current x with
// residual r; an estimate that met the tolerance is confirmed with a true residual, and a failed
// confirmation restarts (twice without halving the true residual: stagnation). `inner` must leave x as
// the iterate it reached.
template <class T, class Inner>
KrylovResult drive(const char* fn, const LinearOperator<T>& a, std::span<const T> b, std::span<T> x,
                   const KrylovOptions& options, Inner&& inner) {
  KrylovResult result;
  const std::int64_t n = global_size(a, options);
  const Sums sums(options);
  const double bnorm = norm2<T>(b, sums);
  if (n == 0 || bnorm == 0) {
    std::fill(x.begin(), x.end(), T(0));
    result.converged = true;
    result.reason = KrylovReason::converged;
    result.residual_history.push_back(0.0);
    result.detail = n == 0 ? "n = 0: nothing to solve" : "b = 0: x = 0 is the solution";
    return result;
  }
  Monitor monitor{result, bnorm, std::max(options.rtol * bnorm, options.atol),
                  options.max_iterations > 0 ? options.max_iterations : 10 * n, options.stagnation_window};
  trncore::detail::ProgressMonitor progress(options.monitor, fn);
  monitor.progress = &progress;
  std::vector<T> r(b.size());  // this part (the whole vector unless distributed)
  double rn = true_residual<T>(a, b, x, r, sums);
  result.residual_history.push_back(rn / bnorm);
  monitor.best = rn;  // stagnation is progress below the initial residual
  double last_failed = std::numeric_limits<double>::infinity();
  for (;;) {
    if (!std::isfinite(rn)) {
      result.reason = KrylovReason::non_finite;
      result.detail = "non_finite: the true residual b - A x is " + trncore::detail::sci(rn) + " after " +
                      std::to_string(result.iterations) + " iterations";
      break;
    }
    if (rn <= monitor.tol) {
      result.reason = KrylovReason::converged;
      result.detail = "converged: true residual " + trncore::detail::sci(rn / bnorm) +
                      " <= " + trncore::detail::sci(monitor.tol / bnorm) + " (relative) after " +
                      std::to_string(result.iterations) + " iterations";
      break;
    }
    Outcome out = inner(std::span<T>(r), rn, monitor);
    if (out.kind == Outcome::stop) {
      result.reason = out.reason;
      result.detail = std::move(out.detail);
      rn = true_residual<T>(a, b, x, r, sums);
      break;
    }
    rn = true_residual<T>(a, b, x, r, sums);
    if (monitor.stop && !(rn <= monitor.tol)) {
      result.reason = KrylovReason::stopped_by_monitor;
      result.detail = status_outcome(Status::stopped, monitor).detail;
      break;
    }
    if (!std::isfinite(rn) || rn <= monitor.tol) continue;  // decided at the top
    if (out.kind == Outcome::met) {
      if (rn > 0.5 * last_failed) {
        result.reason = KrylovReason::stagnation;
        result.detail = "stagnation: the residual estimate met the tolerance but the true residual " +
                        trncore::detail::sci(rn / bnorm) + " did not (twice, without halving) after " +
                        std::to_string(result.iterations) + " iterations; the attainable accuracy is reached";
        break;
      }
      last_failed = rn;
    }
    if (monitor.exhausted()) {
      result.reason = KrylovReason::max_iterations;
      result.detail = limit_outcome(monitor).detail;
      break;
    }
    ++result.restarts;
  }
  result.relative_residual = rn / bnorm;
  result.converged = rn <= monitor.tol;  // NaN is not converged
  result.stopped_by_monitor = monitor.stop;
  if (result.converged && result.reason != KrylovReason::converged) {
    result.detail += "; the true residual " + trncore::detail::sci(rn / bnorm) + " meets the tolerance nonetheless";
    result.reason = KrylovReason::converged;
  }
  if (!std::isfinite(rn) && result.reason != KrylovReason::non_finite) {
    result.detail += "; the true residual is " + trncore::detail::sci(rn);
    result.reason = KrylovReason::non_finite;
  }
  return result;
}

// The matrix form of a solver: the operator form on matrix_operator(a, options).
template <class T, class Solver>
KrylovResult with_matrix(const char* fn, trncore::MatrixView<const T> a, Solver&& solver,
                         const KrylovOptions& options) {
  if (options.distributed)  // every process holds the same options, so every process throws here
    throw trncore::NotSupported(fn, "options.distributed is set with a matrix argument",
                                "pass a LinearOperator over this process's part (e.g. trnsparse::mpi's "
                                "distributed matrix) instead of a matrix");
  check_square(fn, a.rows(), a.cols());
  check_options(fn, options);
  return solver(matrix_operator(a, static_cast<const trncore::Options&>(options)));
}

}  // namespace trnsolver::detail
