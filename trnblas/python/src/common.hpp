#pragma once
/// @file
/// Glue shared by the trnblas binding translation units: scalars, dtype dispatch, BLAS option strings,
/// matrix operands in a target layout (transposed views instead of copies where the routine allows),
/// in-place outputs and result arrays.

#include <trnsci_python/bindings.hpp>

#include <trnblas/types.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace trnblas_python {

namespace py = pybind11;
namespace tp = trnsci_python;
using tp::Kind;
using trnblas::Diag;
using trnblas::Layout;
using trnblas::Op;
using trnblas::Side;
using trnblas::Uplo;

template <class T>
inline constexpr bool is_complex = trnblas::is_complex_v<T>;

/// A Python number: its value as a complex double and whether it is complex (a Python complex, or a
/// nonzero imaginary part).
struct Scalar {
  std::complex<double> value;
  bool complex = false;
};

inline std::string type_name(py::handle obj) { return py::str(py::type::of(obj).attr("__name__")).cast<std::string>(); }

inline Scalar scalar_arg(py::handle obj, std::string_view fn, std::string_view name) {
  if (obj.is_none() || PyUnicode_Check(obj.ptr()) || PyBytes_Check(obj.ptr())) {
    tp::invalid(fn, std::string(name) + " is not a number (type " + type_name(obj) + ")",
                "pass a float, int or complex scalar");
  }
  const Py_complex c = PyComplex_AsCComplex(obj.ptr());
  if (c.real == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    tp::invalid(fn, std::string(name) + " is not a number (type " + type_name(obj) + ")",
                "pass a float, int or complex scalar");
  }
  return {{c.real, c.imag}, PyComplex_Check(obj.ptr()) || c.imag != 0.0};
}

/// The scalar in the routine's type T (the kind was promoted to complex when the scalar is complex).
template <class T>
T scalar_as(const Scalar& s) {
  if constexpr (is_complex<T>) {
    using R = typename T::value_type;
    return T(static_cast<R>(s.value.real()), static_cast<R>(s.value.imag()));
  } else {
    return static_cast<T>(s.value.real());
  }
}

/// A real scalar argument (herk's alpha and beta, her's alpha, rot's c and s).
template <class R>
R real_scalar(const Scalar& s, std::string_view fn, std::string_view name) {
  if (s.value.imag() != 0.0) {
    tp::invalid(fn, std::string(name) + " must be real, got a complex value", "pass a float");
  }
  return static_cast<R>(s.value.real());
}

inline Kind with_scalar(Kind k, const Scalar& s) { return s.complex ? tp::promote(k, Kind::c64) : k; }

inline Kind kind_arg(py::handle obj, std::string_view fn, std::string_view name) {
  return tp::kind_of(tp::as_ndarray(obj, fn, name), fn, name);
}

/// The promoted kind of the array operands (None entries skipped): the dtype the routine runs in.
inline Kind operands_kind(std::initializer_list<std::pair<py::handle, const char*>> arrays, std::string_view fn) {
  bool first = true;
  Kind k = Kind::f32;
  for (auto [obj, name] : arrays) {
    if (obj.is_none()) continue;
    const Kind ki = kind_arg(obj, fn, name);
    k = first ? ki : tp::promote(k, ki);
    first = false;
  }
  return k;
}

/// f(T{}) for the four BLAS types.
template <class F>
py::object dispatch(Kind k, F&& f) {
  switch (k) {
    case Kind::f32: return f(float{});
    case Kind::f64: return f(double{});
    case Kind::c64: return f(std::complex<float>{});
    case Kind::c128: return f(std::complex<double>{});
  }
  return py::none();
}

/// f(T{}) for float and double; complex data is InvalidArgument with `hint` (the complex routine).
template <class F>
py::object dispatch_real(Kind k, std::string_view fn, std::string_view hint, F&& f) {
  if (k == Kind::c64 || k == Kind::c128) {
    tp::invalid(fn, "complex data, but this routine is defined for float32 and float64 only", hint);
  }
  return k == Kind::f32 ? f(float{}) : f(double{});
}

