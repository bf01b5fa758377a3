// trnsolver's shared Python types (KrylovResult, KrylovOptions, SolveReport, InvSqrtReport, HplMxpResult,
// SpectrumBounds, LinearOperator, LinearOperatorF32), the certified solve() and hpl_mxp().
// trnsparse's bindings import trnsolver and rely on these registrations: keep the Python names stable.
#include "bind.hpp"

#include <trnsolver/dense/inv_sqrt.hpp>
#include <trnsolver/hpl_mxp.hpp>
#include <trnsolver/krylov.hpp>
#include <trnsolver/solve.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <vector>

namespace trnsolver_python {

namespace {

py::array_t<double> to_array(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), sizeof(double) * v.size());
  return a;
}

std::string krylov_repr(const trnsolver::KrylovResult& r) {
  return "KrylovResult(converged=" + std::string(r.converged ? "True" : "False") + ", reason='" +
         std::string(trnsolver::to_string(r.reason)) + "', iterations=" + std::to_string(r.iterations) +
         ", restarts=" + std::to_string(r.restarts) +
         ", relative_residual=" + py::repr(py::float_(r.relative_residual)).cast<std::string>() +
         ", stopped_by_monitor=" + (r.stopped_by_monitor ? "True" : "False") +
         (r.detail.empty() ? "" : ", detail='" + r.detail + "'") + ")";
}

/// y = op(x) on a NumPy vector, GIL released (a Python callback takes it back).
template <class T>
py::array_t<T> apply_operator(const trnsolver::LinearOperator<T>& op, py::handle x, const char* fn) {
  auto xv = tp::in_vector<T>(x, fn, "x");
  if (xv.view.size() != op.size()) {
    tp::mismatch(fn,
                 "x has " + std::to_string(xv.view.size()) + " elements but the operator is " +
                     std::to_string(op.size()) + "×" + std::to_string(op.size()),
                 "pass a vector of the operator's size");
  }
  auto xc = py::array_t<T, py::array::c_style>::ensure(xv.array);
  py::array_t<T> y(static_cast<py::ssize_t>(op.size()));
  const T* xp = xc.data();
  T* yp = y.mutable_data();
  const auto n = static_cast<std::size_t>(op.size());
  tp::released([&] { op(std::span<const T>(xp, n), std::span<T>(yp, n)); });
  return y;
}

template <class T>
void bind_linear_operator(py::module_& m, const char* name, const char* dtype_name) {
  using Op = trnsolver::LinearOperator<T>;
  const std::string doc =
      std::string("A square linear operator y = A x on ") + dtype_name +
      " vectors (trnsolver::LinearOperator). Built from a dense square matrix (array-like; no copy when the dtype "
      "and strides allow, the array is kept alive), a scipy.sparse matrix (its product A @ x), a "
      "scipy.sparse.linalg.LinearOperator (its matvec), or any Python callable f(x) -> y with n=size given; a Python "
      "callable is invoked with the GIL re-acquired, from the solver's thread. Calling the operator applies it. "
      "Raises trncore.DimensionMismatch for a non-square matrix, trncore.InvalidArgument for a callable without n or "
      "an unusable object.";
  py::class_<Op>(m, name, doc.c_str())
      .def(py::init([name](py::object a, std::optional<std::int64_t> n) {
             const std::string fn = std::string("trnsolver.") + name;
             return operator_of<T>(a, n.value_or(-1), fn, "A", trncore::Options{}).op;
           }),
           py::arg("A"), py::arg("n") = py::none())
      .def_property_readonly("size", &Op::size, "Rows (= columns) of the operator.")
      .def_property_readonly("shape", [](const Op& o) { return py::make_tuple(o.size(), o.size()); })
      .def_property_readonly("dtype", [](const Op&) { return py::dtype::of<T>(); })
      .def(
          "__call__", [name](const Op& o, py::handle x) { return apply_operator<T>(o, x, name); }, py::arg("x"),
          "y = A x for a vector x of size() elements.")
      .def(
          "matvec", [name](const Op& o, py::handle x) { return apply_operator<T>(o, x, name); }, py::arg("x"),
          "y = A x (scipy.sparse.linalg.LinearOperator spelling).")
      .def("__repr__", [name](const Op& o) {
        return std::string(name) + "(size=" + std::to_string(o.size()) + ", dtype=" + tp::detail::dtype_name<T>() + ")";
      });
}

