// Dense factorizations and drivers (<trnsolver/dense.hpp>, <trnsolver/jacobi.hpp>): float32 and float64,
// host (LAPACK) or backend="sim" (float32: the NeuronCore model). Inputs are never modified: the LAPACK-style
// functions factor a copy and return it.
#include "bind.hpp"

#include <trnsolver/dense.hpp>
#include <trnsolver/jacobi.hpp>

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

/// A writable C-ordered copy of a matrix argument, as T.
template <class T>
tp::OutMatrix<T> copy_of(py::handle obj, std::string_view fn, std::string_view name) {
  auto in = tp::in_matrix<T>(obj, fn, name);
  py::array c = py::module_::import("numpy").attr("array")(in.array, py::arg("dtype") = py::dtype::of<T>(),
                                                           py::arg("order") = "C", py::arg("copy") = true);
  return tp::out_matrix<T>(c, fn, name);
}

void require_square(const py::array& a, std::string_view fn, std::string_view name) {
  if (a.ndim() == 2 && a.shape(0) != a.shape(1)) {
    tp::mismatch(fn, std::string(name) + " has shape " + tp::detail::shape_text(a) + ", not square",
                 "pass a square matrix");
  }
}

/// The dtype a dense routine runs in: float32 or float64 (ints convert to float64; complex is refused).
bool single(py::handle a, std::string_view fn, std::string_view name = "A") {
  py::array arr = tp::as_ndarray(a, fn, name);
  return real_kind(arr, fn, name) == tp::Kind::f32;
}

/// B as a matrix (1-D → one column), remembering whether to return a vector.
struct Rhs {
  py::object matrix;
  bool vector = false;
};

Rhs rhs_of(py::handle b, std::string_view fn) {
  py::array a = tp::as_ndarray(b, fn, "B");
  if (a.ndim() == 1) return {a.attr("reshape")(-1, 1), true};
  return {a, false};
}

py::object unrhs(py::object x, bool vector) { return vector ? py::object(x.attr("reshape")(-1)) : x; }

void info_error(std::string_view fn, std::int64_t info, const std::string& what) {
  if (info > 0) {
    tp::invalid(fn, what + " (info = " + std::to_string(info) + ")",
                "check the input (the LAPACK-style function returns info instead of raising)");
  }
}

// ---- Cholesky ----

template <class T>
py::object cholesky_t(py::handle a_obj, bool upper, py::dict& kw) {
  constexpr const char* fn = "trnsolver.cholesky";
  auto o = tp::options_from(kw, fn);
  auto a = copy_of<T>(a_obj, fn, "A");
  require_square(a.array, fn, "A");
  const auto uplo = upper ? trnsolver::Uplo::upper : trnsolver::Uplo::lower;
  const auto info = tp::run(o, [&] { return trnsolver::potrf<T>(uplo, a.view, o); });
  info_error(fn, info, "the leading minor of order " + std::to_string(info) + " is not positive definite");
  py::module_ np = py::module_::import("numpy");
  return upper ? np.attr("triu")(a.array) : np.attr("tril")(a.array);
}

template <class T>
py::object potrf_t(py::handle a_obj, const std::string& uplo_s, py::dict& kw) {
  constexpr const char* fn = "trnsolver.potrf";
  auto o = tp::options_from(kw, fn);
  const auto uplo = parse_uplo(uplo_s, fn);
  auto a = copy_of<T>(a_obj, fn, "A");
  require_square(a.array, fn, "A");
  const auto info = tp::run(o, [&] { return trnsolver::potrf<T>(uplo, a.view, o); });
  return py::make_tuple(a.array, info);
}

template <class T>
py::object potrs_t(py::handle f_obj, py::handle b_obj, const std::string& uplo_s, py::dict& kw) {
  constexpr const char* fn = "trnsolver.potrs";
  auto o = tp::options_from(kw, fn);
  const auto uplo = parse_uplo(uplo_s, fn);
  auto f = tp::in_matrix<T>(py::module_::import("numpy").attr("ascontiguousarray")(
                                tp::as_dtype<T>(tp::as_ndarray(f_obj, fn, "factor"), fn, "factor")),
                            fn, "factor");
  auto rhs = rhs_of(b_obj, fn);
  auto b = copy_of<T>(rhs.matrix, fn, "B");
  tp::run(o, [&] { trnsolver::potrs<T>(uplo, f.view, b.view, o); });
  return unrhs(b.array, rhs.vector);
}

// ---- LU ----

template <class T>
py::object getrf_t(py::handle a_obj, py::dict& kw) {
  constexpr const char* fn = "trnsolver.getrf";
  auto o = tp::options_from(kw, fn);
  auto a = copy_of<T>(a_obj, fn, "A");
  const auto k = std::min(a.view.rows(), a.view.cols());
  py::array_t<std::int64_t> ipiv(static_cast<py::ssize_t>(k));
  std::span<std::int64_t> pv(ipiv.mutable_data(), static_cast<std::size_t>(k));
  const auto info = tp::run(o, [&] { return trnsolver::getrf<T>(a.view, pv, o); });
  return py::make_tuple(a.array, ipiv, info);
}

