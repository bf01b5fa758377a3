#pragma once
// Shared glue of the trnfft Python extension: the bind_* functions of each routine family and the
// conversions they share (argument parsing, dtype dispatch, results handed to NumPy without a copy).
#include <trnsci_python/bindings.hpp>

#include <trnfft/types.hpp>
#include <trncore/error.hpp>
#include <trncore/tensor.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trnfft_python {

namespace py = pybind11;
namespace tp = trnsci_python;

void bind_functions(py::module_& m);
void bind_plan(py::module_& m);
void bind_stft(py::module_& m);

/// An int argument (Python int or NumPy integer), or nullopt for None.
inline std::optional<std::int64_t> opt_int(py::handle v, std::string_view fn, const char* name) {
  if (v.is_none()) return std::nullopt;
  if (!PyBool_Check(v.ptr()) && PyIndex_Check(v.ptr())) {
    // ndarrays have __index__ too, which fails for anything but an integer scalar array.
    PyObject* index = PyNumber_Index(v.ptr());
    if (index != nullptr) return py::cast<std::int64_t>(py::reinterpret_steal<py::object>(index));
    PyErr_Clear();
  }
  tp::invalid(fn, std::string(name) + "=" + py::repr(v).cast<std::string>() + " is not an integer",
              std::string("pass an int (or None) for ") + name);
}

/// None → {}; an int → {i}; a sequence of ints → the ints.
inline std::vector<std::int64_t> int_list(py::handle v, std::string_view fn, const char* name) {
  std::vector<std::int64_t> out;
  if (v.is_none()) return out;
  if (!PyBool_Check(v.ptr()) && PyIndex_Check(v.ptr())) {
    out.push_back(*opt_int(v, fn, name));
    return out;
  }
  if (!py::isinstance<py::sequence>(v) || py::isinstance<py::str>(v)) {
    tp::invalid(fn, std::string(name) + "=" + py::repr(v).cast<std::string>() + " is not a sequence of integers",
                std::string("pass a tuple of ints (or None) for ") + name);
  }
  for (auto item : py::reinterpret_borrow<py::sequence>(v)) out.push_back(*opt_int(item, fn, name));
  return out;
}

/// Pops an alias keyword (upstream's `dim`) from kw; an error when both it and the NumPy keyword are given.
inline py::object alias(py::dict& kw, const char* key, py::object numpy_value, const char* numpy_name,
                        std::string_view fn) {
  if (!kw.contains(key)) return numpy_value;
  py::object v = kw[key];
  PyDict_DelItemString(kw.ptr(), key);
  if (!numpy_value.is_none()) {
    tp::invalid(fn, std::string("both ") + numpy_name + "= and " + key + "= are given",
                std::string("pass one: ") + key + " is upstream's (torch) name of NumPy's " + numpy_name);
  }
  return v;
}

/// The element type T of a Kind, passed to f as a tag: f(float{}) etc.
template <class F>
decltype(auto) dispatch(tp::Kind k, F&& f) {
  switch (k) {
    case tp::Kind::f32: return f(float{});
    case tp::Kind::f64: return f(double{});
    case tp::Kind::c64: return f(std::complex<float>{});
    default: return f(std::complex<double>{});
  }
}

inline bool is_complex(tp::Kind k) { return k == tp::Kind::c64 || k == tp::Kind::c128; }
inline bool is_single(tp::Kind k) { return k == tp::Kind::f32 || k == tp::Kind::c64; }

/// A NumPy array owning the vector's storage (moved, not copied).
template <class E>
py::array to_numpy(std::vector<E>&& v, const std::vector<std::int64_t>& shape) {
  return tp::adopt(std::move(v), shape);
}

/// A NumPy array owning the tensor's storage.
template <class E>
py::array to_numpy(trncore::Tensor<E>&& t) {
  const std::vector<std::int64_t> shape = t.shape();
  return to_numpy(std::move(t).values(), shape);
}

/// A C-ordered array of E whose data is 64-byte aligned (FFTW's plans compare the SIMD alignment of
/// new-array execute's arrays with that of the creation arrays; 64 covers every SIMD width).
template <class E>
py::array_t<E> aligned_array(const std::vector<std::int64_t>& shape) {
  std::int64_t count = 1;
  for (auto n : shape) count *= n;
  py::array_t<std::uint8_t> raw(static_cast<py::ssize_t>(count * static_cast<std::int64_t>(sizeof(E)) + 64));
  auto* base = raw.mutable_data();
  const auto addr = reinterpret_cast<std::uintptr_t>(base);
  const std::size_t offset = (64 - addr % 64) % 64;
  std::vector<py::ssize_t> s(shape.begin(), shape.end());
  return py::array_t<E>(s, reinterpret_cast<E*>(base + offset), raw);
}

/// Throws trncore::NotSupported from glue.
[[noreturn]] inline void not_supported(std::string_view fn, std::string_view problem, std::string_view hint) {
  throw trncore::NotSupported(fn, problem, hint);
}

/// report=True on a routine whose C++ function has no report overload.
inline void refuse_report(py::dict& kw, std::string_view fn, std::string_view hint) {
  if (tp::pop_flag(kw, "report", false, fn)) {
    not_supported(fn, "report=True: the C++ function has no report overload", hint);
  }
}

}  // namespace trnfft_python