/// An operator of one precision wrapped to take vectors of the other (one conversion each way per product).
template <class T, class U>
trnsolver::LinearOperator<T> converted(const trnsolver::LinearOperator<U>& inner) {
  const std::int64_t n = inner.size();
  return trnsolver::LinearOperator<T>(n, [inner, n](std::span<const T> x, std::span<T> y) {
    std::vector<U> xu(x.begin(), x.end()), yu(static_cast<std::size_t>(n));
    inner(std::span<const U>(xu), std::span<U>(yu));
    for (std::size_t i = 0; i < yu.size(); ++i) y[i] = static_cast<T>(yu[i]);
  });
}

py::object scipy_sparse_issparse() {
  try {
    return py::module_::import("scipy.sparse").attr("issparse");
  } catch (py::error_already_set&) {
    return py::none();
  }
}

std::int64_t square_size(py::handle obj, std::string_view fn, std::string_view name) {
  py::tuple shape = obj.attr("shape");
  if (shape.size() != 2 || shape[0].cast<std::int64_t>() != shape[1].cast<std::int64_t>()) {
    tp::mismatch(fn, std::string(name) + " has shape " + py::str(shape).cast<std::string>() + ", not square",
                 "pass a square operator");
  }
  return shape[0].cast<std::int64_t>();
}

}  // namespace

template <class T>
Operator<T> operator_of(py::handle obj, std::int64_t n_hint, std::string_view fn, std::string_view name,
                        const trncore::Options& options) {
  using Other = std::conditional_t<std::is_same_v<T, double>, float, double>;
  if (py::isinstance<trnsolver::LinearOperator<T>>(obj)) return {obj.cast<trnsolver::LinearOperator<T>>(), {}};
  if (py::isinstance<trnsolver::LinearOperator<Other>>(obj)) {
    return {converted<T, Other>(obj.cast<trnsolver::LinearOperator<Other>>()), {}};
  }
  const std::string f(fn);
  if (py::hasattr(obj, "matvec") && py::hasattr(obj, "shape")) {
    const auto n = square_size(obj, fn, name);
    return {callable_operator<T>(obj.attr("matvec"), n, f), {}};
  }
  py::object issparse = scipy_sparse_issparse();
  if (!issparse.is_none() && py::bool_(issparse(obj))) {
    const auto n = square_size(obj, fn, name);
    return {callable_operator<T>(obj.attr("dot"), n, f), {}};
  }
  if (PyCallable_Check(obj.ptr()) && !py::isinstance<py::array>(obj)) {
    if (n_hint < 0) {
      tp::invalid(fn, std::string(name) + " is a callable but its size is unknown",
                  "pass n=<size>, or wrap it: trnsolver.LinearOperator(f, n)");
    }
    return {callable_operator<T>(py::reinterpret_borrow<py::object>(obj), n_hint, f), {}};
  }
  auto in = tp::in_matrix<T>(obj, fn, name);
  if (in.view.rows() != in.view.cols()) {
    tp::mismatch(fn,
                 std::string(name) + " is " + std::to_string(in.view.rows()) + "×" + std::to_string(in.view.cols()) +
                     ", not square",
                 "pass a square matrix");
  }
  if (n_hint >= 0 && n_hint != in.view.rows()) {
    tp::mismatch(fn,
                 "n=" + std::to_string(n_hint) + " but " + std::string(name) + " is " + std::to_string(in.view.rows()) +
                     "×" + std::to_string(in.view.rows()),
                 "omit n for a matrix");
  }
  auto inner = trnsolver::matrix_operator(in.view, options);
  // The operator refers to the array's memory: keep the array alive as long as any copy of the operator.
  return {trnsolver::LinearOperator<T>(
              inner.size(), [inner, keep = hold(in.array)](std::span<const T> x, std::span<T> y) { inner(x, y); }),
          {}};
}