template <class T>
py::object lu_t(py::handle a_obj, py::dict& kw) {
  constexpr const char* fn = "trnsolver.lu";
  auto o = tp::options_from(kw, fn);
  auto a = copy_of<T>(a_obj, fn, "A");
  const auto m = a.view.rows(), n = a.view.cols(), k = std::min(m, n);
  std::vector<std::int64_t> ipiv(static_cast<std::size_t>(k));
  tp::run(o, [&] { return trnsolver::getrf<T>(a.view, std::span<std::int64_t>(ipiv), o); });
  // A = P·L·U: apply the interchanges to the identity's row order, then P = I[perm]ᵀ.
  std::vector<std::int64_t> perm(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) perm[static_cast<std::size_t>(i)] = i;
  for (std::int64_t i = 0; i < k; ++i)
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(ipiv[static_cast<std::size_t>(i)] - 1)]);
  auto p = tp::new_matrix<T>(m, m);
  auto l = tp::new_matrix<T>(m, k);
  auto u = tp::new_matrix<T>(k, n);
  std::fill(p.array.mutable_data(), p.array.mutable_data() + m * m, T(0));
  for (std::int64_t i = 0; i < m; ++i) p.view(perm[static_cast<std::size_t>(i)], i) = T(1);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < k; ++j) l.view(i, j) = i == j ? T(1) : (i > j ? a.view(i, j) : T(0));
  }
  for (std::int64_t i = 0; i < k; ++i) {
    for (std::int64_t j = 0; j < n; ++j) u.view(i, j) = j >= i ? a.view(i, j) : T(0);
  }
  return py::make_tuple(p.array, l.array, u.array);
}

std::vector<std::int64_t> pivots(py::handle ipiv, std::string_view fn) {
  py::array a = tp::as_ndarray(ipiv, fn, "ipiv");
  if (a.ndim() != 1 || !(a.dtype().kind() == 'i' || a.dtype().kind() == 'u')) {
    tp::invalid(fn,
                "ipiv must be a 1-D integer array, got dtype " + tp::detail::dtype_text(a) + " shape " +
                    tp::detail::shape_text(a),
                "pass the ipiv returned by getrf/sytrf");
  }
  auto c = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
  return std::vector<std::int64_t>(c.data(), c.data() + c.size());
}

template <class T>
py::object getrs_t(py::handle lu_obj, py::handle ipiv_obj, py::handle b_obj, const std::string& trans, py::dict& kw) {
  constexpr const char* fn = "trnsolver.getrs";
  auto o = tp::options_from(kw, fn);
  trnsolver::Op op = trnsolver::Op::no_trans;
  if (trans == "T" || trans == "C" || trans == "trans")
    op = trnsolver::Op::trans;
  else if (trans != "N" && trans != "no_trans")
    tp::invalid(fn, "trans='" + trans + "'", "use 'N' or 'T'");
  auto lu = copy_of<T>(lu_obj, fn, "lu");
  auto pv = pivots(ipiv_obj, fn);
  auto rhs = rhs_of(b_obj, fn);
  auto b = copy_of<T>(rhs.matrix, fn, "B");
  tp::run(o, [&] {
    trnsolver::getrs<T>(op, trncore::MatrixView<const T>(lu.view), std::span<const std::int64_t>(pv), b.view, o);
  });
  return unrhs(b.array, rhs.vector);
}

template <class T>
T lange_t(py::handle a_obj, const std::string& norm, py::dict& kw) {
  constexpr const char* fn = "trnsolver.lange";
  auto o = tp::options_from(kw, fn);
  auto a = tp::in_matrix<T>(a_obj, fn, "A");
  const auto nm = trnsolver::parse_norm(norm);
  return tp::run(o, [&] { return trnsolver::lange<T>(nm, a.view, o); });
}

template <class T>
T gecon_t(py::handle lu_obj, double anorm, const std::string& norm, py::dict& kw) {
  constexpr const char* fn = "trnsolver.gecon";
  auto o = tp::options_from(kw, fn);
  auto lu = tp::in_matrix<T>(lu_obj, fn, "lu");
  const auto nm = trnsolver::parse_norm(norm);
  T rcond = 0;
  tp::run(o, [&] { return trnsolver::gecon<T>(nm, lu.view, static_cast<T>(anorm), rcond, o); });
  return rcond;
}

// ---- LDLᵀ ----

template <class T>
py::object sytrf_t(py::handle a_obj, const std::string& uplo_s, py::dict& kw) {
  constexpr const char* fn = "trnsolver.sytrf";
  auto o = tp::options_from(kw, fn);
  const auto uplo = parse_uplo(uplo_s, fn);
  auto a = copy_of<T>(a_obj, fn, "A");
  require_square(a.array, fn, "A");
  py::array_t<std::int64_t> ipiv(static_cast<py::ssize_t>(a.view.rows()));
  std::span<std::int64_t> pv(ipiv.mutable_data(), static_cast<std::size_t>(a.view.rows()));
  const auto info = tp::run(o, [&] { return trnsolver::sytrf<T>(uplo, a.view, pv, o); });
  return py::make_tuple(a.array, ipiv, info);
}

template <class T>
py::object sytrs_t(py::handle f_obj, py::handle ipiv_obj, py::handle b_obj, const std::string& uplo_s, py::dict& kw) {
  constexpr const char* fn = "trnsolver.sytrs";
  auto o = tp::options_from(kw, fn);
  const auto uplo = parse_uplo(uplo_s, fn);
  auto f = copy_of<T>(f_obj, fn, "factor");
  auto pv = pivots(ipiv_obj, fn);
  auto rhs = rhs_of(b_obj, fn);
  auto b = copy_of<T>(rhs.matrix, fn, "B");
  tp::run(o, [&] {
    trnsolver::sytrs<T>(uplo, trncore::MatrixView<const T>(f.view), std::span<const std::int64_t>(pv), b.view, o);
  });
  return unrhs(b.array, rhs.vector);
}

// ---- QR ----

template <class T>
py::object geqrf_t(py::handle a_obj, py::dict& kw) {
  constexpr const char* fn = "trnsolver.geqrf";
  auto o = tp::options_from(kw, fn);
  auto a = copy_of<T>(a_obj, fn, "A");
  const auto k = std::min(a.view.rows(), a.view.cols());
  py::array_t<T> tau(static_cast<py::ssize_t>(k));
  std::span<T> ts(tau.mutable_data(), static_cast<std::size_t>(k));
  tp::run(o, [&] { trnsolver::geqrf<T>(a.view, ts, o); });
  return py::make_tuple(a.array, tau);
}

