// trnsparse solvers: trnsolver's Krylov methods on the sparse operator (cg, chebyshev, richardson,
// power_iteration, lanczos_bounds, diagonal, jacobi) and the SuiteSparse direct solvers (Cholesky, Lu, Qr).
#include "bind.hpp"

#include <trnsparse/direct.hpp>
#include <trnsparse/iterative.hpp>

#include <trnsolver/krylov.hpp>

#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <span>

namespace trnsparse_python {

namespace {

trnsolver::KrylovOptions krylov_options(py::dict& kw, std::string_view fn) {
  trnsolver::KrylovOptions o;
  // options=trnsolver.KrylovOptions(...) (registered by trnsolver) gives every field; keywords override it.
  if (kw.contains("options") && py::detail::get_type_info(typeid(trnsolver::KrylovOptions)) &&
      py::isinstance<trnsolver::KrylovOptions>(kw["options"])) {
    o = kw["options"].cast<trnsolver::KrylovOptions>();
    PyDict_DelItemString(kw.ptr(), "options");
  }
  tp::pop_options(o, kw, fn);
  if (auto v = tp::pop<double>(kw, "rtol", fn)) o.rtol = *v;
  if (auto v = tp::pop<double>(kw, "atol", fn)) o.atol = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "max_iterations", fn)) o.max_iterations = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "stagnation_window", fn)) o.stagnation_window = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "restart", fn)) o.restart = *v;
  if (auto v = tp::pop<std::string>(kw, "orthogonalization", fn)) {
    o.orthogonalization = trnsolver::parse_orthogonalization(*v);
  }
  return o;
}

