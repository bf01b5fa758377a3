#pragma once
// The trntensor extension's translation units and the glue they share (arrays in and out, dtypes).
#include <trnsci_python/bindings.hpp>

#include <trntensor/tensor.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trntensor_python {

namespace py = pybind11;
namespace tp = trnsci_python;

void bind_einsum(py::module_& m);
void bind_sharded(py::module_& m);
void bind_decompositions(py::module_& m);
void bind_chemistry(py::module_& m);

/// The element types trntensor computes in: float32 and float64 (no complex, docs/trntensor.md).
enum class Real { f32, f64 };

/// The real kind an array computes in: float32 → f32, float64 and integers → f64; complex is refused.
inline Real real_kind(const py::array& a, std::string_view function, std::string_view name) {
  const tp::Kind k = tp::kind_of(a, function, name);
  if (k == tp::Kind::c64 || k == tp::Kind::c128) {
    tp::invalid(function, std::string(name) + " has dtype " + py::str(a.dtype()).cast<std::string>(),
                "trntensor computes in float32 or float64 only (no complex types); pass x.real and x.imag "
                "separately");
  }
  return k == tp::Kind::f32 ? Real::f32 : Real::f64;
}

inline Real promote(Real a, Real b) { return a == Real::f64 || b == Real::f64 ? Real::f64 : Real::f32; }

inline const char* real_name(Real r) { return r == Real::f32 ? "float32" : "float64"; }

/// A double for a repr: 6 significant digits ("1e-13", "0.999998").
inline std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

/// The shape of an array-like without converting it: obj.shape when it has one (ndarrays, PyTorch
/// tensors), else numpy.shape(obj).
inline trncore::Shape shape_of(py::handle obj, std::string_view function, std::string_view name) {
  py::object shape;
  try {
    shape = py::hasattr(obj, "shape") ? obj.attr("shape") : py::module_::import("numpy").attr("shape")(obj);
    trncore::Shape s;
    for (auto e : py::tuple(shape)) s.push_back(e.cast<std::int64_t>());
    return s;
  } catch (py::error_already_set&) {
  } catch (py::cast_error&) {}
  tp::invalid(function,
              std::string(name) + " has no shape (type " +
                  py::str(py::type::of(obj).attr("__name__")).cast<std::string>() + ")",
              "pass a NumPy array or an array-like");
}

/// A Tensor<T> as a NumPy array without a copy: the array owns the tensor through a capsule.
template <class T>
py::array_t<T> to_numpy(trncore::Tensor<T>&& t) {
  const trncore::Shape shape = t.shape();
  return tp::adopt(std::move(t).values(), shape);
}

/// An N-D array a routine writes in place: exactly dtype T, writable, non-negative element strides.
template <class T>
struct OutTensor {
  py::array_t<T> array;
  trncore::TensorView<T> view;
};

template <class T>
OutTensor<T> out_tensor(py::handle obj, std::string_view function, std::string_view name) {
  if (!py::isinstance<py::array>(obj)) {
    tp::invalid(function,
                std::string(name) + " is written in place but is not a NumPy array (type " +
                    py::str(py::type::of(obj).attr("__name__")).cast<std::string>() + ")",
                "pass a numpy.ndarray");
  }
  auto a = py::reinterpret_borrow<py::array>(obj);
  if (!py::isinstance<py::array_t<T, 0>>(a)) {
    tp::invalid(function,
                std::string(name) + " is written in place but has dtype " + py::str(a.dtype()).cast<std::string>() +
                    " and the result is " + tp::detail::dtype_name<T>(),
                std::string("pass a ") + tp::detail::dtype_name<T>() + " array (in-place outputs are never converted)");
  }
  if (!a.writeable()) tp::invalid(function, std::string(name) + " is read-only", "pass a writable array");
  trncore::Shape shape(a.shape(), a.shape() + a.ndim());
  trncore::Shape strides;
  for (py::ssize_t d = 0; d < a.ndim(); ++d) {
    const auto bytes = static_cast<std::int64_t>(a.strides(d));
    const auto item = static_cast<std::int64_t>(sizeof(T));
    if (a.shape(d) <= 1) {
      strides.push_back(0);
      continue;
    }
    if (bytes < 0 || bytes % item != 0) {
      tp::invalid(function, std::string(name) + " has a negative or misaligned stride on axis " + std::to_string(d),
                  "pass a C- or Fortran-ordered array or a forward slice of one");
    }
    strides.push_back(bytes / item);
  }
  auto typed = py::reinterpret_borrow<py::array_t<T>>(a);
  return {typed, trncore::TensorView<T>(typed.mutable_data(), shape, strides)};
}

/// Operands converted once to the computing type T: the arrays that own the data and the views.
template <class T>
struct InTensors {
  std::vector<py::array_t<T>> arrays;
  std::vector<trncore::TensorView<const T>> views;
};

template <class T>
InTensors<T> in_tensors(const std::vector<py::array>& operands, std::string_view function) {
  InTensors<T> r;
  r.arrays.reserve(operands.size());
  r.views.reserve(operands.size());
  for (std::size_t i = 0; i < operands.size(); ++i) {
    auto t = tp::in_tensor<T>(operands[i], function, "operand " + std::to_string(i));
    r.arrays.push_back(std::move(t.array));
    r.views.push_back(t.view);
  }
  return r;
}

}  // namespace trntensor_python

#include <trntensor/plan.hpp>

namespace trntensor_python {

/// Removes key from kw and returns the object itself (None when absent).
inline py::object pop_object(py::dict& kw, const char* key) {
  if (!kw.contains(key)) return py::none();
  py::object v = kw[key];
  PyDict_DelItemString(kw.ptr(), key);
  return v;
}

using tp::options_from;
using tp::pop_options;

/// The process-wide default backend of trntensor's einsum-based routines (set_backend / get_backend).
trncore::Backend default_backend();

/// PlanOptions from keywords: the default backend, then the suite's options (tp::pop_options), then the
/// planner's fields algorithm ("automatic", "optimal", "greedy", "left_to_right"), optimal_limit,
/// memory_limit. Does not reject unknown keywords (the caller pops its own first or after).
trntensor::PlanOptions pop_plan_options(py::dict& kw, std::string_view function);

/// The shapes of the views.
template <class T>
std::vector<trncore::Shape> shapes_of(const std::vector<trncore::TensorView<const T>>& views) {
  std::vector<trncore::Shape> s;
  s.reserve(views.size());
  for (const auto& v : views) s.push_back(v.shape());
  return s;
}

}  // namespace trntensor_python