template <class T>
py::object orgqr_t(py::handle a_obj, py::handle tau_obj, py::dict& kw) {
  constexpr const char* fn = "trnsolver.orgqr";
  auto o = tp::options_from(kw, fn);
  auto a = copy_of<T>(a_obj, fn, "A");
  auto tau = tp::in_vector<T>(tau_obj, fn, "tau");
  auto tc = py::array_t<T, py::array::c_style>::ensure(tau.array);
  std::span<const T> ts(tc.data(), static_cast<std::size_t>(tc.size()));
  tp::run(o, [&] { trnsolver::orgqr<T>(a.view, ts, o); });
  return a.array;
}

template <class T>
py::object qr_t(py::handle a_obj, const std::string& mode, py::dict& kw) {
  constexpr const char* fn = "trnsolver.qr";
  auto o = tp::options_from(kw, fn);
  if (mode != "reduced" && mode != "r" && mode != "complete") {
    tp::invalid(fn, "mode='" + mode + "'", "use 'reduced', 'complete' or 'r'");
  }
  auto a = copy_of<T>(a_obj, fn, "A");
  const auto m = a.view.rows(), n = a.view.cols(), k = std::min(m, n);
  std::vector<T> tau(static_cast<std::size_t>(k));
  tp::run(o, [&] { trnsolver::geqrf<T>(a.view, std::span<T>(tau), o); });
  const auto rrows = mode == "complete" ? m : k;
  auto r = tp::new_matrix<T>(rrows, n);
  for (std::int64_t i = 0; i < rrows; ++i) {
    for (std::int64_t j = 0; j < n; ++j) r.view(i, j) = (j >= i && i < k) ? a.view(i, j) : T(0);
  }
  if (mode == "r") return r.array;
  const auto qcols = mode == "complete" ? m : k;
  auto q = tp::new_matrix<T>(m, qcols);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < qcols; ++j) q.view(i, j) = j < n ? a.view(i, j) : T(0);
  }
  // orgqr has no sim form: the explicit Q is formed on the host from the (possibly sim) reflectors.
  trncore::Options host = o;
  host.backend = trncore::Backend::host;
  host.math_mode = trncore::MathMode::automatic;
  tp::run(host, [&] { trnsolver::orgqr<T>(q.view, std::span<const T>(tau), host); });
  return py::make_tuple(q.array, r.array);
}

// ---- SVD ----

template <class T>
py::object svd_t(py::handle a_obj, bool full, bool compute_uv, py::dict& kw) {
  constexpr const char* fn = "trnsolver.svd";
  auto o = tp::options_from(kw, fn);
  auto a = tp::in_matrix<T>(a_obj, fn, "A");
  const auto job = !compute_uv ? trnsolver::Job::values_only : (full ? trnsolver::Job::full : trnsolver::Job::thin);
  auto r = tp::run(o, [&] { return trnsolver::svd<T>(a.view, job, o); });
  info_error(fn, r.info, "the bidiagonal SVD did not converge");
  if (!compute_uv) return vec_to_numpy(r.s);
  return py::make_tuple(to_numpy(std::move(r.u)), vec_to_numpy(r.s), to_numpy(std::move(r.vt)));
}

template <class T>
py::object pinv_t(py::handle a_obj, std::optional<double> rcond, py::dict& kw) {
  constexpr const char* fn = "trnsolver.pinv";
  auto o = tp::options_from(kw, fn);
  auto a = tp::in_matrix<T>(a_obj, fn, "A");
  std::optional<T> rc;
  if (rcond) rc = static_cast<T>(*rcond);
  auto r = tp::run(o, [&] { return trnsolver::pinv<T>(a.view, rc, o); });
  info_error(fn, r.info, "the SVD did not converge");
  return to_numpy(std::move(r.x));
}

// ---- eigenproblems ----

trnsolver::EighMethod method_of(py::dict& kw, std::string_view fn) {
  if (auto v = tp::pop<std::string>(kw, "method", fn)) return trnsolver::parse_eigh_method(*v);
  return trnsolver::EighMethod::automatic;
}

template <class T>
py::object eigh_t(py::handle a_obj, double tol, bool values_only, const std::string& uplo_s, py::dict& kw) {
  constexpr const char* fn = "trnsolver.eigh";
  const auto method = method_of(kw, fn);
  auto o = tp::options_from(kw, fn);
  const auto uplo = parse_uplo(uplo_s, fn);
  auto a = tp::in_matrix<T>(a_obj, fn, "A");
  require_square(a.array, fn, "A");
  if (!(tol >= 0.0)) tp::invalid(fn, "tol = " + std::to_string(tol), "pass tol ≥ 0");
  const auto job = values_only ? trnsolver::EigJob::values_only : trnsolver::EigJob::vectors;
  if (method == trnsolver::EighMethod::jacobi && o.backend == trncore::Backend::host) {
    // The cyclic Jacobi with the upstream tol as its skipping threshold (it reads the lower triangle).
    trnsolver::JacobiOptions jo(o);
    jo.tolerance = tol;
    jo.vectors = !values_only;
    const auto n = a.view.rows();
    auto c = copy_of<T>(a.array, fn, "A");
    auto w = tp::new_vector<T>(n);
    auto v = tp::new_matrix<T>(n, n);
    auto r = tp::run(jo, [&] {
      return trnsolver::eigh_jacobi<T>(trncore::Layout::row_major, n, c.view.data(), c.view.ld(), w.view.data(),
                                       v.view.data(), v.view.ld(), jo);
    });
    if (!r.converged && !r.stopped_by_monitor) tp::invalid(fn, "Jacobi did not converge", "raise max_sweeps");
    if (values_only) return w.array;
    return py::make_tuple(w.array, v.array);
  }
  auto r = tp::run(o, [&] { return trnsolver::eigh<T>(a.view, job, uplo, method, o); });
  info_error(fn, r.info, "the eigensolver did not converge");
  if (values_only) return vec_to_numpy(r.w);
  return py::make_tuple(vec_to_numpy(r.w), to_numpy(std::move(r.z)));
}