/// The preconditioner argument M as a trnsolver::LinearOperator<T> of size n: None; "jacobi"; a
/// trnsolver.LinearOperator of T (jacobi_preconditioner's result; applied in C++); a dense (n, n) array (M⁻¹, as
/// upstream: z = M⁻¹ r); or any other callable r -> z (called with the GIL).
template <class T, class A>
trnsolver::LinearOperator<T> preconditioner_of(py::handle M, const A& a, std::int64_t n, std::string_view fn,
                                               py::list& keep) {
  if (M.is_none()) return {};
  if (py::isinstance<py::str>(M)) {
    const auto s = M.cast<std::string>();
    if (s == "jacobi") return trnsparse::jacobi_preconditioner(a);
    if (s == "none") return {};
    tp::invalid(fn, "preconditioner M='" + s + "' is unknown", "use None, 'jacobi', a callable or an (n, n) array");
  }
  if (py::detail::get_type_info(typeid(trnsolver::LinearOperator<T>)) &&
      py::isinstance(M, py::detail::get_type_handle(typeid(trnsolver::LinearOperator<T>), false))) {
    return M.cast<trnsolver::LinearOperator<T>>();
  }
  if (!PyCallable_Check(M.ptr())) {
    auto m = c_matrix<T>(M, fn, "M");
    keep.append(m);
    if (m.shape(0) != n || m.shape(1) != n) {
      tp::mismatch(
          fn, "M has shape " + tp::detail::shape_text(m) + " but A is " + std::to_string(n) + "x" + std::to_string(n),
          "pass M⁻¹ as an (n, n) array, a callable, or 'jacobi'");
    }
    const T* p = m.data();
    return trnsolver::LinearOperator<T>(n, [p, n](std::span<const T> x, std::span<T> y) {
      for (std::int64_t i = 0; i < n; ++i) {
        T s = 0;
        for (std::int64_t j = 0; j < n; ++j) s += p[i * n + j] * x[static_cast<std::size_t>(j)];
        y[static_cast<std::size_t>(i)] = s;
      }
    });
  }
  // Copies of the operator may be made without the GIL: share the callable, release it under the GIL.
  std::shared_ptr<py::object> f(new py::object(py::reinterpret_borrow<py::object>(M)), [](py::object* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
  const std::string name(fn);
  return trnsolver::LinearOperator<T>(n, [f, n, name](std::span<const T> x, std::span<T> y) {
    py::gil_scoped_acquire gil;
    auto xa = py::array_t<T>(static_cast<py::ssize_t>(x.size()));
    std::copy(x.begin(), x.end(), xa.mutable_data());
    py::object r = (*f)(xa);
    auto z = c_vector<T>(r, name, "M(r)");
    if (z.size() != n) {
      tp::mismatch(
          name, "the preconditioner returned " + std::to_string(z.size()) + " entries, expected " + std::to_string(n),
          "M(r) must return an array shaped like r");
    }
    std::copy(z.data(), z.data() + n, y.begin());
  });
}

/// x0 (or zeros) as a fresh contiguous T array of n entries (the solver overwrites it).
template <class T>
py::array_t<T> start_vector(py::handle x0, std::int64_t n, std::string_view fn, const char* name) {
  py::array_t<T> x(static_cast<py::ssize_t>(n));
  if (x0.is_none()) {
    std::fill(x.mutable_data(), x.mutable_data() + n, T(0));
    return x;
  }
  auto v = c_vector<T>(x0, fn, name);
  if (v.size() != n) {
    tp::mismatch(fn,
                 std::string(name) + " has " + std::to_string(v.size()) + " entries but A is " + std::to_string(n) +
                     "x" + std::to_string(n),
                 "pass one entry per row of A");
  }
  std::copy(v.data(), v.data() + n, x.mutable_data());
  return x;
}

tp::Kind solver_kind(py::handle A, py::handle b, std::string_view fn) {
  tp::Kind ka = is_bsr(A) ? value_kind(A.attr("blocks"), fn) : csr_kind(A, fn);
  if (b.is_none()) return ka;
  py::array bb = tp::as_ndarray(b, fn, "b");
  const tp::Kind k = tp::promote(ka, tp::kind_of(bb, fn, "b"));
  if (k == tp::Kind::c64 || k == tp::Kind::c128) tp::invalid(fn, "b is complex", "trnsparse is real");
  return k;
}

/// Runs f.template operator()<T>(a) with a the Csr or Bsr of A.
template <class F>
py::object with_matrix(py::handle A, py::handle b, std::string_view fn, F&& f) {
  const bool bsr = is_bsr(A);
  return dispatch_real(solver_kind(A, b, fn), [&]<class T>() -> py::object {
    if (bsr) {
      auto a = bsr_in<T>(A, fn);
      return f.template operator()<T>(a, a.rows);
    }
    auto a = csr_in<T>(A, fn);
    return f.template operator()<T>(a, a.rows);
  });
}

enum class Method { cg, chebyshev, richardson };

py::object krylov_py(Method method, const char* fn, py::handle A, py::handle b, py::handle x0, py::handle M, double p1,
                     double p2, py::kwargs kw) {
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto options = krylov_options(kw, fn);
  tp::reject_unknown(kw, fn);
  return with_matrix(A, b, fn, [&]<class T>(const auto& a, std::int64_t n) -> py::object {
    auto bv = c_vector<T>(b, fn, "b");
    auto x = start_vector<T>(x0, n, fn, "x0");
    py::list keep;
    auto prec = preconditioner_of<T>(M, a, n, fn, keep);
    std::span<const T> bs(bv.data(), static_cast<std::size_t>(bv.size()));
    std::span<T> xs(x.mutable_data(), static_cast<std::size_t>(n));
    auto r = tp::run(options, [&] {
      switch (method) {
        case Method::cg: return trnsparse::cg(a, bs, xs, options, prec);
        case Method::chebyshev:
          return trnsparse::chebyshev(a, bs, xs, trnsparse::SpectrumBounds{p1, p2, 0}, options, prec);
        case Method::richardson: return trnsparse::richardson(a, bs, xs, p1, options, prec);
      }
      return trnsolver::KrylovResult{};
    });
    if (want) return py::make_tuple(x, py::cast(std::move(r)));
    return py::make_tuple(x, r.iterations, r.relative_residual);
  });
}

py::object power_iteration_py(py::handle A, py::handle v0, py::kwargs kw) {
  constexpr const char* fn = "trnsparse.power_iteration";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto options = krylov_options(kw, fn);
  tp::reject_unknown(kw, fn);
  return with_matrix(A, py::none(), fn, [&]<class T>(const auto& a, std::int64_t n) -> py::object {
    py::object start = py::reinterpret_borrow<py::object>(v0);
    if (start.is_none()) {
      start = py::module_::import("numpy").attr("random").attr("default_rng")(options.seed).attr("standard_normal")(n);
    }
    auto v = start_vector<T>(start, n, fn, "v0");
    std::span<T> vs(v.mutable_data(), static_cast<std::size_t>(n));
    double lambda = 0;
    auto r = tp::run(options, [&] { return trnsparse::power_iteration(a, vs, lambda, options); });
    return tp::with_report(py::make_tuple(lambda, v), r, want);
  });
}

py::object lanczos_bounds_py(py::handle A, std::int64_t steps, const std::string& preconditioner, bool spd,
                             py::kwargs kw) {
  constexpr const char* fn = "trnsparse.lanczos_bounds";
  auto options = tp::options_from<trncore::Options>(kw, fn);
  trnsparse::Preconditioner p = trnsparse::Preconditioner::none;
  if (preconditioner == "jacobi")
    p = trnsparse::Preconditioner::jacobi;
  else if (preconditioner != "none") {
    tp::invalid(fn, "preconditioner '" + preconditioner + "' is unknown", "use 'none' or 'jacobi'");
  }
  return dispatch_real(csr_kind(A, fn), [&]<class T>() -> py::object {
    auto a = csr_in<T>(A, fn);
    auto s = tp::run(options, [&] { return trnsparse::lanczos_bounds(a, steps, p, options, spd); });
    return py::cast(s);  // trnsolver.SpectrumBounds (registered by trnsolver; iterable as (lo, hi))
  });
}

py::object diagonal_py(py::handle A) {
  constexpr const char* fn = "trnsparse.diagonal";
  return with_matrix(A, py::none(), fn, [&]<class T>(const auto& a, std::int64_t) -> py::object {
    return vector_to_numpy(tp::released([&] { return trnsparse::diagonal(a); }));
  });
}

py::object jacobi_py(py::handle A) {
  constexpr const char* fn = "trnsparse.jacobi_preconditioner";
  return with_matrix(A, py::none(), fn, [&]<class T>(const auto& a, std::int64_t) -> py::object {
    // trnsolver.LinearOperator (float64) or LinearOperatorF32, registered by trnsolver.
    return py::cast(tp::released([&] { return trnsparse::jacobi_preconditioner(a); }));
  });
}

trnsparse::Ordering ordering_of(const std::string& s, std::string_view fn) {
  if (s == "automatic") return trnsparse::Ordering::automatic;
  if (s == "natural") return trnsparse::Ordering::natural;
  if (s == "amd") return trnsparse::Ordering::amd;
  tp::invalid(fn, "ordering '" + s + "' is unknown", "use 'automatic', 'natural' or 'amd'");
}

/// b (n,) or (n, nrhs) as float64 C-order; x of shape (out_rows,) or (out_rows, nrhs).
template <class Solve>
py::array direct_solve(py::handle b, std::int64_t rows, std::int64_t out_rows, std::string_view fn, Solve&& solve) {
  py::array a = tp::as_ndarray(b, fn, "b");
  if (a.ndim() != 1 && a.ndim() != 2) {
    tp::mismatch(fn, "b must be 1-D or 2-D, got shape " + tp::detail::shape_text(a), "pass (n,) or (n, nrhs)");
  }
  auto bd = py::array_t<double, py::array::c_style>::ensure(tp::as_dtype<double>(a, fn, "b"));
  if (bd.shape(0) != rows) {
    tp::mismatch(fn, "b has " + std::to_string(bd.shape(0)) + " rows but A has " + std::to_string(rows),
                 "pass one row of b per row of A");
  }
  const std::int64_t nrhs = bd.ndim() == 2 ? bd.shape(1) : 1;
  py::array_t<double> x = bd.ndim() == 2 ? tp::new_array<double>({out_rows, nrhs}) : tp::new_array<double>({out_rows});
  std::span<const double> bs(bd.data(), static_cast<std::size_t>(bd.size()));
  std::span<double> xs(x.mutable_data(), static_cast<std::size_t>(x.size()));
  tp::released([&] { solve(bs, xs, nrhs); });
  return x;
}

template <class F>
F* make_factor(py::handle A, const std::string& ordering, const char* fn) {
  const auto ord = ordering_of(ordering, fn);
  auto a = csr_in<double>(A, fn);
  return tp::released([&] { return new F(a, ord); });
}

}  // namespace

void bind_solvers(py::module_& m) {
  const char* krylov_kw =
      "Keywords (trnsolver::KrylovOptions, C++ names; options=trnsolver.KrylovOptions(...) too): report, rtol (1e-8), "
      "atol (0), max_iterations (0 = 10·n), "
      "stagnation_window (100), threads, monitor=callable(trncore.Progress) -> bool (True stops; Ctrl-C stops "
      "too and raises KeyboardInterrupt), options=. backend='sim' is trncore.NotSupported (host SpMV).";
  m.def(
      "cg",
      [](py::handle A, py::handle b, py::handle x0, py::handle M, py::kwargs kw) {
        return krylov_py(Method::cg, "trnsparse.cg", A, b, x0, M, 0, 0, std::move(kw));
      },
      py::arg("A"), py::arg("b"), py::arg("x0") = py::none(), py::arg("M") = py::none(),
      (std::string(
           "Conjugate gradients for SPD A (CSR-like or BSRMatrix): trnsparse::cg = trnsolver::cg on the "
           "sparse operator. Returns (x, iterations, relative_residual) like trnsolver.cg and upstream; "
           "report=True returns (x, trnsolver.KrylovResult): converged, reason, iterations, "
           "relative_residual = ‖b − Ax‖/‖b‖ of x (true residual), residual_history, detail, "
           "stopped_by_monitor. Non-convergence is a result, never an exception (check it with report=True). "
           "M: None, 'jacobi', "
           "jacobi_preconditioner(A) or another trnsolver.LinearOperator, a callable r -> M⁻¹r, or a dense (n, n) M⁻¹. "
           "Error bound: ‖e_k‖_A ≤ 2((√κ−1)/(√κ+1))^k ‖e_0‖_A. ") +
       krylov_kw + " Upstream-shaped form: cg_bsr.")
          .c_str());
  m.def(
      "chebyshev",
      [](py::handle A, py::handle b, double lmin, double lmax, py::handle x0, py::handle M, py::kwargs kw) {
        return krylov_py(Method::chebyshev, "trnsparse.chebyshev", A, b, x0, M, lmin, lmax, std::move(kw));
      },
      py::arg("A"), py::arg("b"), py::arg("lambda_min"), py::arg("lambda_max"), py::arg("x0") = py::none(),
      py::arg("M") = py::none(),
      (std::string(
           "Chebyshev iteration for SPD A whose (preconditioned) spectrum lies in [lambda_min, lambda_max] "
           "(trnsparse::chebyshev; lanczos_bounds estimates it). Returns (x, iterations, relative_residual), or "
           "(x, KrylovResult) with report=True. When the "
           "interval holds the spectrum ‖r_k‖ ≤ ‖r_0‖/T_k(σ). ") +
       krylov_kw)
          .c_str());
  m.def(
      "richardson",
      [](py::handle A, py::handle b, double omega, py::handle x0, py::handle M, py::kwargs kw) {
        return krylov_py(Method::richardson, "trnsparse.richardson", A, b, x0, M, omega, 0, std::move(kw));
      },
      py::arg("A"), py::arg("b"), py::arg("omega"), py::arg("x0") = py::none(), py::arg("M") = py::none(),
      (std::string(
           "Richardson iteration x ← x + ω M⁻¹(b − Ax) (trnsparse::richardson); converges for SPD A iff "
           "0 < ω < 2/λmax. Returns (x, iterations, relative_residual), or (x, KrylovResult) with report=True. ") +
       krylov_kw)
          .c_str());
  m.def("power_iteration", &power_iteration_py, py::arg("A"), py::arg("v0") = py::none(),
        (std::string("Power iteration for the eigenvalue of largest modulus (trnsparse::power_iteration). Returns "
                     "(lam, v) like trnsolver.power_iteration, ((lam, v), KrylovResult) with report=True; converged "
                     "when ‖Av − λv‖ ≤ max(rtol·|λ|, atol); for symmetric A the "
                     "eigenvalue error is ≤ ‖r‖²/gap. v0 defaults to a standard normal vector drawn from seed. ") +
         krylov_kw)
            .c_str());
  m.def("lanczos_bounds", &lanczos_bounds_py, py::arg("A"), py::arg("steps") = 30, py::arg("preconditioner") = "none",
        py::arg("spd") = true,
        "trnsolver.SpectrumBounds (lambda_min, lambda_max, steps; iterable as (lo, hi)) on the extreme eigenvalues of "
        "symmetric CSR A (of D⁻¹A with "
        "preconditioner='jacobi'): trnsparse::lanczos_bounds, Ritz values widened by their Ritz residuals; start "
        "vector from seed=. Keywords: seed, threads.");
  m.def("diagonal", &diagonal_py, py::arg("A"),
        "The main diagonal of a CSR or BSR matrix (min(rows, cols) entries; duplicates summed; missing 0): "
        "trnsparse::diagonal. Upstream name for BSR: bsr_diagonal.");
  m.def("jacobi_preconditioner", &jacobi_py, py::arg("A"),
        "The Jacobi preconditioner z = r / diag(A) of a square CSR/BSR matrix as a trnsolver.LinearOperator "
        "(LinearOperatorF32 for float32; callable r -> z; applied in C++ when passed as M to cg/chebyshev/richardson). "
        "Raises "
        "trncore.InvalidArgument naming the index of a zero or non-finite diagonal entry, DimensionMismatch when A "
        "is not square (trnsparse::jacobi_preconditioner).");

  py::class_<trnsparse::Cholesky>(
      m, "Cholesky",
      "Sparse Cholesky A = P L Lᵀ Pᵀ of an SPD matrix (CHOLMOD; trnsparse::Cholesky): analyses and factors once, "
      "solves any number of right-hand sides. Reads the lower triangle only. Factors in double. info > 0 when "
      "a leading minor is not positive definite (then solve raises trncore.InvalidArgument). Backward stable: "
      "(A + ΔA)x̂ = b with |ΔA| ≤ c·n·u·|L||Lᵀ|.")
      .def(py::init([](py::handle A, const std::string& ordering) {
             return make_factor<trnsparse::Cholesky>(A, ordering, "trnsparse.Cholesky");
           }),
           py::arg("A"), py::arg("ordering") = "automatic")
      .def_property_readonly("info", &trnsparse::Cholesky::info,
                             "0, or k > 0: the leading minor of order k is not positive definite.")
      .def_property_readonly("size", &trnsparse::Cholesky::size, "The matrix order n.")
      .def_property_readonly("factor_nonzeros", &trnsparse::Cholesky::factor_nonzeros,
                             "Entries of L including fill (ordering quality).")
      .def(
          "refactor",
          [](trnsparse::Cholesky& c, py::handle A) {
            auto a = csr_in<double>(A, "trnsparse.Cholesky.refactor");
            tp::released([&] { c.refactor(a); });
          },
          py::arg("A"), "Refactors a matrix with the same pattern (numeric phase only).")
      .def(
          "solve",
          [](const trnsparse::Cholesky& c, py::handle b) {
            return direct_solve(b, c.size(), c.size(), "trnsparse.Cholesky.solve",
                                [&](auto bs, auto xs, std::int64_t nrhs) { c.solve(bs, xs, nrhs); });
          },
          py::arg("b"), "x with A x = b; b is (n,) or (n, nrhs); float64 result.");

  py::class_<trnsparse::Lu>(m, "Lu",
                            "Sparse LU P A Q = L U (UMFPACK, threshold partial pivoting; trnsparse::Lu). info > 0 "
                            "when A is singular (number of zero pivots). Factors in double; backward stable.")
      .def(py::init([](py::handle A, const std::string& ordering) {
             return make_factor<trnsparse::Lu>(A, ordering, "trnsparse.Lu");
           }),
           py::arg("A"), py::arg("ordering") = "automatic")
      .def_property_readonly("info", &trnsparse::Lu::info, "0, or the number of zero pivots of U (A singular).")
      .def_property_readonly("size", &trnsparse::Lu::size, "The matrix order n.")
      .def_property_readonly("rcond_estimate", &trnsparse::Lu::rcond_estimate,
                             "UMFPACK's min|u_ii|/max|u_ii| (cheap, rough).")
      .def(
          "solve",
          [](const trnsparse::Lu& l, py::handle b, bool transpose) {
            return direct_solve(b, l.size(), l.size(), "trnsparse.Lu.solve",
                                [&](auto bs, auto xs, std::int64_t nrhs) { l.solve(bs, xs, nrhs, transpose); });
          },
          py::arg("b"), py::arg("transpose") = false, "x with op(A) x = b (op = Aᵀ with transpose=True).");

  py::class_<trnsparse::Qr>(m, "Qr",
                            "Sparse QR A E = Q R (SPQR; trnsparse::Qr) of an m×n matrix, m ≥ n, for least squares "
                            "min‖Ax − b‖. rank < cols for rank-deficient A (basic solution). Backward stable.")
      .def(py::init([](py::handle A, const std::string& ordering) {
             return make_factor<trnsparse::Qr>(A, ordering, "trnsparse.Qr");
           }),
           py::arg("A"), py::arg("ordering") = "automatic")
      .def_property_readonly("info", &trnsparse::Qr::info, "cols − rank: 0 for full column rank.")
      .def_property_readonly("rank", &trnsparse::Qr::rank, "SPQR's rank estimate.")
      .def_property_readonly("rows", &trnsparse::Qr::rows, "m, the rows of A.")
      .def_property_readonly("cols", &trnsparse::Qr::cols, "n, the columns of A.")
      .def(
          "solve",
          [](const trnsparse::Qr& q, py::handle b) {
            return direct_solve(b, q.rows(), q.cols(), "trnsparse.Qr.solve",
                                [&](auto bs, auto xs, std::int64_t nrhs) { q.solve(bs, xs, nrhs); });
          },
          py::arg("b"), "The least-squares solution x (n,) or (n, nrhs) of min‖A x − b‖.");
}

}  // namespace trnsparse_python
