#pragma once
// The trnrand extension's families and the glue they share: flat in-place outputs and Python ints as uint64.
#include <trnsci_python/bindings.hpp>

#include <trnrand/stream.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace trnrand_python {

namespace py = pybind11;
namespace tp = trnsci_python;

void bind_stream(py::module_& m);
void bind_distributions(py::module_& m);
void bind_qmc(py::module_& m);

/// An output the fill writes in place: any ndarray of exact dtype T, writable, C- or Fortran-contiguous (any
/// rank); the span covers its memory in memory order. Never converted or copied.
template <class T>
struct Flat {
  py::array array;    ///< the caller's array (kept alive)
  std::span<T> span;  ///< its elements
};

template <class T>
Flat<T> out_flat(py::handle obj, std::string_view function, std::string_view name) {
  if (!py::isinstance<py::array>(obj)) {
    tp::invalid(function,
                std::string(name) + " is written in place but is not a NumPy array (type " +
                    py::str(py::type::of(obj).attr("__name__")).cast<std::string>() + ")",
                "pass a numpy.ndarray");
  }
  auto a = py::reinterpret_borrow<py::array>(obj);
  if (!py::isinstance<py::array_t<T, 0>>(a)) {
    tp::invalid(function, std::string(name) + " is written in place but has dtype " + tp::detail::dtype_text(a),
                std::string("pass a ") + tp::detail::dtype_name<T>() + " array (in-place outputs are never converted)");
  }
  if (!a.writeable()) tp::invalid(function, std::string(name) + " is read-only", "pass a writable array");
  if (!py::isinstance<py::array_t<T, py::array::c_style>>(a) &&
      !py::isinstance<py::array_t<T, py::array::f_style>>(a)) {
    tp::invalid(function, std::string(name) + " is not contiguous (shape " + tp::detail::shape_text(a) + ")",
                "pass a C- or Fortran-contiguous array (x.copy()), or fill a contiguous buffer and copy it");
  }
  T* data = a.size() > 0 ? static_cast<T*>(a.mutable_data()) : nullptr;
  return {a, std::span<T>(data, static_cast<std::size_t>(a.size()))};
}

/// A Python int in [0, 2^64) as uint64; anything else is trncore.InvalidArgument naming the argument.
/// obj.__index__() for non-int integer objects (NumPy integers), or a null object when it has none.
inline py::object index_of(py::handle v) {
  if (PyBool_Check(v.ptr()) || PyFloat_Check(v.ptr()) || !PyIndex_Check(v.ptr())) return py::object();
  PyObject* r = PyNumber_Index(v.ptr());
  if (r == nullptr) {
    PyErr_Clear();
    return py::object();
  }
  return py::reinterpret_steal<py::object>(r);
}

inline std::uint64_t to_u64(py::handle v, std::string_view function, std::string_view name) {
  if (!PyLong_Check(v.ptr()) && !PyBool_Check(v.ptr())) {
    if (py::object i = index_of(v)) return to_u64(i, function, name);
  }
  if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr())) {
    tp::invalid(function,
                std::string(name) + " has type " + py::str(py::type::of(v).attr("__name__")).cast<std::string>(),
                "pass an int in [0, 2**64)");
  }
  const unsigned long long x = PyLong_AsUnsignedLongLong(v.ptr());
  if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    tp::invalid(function, std::string(name) + " = " + py::repr(v).cast<std::string>() + " is outside [0, 2**64)",
                "pass a non-negative int below 2**64");
  }
  return static_cast<std::uint64_t>(x);
}

/// A Python int as int64 (InvalidArgument when not an int or out of range).
inline std::int64_t to_i64(py::handle v, std::string_view function, std::string_view name) {
  if (!PyLong_Check(v.ptr()) && !PyBool_Check(v.ptr())) {
    if (py::object i = index_of(v)) return to_i64(i, function, name);
  }
  if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr())) {
    tp::invalid(function,
                std::string(name) + " has type " + py::str(py::type::of(v).attr("__name__")).cast<std::string>(),
                "pass an int");
  }
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow != 0) {
    tp::invalid(function, std::string(name) + " = " + py::repr(v).cast<std::string>() + " does not fit in int64",
                "pass an int in [-2**63, 2**63)");
  }
  return static_cast<std::int64_t>(x);
}

}  // namespace trnrand_python
