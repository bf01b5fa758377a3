// Randomized NLA (<trnsolver/randomized.hpp>, <trnsolver/sketch.hpp>): rsvd, the adaptive range finder,
// Nyström, randomized eigh, trace and diagonal estimators, sketch-and-precondition least squares, sketches.
// A is a dense matrix (float32/float64; backend="sim" for the products on the TensorEngine model) or a
// scipy.sparse matrix / scipy.sparse.linalg.LinearOperator (block products called with the GIL).
#include "bind.hpp"

#include <trnsolver/randomized.hpp>
#include <trnsolver/sketch.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <vector>

namespace trnsolver_python {

namespace {

template <class T>
py::array_t<T> vec_to_numpy(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

/// Pops sketch keywords into s: sketch (kind name), seed, stream, nonzeros_per_row.
void pop_sketch(trnsolver::Sketch& s, py::dict& kw, std::string_view fn) {
  if (auto v = tp::pop<std::string>(kw, "sketch", fn)) s.kind = trnsolver::parse_sketch_kind(*v);
  if (auto v = tp::pop<std::uint64_t>(kw, "seed", fn)) s.seed = *v;
  if (auto v = tp::pop<std::uint64_t>(kw, "stream", fn)) s.stream = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "nonzeros_per_row", fn)) s.nonzeros_per_row = *v;
}

bool is_operator_object(py::handle obj) {
  if (py::isinstance<py::array>(obj)) return false;
  if (py::hasattr(obj, "matmat") && py::hasattr(obj, "shape")) return true;
  try {
    return py::bool_(py::module_::import("scipy.sparse").attr("issparse")(obj));
  } catch (py::error_already_set&) {
    return false;
  }
}

/// Y (rows×b, column-major) = f(X) for X (cols×b, column-major) through a Python block product.
template <class T>
typename trnsolver::MatrixOperator<T>::Apply block_callback(PyRef f, std::int64_t in_rows, std::int64_t out_rows,
                                                            std::string fn) {
  return [f, in_rows, out_rows, fn](std::int64_t b, const T* x, T* y) {
    py::gil_scoped_acquire gil;
    py::array_t<T, py::array::f_style> xa({static_cast<py::ssize_t>(in_rows), static_cast<py::ssize_t>(b)});
    std::copy(x, x + in_rows * b, xa.mutable_data());
    py::object r = (*f)(xa);
    py::array ra = py::module_::import("numpy").attr("asarray")(r);
    auto typed = py::array_t<T, py::array::f_style | py::array::forcecast>::ensure(ra);
    if (!typed || typed.ndim() != 2 || typed.shape(0) != out_rows || typed.shape(1) != b) {
      tp::mismatch(fn,
                   "the operator's block product returned shape " + tp::detail::shape_text(ra) + ", expected (" +
                       std::to_string(out_rows) + ", " + std::to_string(b) + ")",
                   "return A @ X for X of shape (cols, b)");
    }
    std::copy(typed.data(), typed.data() + out_rows * b, y);
  };
}

/// A MatrixOperator of a dense array (kept alive in `keep`) or of a scipy object.
template <class T>
trnsolver::MatrixOperator<T> matrix_operator_of(py::handle obj, const trncore::Options& o, std::string_view fn,
                                                py::object& keep) {
  const std::string f(fn);
  if (is_operator_object(obj)) {
    py::tuple shape = obj.attr("shape");
    const auto rows = shape[0].cast<std::int64_t>(), cols = shape[1].cast<std::int64_t>();
    py::object ref = py::reinterpret_borrow<py::object>(obj);
    py::object fwd, bwd;
    if (py::hasattr(obj, "matmat")) {
      fwd = obj.attr("matmat");
      bwd = obj.attr("rmatmat");
    } else {
      fwd = obj.attr("__matmul__");
      bwd = obj.attr("T").attr("__matmul__");
    }
    return trnsolver::MatrixOperator<T>(rows, cols, block_callback<T>(hold(fwd), cols, rows, f),
                                        block_callback<T>(hold(bwd), rows, cols, f));
  }
  auto in = tp::in_matrix<T>(obj, fn, "A");
  keep = in.array;
  return trnsolver::MatrixOperator<T>::dense(in.view, o);
}

bool single(py::handle a, std::string_view fn) {
  if (is_operator_object(a)) {
    const py::dtype dt = py::dtype::from_args(a.attr("dtype"));
    return dt.kind() == 'f' && dt.itemsize() == 4;
  }
  return real_kind(tp::as_ndarray(a, fn, "A"), fn, "A") == tp::Kind::f32;
}

py::dict rsvd_info(std::int64_t rank, double err, std::int64_t matvecs, std::int64_t info, bool stopped,
                   const std::optional<trncore::sim::CostReport>& cost) {
  py::dict d;
  d["rank"] = rank;
  d["error_estimate"] = err;
  d["matvecs"] = matvecs;
  d["info"] = info;
  d["stopped_by_monitor"] = stopped;
  d["cost"] = cost ? py::cast(*cost) : py::none();
  return d;
}

template <class T>
py::object rsvd_t(py::handle a, std::int64_t k, py::dict& kw) {
  constexpr const char* fn = "trnsolver.rsvd";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  trnsolver::RsvdOptions o;
  pop_sketch(o.sketch, kw, fn);
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<std::int64_t>(kw, "oversampling", fn)) o.oversampling = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "power_iterations", fn)) o.power_iterations = *v;
  if (auto v = tp::pop<std::string>(kw, "refine_math_mode", fn)) o.refine_math_mode = trncore::parse_math_mode(*v);
  tp::reject_unknown(kw, fn);
  py::object keep;
  const bool dense = !is_operator_object(a);
  trnsolver::RsvdResult<T> r;
  if (dense) {
    auto in = tp::in_matrix<T>(a, fn, "A");
    r = tp::run(o, [&] { return trnsolver::rsvd<T>(in.view, k, o); });
  } else {
    auto op = matrix_operator_of<T>(a, o, fn, keep);
    r = tp::run(o, [&] { return trnsolver::rsvd<T>(op, k, o); });
  }
  auto res = py::make_tuple(to_numpy(std::move(r.u)), vec_to_numpy(r.s), to_numpy(std::move(r.vt)));
  if (!want) return res;
  return py::make_tuple(res, rsvd_info(r.rank, r.error_estimate, r.matvecs, r.info, r.stopped_by_monitor, r.cost));
}