/// f(T{}) for complex64 and complex128; real data is converted (float32 → complex64, float64 → complex128).
template <class F>
py::object dispatch_complex(Kind k, F&& f) {
  return (k == Kind::f32 || k == Kind::c64) ? f(std::complex<float>{}) : f(std::complex<double>{});
}

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// trans: False/True (upstream) or 'N'/'T'/'C', 'no_trans'/'trans'/'conj_trans'.
inline Op parse_trans(py::handle obj, std::string_view fn, std::string_view name) {
  if (PyBool_Check(obj.ptr())) return obj.ptr() == Py_True ? Op::trans : Op::no_trans;
  if (py::isinstance(obj, py::module_::import("numpy").attr("bool_"))) {
    return PyObject_IsTrue(obj.ptr()) == 1 ? Op::trans : Op::no_trans;  // numpy.bool_ (e.g. from a comparison)
  }
  if (PyUnicode_Check(obj.ptr())) {
    const std::string s = lower(obj.cast<std::string>());
    if (s == "n" || s == "no_trans" || s == "notrans") return Op::no_trans;
    if (s == "t" || s == "trans") return Op::trans;
    if (s == "c" || s == "h" || s == "conj_trans" || s == "conjtrans") return Op::conj_trans;
  }
  tp::invalid(fn, std::string(name) + "=" + py::repr(obj).cast<std::string>() + " is not a transpose option",
              "pass False/True or 'N', 'T', 'C' ('no_trans', 'trans', 'conj_trans')");
}

inline Uplo parse_uplo(py::handle obj, std::string_view fn) {
  if (PyUnicode_Check(obj.ptr())) {
    const std::string s = lower(obj.cast<std::string>());
    if (s == "upper" || s == "u") return Uplo::upper;
    if (s == "lower" || s == "l") return Uplo::lower;
  }
  tp::invalid(fn, "uplo=" + py::repr(obj).cast<std::string>() + " is not 'upper' or 'lower'",
              "pass uplo='upper' or 'lower' ('U', 'L')");
}

inline Diag parse_diag(py::handle obj, std::string_view fn) {
  if (PyUnicode_Check(obj.ptr())) {
    const std::string s = lower(obj.cast<std::string>());
    if (s == "nonunit" || s == "non_unit" || s == "n") return Diag::non_unit;
    if (s == "unit" || s == "u") return Diag::unit;
  }
  tp::invalid(fn, "diag=" + py::repr(obj).cast<std::string>() + " is not 'nonunit' or 'unit'",
              "pass diag='nonunit' (or 'non_unit', 'N') or 'unit' ('U')");
}

inline Side parse_side(py::handle obj, std::string_view fn) {
  if (PyUnicode_Check(obj.ptr())) {
    const std::string s = lower(obj.cast<std::string>());
    if (s == "left" || s == "l") return Side::left;
    if (s == "right" || s == "r") return Side::right;
  }
  tp::invalid(fn, "side=" + py::repr(obj).cast<std::string>() + " is not 'left' or 'right'",
              "pass side='left' or 'right' ('L', 'R')");
}

inline Op flip(Op op) { return op == Op::no_trans ? Op::trans : Op::no_trans; }
inline Uplo flip(Uplo u) { return u == Uplo::upper ? Uplo::lower : Uplo::upper; }
inline Layout other(Layout l) { return l == Layout::row_major ? Layout::col_major : Layout::row_major; }

/// Removes key from kw and returns it (None when absent).
inline py::object pop_object(py::dict& kw, const char* key) {
  if (!kw.contains(key)) return py::none();
  py::object v = kw[key];
  PyDict_DelItemString(kw.ptr(), key);
  return v;
}

inline std::string shape_text(py::handle a) { return tp::detail::shape_text(py::reinterpret_borrow<py::array>(a)); }

/// The leading dimension with which a 2-D array is a matrix in `layout`, if its strides allow.
inline std::optional<std::int64_t> ld_in_layout(const py::array& a, Layout layout) {
  const std::int64_t rows = a.shape(0), cols = a.shape(1);
  const bool row = layout == Layout::row_major;
  const std::int64_t inner = row ? cols : rows, outer = row ? rows : cols;
  if (rows == 0 || cols == 0) return std::max<std::int64_t>(1, inner);
  const std::int64_t s_inner = tp::detail::element_stride(a, row ? 1 : 0);
  const std::int64_t s_outer = tp::detail::element_stride(a, row ? 0 : 1);
  if (inner > 1 && s_inner != 1) return std::nullopt;
  if (outer == 1) return std::max<std::int64_t>(1, inner);
  if (s_outer >= std::max<std::int64_t>(1, inner)) return s_outer;
  return std::nullopt;
}

