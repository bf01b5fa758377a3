#pragma once
/// @file
/// Keyword arguments → trncore::Options and the packages' OptionsFor<...> structs (docs/python.md,
/// "Options").
///
/// Every routine takes the suite's options as keywords with the C++ names: backend="host"|"sim",
/// mode (or math_mode)="automatic"|"fp32"|"bf16"|"ozaki"|..., target_forward_error=float|None,
/// threads=int, seed=int, stream=int, rounding="nearest_even"|"stochastic"|..., generation="trn1"|"trn2"|...,
/// product="..." (the sim product model), monitor=callable(progress) -> bool (True stops). A routine pops
/// the base keys with pop_options (options=trncore.Options(...) gives them all at once; keywords
/// override it), then its own, then calls reject_unknown so a misspelt keyword is an
/// error rather than silently ignored.

#include <trnsci_python/errors.hpp>

#include <trncore/backend.hpp>
#include <trncore/math_mode.hpp>
#include <trncore/monitor.hpp>
#include <trncore/options.hpp>
#include <trncore/rounding.hpp>
#include <trncore/sim/generation.hpp>
#include <trncore/sim/product_model.hpp>

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace trnsci_python {

namespace py = pybind11;

/// A Python object held by C++ callbacks that the library may copy or destroy with the GIL released
/// (std::function copies of options, operators): the count is a shared_ptr's, and the object's own reference
/// is dropped under the GIL by the deleter — or leaked if the interpreter is already shutting down.
using PyRef = std::shared_ptr<py::object>;

/// Holds o as a PyRef (see PyRef).
inline PyRef hold(py::object o) {
  return PyRef(new py::object(std::move(o)), [](py::object* p) {
    if (!Py_IsInitialized()) {
      (void)p->release();
      delete p;
      return;
    }
    py::gil_scoped_acquire gil;
    delete p;
  });
}

/// Removes key from kw and returns its value, or std::nullopt when absent or None.
template <class T>
std::optional<T> pop(py::dict& kw, const char* key, std::string_view function) {
  if (!kw.contains(key)) return std::nullopt;
  py::object v = kw[key];
  PyDict_DelItemString(kw.ptr(), key);
  if (v.is_none()) return std::nullopt;
  try {
    return v.cast<T>();
  } catch (const py::cast_error&) {
    invalid(function,
            std::string("keyword ") + key + "=" + py::repr(v).cast<std::string>() + " has the wrong type (" +
                py::str(py::type::of(v).attr("__name__")).cast<std::string>() + ")",
            "see the routine's docstring for the keyword's type");
  }
}

/// Removes key from kw; its truth value, or fallback when absent.
inline bool pop_flag(py::dict& kw, const char* key, bool fallback, std::string_view function) {
  return pop<bool>(kw, key, function).value_or(fallback);
}

/// Pops the base options (backend, mode/math_mode, target_forward_error, threads, seed, stream, rounding,
/// sr_bits, overflow, generation, product, monitor) from kw into o. Strings parse with trncore's parse_*
/// functions, whose errors name the accepted values.
template <class O>
void pop_options(O& o, py::dict& kw, std::string_view function) {
  trncore::Options& base = o;
  // options=trncore.Options(...) first, so the other keywords override it.
  if (auto v = pop<trncore::Options>(kw, "options", function)) base = *v;
  if (auto v = pop<std::string>(kw, "backend", function)) base.backend = trncore::parse_backend(*v);
  if (auto v = pop<std::string>(kw, "math_mode", function)) base.math_mode = trncore::parse_math_mode(*v);
  if (auto v = pop<std::string>(kw, "mode", function)) base.math_mode = trncore::parse_math_mode(*v);
  if (kw.contains("target_forward_error")) {
    base.target_forward_error = pop<double>(kw, "target_forward_error", function);
  }
  if (auto v = pop<int>(kw, "threads", function)) base.threads = *v;
  if (auto v = pop<std::uint64_t>(kw, "seed", function)) base.seed = *v;
  if (auto v = pop<std::uint64_t>(kw, "stream", function)) base.stream = *v;
  if (auto v = pop<std::string>(kw, "rounding", function)) base.rounding.mode = trncore::parse_rounding_mode(*v);
  if (auto v = pop<int>(kw, "sr_bits", function)) base.rounding.sr_bits = *v;
  if (auto v = pop<std::string>(kw, "overflow", function)) base.rounding.overflow = trncore::parse_overflow(*v);
  if (auto v = pop<std::string>(kw, "generation", function)) base.generation = trncore::sim::parse_generation(*v);
  if (auto v = pop<std::string>(kw, "product", function)) base.product = trncore::sim::parse_product_model(*v);
  if (kw.contains("monitor")) {
    py::object callback = kw["monitor"];
    PyDict_DelItemString(kw.ptr(), "monitor");
    if (!callback.is_none()) {
      if (!PyCallable_Check(callback.ptr())) {
        invalid(function, "monitor is not callable", "pass a function progress -> bool (True stops)");
      }
      // The library copies options freely, with the GIL released: hold the callable as a PyRef.
      PyRef held = hold(std::move(callback));
      base.monitor = [held](const trncore::Progress& p) {
        py::gil_scoped_acquire gil;
        return py::bool_((*held)(p)) ? trncore::MonitorAction::stop : trncore::MonitorAction::proceed;
      };
    }
  }
}

/// Raises TypeError naming every key left in kw (a misspelt or unsupported keyword).
inline void reject_unknown(const py::dict& kw, std::string_view function) {
  if (kw.empty()) return;
  std::string keys;
  for (auto item : kw) keys += (keys.empty() ? "" : ", ") + py::str(item.first).cast<std::string>();
  throw py::type_error(std::string(function) + ": unexpected keyword argument(s) " + keys +
                       ": see help() of the function for the keywords it takes");
}

/// Options of type O from kw: pop_options, then reject_unknown. For routines with no keywords of their own.
template <class O = trncore::Options>
O options_from(py::dict kw, std::string_view function) {
  O o{};
  pop_options(o, kw, function);
  reject_unknown(kw, function);
  return o;
}

}  // namespace trnsci_python
