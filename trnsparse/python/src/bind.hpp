#pragma once
// Shared glue of the trnsparse extension: Python format objects (trnsparse/formats.py) <-> trnsparse::Csr /
// Coo / Csc / Bsr with int64 indices, vectors handed to NumPy without a copy, and the dtype dispatch.
#include <trnsci_python/bindings.hpp>

#include <trnsparse/formats.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trnsparse_python {

namespace py = pybind11;
namespace tp = trnsci_python;
using Index = std::int64_t;

/// A std::vector moved into a NumPy array of the given shape that owns it (no copy).
template <class V>
py::array vector_to_numpy(std::vector<V>&& v, std::vector<std::int64_t> shape = {}) {
  if (shape.empty()) shape.push_back(static_cast<std::int64_t>(v.size()));
  return tp::adopt(std::move(v), shape);
}

inline py::module_ formats_module() { return py::module_::import("trnsparse.formats"); }

/// The value kind of a sparse matrix's values (or blocks): f32 or f64; complex is refused (trnsparse is real).
inline tp::Kind value_kind(const py::handle& values, std::string_view fn) {
  py::array a = tp::as_ndarray(values, fn, "A.values");
  const tp::Kind k = tp::kind_of(a, fn, "A.values");
  if (k == tp::Kind::c64 || k == tp::Kind::c128) {
    tp::invalid(fn, "A has complex values (" + py::str(a.dtype()).cast<std::string>() + ")",
                "trnsparse is real: use float32 or float64 values");
  }
  return k;
}

/// A 1-D integer array as a vector of int64 (copied: the C++ formats own their vectors).
inline std::vector<Index> index_vector(const py::handle& obj, std::string_view fn, const std::string& name) {
  py::array a = tp::as_ndarray(obj, fn, name);
  if (a.ndim() != 1) {
    tp::mismatch(fn, name + " must be 1-D, got " + std::to_string(a.ndim()) + "-D", "pass a 1-D integer array");
  }
  const char k = a.dtype().kind();
  if (!(k == 'i' || k == 'u') && a.size() > 0) {
    tp::invalid(fn, name + " has dtype " + py::str(a.dtype()).cast<std::string>() + ", not an integer type",
                "pass int32 or int64 indices (e.g. x.astype(numpy.int64))");
  }
  if (k == 'u' && a.itemsize() == 8 && a.size() > 0) {
    // uint64 above int64's max would wrap to a negative index that validate then names; no silent wrap.
    auto big = py::module_::import("numpy").attr("any")(a.attr("__gt__")(py::int_(INT64_MAX)));
    if (big.cast<bool>()) tp::invalid(fn, name + " holds an index above 2^63 - 1", "indices must fit int64");
  }
  auto c = py::array_t<Index, py::array::c_style | py::array::forcecast>::ensure(a);
  return std::vector<Index>(c.data(), c.data() + c.size());
}

template <class T>
std::vector<T> value_vector(const py::handle& obj, std::string_view fn, const std::string& name, py::ssize_t ndim = 1) {
  py::array a = tp::as_ndarray(obj, fn, name);
  if (a.ndim() != ndim) {
    tp::mismatch(fn, name + " must be " + std::to_string(ndim) + "-D, got shape " + tp::detail::shape_text(a),
                 ndim == 1 ? "pass a 1-D array of the stored values" : "pass blocks shaped (n_blocks, R, C)");
  }
  auto typed = tp::as_dtype<T>(a, fn, name);
  auto c = py::array_t<T, py::array::c_style>::ensure(typed);
  return std::vector<T>(c.data(), c.data() + c.size());
}

inline std::pair<std::int64_t, std::int64_t> shape_of(const py::handle& A, std::string_view fn) {
  try {
    auto t = A.attr("shape").cast<std::pair<std::int64_t, std::int64_t>>();
    return t;
  } catch (const py::error_already_set&) {
  } catch (const py::cast_error&) {}
  tp::invalid(fn, "A.shape is not a pair of integers", "pass (rows, cols)");
}

