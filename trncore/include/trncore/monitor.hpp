#pragma once
/// @file
/// Progress callbacks for long-running calls (Options::monitor): every iterative or long-running routine
/// of the suite (Krylov solvers, iterative refinement, Jacobi sweeps, randomized range finders, CP-ALS,
/// HOOI, …) calls the monitor once per iteration, panel or sweep, and stops early when it asks to.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string_view>

namespace trncore {

/// What a routine reports after each iteration.
struct Progress {
  /// The public function that is running, e.g. "trnsolver::cg".
  std::string_view routine;
  /// Iterations (sweeps, panels) completed so far, from 1.
  std::int64_t iteration = 0;
  /// The routine's progress measure after this iteration; each routine's documentation says which (a
  /// relative residual, an estimate, a change of fit). Smaller is better.
  double residual = 0.0;
  /// Wall-clock seconds since the routine started.
  double elapsed_seconds = 0.0;
};

/// What the monitor wants the routine to do next.
enum class MonitorAction : std::uint8_t {
  proceed,  ///< go on
  stop,     ///< stop now: return the current iterate, with AccuracyReport::stopped_by_monitor set
};

/// A progress callback. It runs on the thread that called the routine, between iterations (never inside
/// a parallel region), so it may print, log or inspect shared state without locks. An exception it
/// throws propagates out of the routine. Empty = no callback.
using Monitor = std::function<MonitorAction(const Progress&)>;

namespace detail {

/// What a routine holds to call Options::monitor: it starts the clock when made and calls the monitor,
/// if there is one, from stop_requested(). Cheap when there is none.
class ProgressMonitor {
 public:
  /// @param monitor  the caller's Options::monitor (may be empty); must outlive this object
  /// @param routine  the public function's name, passed on in Progress::routine
  ProgressMonitor(const Monitor& monitor, std::string_view routine)
      : monitor_(&monitor), routine_(routine), start_(std::chrono::steady_clock::now()) {}

  /// Whether a monitor is set (routines may skip computing a progress measure otherwise).
  bool active() const noexcept { return static_cast<bool>(*monitor_); }

  /// Calls the monitor with (iteration, residual, elapsed time); true when it asked to stop. False
  /// without a monitor.
  bool stop_requested(std::int64_t iteration, double residual) const {
    if (!*monitor_) return false;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return (*monitor_)(Progress{routine_, iteration, residual, elapsed}) == MonitorAction::stop;
  }

 private:
  const Monitor* monitor_;
  std::string_view routine_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace detail
}  // namespace trncore