template Operator<double> operator_of<double>(py::handle, std::int64_t, std::string_view, std::string_view,
                                              const trncore::Options&);
template Operator<float> operator_of<float>(py::handle, std::int64_t, std::string_view, std::string_view,
                                            const trncore::Options&);

tp::Kind real_kind(const py::array& a, std::string_view fn, std::string_view name) {
  const auto k = tp::kind_of(a, fn, name);
  if (k == tp::Kind::c64 || k == tp::Kind::c128) {
    tp::invalid(fn, std::string(name) + " has dtype " + tp::detail::dtype_text(a) + " but trnsolver is real",
                "pass float32 or float64 data (trnsolver's routines have no complex forms)");
  }
  return k;
}

tp::Kind operator_kind(py::handle obj, std::string_view fn, std::string_view name) {
  if (py::isinstance<trnsolver::LinearOperator<float>>(obj)) return tp::Kind::f32;
  if (py::isinstance<trnsolver::LinearOperator<double>>(obj)) return tp::Kind::f64;
  if (py::hasattr(obj, "dtype") && py::hasattr(obj, "shape") && !py::isinstance<py::array>(obj)) {
    const py::dtype dt = py::dtype::from_args(obj.attr("dtype"));
    if (dt.kind() == 'c') {
      tp::invalid(fn, std::string(name) + " is complex but trnsolver is real", "pass a real operator");
    }
    return dt.kind() == 'f' && dt.itemsize() == 4 ? tp::Kind::f32 : tp::Kind::f64;
  }
  if (PyCallable_Check(obj.ptr()) && !py::isinstance<py::array>(obj)) return tp::Kind::f32;  // follows b
  return real_kind(tp::as_ndarray(obj, fn, name), fn, name);
}

trnsolver::Uplo parse_uplo(const std::string& text, std::string_view fn) {
  if (text == "lower" || text == "L" || text == "l") return trnsolver::Uplo::lower;
  if (text == "upper" || text == "U" || text == "u") return trnsolver::Uplo::upper;
  tp::invalid(fn, "uplo='" + text + "'", "use 'lower' ('L') or 'upper' ('U')");
}

trnsolver::KrylovOptions pop_krylov_options(py::dict& kw, std::string_view fn) {
  trnsolver::KrylovOptions o;
  if (kw.contains("options") && py::isinstance<trnsolver::KrylovOptions>(kw["options"])) {
    o = kw["options"].cast<trnsolver::KrylovOptions>();
    PyDict_DelItemString(kw.ptr(), "options");
  }
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<double>(kw, "rtol", fn)) o.rtol = *v;
  if (auto v = tp::pop<double>(kw, "atol", fn)) o.atol = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "max_iterations", fn)) o.max_iterations = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "restart", fn)) o.restart = *v;
  if (auto v = tp::pop<std::string>(kw, "orthogonalization", fn)) {
    o.orthogonalization = trnsolver::parse_orthogonalization(*v);
  }
  if (auto v = tp::pop<std::int64_t>(kw, "stagnation_window", fn)) o.stagnation_window = *v;
  return o;
}