inline py::object get_attr(const py::handle& A, const char* attr, std::string_view fn, const char* kind) {
  if (!py::hasattr(A, attr)) {
    tp::invalid(fn,
                std::string("A (") + py::str(py::type::of(A).attr("__name__")).cast<std::string>() + ") is not a " +
                    kind + " matrix (no attribute '" + attr + "')",
                std::string("pass a trnsparse.") + kind + "Matrix or a scipy.sparse matrix");
  }
  return A.attr(attr);
}

/// CSRMatrix (or anything trnsparse.formats.as_csr converts: scipy.sparse, COO, CSC, BSR) → Csr<T, int64>.
template <class T>
trnsparse::Csr<T, Index> csr_in(py::handle obj, std::string_view fn) {
  py::object A = formats_module().attr("as_csr")(obj);
  trnsparse::Csr<T, Index> c;
  (void)get_attr(A, "row_ptrs", fn, "CSR");
  auto [r, cl] = shape_of(A, fn);
  c.rows = r;
  c.cols = cl;
  c.indptr = index_vector(get_attr(A, "row_ptrs", fn, "CSR"), fn, "A.row_ptrs");
  c.indices = index_vector(get_attr(A, "col_indices", fn, "CSR"), fn, "A.col_indices");
  c.values = value_vector<T>(get_attr(A, "values", fn, "CSR"), fn, "A.values");
  return c;
}

/// The kind a CSR-like argument computes in (after as_csr).
inline tp::Kind csr_kind(py::handle obj, std::string_view fn) {
  py::object A = formats_module().attr("as_csr")(obj);
  return value_kind(get_attr(A, "values", fn, "CSR"), fn);
}

template <class T>
trnsparse::Coo<T, Index> coo_in(py::handle A, std::string_view fn) {
  trnsparse::Coo<T, Index> c;
  auto [r, cl] = shape_of(A, fn);
  c.rows = r;
  c.cols = cl;
  c.row = index_vector(get_attr(A, "row_indices", fn, "COO"), fn, "A.row_indices");
  c.col = index_vector(get_attr(A, "col_indices", fn, "COO"), fn, "A.col_indices");
  c.values = value_vector<T>(get_attr(A, "values", fn, "COO"), fn, "A.values");
  return c;
}

template <class T>
trnsparse::Csc<T, Index> csc_in(py::handle A, std::string_view fn) {
  trnsparse::Csc<T, Index> c;
  auto [r, cl] = shape_of(A, fn);
  c.rows = r;
  c.cols = cl;
  c.indptr = index_vector(get_attr(A, "col_ptrs", fn, "CSC"), fn, "A.col_ptrs");
  c.indices = index_vector(get_attr(A, "row_indices", fn, "CSC"), fn, "A.row_indices");
  c.values = value_vector<T>(get_attr(A, "values", fn, "CSC"), fn, "A.values");
  return c;
}

/// (R, C) from a block_size attribute or argument: an int (square) or a pair.
inline std::pair<std::int64_t, std::int64_t> block_size_of(const py::handle& b, std::string_view fn) {
  try {
    if (py::isinstance<py::int_>(b) || (py::hasattr(b, "__index__") && !py::isinstance<py::array>(b))) {
      const auto v = py::reinterpret_borrow<py::object>(b).cast<std::int64_t>();
      return std::pair<std::int64_t, std::int64_t>{v, v};
    }
    return b.cast<std::pair<std::int64_t, std::int64_t>>();
  } catch (const py::cast_error&) {
  } catch (const py::error_already_set&) {}
  tp::invalid(fn, "block_size " + py::repr(b).cast<std::string>() + " is neither an int nor a pair",
              "pass block_size=128 or block_size=(R, C)");
}

/// BSRMatrix → Bsr<T, int64>; blocks must be (n_blocks, R, C) matching block_size.
template <class T>
trnsparse::Bsr<T, Index> bsr_in(py::handle A, std::string_view fn) {
  trnsparse::Bsr<T, Index> b;
  auto [r, cl] = shape_of(A, fn);
  b.rows = r;
  b.cols = cl;
  auto [br, bc] = block_size_of(get_attr(A, "block_size", fn, "BSR"), fn);
  b.block_rows = br;
  b.block_cols = bc;
  py::array blocks = tp::as_ndarray(get_attr(A, "blocks", fn, "BSR"), fn, "A.blocks");
  if (blocks.ndim() != 3 || blocks.shape(1) != br || blocks.shape(2) != bc) {
    tp::mismatch(fn,
                 "A.blocks has shape " + tp::detail::shape_text(blocks) + " but block_size is " + std::to_string(br) +
                     "x" + std::to_string(bc),
                 "blocks must be (n_blocks, R, C)");
  }
  b.indptr = index_vector(get_attr(A, "block_row_ptrs", fn, "BSR"), fn, "A.block_row_ptrs");
  b.indices = index_vector(get_attr(A, "block_col_indices", fn, "BSR"), fn, "A.block_col_indices");
  b.values = value_vector<T>(blocks, fn, "A.blocks", 3);
  return b;
}