template <class T>
py::object syevd_t(py::handle a_obj, const std::string& jobz, const std::string& uplo_s, py::dict& kw) {
  constexpr const char* fn = "trnsolver.syevd";
  const auto method = method_of(kw, fn);
  auto o = tp::options_from(kw, fn);
  const auto uplo = parse_uplo(uplo_s, fn);
  trnsolver::EigJob job = trnsolver::EigJob::vectors;
  if (jobz == "N" || jobz == "values_only")
    job = trnsolver::EigJob::values_only;
  else if (jobz != "V" && jobz != "vectors")
    tp::invalid(fn, "jobz='" + jobz + "'", "use 'V' or 'N'");
  auto a = copy_of<T>(a_obj, fn, "A");
  require_square(a.array, fn, "A");
  const auto n = a.view.rows();
  auto w = tp::new_vector<T>(n);
  T* wp = w.view.data();
  const auto info = tp::run(o, [&] {
    return trnsolver::syevd<T>(trncore::Layout::row_major, job, uplo, n, a.view.data(), a.view.ld(), wp, method, o);
  });
  if (job == trnsolver::EigJob::values_only) return py::make_tuple(w.array, py::none(), info);
  return py::make_tuple(w.array, a.array, info);
}

template <class T>
py::object eigh_generalized_t(py::handle a_obj, py::handle b_obj, double tol, bool values_only,
                              const std::string& uplo_s, py::dict& kw) {
  constexpr const char* fn = "trnsolver.eigh_generalized";
  auto o = tp::options_from(kw, fn);
  const auto uplo = parse_uplo(uplo_s, fn);
  if (!(tol >= 0.0)) tp::invalid(fn, "tol = " + std::to_string(tol), "pass tol ≥ 0");
  auto a = tp::in_matrix<T>(a_obj, fn, "A");
  auto bc = py::module_::import("numpy").attr("array")(
      tp::as_dtype<T>(tp::as_ndarray(b_obj, fn, "B"), fn, "B"),
      py::arg("order") = a.view.layout() == trncore::Layout::row_major ? "C" : "F");
  auto b = tp::in_matrix<T>(bc, fn, "B");
  const auto job = values_only ? trnsolver::EigJob::values_only : trnsolver::EigJob::vectors;
  auto r = tp::run(o, [&] { return trnsolver::eigh_generalized<T>(a.view, b.view, job, uplo, o); });
  if (r.info > a.view.rows()) {
    info_error(
        fn, r.info,
        "B is not positive definite (its leading minor of order " + std::to_string(r.info - a.view.rows()) + ")");
  }
  info_error(fn, r.info, "the eigensolver did not converge");
  if (values_only) return vec_to_numpy(r.w);
  return py::make_tuple(vec_to_numpy(r.w), to_numpy(std::move(r.z)));
}

template <class T>
py::object eigh_jacobi_t(py::handle a_obj, py::dict& kw) {
  constexpr const char* fn = "trnsolver.eigh_jacobi";
  trnsolver::JacobiOptions jo;
  tp::pop_options(jo, kw, fn);
  if (auto v = tp::pop<double>(kw, "tolerance", fn)) jo.tolerance = *v;
  if (auto v = tp::pop<int>(kw, "max_sweeps", fn)) jo.max_sweeps = *v;
  if (auto v = tp::pop<bool>(kw, "vectors", fn)) jo.vectors = *v;
  tp::reject_unknown(kw, fn);
  auto a = copy_of<T>(a_obj, fn, "A");
  require_square(a.array, fn, "A");
  const auto n = a.view.rows();
  auto w = tp::new_vector<T>(n);
  auto v = tp::new_matrix<T>(n, n);
  auto r = tp::run(jo, [&] {
    return trnsolver::eigh_jacobi<T>(trncore::Layout::row_major, n, a.view.data(), a.view.ld(), w.view.data(),
                                     v.view.data(), v.view.ld(), jo);
  });
  return py::make_tuple(w.array, jo.vectors ? py::object(v.array) : py::none(), r);
}

// ---- Schur ----

template <class T>
py::object schur_t(py::handle a_obj, bool eigenvalues, py::dict& kw) {
  constexpr const char* fn = "trnsolver.schur";
  auto o = tp::options_from(kw, fn);
  auto a = tp::in_matrix<T>(a_obj, fn, "A");
  require_square(a.array, fn, "A");
  auto r = tp::run(o, [&] { return trnsolver::schur<T>(a.view, o); });
  info_error(fn, r.info, "the QR algorithm did not converge");
  if (!eigenvalues) return py::make_tuple(to_numpy(std::move(r.t)), to_numpy(std::move(r.z)));
  py::array_t<std::complex<double>> w(static_cast<py::ssize_t>(r.wr.size()));
  for (std::size_t i = 0; i < r.wr.size(); ++i) w.mutable_data()[i] = {double(r.wr[i]), double(r.wi[i])};
  return py::make_tuple(to_numpy(std::move(r.t)), to_numpy(std::move(r.z)), w);
}

// ---- least squares ----