namespace {

trnsolver::SolveOptions solve_options(py::dict& kw, std::string_view fn) {
  trnsolver::SolveOptions o;
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<std::string>(kw, "refinement", fn)) o.refinement = trnsolver::parse_refinement(*v);
  if (auto v = tp::pop<std::string>(kw, "factor", fn)) o.factor = trnsolver::parse_factor_precision(*v);
  if (auto v = tp::pop<std::string>(kw, "residual", fn)) o.residual = trnsolver::parse_residual_precision(*v);
  if (auto v = tp::pop<int>(kw, "max_refinements", fn)) o.max_refinements = *v;
  if (auto v = tp::pop<int>(kw, "max_gmres_iterations", fn)) o.max_gmres_iterations = *v;
  if (auto v = tp::pop<bool>(kw, "pivoting", fn)) o.pivoting = *v;
  if (auto v = tp::pop<bool>(kw, "fallback", fn)) o.fallback = *v;
  if (auto v = tp::pop<bool>(kw, "error_bounds", fn)) o.error_bounds = *v;
  return o;
}

/// B as a double matrix view in `layout` (np.asarray with that order: no copy when it already fits).
tp::InMatrix<double> matrix_in_layout(py::handle obj, trncore::Layout layout, std::string_view fn,
                                      std::string_view name) {
  py::array a = tp::as_ndarray(obj, fn, name);
  a = tp::as_dtype<double>(a, fn, name);
  const bool row = layout == trncore::Layout::row_major;
  auto c = py::array_t<double>(py::module_::import("numpy").attr("asarray")(a, py::arg("order") = row ? "C" : "F"));
  const std::int64_t rows = c.shape(0), cols = c.shape(1);
  const std::int64_t ld = std::max<std::int64_t>(1, row ? cols : rows);
  return {c, trncore::MatrixView<const double>(c.data(), rows, cols, ld, layout)};
}

py::object solve_py(py::handle a_obj, py::handle b_obj, py::kwargs kwargs) {
  constexpr const char* fn = "trnsolver.solve";
  py::dict kw = kwargs;
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto options = solve_options(kw, fn);
  tp::reject_unknown(kw, fn);
  py::array a_arr = tp::as_ndarray(a_obj, fn, "A");
  py::array b_arr = tp::as_ndarray(b_obj, fn, "B");
  real_kind(a_arr, fn, "A");
  real_kind(b_arr, fn, "B");
  auto a = tp::in_matrix<double>(a_arr, fn, "A");
  if (a.view.rows() != a.view.cols()) {
    tp::mismatch(fn, "A is " + std::to_string(a.view.rows()) + "×" + std::to_string(a.view.cols()) + ", not square",
                 "pass a square matrix (lstsq solves rectangular systems)");
  }
  const std::int64_t n = a.view.rows();
  const auto layout = a.view.layout();
  const bool vector = b_arr.ndim() == 1;
  if (b_arr.ndim() != 1 && b_arr.ndim() != 2) {
    tp::mismatch(fn, "B must be 1-D or 2-D, got shape " + tp::detail::shape_text(b_arr), "pass b (n,) or B (n, k)");
  }
  py::array b2 = vector ? py::array(b_arr.attr("reshape")(-1, 1)) : b_arr;
  auto b = matrix_in_layout(b2, layout, fn, "B");
  if (b.view.rows() != n) {
    tp::mismatch(
        fn,
        "A is " + std::to_string(n) + "×" + std::to_string(n) + " but B has " + std::to_string(b.view.rows()) + " rows",
        "pass B with A's number of rows");
  }
  const std::int64_t nrhs = b.view.cols();
  auto x = tp::new_matrix<double>(n, nrhs, layout);
  trnsolver::SolveReport report;
  const double* ap = a.view.data();
  const double* bp = b.view.data();
  double* xp = x.view.data();
  const auto lda = a.view.ld(), ldb = b.view.ld(), ldx = x.view.ld();
  if (want) {
    tp::run(options, [&] { trnsolver::solve(layout, n, nrhs, ap, lda, bp, ldb, xp, ldx, options, report); });
  } else {
    tp::run(options, [&] { trnsolver::solve(layout, n, nrhs, ap, lda, bp, ldb, xp, ldx, options); });
  }
  py::object result = vector ? py::object(x.array.attr("reshape")(-1)) : py::object(x.array);
  return tp::with_report(result, report, want);
}