inline bool is_bsr(py::handle A) { return py::isinstance(A, formats_module().attr("BSRMatrix")); }

template <class T>
py::object csr_out(trnsparse::Csr<T, Index>&& c) {
  const auto shape = py::make_tuple(c.rows, c.cols);
  return formats_module().attr("CSRMatrix")(vector_to_numpy(std::move(c.values)), vector_to_numpy(std::move(c.indices)),
                                            vector_to_numpy(std::move(c.indptr)), shape);
}

template <class T>
py::object coo_out(trnsparse::Coo<T, Index>&& c) {
  const auto shape = py::make_tuple(c.rows, c.cols);
  return formats_module().attr("COOMatrix")(vector_to_numpy(std::move(c.values)), vector_to_numpy(std::move(c.row)),
                                            vector_to_numpy(std::move(c.col)), shape);
}

template <class T>
py::object csc_out(trnsparse::Csc<T, Index>&& c) {
  const auto shape = py::make_tuple(c.rows, c.cols);
  return formats_module().attr("CSCMatrix")(vector_to_numpy(std::move(c.values)), vector_to_numpy(std::move(c.indices)),
                                            vector_to_numpy(std::move(c.indptr)), shape);
}

template <class T>
py::object bsr_out(trnsparse::Bsr<T, Index>&& b) {
  const auto shape = py::make_tuple(b.rows, b.cols);
  const auto nb = static_cast<py::ssize_t>(b.indices.size());
  py::object block_size = b.block_rows == b.block_cols ? py::object(py::int_(b.block_rows))
                                                       : py::object(py::make_tuple(b.block_rows, b.block_cols));
  return formats_module().attr("BSRMatrix")(
      vector_to_numpy(std::move(b.values),
                      {nb, static_cast<py::ssize_t>(b.block_rows), static_cast<py::ssize_t>(b.block_cols)}),
      vector_to_numpy(std::move(b.indices)), vector_to_numpy(std::move(b.indptr)), shape, block_size);
}

/// Dispatches f.template operator()<T>() on f32/f64.
template <class F>
decltype(auto) dispatch_real(tp::Kind k, F&& f) {
  if (k == tp::Kind::f32) return f.template operator()<float>();
  return f.template operator()<double>();
}

/// A real dense matrix input of T (C or F order without a copy, else a C copy), rows-major view required by
/// trnsparse's dense arguments: returns the C-ordered array (copy only if needed).
template <class T>
py::array_t<T, py::array::c_style> c_matrix(py::handle obj, std::string_view fn, const char* name) {
  py::array a = tp::as_ndarray(obj, fn, name);
  if (a.ndim() != 2) {
    tp::mismatch(fn, std::string(name) + " must be 2-D, got shape " + tp::detail::shape_text(a),
                 "pass a matrix (x.reshape(n, 1) for a column)");
  }
  return py::array_t<T, py::array::c_style>::ensure(tp::as_dtype<T>(a, fn, name));
}

template <class T>
py::array_t<T, py::array::c_style> c_vector(py::handle obj, std::string_view fn, const char* name) {
  py::array a = tp::as_ndarray(obj, fn, name);
  if (a.ndim() != 1) {
    tp::mismatch(fn, std::string(name) + " must be 1-D, got shape " + tp::detail::shape_text(a),
                 "pass a 1-D array (x.ravel())");
  }
  return py::array_t<T, py::array::c_style>::ensure(tp::as_dtype<T>(a, fn, name));
}

void bind_formats(py::module_& m);
void bind_ops(py::module_& m);
void bind_solvers(py::module_& m);
void bind_misc(py::module_& m);

}  // namespace trnsparse_python
