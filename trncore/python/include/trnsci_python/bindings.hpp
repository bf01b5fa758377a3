#pragma once
/// @file
/// Everything an extension module of the suite includes: arrays, errors, options, run().
///
/// Module skeleton (see trnblas/python/src/module.cpp for a full one):
///
///     PYBIND11_MODULE(_trnblas, m) {
///       trnsci_python::init_module(m);   // imports trncore, registers the error translator
///       ...
///     }

#include <trnsci_python/arrays.hpp>
#include <trnsci_python/call.hpp>
#include <trnsci_python/errors.hpp>
#include <trnsci_python/options.hpp>

#include <trncore/accuracy_report.hpp>

#include <pybind11/pybind11.h>

namespace trnsci_python {

namespace py = pybind11;

/// Imports trncore (so AccuracyReport, Progress and the exceptions are registered) and installs the
/// error translator for the calling module.
inline void init_module(py::module_& m) {
  (void)m;
  py::module_::import("trncore");
  register_error_translator();
}

/// (result, report) when the caller passed report=True, else result alone. The no-report form has
/// already thrown TargetNotMet (require_target_met) when a target was set and not met, like the C++
/// no-report overloads.
template <class R>
py::object with_report(py::object result, const R& report, bool want_report) {
  if (!want_report) return result;
  return py::make_tuple(std::move(result), py::cast(report));
}

}  // namespace trnsci_python