trnsolver::HplMxpResult hpl_mxp_py(std::int64_t n, py::kwargs kwargs) {
  constexpr const char* fn = "trnsolver.hpl_mxp";
  py::dict kw = kwargs;
  trnsolver::HplMxpOptions o;
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<std::string>(kw, "factor", fn)) o.factor = trnsolver::parse_factor_precision(*v);
  tp::reject_unknown(kw, fn);
  o.n = n;
  return tp::run(o, [&] { return trnsolver::hpl_mxp(o); });
}

}  // namespace

void bind_types(py::module_& m) {
  py::class_<trnsolver::KrylovResult>(
      m, "KrylovResult",
      "What a Krylov solver did (trnsolver::KrylovResult): converged (the TRUE residual met max(rtol·‖b‖, atol)), "
      "reason ('converged', 'max_iterations', 'breakdown', 'stagnation', 'non_finite', 'stopped_by_monitor'), "
      "iterations, restarts, relative_residual (true ‖b − Ax‖/‖b‖), residual_history, true_residual_history "
      "(bf16 variants), detail, stopped_by_monitor.")
      .def_readonly("converged", &trnsolver::KrylovResult::converged)
      .def_property_readonly(
          "reason", [](const trnsolver::KrylovResult& r) { return std::string(trnsolver::to_string(r.reason)); })
      .def_readonly("iterations", &trnsolver::KrylovResult::iterations)
      .def_readonly("restarts", &trnsolver::KrylovResult::restarts)
      .def_readonly("relative_residual", &trnsolver::KrylovResult::relative_residual)
      .def_property_readonly("residual_history",
                             [](const trnsolver::KrylovResult& r) { return to_array(r.residual_history); })
      .def_property_readonly("true_residual_history",
                             [](const trnsolver::KrylovResult& r) { return to_array(r.true_residual_history); })
      .def_readonly("detail", &trnsolver::KrylovResult::detail)
      .def_readonly("stopped_by_monitor", &trnsolver::KrylovResult::stopped_by_monitor)
      .def("__repr__", &krylov_repr);

  py::class_<trnsolver::KrylovOptions, trncore::Options>(
      m, "KrylovOptions",
      "Options of every iterative solver (trnsolver::KrylovOptions): KrylovOptions(rtol=1e-8, atol=0, "
      "max_iterations=0 (= 10·n), restart=30, orthogonalization='mgs'|'cgs2', stagnation_window=100, plus the "
      "trncore.Options keywords: threads, monitor, rounding, seed, ...). Pass as options= to cg, gmres, ... "
      "(trnsparse's solvers take it too); keywords given beside it override its fields.")
      .def(py::init([](py::kwargs kwargs) {
        py::dict kw = kwargs;
        auto o = pop_krylov_options(kw, "trnsolver.KrylovOptions");
        tp::reject_unknown(kw, "trnsolver.KrylovOptions");
        return o;
      }))
      .def_readonly("rtol", &trnsolver::KrylovOptions::rtol)
      .def_readonly("atol", &trnsolver::KrylovOptions::atol)
      .def_readonly("max_iterations", &trnsolver::KrylovOptions::max_iterations)
      .def_readonly("restart", &trnsolver::KrylovOptions::restart)
      .def_property_readonly(
          "orthogonalization",
          [](const trnsolver::KrylovOptions& o) { return std::string(trnsolver::to_string(o.orthogonalization)); })
      .def_readonly("stagnation_window", &trnsolver::KrylovOptions::stagnation_window)
      .def("__repr__", [](const trnsolver::KrylovOptions& o) {
        return "KrylovOptions(rtol=" + py::repr(py::float_(o.rtol)).cast<std::string>() +
               ", atol=" + py::repr(py::float_(o.atol)).cast<std::string>() +
               ", max_iterations=" + std::to_string(o.max_iterations) + ", restart=" + std::to_string(o.restart) +
               ", orthogonalization='" + std::string(trnsolver::to_string(o.orthogonalization)) +
               "', stagnation_window=" + std::to_string(o.stagnation_window) + ", " + trncore::to_string(o) + ")";
      });

  py::class_<trnsolver::SpectrumBounds>(m, "SpectrumBounds",
                                        "[lambda_min, lambda_max] holding a symmetric operator's spectrum "
                                        "(lanczos_bounds), and the Lanczos steps taken.")
      .def(py::init([](double lo, double hi) {
             return trnsolver::SpectrumBounds{lo, hi, 0};
           }),
           py::arg("lambda_min"), py::arg("lambda_max"))
      .def_readonly("lambda_min", &trnsolver::SpectrumBounds::lambda_min)
      .def_readonly("lambda_max", &trnsolver::SpectrumBounds::lambda_max)
      .def_readonly("steps", &trnsolver::SpectrumBounds::steps)
      .def("__iter__",
           [](const trnsolver::SpectrumBounds& b) { return py::iter(py::make_tuple(b.lambda_min, b.lambda_max)); })
      .def("__repr__", [](const trnsolver::SpectrumBounds& b) {
        return "SpectrumBounds(lambda_min=" + py::repr(py::float_(b.lambda_min)).cast<std::string>() +
               ", lambda_max=" + py::repr(py::float_(b.lambda_max)).cast<std::string>() +
               ", steps=" + std::to_string(b.steps) + ")";
      });

  py::class_<trnsolver::SolveReport, trncore::AccuracyReport>(
      m, "SolveReport",
      "What solve() did and certifies (trnsolver::SolveReport). Bounds are relative to the computed x̂ "
      "(‖x̂ − x‖∞/‖x̂‖∞, worst column); a_priori_bound is the bound relative to the exact x, the measure of "
      "target_forward_error; met = certified and (no target or bound ≤ target).")
      .def_readonly("forward_error_bound_normwise", &trnsolver::SolveReport::forward_error_bound_normwise)
      .def_readonly("forward_error_bound_componentwise", &trnsolver::SolveReport::forward_error_bound_componentwise)
      .def_readonly("forward_error_estimate", &trnsolver::SolveReport::forward_error_estimate)
      .def_readonly("condition_estimate", &trnsolver::SolveReport::condition_estimate)
      .def_readonly("backward_error_normwise", &trnsolver::SolveReport::backward_error_normwise)
      .def_readonly("backward_error_componentwise", &trnsolver::SolveReport::backward_error_componentwise)
      .def_property_readonly(
          "refinement", [](const trnsolver::SolveReport& r) { return std::string(trnsolver::to_string(r.refinement)); })
      .def_property_readonly(
          "factor", [](const trnsolver::SolveReport& r) { return std::string(trnsolver::to_string(r.factor)); })
      .def_property_readonly(
          "residual", [](const trnsolver::SolveReport& r) { return std::string(trnsolver::to_string(r.residual)); })
      .def_readonly("refinements", &trnsolver::SolveReport::refinements)
      .def_readonly("gmres_iterations", &trnsolver::SolveReport::gmres_iterations)
      .def_readonly("fallbacks", &trnsolver::SolveReport::fallbacks)
      .def_readonly("converged", &trnsolver::SolveReport::converged)
      .def_readonly("info", &trnsolver::SolveReport::info)
      .def("__repr__", &trnsolver::SolveReport::to_string);

  py::class_<trnsolver::InvSqrtReport, trncore::AccuracyReport>(
      m, "InvSqrtReport",
      "What inv_sqrt_spd did (trnsolver::InvSqrtReport): info (0; i ≤ n: leading minor i not positive definite; "
      "n + 1: syevd failed or an eigenvalue ≤ 0), residual = ‖XAX − I‖_F/√n measured (not a bound: certified is "
      "False), converged, iterations (Newton–Schulz).")
      .def_readonly("info", &trnsolver::InvSqrtReport::info)
      .def_readonly("residual", &trnsolver::InvSqrtReport::residual)
      .def_readonly("converged", &trnsolver::InvSqrtReport::converged)
      .def("__repr__", [](const trnsolver::InvSqrtReport& r) {
        return "InvSqrtReport(info=" + std::to_string(r.info) +
               ", residual=" + py::repr(py::float_(r.residual)).cast<std::string>() +
               ", converged=" + (r.converged ? "True" : "False") + ")\n" + r.to_string();
      });

  py::class_<trnsolver::HplMxpResult>(
      m, "HplMxpResult",
      "One HPL-MxP run (trnsolver::HplMxpResult): n, seconds, gflops, scaled_residual = ‖Ax − b‖∞/((‖A‖‖x‖ + "
      "‖b‖)·n·ε), passed (≤ 16), report (solve()'s SolveReport, uncertified under the benchmark's rules).")
      .def_readonly("n", &trnsolver::HplMxpResult::n)
      .def_readonly("seconds", &trnsolver::HplMxpResult::seconds)
      .def_readonly("gflops", &trnsolver::HplMxpResult::gflops)
      .def_readonly("scaled_residual", &trnsolver::HplMxpResult::scaled_residual)
      .def_readonly("passed", &trnsolver::HplMxpResult::passed)
      .def_readonly("report", &trnsolver::HplMxpResult::report)
      .def("__repr__", &trnsolver::HplMxpResult::to_string);

  bind_linear_operator<double>(m, "LinearOperator", "float64");
  bind_linear_operator<float>(m, "LinearOperatorF32", "float32");

  m.def("solve", &solve_py, py::arg("A"), py::arg("B"),
        R"(X = A⁻¹B for square A (n×n) and B (n,) or (n, k), certified to target_forward_error
(trnsolver::solve: LU-IR / GMRES-IR / fp64 LU chosen from a condition estimate, Carson & Higham 2018).

Upstream trnsolver.solve(A, B) -> X; trnsci adds the certificate. Data are float64 (float32/int input is
converted; complex is InvalidArgument: the C++ routine is real double).
Keywords: report=False (True returns (X, SolveReport)), target_forward_error (normwise ‖x̂ − x‖∞/‖x‖∞ in
(0, 1)), refinement ('automatic', 'fp64_lu', 'lu_ir', 'gmres_ir'), factor ('fp64', 'fp32', 'bf16' — bf16
on backend='sim' only), residual ('fp64', 'double_double'), max_refinements=30, max_gmres_iterations=100,
pivoting=True, fallback=True, error_bounds=True, backend ('host'|'sim'), threads, monitor (called once per
refinement step; True stops), options=trncore.Options(...).
Without report=True, raises trncore.TargetNotMet whenever report.met would be False (singular A, no
convergence, uncertified, or bound above the target), like the C++ no-report overload.
Accuracy: report.forward_error_bound_normwise bounds ‖x̂ − x‖∞/‖x̂‖∞ (residual bound through the LU's
inverse, Higham's estimator ×3); a_priori_bound = β/(1 − β) bounds it relative to x.
Raises trncore.DimensionMismatch (shapes), InvalidArgument (non-finite entries, bad options), ParseError
(unknown strategy names).)");
  m.def("hpl_mxp", &hpl_mxp_py, py::arg("n") = 4000,
        R"(The HPL-MxP benchmark (trnsolver::hpl_mxp): generates the diagonally dominant system of order n (seed
keyword, 42 by default), solves it with a low-precision LU without pivoting + GMRES-IR (fp64 residual) and
checks HPL's scaled residual. Keywords: factor ('fp32' host or sim, 'bf16' sim only), backend ('host'|'sim'),
mode (the sim GEMMs' math mode), threads, seed, monitor. Returns HplMxpResult (passed = scaled residual ≤ 16).
Raises trncore.InvalidArgument for n < 1 or bf16 on the host; NotSupported for target_forward_error.)");
}

}  // namespace trnsolver_python
