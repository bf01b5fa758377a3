#pragma once
/// @file
/// NumPy arrays ↔ trncore views (docs/python.md, "Arrays").
///
/// Inputs: anything np.asarray accepts (ndarrays, the buffer protocol, __array__, e.g. PyTorch CPU
/// tensors, nested lists). An input whose dtype is already the routine's and whose strides a view can
/// express (C order, Fortran order, a row- or column-slice of either, any positive vector stride) is used
/// in place, without a copy; anything else is converted or copied first. Integer and bool inputs convert
/// to float64, like SciPy; other dtypes (object, string, datetime, float16 for a float64 routine...) are
/// rejected with trncore.InvalidArgument.
///
/// Outputs written in place (out=, y=, C= with beta) are never copied behind the caller's back: a wrong
/// dtype, a read-only array or strides no view can express raise trncore.InvalidArgument with the fix.

#include <trnsci_python/errors.hpp>

#include <trncore/tensor.hpp>
#include <trncore/view.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <cstdint>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace trnsci_python {

namespace py = pybind11;

/// The element types the bindings dispatch on.
enum class Kind { f32, f64, c64, c128 };

namespace detail {

inline std::string shape_text(const py::array& a) {
  std::ostringstream s;
  s << '(';
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s << (d ? ", " : "") << a.shape(d);
  s << (a.ndim() == 1 ? ",)" : ")");
  return s.str();
}

inline std::string dtype_text(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

template <class T>
const char* dtype_name() {
  if constexpr (std::is_same_v<T, float>)
    return "float32";
  else if constexpr (std::is_same_v<T, double>)
    return "float64";
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return "complex64";
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return "complex128";
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return "int64";
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return "int32";
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return "uint64";
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return "uint32";
  else if constexpr (std::is_same_v<T, std::uint16_t>)
    return "uint16";
  else if constexpr (std::is_same_v<T, std::uint8_t>)
    return "uint8";
  else
    return "?";
}

/// Element stride of axis d, or 0 when it is not a positive multiple of the item size.
inline std::int64_t element_stride(const py::array& a, py::ssize_t d) {
  const auto bytes = static_cast<std::int64_t>(a.strides(d));
  const auto item = static_cast<std::int64_t>(a.itemsize());
  if (bytes <= 0 || bytes % item != 0) return 0;
  return bytes / item;
}

}  // namespace detail

/// np.asarray(obj): the object itself when it is an ndarray, else NumPy's view or copy of it.
inline py::array as_ndarray(py::handle obj, std::string_view function, std::string_view name) {
  if (py::isinstance<py::array>(obj)) return py::reinterpret_borrow<py::array>(obj);
  try {
    return py::module_::import("numpy").attr("asarray")(obj).cast<py::array>();
  } catch (py::error_already_set&) {
    invalid(function,
            std::string(name) + " is not array-like (type " +
                py::str(py::type::of(obj).attr("__name__")).cast<std::string>() + ")",
            "pass a NumPy array, a nested list, or an object with __array__ or the buffer protocol");
  }
}

/// The kind a routine should run in for this array: float32 → f32, float64 → f64, complex64 → c64,
/// complex128 → c128; integers and bool → f64 (converted on use). Anything else is InvalidArgument.
inline Kind kind_of(const py::array& a, std::string_view function, std::string_view name) {
  const char k = a.dtype().kind();
  const auto size = a.itemsize();
  if (k == 'f' && size == 4) return Kind::f32;
  if (k == 'f' && size == 8) return Kind::f64;
  if (k == 'c' && size == 8) return Kind::c64;
  if (k == 'c' && size == 16) return Kind::c128;
  if (k == 'i' || k == 'u' || k == 'b') return Kind::f64;
  invalid(function, std::string(name) + " has dtype " + detail::dtype_text(a),
          "use float32, float64, complex64 or complex128 (integers convert to float64)");
}

/// Kind of the first operand, promoted with the others like NumPy (float32 with float64 → f64, real with
/// complex → complex of the wider precision).
inline Kind promote(Kind a, Kind b) {
  const bool complex = a == Kind::c64 || a == Kind::c128 || b == Kind::c64 || b == Kind::c128;
  const bool wide = a == Kind::f64 || a == Kind::c128 || b == Kind::f64 || b == Kind::c128;
  if (complex) return wide ? Kind::c128 : Kind::c64;
  return wide ? Kind::f64 : Kind::f32;
}

/// The array as element type T: the same array when its dtype is T, else a converted copy. Refuses
/// conversions that lose the imaginary part (complex → real).
template <class T>
py::array_t<T> as_dtype(const py::array& a, std::string_view function, std::string_view name) {
  if (py::isinstance<py::array_t<T, 0>>(a)) return py::reinterpret_borrow<py::array_t<T>>(a);
  const char k = a.dtype().kind();
  if (k == 'c' && !(std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)) {
    invalid(function,
            std::string(name) + " has dtype " + detail::dtype_text(a) + " but this routine is real (" +
                detail::dtype_name<T>() + ")",
            "pass the real part explicitly (x.real) or call the complex routine");
  }
  if (!(k == 'f' || k == 'c' || k == 'i' || k == 'u' || k == 'b')) {
    invalid(function, std::string(name) + " has dtype " + detail::dtype_text(a),
            std::string("pass a numeric array (") + detail::dtype_name<T>() + " is used without a copy)");
  }
  return py::array_t<T>(a.attr("astype")(py::dtype::of<T>()));
}

/// A read-only matrix argument: the array that owns the data (keep it alive) and the view over it.
template <class T>
struct InMatrix {
  py::array_t<T> array;               ///< owns the data the view points to
  trncore::MatrixView<const T> view;  ///< rows × cols, row- or column-major with the array's ld
};

/// A matrix argument to write: as InMatrix, writable.
template <class T>
struct OutMatrix {
  py::array_t<T> array;         ///< the caller's array
  trncore::MatrixView<T> view;  ///< over its memory
};

namespace detail {

/// The view's layout and ld for a 2-D array's strides, if one exists.
inline bool matrix_layout(const py::array& a, trncore::Layout& layout, std::int64_t& ld) {
  const std::int64_t rows = a.shape(0), cols = a.shape(1);
  const std::int64_t s0 = element_stride(a, 0), s1 = element_stride(a, 1);
  // An empty matrix has no elements to address: NumPy gives it zero strides, any ld is valid.
  if (rows == 0 || cols == 0) {
    layout = trncore::Layout::row_major;
    ld = cols > 0 ? cols : 1;
    return true;
  }
  // Strides of length-1 axes are arbitrary in NumPy; only the other axis' stride matters then.
  if (cols <= 1 || s1 == 1) {
    const std::int64_t want = cols > 0 ? cols : 1;
    if (rows <= 1) {
      layout = trncore::Layout::row_major;
      ld = want;
      return true;
    }
    if (s0 >= want) {
      layout = trncore::Layout::row_major;
      ld = s0;
      return true;
    }
  }
  if (rows <= 1 || s0 == 1) {
    const std::int64_t want = rows > 0 ? rows : 1;
    if (cols <= 1) {
      layout = trncore::Layout::col_major;
      ld = want;
      return true;
    }
    if (s1 >= want) {
      layout = trncore::Layout::col_major;
      ld = s1;
      return true;
    }
  }
  return false;
}

inline void require_ndim(const py::array& a, py::ssize_t ndim, std::string_view function, std::string_view name) {
  if (a.ndim() != ndim) {
    mismatch(function, std::string(name) + " must be " + std::to_string(ndim) + "-D, got shape " + shape_text(a),
             ndim == 2 ? "pass a matrix (use x.reshape(n, 1) for a column)" : "pass a 1-D array (x.ravel())");
  }
}

/// An in-place output argument: the caller's own ndarray (not a converted copy), with ndim axes, dtype exactly
/// T and writable; anything else is trncore.InvalidArgument / DimensionMismatch saying what to pass.
template <class T>
py::array writable_output(py::handle obj, py::ssize_t ndim, std::string_view function, std::string_view name) {
  py::array a = as_ndarray(obj, function, name);
  if (!obj.is(a)) {
    invalid(function, std::string(name) + " is written in place but is not a NumPy array", "pass a numpy.ndarray");
  }
  detail::require_ndim(a, ndim, function, name);
  if (!py::isinstance<py::array_t<T, 0>>(a)) {
    invalid(function, std::string(name) + " is written in place but has dtype " + detail::dtype_text(a),
            std::string("pass a ") + detail::dtype_name<T>() + " array (in-place outputs are never converted)");
  }
  if (!a.writeable()) invalid(function, std::string(name) + " is read-only", "pass a writable array");
  return a;
}

}  // namespace detail

/// Throws trncore::DimensionMismatch unless a has ndim axes ("name must be 2-D, got shape (...)").
using detail::require_ndim;
/// NumPy's name of the element type T ("float32", "complex128", "int64", ...).
using detail::dtype_name;

/// A matrix input of element type T: no copy when the dtype is T and the strides fit a view, else a
/// converted or C-ordered copy. @throws trncore::DimensionMismatch unless 2-D; InvalidArgument for dtypes.
template <class T>
InMatrix<T> in_matrix(py::handle obj, std::string_view function, std::string_view name) {
  py::array a = as_ndarray(obj, function, name);
  detail::require_ndim(a, 2, function, name);
  py::array_t<T> typed = as_dtype<T>(a, function, name);
  trncore::Layout layout{};
  std::int64_t ld = 0;
  if (!detail::matrix_layout(typed, layout, ld)) {
    typed = py::array_t<T, py::array::c_style>::ensure(typed);
    detail::matrix_layout(typed, layout, ld);
  }
  return {typed, trncore::MatrixView<const T>(typed.data(), typed.shape(0), typed.shape(1), ld, layout)};
}

/// A matrix the routine writes (out=, C with beta): must already be T, writable and view-compatible.
template <class T>
OutMatrix<T> out_matrix(py::handle obj, std::string_view function, std::string_view name) {
  py::array a = detail::writable_output<T>(obj, 2, function, name);
  trncore::Layout layout{};
  std::int64_t ld = 0;
  if (!detail::matrix_layout(a, layout, ld)) {
    invalid(function, std::string(name) + " has strides no matrix view can express (neither axis is unit-stride)",
            "pass a C- or Fortran-ordered array, or a row/column slice of one");
  }
  auto typed = py::reinterpret_borrow<py::array_t<T>>(a);
  return {typed, trncore::MatrixView<T>(typed.mutable_data(), typed.shape(0), typed.shape(1), ld, layout)};
}

/// A new rows × cols array of T in C order (row_major) or Fortran order, and its view.
template <class T>
OutMatrix<T> new_matrix(std::int64_t rows, std::int64_t cols, trncore::Layout layout = trncore::Layout::row_major) {
  const auto item = static_cast<py::ssize_t>(sizeof(T));
  std::vector<py::ssize_t> shape{rows, cols};
  std::vector<py::ssize_t> strides = layout == trncore::Layout::row_major
                                         ? std::vector<py::ssize_t>{(cols > 0 ? cols : 1) * item, item}
                                         : std::vector<py::ssize_t>{item, (rows > 0 ? rows : 1) * item};
  py::array_t<T> a(shape, strides);
  const std::int64_t ld = layout == trncore::Layout::row_major ? (cols > 0 ? cols : 1) : (rows > 0 ? rows : 1);
  return {a, trncore::MatrixView<T>(a.mutable_data(), rows, cols, ld, layout)};
}

/// A read-only vector argument and the array that owns its data.
template <class T>
struct InVector {
  py::array_t<T> array;               ///< owns the data
  trncore::VectorView<const T> view;  ///< with the array's (positive) stride
};

/// A vector the routine writes.
template <class T>
struct OutVector {
  py::array_t<T> array;         ///< the caller's array
  trncore::VectorView<T> view;  ///< over its memory
};

/// A 1-D input of T: no copy when the dtype is T and the stride is positive, else a contiguous copy.
template <class T>
InVector<T> in_vector(py::handle obj, std::string_view function, std::string_view name) {
  py::array a = as_ndarray(obj, function, name);
  detail::require_ndim(a, 1, function, name);
  py::array_t<T> typed = as_dtype<T>(a, function, name);
  std::int64_t inc = typed.shape(0) <= 1 ? 1 : detail::element_stride(typed, 0);
  if (inc == 0) {
    typed = py::array_t<T, py::array::c_style>::ensure(typed);
    inc = 1;
  }
  return {typed, trncore::VectorView<const T>(typed.data(), typed.shape(0), inc)};
}

/// A 1-D array the routine writes: must already be T, writable, with a positive stride.
template <class T>
OutVector<T> out_vector(py::handle obj, std::string_view function, std::string_view name) {
  py::array a = detail::writable_output<T>(obj, 1, function, name);
  std::int64_t inc = a.shape(0) <= 1 ? 1 : detail::element_stride(a, 0);
  if (inc == 0) {
    invalid(function, std::string(name) + " has a negative or misaligned stride", "pass x.copy() or x[::-1].copy()");
  }
  auto typed = py::reinterpret_borrow<py::array_t<T>>(a);
  return {typed, trncore::VectorView<T>(typed.mutable_data(), typed.shape(0), inc)};
}

/// A new 1-D array of n elements of T.
template <class T>
OutVector<T> new_vector(std::int64_t n) {
  py::array_t<T> a(static_cast<py::ssize_t>(n));
  return {a, trncore::VectorView<T>(a.mutable_data(), n, 1)};
}

/// A read-only tensor argument of any rank and the array that owns its data.
template <class T>
struct InTensor {
  py::array_t<T> array;               ///< owns the data
  trncore::TensorView<const T> view;  ///< with the array's strides (in elements)
};

/// An N-D input of T: no copy when the dtype is T and every stride is non-negative and a whole number of
/// elements, else a C-ordered copy. ndim = -1 accepts any rank.
template <class T>
InTensor<T> in_tensor(py::handle obj, std::string_view function, std::string_view name, py::ssize_t ndim = -1) {
  py::array a = as_ndarray(obj, function, name);
  if (ndim >= 0) detail::require_ndim(a, ndim, function, name);
  py::array_t<T> typed = as_dtype<T>(a, function, name);
  auto strides_of = [](const py::array& x, trncore::Shape& out) {
    out.clear();
    for (py::ssize_t d = 0; d < x.ndim(); ++d) {
      const auto bytes = static_cast<std::int64_t>(x.strides(d));
      const auto item = static_cast<std::int64_t>(x.itemsize());
      if (x.shape(d) <= 1) {
        out.push_back(0);
        continue;
      }
      if (bytes < 0 || bytes % item != 0) return false;
      out.push_back(bytes / item);
    }
    return true;
  };
  trncore::Shape shape(typed.shape(), typed.shape() + typed.ndim());
  trncore::Shape strides;
  if (!strides_of(typed, strides)) {
    typed = py::array_t<T, py::array::c_style>::ensure(typed);
    strides_of(typed, strides);
  }
  return {typed, trncore::TensorView<const T>(typed.data(), shape, strides)};
}

/// A new C-ordered array of T with the given shape, for a routine named function: a shape whose element
/// or byte count overflows, or that NumPy cannot allocate, is trncore::ResourceExhausted (never NumPy's
/// ValueError or a MemoryError without the routine's name).
template <class T>
py::array_t<T> allocate(const std::vector<std::int64_t>& shape, std::string_view function) {
  std::int64_t count = 1;
  bool overflow = false;
  for (const std::int64_t d : shape) overflow = overflow || __builtin_mul_overflow(count, d, &count);
  std::int64_t bytes = 0;
  overflow = overflow || __builtin_mul_overflow(count, static_cast<std::int64_t>(sizeof(T)), &bytes);
  auto exhausted = [&](const std::string& why) {
    std::string dims;
    for (const std::int64_t d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    throw trncore::ResourceExhausted(function, "an output of shape (" + dims + ") " + why,
                                     "ask for fewer elements per call");
  };
  if (overflow) exhausted("has more bytes than a 64-bit size holds");
  try {
    std::vector<py::ssize_t> s(shape.begin(), shape.end());
    return py::array_t<T>(s);
  } catch (const py::error_already_set&) {
    exhausted("cannot be allocated (" + std::to_string(bytes) + " bytes)");
  } catch (const std::bad_alloc&) {
    exhausted("cannot be allocated (" + std::to_string(bytes) + " bytes)");
  }
  return {};
}

/// A NumPy array that takes over v's storage (moved, never copied): the array owns the vector through a
/// capsule. strides are in elements; empty means C order. An empty vector still gets a valid pointer.
template <class T>
py::array_t<T> adopt(std::vector<T>&& v, const std::vector<std::int64_t>& shape,
                     const std::vector<std::int64_t>& strides = {}) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  if (owned->empty()) owned->resize(1);
  const auto item = static_cast<py::ssize_t>(sizeof(T));
  std::vector<py::ssize_t> byte_strides(shape.size());
  if (strides.empty()) {
    py::ssize_t step = item;
    for (std::size_t d = shape.size(); d-- > 0;) {
      byte_strides[d] = step;
      step *= shape[d] > 0 ? static_cast<py::ssize_t>(shape[d]) : 1;
    }
  } else {
    for (std::size_t d = 0; d < shape.size(); ++d) byte_strides[d] = static_cast<py::ssize_t>(strides[d]) * item;
  }
  return py::array_t<T>(std::vector<py::ssize_t>(shape.begin(), shape.end()), byte_strides, owned->data(), owner);
}

/// A new C-ordered array of T with the given shape.
template <class T>
py::array_t<T> new_array(const std::vector<std::int64_t>& shape) {
  std::vector<py::ssize_t> s(shape.begin(), shape.end());
  return py::array_t<T>(s);
}

}  // namespace trnsci_python