template <class T>
py::object rsvd_adaptive_t(py::handle a, double tol, py::dict& kw) {
  constexpr const char* fn = "trnsolver.rsvd_adaptive";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  trnsolver::AdaptiveRangeOptions o;
  pop_sketch(o.sketch, kw, fn);
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<std::int64_t>(kw, "block_size", fn)) o.block_size = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "max_rank", fn)) o.max_rank = *v;
  tp::reject_unknown(kw, fn);
  py::object keep;
  trnsolver::RsvdResult<T> r;
  if (!is_operator_object(a)) {
    auto in = tp::in_matrix<T>(a, fn, "A");
    r = tp::run(o, [&] { return trnsolver::rsvd_adaptive<T>(in.view, tol, o); });
  } else {
    auto op = matrix_operator_of<T>(a, o, fn, keep);
    r = tp::run(o, [&] { return trnsolver::rsvd_adaptive<T>(op, tol, o); });
  }
  auto res = py::make_tuple(to_numpy(std::move(r.u)), vec_to_numpy(r.s), to_numpy(std::move(r.vt)));
  if (!want) return res;
  return py::make_tuple(res, rsvd_info(r.rank, r.error_estimate, r.matvecs, r.info, r.stopped_by_monitor, r.cost));
}

template <class T>
py::object low_rank_result(trnsolver::LowRankEigen<T>&& r, bool want) {
  auto res = py::make_tuple(vec_to_numpy(r.w), to_numpy(std::move(r.u)));
  if (!want) return res;
  py::dict d;
  d["rank"] = r.rank;
  d["matvecs"] = r.matvecs;
  d["info"] = r.info;
  d["stopped_by_monitor"] = r.stopped_by_monitor;
  return py::make_tuple(res, d);
}