inline py::array copy_in_layout(const py::array& a, Layout layout) {
  auto np = py::module_::import("numpy");
  return np.attr(layout == Layout::row_major ? "ascontiguousarray" : "asfortranarray")(a).cast<py::array>();
}

/// A read-only matrix operand in `target` layout. When its strides give the other layout and `allow_flip`,
/// the view is of its transpose (flipped = true: the caller adjusts trans/uplo), without a copy; else a
/// copy in the target layout.
template <class T>
struct Operand {
  py::array_t<T> array;
  trncore::MatrixView<const T> view;
  bool flipped = false;
};

template <class T>
py::array_t<T> typed_matrix(py::handle obj, std::string_view fn, std::string_view name) {
  py::array a = tp::as_ndarray(obj, fn, name);
  tp::detail::require_ndim(a, 2, fn, name);
  return tp::as_dtype<T>(a, fn, name);
}

template <class T>
Operand<T> operand(py::handle obj, Layout target, bool allow_flip, std::string_view fn, std::string_view name) {
  py::array_t<T> a = typed_matrix<T>(obj, fn, name);
  const std::int64_t rows = a.shape(0), cols = a.shape(1);
  if (auto ld = ld_in_layout(a, target)) {
    return {a, trncore::MatrixView<const T>(a.data(), rows, cols, *ld, target), false};
  }
  if (allow_flip) {
    if (auto ld = ld_in_layout(a, other(target))) {
      return {a, trncore::MatrixView<const T>(a.data(), cols, rows, *ld, target), true};
    }
  }
  py::array_t<T> c = copy_in_layout(a, target);
  return {c, trncore::MatrixView<const T>(c.data(), rows, cols, *ld_in_layout(c, target), target), false};
}

/// A matrix written in place (out=): exact dtype T, writable, strides of either layout.
template <class T>
tp::OutMatrix<T> out_matrix(py::handle obj, std::string_view fn, std::string_view name) {
  if (!py::isinstance<py::array>(obj)) {
    tp::invalid(fn, std::string(name) + " is written in place but is not a NumPy array (type " + type_name(obj) + ")",
                "pass a numpy.ndarray");
  }
  auto a = py::reinterpret_borrow<py::array>(obj);
  tp::detail::require_ndim(a, 2, fn, name);
  if (!py::isinstance<py::array_t<T, 0>>(a)) {
    tp::invalid(fn, std::string(name) + " is written in place but has dtype " + tp::detail::dtype_text(a),
                std::string("pass a ") + tp::detail::dtype_name<T>() +
                    " array (the result's dtype; in-place outputs are never converted)");
  }
  if (!a.writeable()) tp::invalid(fn, std::string(name) + " is read-only", "pass a writable array");
  auto typed = py::reinterpret_borrow<py::array_t<T>>(a);
  for (Layout l : {Layout::row_major, Layout::col_major}) {
    if (auto ld = ld_in_layout(a, l)) {
      return {typed, trncore::MatrixView<T>(typed.mutable_data(), a.shape(0), a.shape(1), *ld, l)};
    }
  }
  tp::invalid(fn, std::string(name) + " has strides no matrix view can express (neither axis is unit-stride)",
              "pass a C- or Fortran-ordered array, or a row/column slice of one");
}

/// A 1-D output written in place (out=): exact dtype T, writable, positive stride.
template <class T>
tp::OutVector<T> out_vector(py::handle obj, std::string_view fn, std::string_view name) {
  if (!py::isinstance<py::array>(obj)) {
    tp::invalid(fn, std::string(name) + " is written in place but is not a NumPy array (type " + type_name(obj) + ")",
                "pass a numpy.ndarray");
  }
  auto a = py::reinterpret_borrow<py::array>(obj);
  if (a.ndim() == 1 && !py::isinstance<py::array_t<T, 0>>(a)) {
    tp::invalid(fn, std::string(name) + " is written in place but has dtype " + tp::detail::dtype_text(a),
                std::string("pass a ") + tp::detail::dtype_name<T>() +
                    " array (the result's dtype; in-place outputs are never converted)");
  }
  return tp::out_vector<T>(obj, fn, name);
}