template <class T>
py::object lstsq_t(py::handle a_obj, py::handle b_obj, std::optional<double> rcond, const std::string& method,
                   py::dict& kw) {
  constexpr const char* fn = "trnsolver.lstsq";
  auto o = tp::options_from(kw, fn);
  const auto me = trnsolver::parse_lstsq_method(method);
  auto a = tp::in_matrix<T>(a_obj, fn, "A");
  auto rhs = rhs_of(b_obj, fn);
  auto bc = py::module_::import("numpy").attr("array")(
      tp::as_dtype<T>(tp::as_ndarray(rhs.matrix, fn, "B"), fn, "B"),
      py::arg("order") = a.view.layout() == trncore::Layout::row_major ? "C" : "F");
  auto b = tp::in_matrix<T>(bc, fn, "B");
  std::optional<T> rc;
  if (rcond) rc = static_cast<T>(*rcond);
  auto r = tp::run(o, [&] { return trnsolver::lstsq<T>(a.view, b.view, me, rc, o); });
  info_error(
      fn, r.info,
      me == trnsolver::LstsqMethod::qr ? "A does not have full rank (use method='svd')" : "the SVD did not converge");
  return py::make_tuple(unrhs(to_numpy(std::move(r.x)), rhs.vector), r.rank, vec_to_numpy(r.s));
}

template <class T>
py::object gels_t(py::handle a_obj, py::handle b_obj, const std::string& trans, py::dict& kw) {
  constexpr const char* fn = "trnsolver.gels";
  auto o = tp::options_from(kw, fn);
  trnsolver::Op op = trnsolver::Op::no_trans;
  if (trans == "T" || trans == "trans")
    op = trnsolver::Op::trans;
  else if (trans != "N" && trans != "no_trans")
    tp::invalid(fn, "trans='" + trans + "'", "use 'N' or 'T'");
  auto a = copy_of<T>(a_obj, fn, "A");
  const auto m = a.view.rows(), n = a.view.cols();
  auto rhs = rhs_of(b_obj, fn);
  auto bin = tp::in_matrix<T>(rhs.matrix, fn, "B");
  const auto brows = op == trnsolver::Op::no_trans ? m : n;
  const auto xrows = op == trnsolver::Op::no_trans ? n : m;
  if (bin.view.rows() != brows) {
    tp::mismatch(fn, "B has " + std::to_string(bin.view.rows()) + " rows but op(A) has " + std::to_string(brows),
                 "pass B with op(A)'s number of rows");
  }
  const auto nrhs = bin.view.cols();
  auto b = tp::new_matrix<T>(std::max(m, n), nrhs);
  for (std::int64_t i = 0; i < b.view.rows(); ++i) {
    for (std::int64_t j = 0; j < nrhs; ++j) b.view(i, j) = i < brows ? bin.view(i, j) : T(0);
  }
  const auto info = tp::run(o, [&] { return trnsolver::gels<T>(op, a.view, b.view, o); });
  py::object x = b.array[py::slice(0, xrows, 1)];
  return py::make_tuple(unrhs(py::module_::import("numpy").attr("ascontiguousarray")(x), rhs.vector), info);
}

// ---- inverse square root ----

template <class T>
py::object inv_sqrt_t(py::handle a_obj, py::dict& kw, bool ns_upstream, int max_iters, double tol) {
  const char* fn = ns_upstream ? "trnsolver.inv_sqrt_spd_ns" : "trnsolver.inv_sqrt_spd";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  trnsolver::InvSqrtOptions o;
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<std::string>(kw, "method", fn)) o.method = trnsolver::parse_inv_sqrt_method(*v);
  if (auto v = tp::pop<double>(kw, "tolerance", fn)) o.tolerance = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "max_iterations", fn)) o.max_iterations = *v;
  tp::reject_unknown(kw, fn);
  if (ns_upstream) {
    o.method = trnsolver::InvSqrtMethod::newton_schulz;
    o.max_iterations = max_iters;
    o.tolerance = tol;
  }
  auto a = tp::in_matrix<T>(a_obj, fn, "A");
  require_square(a.array, fn, "A");
  auto r = tp::run(o, [&] { return trnsolver::inv_sqrt_spd<T>(a.view, o); });
  if (r.report.info > 0) {
    info_error(fn, r.report.info,
               r.report.info <= a.view.rows()
                   ? "A is not positive definite (leading minor " + std::to_string(r.report.info) + ")"
                   : std::string("the eigensolver failed or found an eigenvalue ≤ 0"));
  }
  py::object x = to_numpy(std::move(r.x));
  if (ns_upstream) {
    py::object t = py::make_tuple(x, r.report.iterations, r.report.residual);
    return tp::with_report(t, r.report, want);
  }
  return tp::with_report(x, r.report, want);
}

}  // namespace