template <class T>
py::object nystrom_t(py::handle a, std::int64_t rank, py::dict& kw) {
  constexpr const char* fn = "trnsolver.nystrom";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  trnsolver::Sketch s;
  pop_sketch(s, kw, fn);
  trncore::Options o;
  tp::pop_options(o, kw, fn);
  tp::reject_unknown(kw, fn);
  py::object keep;
  auto op = matrix_operator_of<T>(a, o, fn, keep);
  auto r = tp::run(o, [&] { return trnsolver::nystrom<T>(op, rank, s, o); });
  return low_rank_result(std::move(r), want);
}

template <class T>
py::object eigh_randomized_t(py::handle a, std::int64_t k, py::dict& kw) {
  constexpr const char* fn = "trnsolver.eigh_randomized";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  trnsolver::RsvdOptions o;
  pop_sketch(o.sketch, kw, fn);
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<std::int64_t>(kw, "oversampling", fn)) o.oversampling = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "power_iterations", fn)) o.power_iterations = *v;
  tp::reject_unknown(kw, fn);
  py::object keep;
  trnsolver::LowRankEigen<T> r;
  if (!is_operator_object(a)) {
    auto in = tp::in_matrix<T>(a, fn, "A");
    r = tp::run(o, [&] { return trnsolver::eigh_randomized<T>(in.view, k, o); });
  } else {
    auto op = matrix_operator_of<T>(a, o, fn, keep);
    r = tp::run(o, [&] { return trnsolver::eigh_randomized<T>(op, k, o); });
  }
  return low_rank_result(std::move(r), want);
}

enum class Estimator { hutchinson, hutch_plus_plus, diagonal };

template <class T>
py::object estimate_t(py::handle a, std::int64_t matvecs, py::dict& kw, Estimator which, const char* fn) {
  trnsolver::Sketch s{trnsolver::SketchKind::rademacher};
  pop_sketch(s, kw, fn);
  trncore::Options o;
  tp::pop_options(o, kw, fn);
  tp::reject_unknown(kw, fn);
  py::object keep;
  auto op = matrix_operator_of<T>(a, o, fn, keep);
  if (which == Estimator::diagonal) {
    auto d = tp::run(o, [&] { return trnsolver::diagonal_estimate<T>(op, matvecs, s, o); });
    return vec_to_numpy(d);
  }
  auto t = tp::run(o, [&] {
    return which == Estimator::hutchinson ? trnsolver::hutchinson<T>(op, matvecs, s, o)
                                          : trnsolver::hutch_plus_plus<T>(op, matvecs, s, o);
  });
  return py::make_tuple(t.estimate, t.standard_error);
}

template <class T>
py::object lstsq_sketched_t(py::handle a, py::handle b, py::dict& kw) {
  constexpr const char* fn = "trnsolver.lstsq_sketched";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  trnsolver::SketchedLstsqOptions o;
  pop_sketch(o.sketch, kw, fn);
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<double>(kw, "sketch_factor", fn)) o.sketch_factor = *v;
  if (auto v = tp::pop<double>(kw, "rtol", fn)) o.rtol = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "max_iterations", fn)) o.max_iterations = *v;
  tp::reject_unknown(kw, fn);
  auto am = tp::in_matrix<T>(a, fn, "A");
  auto bv = tp::in_vector<T>(b, fn, "b");
  auto bc = py::array_t<T, py::array::c_style>::ensure(bv.array);
  std::span<const T> bs(bc.data(), static_cast<std::size_t>(bc.size()));
  auto r = tp::run(o, [&] { return trnsolver::lstsq_sketched<T>(am.view, bs, o); });
  if (r.info > 0) {
    tp::invalid(fn,
                "A is numerically rank deficient at the sketch (R(" + std::to_string(r.info - 1) + ", " +
                    std::to_string(r.info - 1) + ") = 0)",
                "use lstsq(A, b, method='svd')");
  }
  py::object x = vec_to_numpy(r.x);
  if (!want) return x;
  py::dict d;
  d["iterations"] = r.iterations;
  d["converged"] = r.converged;
  d["info"] = r.info;
  d["residual_norm"] = r.residual_norm;
  d["stopped_by_monitor"] = r.stopped_by_monitor;
  return py::make_tuple(x, d);
}

