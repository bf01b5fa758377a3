#pragma once
// Shared declarations of the trnsolver extension's translation units: the bind_<family> functions and the
// glue every family uses (keyword parsing, GIL-safe Python callbacks, LinearOperator conversion).
#include <trnsci_python/bindings.hpp>

#include <trnsolver/dense/types.hpp>
#include <trnsolver/krylov.hpp>

#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace trnsolver_python {

namespace py = pybind11;
namespace tp = trnsci_python;

void bind_types(py::module_& m);       // types.cpp: reports, results, options, LinearOperator; solve, hpl_mxp
void bind_dense(py::module_& m);       // dense.cpp: factorizations and drivers
void bind_krylov(py::module_& m);      // krylov.cpp: Krylov solvers, preconditioners, spectrum
void bind_randomized(py::module_& m);  // randomized.cpp: rsvd, Nyström, range finder, sketches, lstsq_sketched

using tp::hold;
using tp::PyRef;

/// An owned DenseMatrix as a NumPy array without a copy (its vector moves into the array, ld kept).
template <class T>
py::array_t<T> to_numpy(trnsolver::DenseMatrix<T>&& m) {
  const std::int64_t ld = m.ld();
  return tp::adopt(
      std::move(m.data), {m.rows, m.cols},
      m.layout == trncore::Layout::row_major ? std::vector<std::int64_t>{ld, 1} : std::vector<std::int64_t>{1, ld});
}

/// A LinearOperator<T> plus whatever keeps its storage alive (a converted dense matrix).
template <class T>
struct Operator {
  trnsolver::LinearOperator<T> op;
  py::object keep;
};

/// The operator of a Python callable f(x) -> y (x a fresh float array of n elements); called with the GIL.
template <class T>
trnsolver::LinearOperator<T> callable_operator(py::object f, std::int64_t n, std::string fn) {
  return trnsolver::LinearOperator<T>(n, [ref = hold(std::move(f)), n, fn](std::span<const T> x, std::span<T> y) {
    py::gil_scoped_acquire gil;
    py::array_t<T> xa(static_cast<py::ssize_t>(n));
    if (n > 0) std::memcpy(xa.mutable_data(), x.data(), sizeof(T) * static_cast<std::size_t>(n));
    py::object r = (*ref)(xa);
    py::array ra = tp::as_ndarray(r, fn, "the operator's result");
    auto typed = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(ra);
    if (!typed || typed.size() != n || (typed.ndim() != 1 && !(typed.ndim() == 2 && typed.shape(1) == 1))) {
      tp::mismatch(fn,
                   "the operator returned an array of shape " + tp::detail::shape_text(ra) + " for a vector of " +
                       std::to_string(n) + " elements",
                   "return an array of shape (n,)");
    }
    if (n > 0) std::memcpy(y.data(), typed.data(), sizeof(T) * static_cast<std::size_t>(n));
  });
}

/// obj as an operator of element type T:
/// - trnsolver.LinearOperator (float64) / LinearOperatorF32: used as is (the other precision through a
///   converting wrapper);
/// - an object with .matvec and .shape (scipy.sparse.linalg.LinearOperator) or a scipy.sparse matrix
///   (has .tocsr and .shape): its matvec / product, called with the GIL;
/// - any other callable: f(x) -> y, n from n_hint (required);
/// - anything array-like: a dense square matrix (trnsolver::matrix_operator with `options`).
template <class T>
Operator<T> operator_of(py::handle obj, std::int64_t n_hint, std::string_view fn, std::string_view name,
                        const trncore::Options& options);

/// The kind (f32/f64) an operator-like object computes in: float32 for LinearOperatorF32 and float32
/// arrays, float64 otherwise (callables, scipy objects of other dtypes). Complex → InvalidArgument.
tp::Kind operator_kind(py::handle obj, std::string_view fn, std::string_view name);

/// KrylovOptions from keywords: options=KrylovOptions(...) or trncore.Options(...) first, then the base
/// keywords (backend, threads, monitor, ...) and the C++ fields rtol, atol, max_iterations, restart,
/// orthogonalization ("mgs"/"cgs2"), stagnation_window. Leaves other keys in kw.
trnsolver::KrylovOptions pop_krylov_options(py::dict& kw, std::string_view fn);

/// "lower"/"L" → lower, "upper"/"U" → upper.
trnsolver::Uplo parse_uplo(const std::string& text, std::string_view fn);

/// Real dispatch kind of an array: f32 or f64; complex → InvalidArgument naming the real dtypes.
tp::Kind real_kind(const py::array& a, std::string_view fn, std::string_view name);

}  // namespace trnsolver_python