/// np.copyto(dst, src): fills a result with the addend (C, y, A) before an in-place BLAS update.
inline void copy_into(py::handle dst, py::handle src) { py::module_::import("numpy").attr("copyto")(dst, src); }

inline void check_shape(py::handle obj, std::int64_t rows, std::int64_t cols, std::string_view fn,
                        std::string_view name, std::string_view what) {
  auto a = tp::as_ndarray(obj, fn, name);
  tp::detail::require_ndim(a, 2, fn, name);
  if (a.shape(0) != rows || a.shape(1) != cols) {
    tp::mismatch(
        fn,
        std::string(name) + " has shape " + shape_text(a) + " but " + std::string(what) + " is " +
            std::to_string(rows) + "x" + std::to_string(cols),
        "pass " + std::string(name) + " of shape (" + std::to_string(rows) + ", " + std::to_string(cols) + ")");
  }
}

inline void check_length(py::handle obj, std::int64_t n, std::string_view fn, std::string_view name,
                         std::string_view what) {
  auto a = tp::as_ndarray(obj, fn, name);
  tp::detail::require_ndim(a, 1, fn, name);
  if (a.shape(0) != n) {
    tp::mismatch(fn,
                 std::string(name) + " has length " + std::to_string(a.shape(0)) + " but " + std::string(what) +
                     " is " + std::to_string(n),
                 "pass " + std::string(name) + " of length " + std::to_string(n));
  }
}

/// The result matrix: `out` (in place) or a new C-ordered array; filled with the addend when one is given
/// (and is not out itself).
template <class T>
tp::OutMatrix<T> result_matrix(py::handle out, py::handle addend, std::int64_t rows, std::int64_t cols,
                               std::string_view fn, std::string_view addend_name, bool zero_fill = false) {
  if (!addend.is_none()) check_shape(addend, rows, cols, fn, addend_name, "the result");
  if (!out.is_none()) {
    check_shape(out, rows, cols, fn, "out", "the result");
    auto o = out_matrix<T>(out, fn, "out");
    if (!addend.is_none() && !addend.is(out))
      copy_into(o.array, addend);
    else if (addend.is_none() && zero_fill)
      o.array.attr("fill")(0);
    return o;
  }
  auto r = tp::new_matrix<T>(rows, cols);
  if (!addend.is_none())
    copy_into(r.array, addend);
  else if (zero_fill)
    r.array.attr("fill")(0);
  return r;
}

/// The result vector, as result_matrix.
template <class T>
tp::OutVector<T> result_vector(py::handle out, py::handle addend, std::int64_t n, std::string_view fn,
                               std::string_view addend_name) {
  if (!addend.is_none()) check_length(addend, n, fn, addend_name, "the result's length");
  if (!out.is_none()) {
    check_length(out, n, fn, "out", "the result's length");
    auto o = out_vector<T>(out, fn, "out");
    if (!addend.is_none() && !addend.is(out)) copy_into(o.array, addend);
    return o;
  }
  auto r = tp::new_vector<T>(n);
  if (!addend.is_none()) copy_into(r.array, addend);
  return r;
}

template <class T>
tp::InVector<T> vector_arg(py::handle obj, std::string_view fn, std::string_view name) {
  return tp::in_vector<T>(obj, fn, name);
}

/// A 0-D array holding v (the upstream API returns 0-D tensors for dot, nrm2, asum).
template <class T>
py::array zero_d(T v) {
  py::array_t<T> a(std::vector<py::ssize_t>{});
  *a.mutable_data() = v;
  return a;
}

/// Fills the triangle opposite `uplo` of a square matrix from the `uplo` one (conjugated when hermitian),
/// so a new result holds the full symmetric/Hermitian matrix.
template <class T>
void mirror(trncore::MatrixView<T> c, Uplo uplo, bool hermitian) {
  const std::int64_t n = c.rows();
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = i + 1; j < n; ++j) {
      T& up = c(i, j);
      T& lo = c(j, i);
      T& dst = uplo == Uplo::upper ? lo : up;
      const T src = uplo == Uplo::upper ? up : lo;
      if constexpr (is_complex<T>)
        dst = hermitian ? std::conj(src) : src;
      else
        dst = src;
    }
  }
}

/// Options from the keywords left after the routine's own (out=, report=).
inline trncore::Options options_of(py::dict kw, std::string_view fn) {
  return tp::options_from<trncore::Options>(kw, fn);
}

}  // namespace trnblas_python