template <class T>
py::object sketch_apply_t(py::handle a, std::int64_t l, py::dict& kw, bool left, const char* fn) {
  trnsolver::Sketch s;
  pop_sketch(s, kw, fn);
  trncore::Options o;
  tp::pop_options(o, kw, fn);
  tp::reject_unknown(kw, fn);
  auto in = tp::in_matrix<T>(a, fn, "A");
  auto r = tp::run(o, [&] {
    return left ? trnsolver::sketch_left<T>(in.view, l, s, o) : trnsolver::sketch_right<T>(in.view, l, s, o);
  });
  return to_numpy(std::move(r));
}

template <class T>
py::object rayleigh_ritz_t(py::handle a, py::handle basis, std::int64_t sketch_rows, double rank_tolerance,
                           py::dict& kw) {
  constexpr const char* fn = "trnsolver.rayleigh_ritz_sketched";
  trnsolver::Sketch s{trnsolver::SketchKind::sparse_sign};
  pop_sketch(s, kw, fn);
  trncore::Options o;
  tp::pop_options(o, kw, fn);
  tp::reject_unknown(kw, fn);
  py::object keep;
  auto op = matrix_operator_of<T>(a, o, fn, keep);
  auto v = tp::in_matrix<T>(basis, fn, "basis");
  auto r =
      tp::run(o, [&] { return trnsolver::rayleigh_ritz_sketched<T>(op, v.view, sketch_rows, s, rank_tolerance, o); });
  py::dict d;
  d["rank"] = r.rank;
  d["matvecs"] = r.matvecs;
  d["info"] = r.info;
  return py::make_tuple(vec_to_numpy(r.values), vec_to_numpy(r.imag), to_numpy(std::move(r.vectors)),
                        vec_to_numpy(r.residuals), d);
}

const char* const sketch_kw =
    "\n\nSketch keywords: sketch ('gaussian' | 'rademacher' | 'sparse_sign' | 'srht'), seed, stream (the trnrand "
    "stream of the test matrix: the same seed gives bitwise identical results for any threads), nonzeros_per_row "
    "(sparse_sign). Base keywords: backend ('sim': products with a dense A on the TensorEngine model in mode=), mode, "
    "threads, monitor. A: a dense float32/float64 matrix, a scipy.sparse matrix or a scipy.sparse.linalg."
    "LinearOperator (block products called with the GIL). report=True returns (result, dict of the C++ result's "
    "scalars). Raises trncore.InvalidArgument (k < 1 or > min(m, n), non-finite data, bad options), "
    "DimensionMismatch (non-square where needed).";

std::string d(const char* text) { return std::string(text) + sketch_kw; }

}  // namespace