void bind_dense(py::module_& m) {
  const char* opts =
      "\n\nKeywords: backend ('host' | 'sim': float32 only, the NeuronCore model; float64 on sim raises "
      "trncore.NotSupported), mode (math mode of the sim GEMMs), threads, options=trncore.Options(...). "
      "Data: float32 or float64 (integers convert to float64; complex raises trncore.InvalidArgument). "
      "The input is never modified.";
  auto d = [opts](const char* text) { return std::string(text) + opts; };

  py::class_<trnsolver::JacobiResult>(m, "JacobiResult", "What eigh_jacobi did (trnsolver::JacobiResult).")
      .def_readonly("sweeps", &trnsolver::JacobiResult::sweeps)
      .def_readonly("rotations", &trnsolver::JacobiResult::rotations)
      .def_readonly("converged", &trnsolver::JacobiResult::converged)
      .def_readonly("stopped_by_monitor", &trnsolver::JacobiResult::stopped_by_monitor)
      .def_readonly("off_history", &trnsolver::JacobiResult::off_history)
      .def_readonly("cost", &trnsolver::JacobiResult::cost)
      .def("__repr__", [](const trnsolver::JacobiResult& r) {
        return "JacobiResult(sweeps=" + std::to_string(r.sweeps) + ", rotations=" + std::to_string(r.rotations) +
               ", converged=" + (r.converged ? "True" : "False") + ")";
      });

  m.def(
      "cholesky",
      [](py::handle a, bool upper, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.cholesky") ? cholesky_t<float>(a, upper, kw) : cholesky_t<double>(a, upper, kw);
      },
      py::arg("A"), py::arg("upper") = false,
      d("Cholesky factor of the SPD A (trnsolver::potrf): L with A = L·Lᵀ, or U with A = Uᵀ·U (upper=True); the "
        "other triangle is zero. Upstream cholesky(A, upper=False). Raises trncore.InvalidArgument when a leading "
        "minor is not positive definite (potrf's info > 0). Accuracy: L̂L̂ᵀ = A + ΔA, |ΔA| ≤ γ_{n+1}|L̂||L̂ᵀ| (Higham "
        "Thm 10.3).")
          .c_str());
  m.def(
      "potrf",
      [](py::handle a, const std::string& uplo, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.potrf") ? potrf_t<float>(a, uplo, kw) : potrf_t<double>(a, uplo, kw);
      },
      py::arg("A"), py::arg("uplo") = "lower",
      d("LAPACK ?potrf on a copy: returns (factor, info); the factor occupies the uplo triangle, the other holds A's "
        "entries; info > 0 is the order of the first non-positive-definite leading minor (no exception).")
          .c_str());
  m.def(
      "potrs",
      [](py::handle f, py::handle b, const std::string& uplo, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(f, "trnsolver.potrs", "factor") ? potrs_t<float>(f, b, uplo, kw)
                                                      : potrs_t<double>(f, b, uplo, kw);
      },
      py::arg("factor"), py::arg("B"), py::arg("uplo") = "lower",
      d("X = A⁻¹B with potrf's factor (LAPACK ?potrs); B (n,) or (n, k). Accuracy: (A + ΔA)x̂ = b, |ΔA| ≤ "
        "γ_{3n+1}|R̂ᵀ||R̂| (Higham Thm 10.4).")
          .c_str());
  m.def(
      "lu",
      [](py::handle a, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.lu") ? lu_t<float>(a, kw) : lu_t<double>(a, kw);
      },
      py::arg("A"),
      d("(P, L, U) with A = P·L·U (scipy.linalg.lu's convention) from LU with partial pivoting (trnsolver::getrf); "
        "A m×n, L m×k unit lower, U k×n upper, k = min(m, n). Upstream lu(A) -> (P, L, U). A singular U is returned, "
        "not raised. Accuracy: P·L̂·Û = A + ΔA, |ΔA| ≤ γ_n|L̂||Û| (Higham Thm 9.3).")
          .c_str());
  m.def(
      "getrf",
      [](py::handle a, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.getrf") ? getrf_t<float>(a, kw) : getrf_t<double>(a, kw);
      },
      py::arg("A"),
      d("LAPACK ?getrf on a copy: returns (lu, ipiv, info): L (unit, below the diagonal) and U packed in lu, ipiv the "
        "1-BASED int64 pivots of LAPACK (row i was interchanged with row ipiv[i] − 1; scipy.linalg.lu_factor's are "
        "0-based), info > 0 when U(info−1, info−1) is exactly zero.")
          .c_str());
  m.def(
      "getrs",
      [](py::handle lu, py::handle ipiv, py::handle b, const std::string& trans, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(lu, "trnsolver.getrs", "lu") ? getrs_t<float>(lu, ipiv, b, trans, kw)
                                                   : getrs_t<double>(lu, ipiv, b, trans, kw);
      },
      py::arg("lu"), py::arg("ipiv"), py::arg("B"), py::arg("trans") = "N",
      d("Solve A·X = B (trans='N') or Aᵀ·X = B ('T') with getrf's (lu, ipiv) (LAPACK ?getrs); B (n,) or (n, k). "
        "Pivots are checked to lie in [1, n] (trncore.InvalidArgument otherwise). Accuracy: (A + ΔA)x̂ = b, "
        "|ΔA| ≤ (3γ_n + γ_n²)|L̂||Û| (Higham Thm 9.4).")
          .c_str());
  m.def(
      "lange",
      [](py::handle a, const std::string& norm, py::kwargs kwargs) -> double {
        py::dict kw = kwargs;
        return single(a, "trnsolver.lange") ? lange_t<float>(a, norm, kw) : lange_t<double>(a, norm, kw);
      },
      py::arg("A"), py::arg("norm") = "fro",
      d("A matrix norm (LAPACK ?lange): norm 'one', 'inf', 'fro' or 'max'.").c_str());
  m.def(
      "gecon",
      [](py::handle lu, double anorm, const std::string& norm, py::kwargs kwargs) -> double {
        py::dict kw = kwargs;
        return single(lu, "trnsolver.gecon", "lu") ? gecon_t<float>(lu, anorm, norm, kw)
                                                   : gecon_t<double>(lu, anorm, norm, kw);
      },
      py::arg("lu"), py::arg("anorm"), py::arg("norm") = "one",
      d("Reciprocal condition number estimate 1/(‖A‖·‖A⁻¹‖) from getrf's lu and anorm = lange(A, norm) (LAPACK "
        "?gecon, Higham's estimator: a lower bound of ‖A⁻¹‖, in practice within a factor 3). norm 'one' or 'inf'.")
          .c_str());
  m.def(
      "sytrf",
      [](py::handle a, const std::string& uplo, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.sytrf") ? sytrf_t<float>(a, uplo, kw) : sytrf_t<double>(a, uplo, kw);
      },
      py::arg("A"), py::arg("uplo") = "lower",
      d("LDLᵀ (Bunch–Kaufman) of the symmetric A on a copy (LAPACK ?sytrf): returns (factor, ipiv, info) in LAPACK's "
        "format (ipiv 1-based, negative pairs for 2×2 blocks). Accuracy: ‖A − L̂D̂L̂ᵀ‖ ≤ c·n·u·‖|L̂||D̂||L̂ᵀ|‖.")
          .c_str());
  m.def(
      "sytrs",
      [](py::handle f, py::handle ipiv, py::handle b, const std::string& uplo, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(f, "trnsolver.sytrs", "factor") ? sytrs_t<float>(f, ipiv, b, uplo, kw)
                                                      : sytrs_t<double>(f, ipiv, b, uplo, kw);
      },
      py::arg("factor"), py::arg("ipiv"), py::arg("B"), py::arg("uplo") = "lower",
      d("Solve A·X = B with sytrf's (factor, ipiv) (LAPACK ?sytrs); B (n,) or (n, k).").c_str());
  m.def(
      "qr",
      [](py::handle a, const std::string& mode, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.qr") ? qr_t<float>(a, mode, kw) : qr_t<double>(a, mode, kw);
      },
      py::arg("A"), py::arg("mode") = "reduced",
      d("Householder QR (trnsolver::geqrf + orgqr): (Q, R) with A = Q·R, mode 'reduced' (Q m×k, R k×n), 'complete' "
        "(Q m×m) or 'r' (R only), as numpy.linalg.qr (so the sim math mode is math_mode=, not mode=). Upstream qr(A) "
        "-> (Q, R). On backend='sim' the factorization "
        "runs on the model and Q is formed on the host (orgqr has no sim form). Accuracy: A + ΔA = Q·R̂, ‖Δa_j‖ ≤ "
        "γ̃_{mn}‖a_j‖ (Higham Thm 19.4); ‖QᵀQ − I‖ ≤ c·m·n·u.")
          .c_str());
  m.def(
      "geqrf",
      [](py::handle a, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.geqrf") ? geqrf_t<float>(a, kw) : geqrf_t<double>(a, kw);
      },
      py::arg("A"),
      d("LAPACK ?geqrf on a copy: returns (qr, tau), R above and the reflectors below the diagonal.").c_str());
  m.def(
      "orgqr",
      [](py::handle a, py::handle tau, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.orgqr") ? orgqr_t<float>(a, tau, kw) : orgqr_t<double>(a, tau, kw);
      },
      py::arg("qr"), py::arg("tau"),
      d("LAPACK ?orgqr: the m×n Q with orthonormal columns from geqrf's (qr, tau) (m ≥ n ≥ len(tau)). Host only.")
          .c_str());
  m.def(
      "svd",
      [](py::handle a, bool full, bool compute_uv, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.svd") ? svd_t<float>(a, full, compute_uv, kw)
                                          : svd_t<double>(a, full, compute_uv, kw);
      },
      py::arg("A"), py::arg("full_matrices") = false, py::arg("compute_uv") = true,
      d("SVD A = U·diag(s)·Vh by divide and conquer (trnsolver::svd, LAPACK ?gesdd; one-sided Jacobi on sim): "
        "(U, s, Vh), s descending; compute_uv=False returns s. Upstream svd(A, full_matrices=False). Raises "
        "trncore.InvalidArgument for non-finite A or no convergence. Accuracy: ÛΣ̂V̂ᵀ = A + ΔA, ‖ΔA‖₂ ≤ p(m,n)·u·‖A‖₂, "
        "|σ̂_i − σ_i| ≤ p(m,n)·u·σ_1 (LAPACK Users' Guide §4.9).")
          .c_str());
  m.def(
      "pinv",
      [](py::handle a, std::optional<double> rcond, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.pinv") ? pinv_t<float>(a, rcond, kw) : pinv_t<double>(a, rcond, kw);
      },
      py::arg("A"), py::arg("rcond") = py::none(),
      d("Moore–Penrose pseudo-inverse from the thin SVD (trnsolver::pinv): singular values ≤ rcond·s_max are dropped; "
        "rcond None = max(m, n)·ε (numpy's default). Upstream pinv(A, rcond=None).")
          .c_str());
  m.def(
      "eigh",
      [](py::handle a, double tol, bool values_only, const std::string& uplo, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.eigh") ? eigh_t<float>(a, tol, values_only, uplo, kw)
                                           : eigh_t<double>(a, tol, values_only, uplo, kw);
      },
      py::arg("A"), py::arg("tol") = 1e-10, py::arg("eigvals_only") = false, py::arg("uplo") = "lower",
      d("Symmetric eigendecomposition A = V·diag(w)·Vᵀ (trnsolver::eigh): (w ascending, V) or w (eigvals_only=True), "
        "reading the uplo triangle. Upstream eigh(A, tol=1e-10) -> (w, V): tol is the Jacobi skipping threshold, used "
        "when method='jacobi' on the host (trnsolver::eigh_jacobi; it reads the lower triangle); the default "
        "method='automatic' runs LAPACK syevd on the host (tol unused) and Jacobi (n ≤ 128) or tridiagonal + QL on "
        "sim ('jacobi', 'tridiagonal' choose). Raises trncore.InvalidArgument on non-finite A or no convergence. "
        "Accuracy: |λ̂_i − λ_i| ≤ p(n)·u·‖A‖₂, ‖Aẑ − λ̂ẑ‖ ≤ p(n)·u·‖A‖₂, ‖ẐᵀẐ − I‖ ≤ p(n)·u (LAPACK UG §4.7).")
          .c_str());
  m.def(
      "syevd",
      [](py::handle a, const std::string& jobz, const std::string& uplo, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.syevd") ? syevd_t<float>(a, jobz, uplo, kw) : syevd_t<double>(a, jobz, uplo, kw);
      },
      py::arg("A"), py::arg("jobz") = "V", py::arg("uplo") = "lower",
      d("LAPACK ?syevd (cuSOLVER's syevd): returns (w, V, info) with w ascending and V's columns the eigenvectors "
        "(None "
        "for jobz='N'); info > 0 (no convergence) is returned, not raised. method= 'automatic' | 'jacobi' | "
        "'tridiagonal' picks the sim algorithm. Accuracy as eigh.")
          .c_str());
  m.def(
      "eigh_generalized",
      [](py::handle a, py::handle b, double tol, bool values_only, const std::string& uplo, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.eigh_generalized") ? eigh_generalized_t<float>(a, b, tol, values_only, uplo, kw)
                                                       : eigh_generalized_t<double>(a, b, tol, values_only, uplo, kw);
      },
      py::arg("A"), py::arg("B"), py::arg("tol") = 1e-10, py::arg("eigvals_only") = false, py::arg("uplo") = "lower",
      d("A·x = λ·B·x for symmetric A and SPD B (trnsolver::eigh_generalized, LAPACK ?sygvd): (w, X) with XᵀBX = I. "
        "Upstream eigh_generalized(A, B, tol=1e-10) -> (w, X); tol is accepted for compatibility and checked ≥ 0 "
        "but unused (sygvd has no tolerance). Raises trncore.InvalidArgument when B is not positive definite. "
        "Accuracy: |λ̂ − λ| ≤ p(n)·u·‖B⁻¹‖₂·‖A‖₂ (LAPACK UG §4.7.2).")
          .c_str());
  m.def(
      "eigh_jacobi",
      [](py::handle a, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.eigh_jacobi") ? eigh_jacobi_t<float>(a, kw) : eigh_jacobi_t<double>(a, kw);
      },
      py::arg("A"),
      "Cyclic Jacobi eigensolver (trnsolver::eigh_jacobi): returns (w, V, JacobiResult); V None with vectors=False. "
      "Keywords tolerance (0 = unit roundoff), max_sweeps=40, vectors=True, backend ('sim': fp32 VectorEngine "
      "arithmetic with cost), threads, monitor (once per sweep). Relative accuracy for graded matrices "
      "(Demmel–Veselić). Reads the lower triangle.");
  m.def(
      "schur",
      [](py::handle a, bool eigenvalues, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.schur") ? schur_t<float>(a, eigenvalues, kw) : schur_t<double>(a, eigenvalues, kw);
      },
      py::arg("A"), py::arg("return_eigenvalues") = false,
      d("Real Schur form A = Z·T·Zᵀ (trnsolver::schur, LAPACK ?gees without sorting): (T, Z) as "
        "scipy.linalg.schur(A, output='real'); return_eigenvalues=True adds the complex eigenvalues wr + i·wi. "
        "Accuracy: Z·T̂·Zᵀ = A + ΔA, ‖ΔA‖₂ ≤ p(n)·u·‖A‖₂ (LAPACK UG §4.8).")
          .c_str());
  m.def(
      "_lstsq",
      [](py::handle a, py::handle b, std::optional<double> rcond, const std::string& method, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.lstsq") ? lstsq_t<float>(a, b, rcond, method, kw)
                                            : lstsq_t<double>(a, b, rcond, method, kw);
      },
      py::arg("A"), py::arg("B"), py::arg("rcond") = py::none(), py::arg("method") = "svd",
      "(x, rank, s) of trnsolver::lstsq; trnsolver.lstsq wraps it.");
  m.def(
      "gels",
      [](py::handle a, py::handle b, const std::string& trans, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.gels") ? gels_t<float>(a, b, trans, kw) : gels_t<double>(a, b, trans, kw);
      },
      py::arg("A"), py::arg("B"), py::arg("trans") = "N",
      d("Least squares / minimum norm by QR or LQ for full-rank A (LAPACK ?gels): returns (X, info); X is n×k "
        "(trans='T': m×k); info > 0: A is rank deficient, no solution (use lstsq). Accuracy: X solves a problem "
        "with relative backward error c·m·n·u (Higham Thm 20.3).")
          .c_str());
  m.def(
      "inv_sqrt_spd",
      [](py::handle a, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.inv_sqrt_spd") ? inv_sqrt_t<float>(a, kw, false, 0, 0)
                                                   : inv_sqrt_t<double>(a, kw, false, 0, 0);
      },
      py::arg("A"),
      d("X = A^{-1/2} of the SPD A (trnsolver::inv_sqrt_spd; lower triangle read). Upstream inv_sqrt_spd(A). "
        "Keywords method ('eigh' | 'newton_schulz'), tolerance, max_iterations, monitor (Newton–Schulz), report "
        "(True: (X, InvSqrtReport)). Raises trncore.InvalidArgument when A is not positive definite. Accuracy "
        "(eigh): ‖X̂ − X‖/‖X‖ ≲ p(n)·u·κ₂(A)/2; the report's residual ‖XAX − I‖_F/√n is measured, not a bound.")
          .c_str());
  m.def(
      "inv_sqrt_spd_ns",
      [](py::handle a, int max_iters, double tol, py::kwargs kwargs) {
        py::dict kw = kwargs;
        return single(a, "trnsolver.inv_sqrt_spd_ns") ? inv_sqrt_t<float>(a, kw, true, max_iters, tol)
                                                      : inv_sqrt_t<double>(a, kw, true, max_iters, tol);
      },
      py::arg("A"), py::kw_only(), py::arg("max_iters") = 20, py::arg("tol") = 1e-7,
      d("A^{-1/2} by the coupled Newton–Schulz iteration (trnsolver::inv_sqrt_spd, method newton_schulz): returns "
        "(X, iters, residual) as upstream inv_sqrt_spd_ns(A, *, max_iters=20, tol=1e-7); tol bounds "
        "‖I − Z_kY_k‖_F/√n (upstream's stopping measure may differ in normalisation); residual = ‖XAX − I‖_F/√n. "
        "report=True returns ((X, iters, residual), InvSqrtReport).")
          .c_str());
}

}  // namespace trnsolver_python
