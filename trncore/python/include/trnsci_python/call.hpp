#pragma once
/// @file
/// Running a computation from Python: GIL released, Ctrl-C honoured (docs/python.md, "Threads and Ctrl-C").
///
/// run(options, f) releases the GIL around f(), so other Python threads run meanwhile. Before, it chains
/// a check for pending signals (PyErr_CheckSignals, which runs Python's SIGINT handler) in front of the
/// options' monitor: routines that report progress (Krylov, IR, HPL-MxP, decompositions, ...) stop at
/// their next iteration after Ctrl-C, and run() then raises KeyboardInterrupt. An exception raised by a
/// Python monitor callback stops the routine and propagates the same way.

#include <trncore/monitor.hpp>
#include <trncore/options.hpp>

#include <pybind11/pybind11.h>

#include <exception>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

namespace trnsci_python {

namespace py = pybind11;

namespace detail {

struct InterruptState {
  std::mutex mutex;
  std::exception_ptr error;  // KeyboardInterrupt or the monitor's own exception
};

}  // namespace detail

/// f() with the GIL released and Ctrl-C checked at every progress report of a routine run with options.
template <class O, class F>
auto run(O& options, F&& f) -> decltype(f()) {
  trncore::Options& base = options;
  auto state = std::make_shared<detail::InterruptState>();
  trncore::Monitor user = base.monitor;
  base.monitor = [state, user](const trncore::Progress& p) {
    {
      std::lock_guard lock(state->mutex);
      if (state->error) return trncore::MonitorAction::stop;
    }
    try {
      {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      }
      return user ? user(p) : trncore::MonitorAction::proceed;
    } catch (...) {
      std::lock_guard lock(state->mutex);
      state->error = std::current_exception();
      return trncore::MonitorAction::stop;
    }
  };
  auto rethrow = [&] {
    base.monitor = user;
    if (state->error) std::rethrow_exception(state->error);
  };
  if constexpr (std::is_void_v<decltype(f())>) {
    {
      py::gil_scoped_release release;
      std::forward<F>(f)();
    }
    rethrow();
  } else {
    auto result = [&] {
      py::gil_scoped_release release;
      return std::forward<F>(f)();
    }();
    rethrow();
    return result;
  }
}

/// f() with the GIL released, for routines without options (no progress reports to poll).
template <class F>
auto released(F&& f) -> decltype(f()) {
  py::gil_scoped_release release;
  return std::forward<F>(f)();
}

}  // namespace trnsci_python