void bind_randomized(py::module_& m) {
  m.def(
      "rsvd",
      [](py::handle a, std::int64_t k, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.rsvd") ? rsvd_t<float>(a, k, kw) : rsvd_t<double>(a, k, kw);
      },
      py::arg("A"), py::arg("k"),
      d("Randomized SVD of rank k (trnsolver::rsvd, Halko–Martinsson–Tropp Alg. 4.4 + 5.1): (U, s, Vh), U m×k, "
        "s descending, Vh k×n. Keywords oversampling=10, power_iterations=2, refine_math_mode (sim). Accuracy "
        "(Gaussian, HMT Cor. 10.10): E‖(I − QQᵀ)A‖₂ ≤ [(1 + √(k/(p−1)))σ_{k+1}^{2q+1} + (e√(k+p)/p)(Σ_{j>k} "
        "σ_j^{2(2q+1)})^{1/2}]^{1/(2q+1)}, truncation adds ≤ σ_{k+1}; exact rank-r matrices are recovered to "
        "rounding.")
          .c_str());
  m.def(
      "rsvd_adaptive",
      [](py::handle a, double tol, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.rsvd_adaptive") ? rsvd_adaptive_t<float>(a, tol, kw)
                                                    : rsvd_adaptive_t<double>(a, tol, kw);
      },
      py::arg("A"), py::arg("tol"),
      d("Randomized SVD to an absolute spectral tolerance by the blocked adaptive range finder (trnsolver::"
        "rsvd_adaptive, HMT Alg. 4.2): (U, s, Vh) with ‖A − U·diag(s)·Vh‖₂ ≤ E ≤ tol with probability ≥ 1 − "
        "min(m,n)·10^{−block_size} (HMT Lemma 4.1); report['error_estimate'] is E. Keywords block_size=10, "
        "max_rank=0 (= min(m, n)).")
          .c_str());
  m.def(
      "nystrom",
      [](py::handle a, std::int64_t rank, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.nystrom") ? nystrom_t<float>(a, rank, kw) : nystrom_t<double>(a, rank, kw);
      },
      py::arg("A"), py::arg("rank"),
      d("Randomized Nyström approximation of the PSD A ≈ U·diag(w)·Uᵀ from `rank` columns (trnsolver::nystrom, Tropp "
        "et al. 2017 Alg. 3 with the stable shift): (w descending, U n×rank). Error (Gaussian): E‖A − Â‖_* ≤ "
        "(1 + k/(l − k − 1))·Σ_{j>k} λ_j. A not PSD: rank 0 (empty w), a result, not an exception.")
          .c_str());
  m.def(
      "eigh_randomized",
      [](py::handle a, std::int64_t k, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.eigh_randomized") ? eigh_randomized_t<float>(a, k, kw)
                                                      : eigh_randomized_t<double>(a, k, kw);
      },
      py::arg("A"), py::arg("k"),
      d("The k eigenpairs of largest magnitude of the symmetric A by the randomized range finder + Rayleigh–Ritz "
        "(trnsolver::eigh_randomized, HMT Alg. 5.3): (w by descending |w|, U). ‖A − U·diag(w)·Uᵀ‖₂ ≤ "
        "2‖(I − QQᵀ)A‖₂. Keywords oversampling, power_iterations.")
          .c_str());
  m.def(
      "hutchinson",
      [](py::handle a, std::int64_t matvecs, py::kwargs kwargs) {
        py::dict kw = kwargs;
        constexpr const char* fn = "trnsolver.hutchinson";
        return single(a, fn) ? estimate_t<float>(a, matvecs, kw, Estimator::hutchinson, fn)
                             : estimate_t<double>(a, matvecs, kw, Estimator::hutchinson, fn);
      },
      py::arg("A"), py::arg("matvecs"),
      d("Hutchinson's trace estimate (trnsolver::hutchinson): (estimate, standard_error) from `matvecs` probes "
        "(Rademacher by default; unbiased).")
          .c_str());
  m.def(
      "hutch_plus_plus",
      [](py::handle a, std::int64_t matvecs, py::kwargs kwargs) {
        py::dict kw = kwargs;
        constexpr const char* fn = "trnsolver.hutch_plus_plus";
        return single(a, fn) ? estimate_t<float>(a, matvecs, kw, Estimator::hutch_plus_plus, fn)
                             : estimate_t<double>(a, matvecs, kw, Estimator::hutch_plus_plus, fn);
      },
      py::arg("A"), py::arg("matvecs"),
      d("Hutch++ trace estimate (trnsolver::hutch_plus_plus, Meyer et al. 2021): (estimate, standard_error) with a "
        "budget of `matvecs` ≥ 3 products.")
          .c_str());
  m.def(
      "diagonal_estimate",
      [](py::handle a, std::int64_t matvecs, py::kwargs kwargs) {
        py::dict kw = kwargs;
        constexpr const char* fn = "trnsolver.diagonal_estimate";
        return single(a, fn) ? estimate_t<float>(a, matvecs, kw, Estimator::diagonal, fn)
                             : estimate_t<double>(a, matvecs, kw, Estimator::diagonal, fn);
      },
      py::arg("A"), py::arg("matvecs"),
      d("Stochastic diagonal estimate (trnsolver::diagonal_estimate, Bekas–Kokiopoulou–Saad): float64 array of n "
        "entries.")
          .c_str());
  m.def(
      "lstsq_sketched",
      [](py::handle a, py::handle b, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.lstsq_sketched") ? lstsq_sketched_t<float>(a, b, kw)
                                                     : lstsq_sketched_t<double>(a, b, kw);
      },
      py::arg("A"), py::arg("b"),
      d("min ‖Ax − b‖₂ for a tall full-rank dense A by sketch-and-precondition + LSQR (trnsolver::lstsq_sketched; "
        "Blendenpik/LSRN): returns x; report=True adds {iterations, converged, info, residual_norm, "
        "stopped_by_monitor}. Keywords sketch_factor=4, rtol=1e-12, max_iterations=100 (sparse_sign sketch by "
        "default). Accuracy: ‖x − x*‖/‖x*‖ ≲ κ(A)κ(Ā)²·rtol + u·κ(A)(2 + κ(A)‖r*‖/(‖A‖‖x*‖)). Raises "
        "trncore.InvalidArgument for m < n or a rank-deficient sketch.")
          .c_str());
  m.def(
      "_rayleigh_ritz_sketched",
      [](py::handle a, py::handle basis, std::int64_t sketch_rows, double rank_tolerance, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.rayleigh_ritz_sketched")
                   ? rayleigh_ritz_t<float>(a, basis, sketch_rows, rank_tolerance, kw)
                   : rayleigh_ritz_t<double>(a, basis, sketch_rows, rank_tolerance, kw);
      },
      py::arg("A"), py::arg("basis"), py::arg("sketch_rows"), py::arg("rank_tolerance") = 1e-12,
      "(values, imag, vectors in geev's paired-column form, residuals, info dict) of "
      "trnsolver::rayleigh_ritz_sketched; trnsolver.rayleigh_ritz_sketched wraps it.");
  m.def(
      "sketch_matrix",
      [](std::int64_t n, std::int64_t l, py::handle dtype, py::kwargs kwargs) -> py::object {
        constexpr const char* fn = "trnsolver.sketch_matrix";
        py::dict kw = kwargs;
        trnsolver::Sketch s;
        pop_sketch(s, kw, fn);
        trncore::Options o;
        tp::pop_options(o, kw, fn);
        tp::reject_unknown(kw, fn);
        const py::dtype dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
        if (dt.kind() == 'f' && dt.itemsize() == 4) {
          return to_numpy(tp::run(o, [&] { return trnsolver::sketch_matrix<float>(s, n, l, o); }));
        }
        if (dt.kind() == 'f' && dt.itemsize() == 8) {
          return to_numpy(tp::run(o, [&] { return trnsolver::sketch_matrix<double>(s, n, l, o); }));
        }
        tp::invalid(fn, "dtype " + py::str(py::object(dt)).cast<std::string>(), "pass numpy.float32 or numpy.float64");
      },
      py::arg("n"), py::arg("l"), py::arg("dtype") = py::dtype::of<double>(),
      d("The n×l test matrix Ω of a sketch (trnsolver::sketch_matrix): columns isotropic (E[ωωᵀ] = I); entry (i, j) "
        "a pure function of (kind, seed, stream, n, l, i, j).")
          .c_str());
  m.def(
      "sketch_right",
      [](py::handle a, std::int64_t l, py::kwargs kwargs) {
        py::dict kw = kwargs;
        constexpr const char* fn = "trnsolver.sketch_right";
        return single(a, fn) ? sketch_apply_t<float>(a, l, kw, false, fn) : sketch_apply_t<double>(a, l, kw, false, fn);
      },
      py::arg("A"), py::arg("l"), d("Y = A·Ω (m×l) with Ω = sketch_matrix(n, l) (trnsolver::sketch_right).").c_str());
  m.def(
      "sketch_left",
      [](py::handle a, std::int64_t l, py::kwargs kwargs) {
        py::dict kw = kwargs;
        constexpr const char* fn = "trnsolver.sketch_left";
        return single(a, fn) ? sketch_apply_t<float>(a, l, kw, true, fn) : sketch_apply_t<double>(a, l, kw, true, fn);
      },
      py::arg("A"), py::arg("l"), d("Y = Ωᵀ·A (l×n) with Ω = sketch_matrix(m, l) (trnsolver::sketch_left).").c_str());
}

}  // namespace trnsolver_python
