// Krylov solvers, preconditioners, power iteration, Lanczos bounds, Arnoldi and the bf16 models
// (<trnsolver/krylov.hpp>) over LinearOperator / dense NumPy matrices / scipy objects / Python callables.
#include "bind.hpp"

#include <trnsolver/krylov.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <random>
#include <string>
#include <vector>

namespace trnsolver_python {

namespace {

/// A contiguous copy of a 1-D input as T (the solver writes x, so x0 is never aliased).
template <class T>
py::array_t<T> vector_copy(py::handle obj, std::string_view fn, std::string_view name) {
  auto v = tp::in_vector<T>(obj, fn, name);
  return py::array_t<T>(py::module_::import("numpy").attr("array")(v.array, py::arg("dtype") = py::dtype::of<T>(),
                                                                   py::arg("copy") = true));
}

struct Common {
  py::handle a, b, x0, m;
  std::optional<double> tol;
  std::optional<std::int64_t> maxiter;
  std::int64_t maxiter_default = 0;  ///< upstream's default when neither maxiter nor max_iterations is given
  std::int64_t maxiter_scale = 1;    ///< gmres: upstream's maxiter counts cycles of `restart` inner steps
};

/// Pops the solver keywords, applies the upstream positional ones (tol → rtol, maxiter → max_iterations).
trnsolver::KrylovOptions solver_options(py::dict& kw, const Common& c, std::string_view fn, bool& want) {
  want = tp::pop_flag(kw, "report", false, fn);
  // A KrylovOptions passed as options= carries rtol and max_iterations: upstream defaults do not override it.
  const bool from_options = kw.contains("options") && py::isinstance<trnsolver::KrylovOptions>(kw["options"]);
  const bool explicit_rtol = kw.contains("rtol"), explicit_max = kw.contains("max_iterations");
  const bool has_rtol = from_options || explicit_rtol, has_max = from_options || explicit_max;
  auto o = pop_krylov_options(kw, fn);
  if (c.tol) {
    if (explicit_rtol) tp::invalid(fn, "both tol and rtol given", "pass one of them (tol is upstream's name for rtol)");
    o.rtol = *c.tol;
  } else if (!has_rtol) {
    o.rtol = 1e-6;  // upstream's default tol
  }
  if (c.maxiter) {
    if (explicit_max) {
      tp::invalid(fn, "both maxiter and max_iterations given", "pass one of them (maxiter is upstream's name)");
    }
    if (*c.maxiter < 0) tp::invalid(fn, "maxiter = " + std::to_string(*c.maxiter), "pass maxiter ≥ 0");
    o.max_iterations = *c.maxiter * c.maxiter_scale;
  } else if (!has_max) {
    o.max_iterations = c.maxiter_default * c.maxiter_scale;
  }
  return o;
}

template <class T, class Call>
py::object run_solver(const Common& c, py::dict& kw, std::string_view fn, Call&& call) {
  bool want = false;
  auto options = solver_options(kw, c, fn, want);
  tp::reject_unknown(kw, fn);
  auto b = vector_copy<T>(c.b, fn, "b");
  const std::int64_t n = b.shape(0);
  py::array_t<T> x;
  if (c.x0.is_none()) {
    x = py::array_t<T>(static_cast<py::ssize_t>(n));
    std::fill(x.mutable_data(), x.mutable_data() + n, T(0));
  } else {
    x = vector_copy<T>(c.x0, fn, "x0");
  }
  auto op = operator_of<T>(c.a, n, fn, "A", options).op;
  trnsolver::LinearOperator<T> prec;
  if (!c.m.is_none()) prec = operator_of<T>(c.m, n, fn, "M", options).op;
  std::span<const T> bs(b.data(), static_cast<std::size_t>(n));
  std::span<T> xs(x.mutable_data(), static_cast<std::size_t>(x.shape(0)));
  trnsolver::KrylovResult r = tp::run(options, [&] { return call(op, bs, xs, options, prec); });
  if (want) return py::make_tuple(x, r);
  return py::make_tuple(x, r.iterations, r.relative_residual);
}

/// Dispatch on the precision: float32 when both A and b are float32 (or A a LinearOperatorF32 / callable
/// and b float32), else float64.
template <class Call>
py::object dispatch(const Common& c, py::kwargs kwargs, std::string_view fn, Call&& call) {
  py::dict kw = kwargs;
  const auto ka = operator_kind(c.a, fn, "A");
  const auto kb = real_kind(tp::as_ndarray(c.b, fn, "b"), fn, "b");
  if (tp::promote(ka, kb) == tp::Kind::f32) return run_solver<float>(c, kw, fn, call);
  return run_solver<double>(c, kw, fn, call);
}

#define TRNSOLVER_SOLVER_LAMBDA(name)                                                         \
  [](const auto& op, auto bs, auto xs, const trnsolver::KrylovOptions& o, const auto& prec) { \
    return trnsolver::name(op, bs, xs, o, prec);                                              \
  }

const char* const krylov_keywords =
    "Keywords (trnsolver::KrylovOptions field names): rtol (= tol; None: upstream's 1e-6), atol=0, max_iterations "
    "(= maxiter; 0 = 10·n), "
    "restart=30 (gmres), orthogonalization='mgs'|'cgs2' (gmres), stagnation_window=100, threads, "
    "monitor=callable(progress) -> bool (once per iteration; True stops: result.stopped_by_monitor, reason "
    "'stopped_by_monitor'), options=trnsolver.KrylovOptions(...), report=False. "
    "A is a trnsolver.LinearOperator[F32], a dense square matrix, a scipy.sparse matrix or LinearOperator, or a "
    "callable f(x) -> y (run with the GIL re-acquired); M (the preconditioner, z = M r ≈ A⁻¹ r) likewise. "
    "Precision: float32 when A and b are float32, else float64. Returns (x, iterations, relative_residual) as "
    "upstream, or (x, KrylovResult) with report=True; non-convergence is a result, never an exception (check "
    "KrylovResult.converged). Ctrl-C stops the iteration and raises KeyboardInterrupt. backend='sim' and "
    "target_forward_error raise trncore.NotSupported (a residual test certifies no forward error). Raises "
    "trncore.DimensionMismatch (sizes), InvalidArgument (non-finite b/x0, bad tolerances).";

std::string doc(const char* head) { return std::string(head) + "\n\n" + krylov_keywords; }

trnsolver::SpectrumBounds bounds_of(py::handle obj, std::string_view fn) {
  if (py::isinstance<trnsolver::SpectrumBounds>(obj)) return obj.cast<trnsolver::SpectrumBounds>();
  try {
    auto t = obj.cast<std::pair<double, double>>();
    return trnsolver::SpectrumBounds{t.first, t.second, 0};
  } catch (const py::cast_error&) {
    tp::invalid(fn, "bounds is neither a SpectrumBounds nor a (lambda_min, lambda_max) pair",
                "pass trnsolver.lanczos_bounds(A) or (lo, hi)");
  }
}

template <class T>
py::object power_run(py::handle a, py::handle v0, py::dict& kw) {
  constexpr const char* fn = "trnsolver.power_iteration";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto options = pop_krylov_options(kw, fn);
  tp::reject_unknown(kw, fn);
  std::int64_t n = -1;
  py::array_t<T> v;
  if (!v0.is_none()) {
    v = vector_copy<T>(v0, fn, "v0");
    n = v.shape(0);
  }
  auto op = operator_of<T>(a, n, fn, "A", options).op;
  if (v0.is_none()) {  // a pseudo-random start from options.seed (a fixed vector may be orthogonal to the target)
    n = op.size();
    v = py::array_t<T>(static_cast<py::ssize_t>(n));
    std::mt19937_64 gen(options.seed);
    std::uniform_real_distribution<double> uni(-1.0, 1.0);
    for (std::int64_t i = 0; i < n; ++i) v.mutable_data()[i] = static_cast<T>(uni(gen));
  }
  double lambda = 0.0;
  std::span<T> vs(v.mutable_data(), static_cast<std::size_t>(v.shape(0)));
  auto r = tp::run(options, [&] { return trnsolver::power_iteration(op, vs, lambda, options); });
  return tp::with_report(py::make_tuple(lambda, v), r, want);
}

template <class T>
py::object preconditioner(py::handle a, const char* fn,
                          const std::function<trnsolver::LinearOperator<T>(trncore::MatrixView<const T>)>& make) {
  auto in = tp::in_matrix<T>(a, fn, "A");
  return py::cast(tp::released([&] { return make(in.view); }));
}

template <class T>
py::object bf16_run(py::handle a, py::handle b, py::handle x0, std::optional<double> tol,
                    std::optional<std::int64_t> maxiter, std::optional<double> omega, py::dict& kw, const char* fn) {
  Common c{a, b, x0, py::none(), tol, maxiter};
  bool want = false;
  auto options = solver_options(kw, c, fn, want);
  tp::reject_unknown(kw, fn);
  auto am = tp::in_matrix<T>(a, fn, "A");
  auto bv = vector_copy<T>(b, fn, "b");
  const std::int64_t n = bv.shape(0);
  py::array_t<T> x;
  if (x0.is_none()) {
    x = py::array_t<T>(static_cast<py::ssize_t>(n));
    std::fill(x.mutable_data(), x.mutable_data() + n, T(0));
  } else {
    x = vector_copy<T>(x0, fn, "x0");
  }
  std::span<const T> bs(bv.data(), static_cast<std::size_t>(n));
  std::span<T> xs(x.mutable_data(), static_cast<std::size_t>(x.shape(0)));
  auto r = tp::run(options, [&] {
    return omega ? trnsolver::richardson_bf16(am.view, bs, xs, *omega, options)
                 : trnsolver::cg_bf16(am.view, bs, xs, options);
  });
  if (want) return py::make_tuple(x, r);
  return py::make_tuple(x, r.iterations, r.relative_residual);
}

bool is_f32(py::handle a, const char* fn) { return real_kind(tp::as_ndarray(a, fn, "A"), fn, "A") == tp::Kind::f32; }

}  // namespace

void bind_krylov(py::module_& m) {
  using OptD = std::optional<double>;
  using OptI = std::optional<std::int64_t>;
  m.def(
      "cg",
      [](py::handle a, py::handle b, py::handle x0, OptD tol, OptI maxiter, py::handle mm, py::kwargs kw) {
        return dispatch({a, b, x0, mm, tol, maxiter, 1000}, kw, "trnsolver.cg", TRNSOLVER_SOLVER_LAMBDA(cg));
      },
      py::arg("A"), py::arg("b"), py::arg("x0") = py::none(), py::arg("tol") = py::none(),
      py::arg("maxiter") = py::none(), py::arg("M") = py::none(),
      doc("Conjugate gradients for SPD A (and SPD M) (trnsolver::cg): stops when the TRUE residual "
          "‖b − Ax‖₂ ≤ max(tol·‖b‖₂, atol). Upstream cg(A, b, x0=None, tol=1e-6, maxiter=1000, M=None) -> "
          "(x, iters, rel_res) (tol None = 1e-6, maxiter None = 1000, unless rtol=/max_iterations= are given); "
          "breakdown (pᵀAp ≤ 0: A not SPD) is KrylovResult.reason 'breakdown'.")
          .c_str());
  m.def(
      "gmres",
      [](py::handle a, py::handle b, py::handle x0, OptD tol, OptI maxiter, std::int64_t restart, py::handle mm,
         py::kwargs kw) {
        if (kw.contains("restart")) tp::invalid("trnsolver.gmres", "restart given twice", "pass restart once");
        kw["restart"] = restart;
        return dispatch({a, b, x0, mm, tol, maxiter, 100, std::max<std::int64_t>(restart, 1)}, kw, "trnsolver.gmres",
                        TRNSOLVER_SOLVER_LAMBDA(gmres));
      },
      py::arg("A"), py::arg("b"), py::arg("x0") = py::none(), py::arg("tol") = py::none(),
      py::arg("maxiter") = py::none(), py::arg("restart") = 30, py::arg("M") = py::none(),
      doc("Restarted GMRES(restart), right preconditioned (trnsolver::gmres). Upstream gmres(A, b, x0=None, "
          "tol=1e-6, maxiter=100, restart=30) -> (x, total_iters, rel_res): maxiter counts cycles (restarts) as "
          "upstream, "
          "i.e. max_iterations = maxiter·restart inner steps (each one product with A); max_iterations= gives the "
          "C++ count directly. M (a right preconditioner) is an addition.")
          .c_str());
  m.def(
      "bicgstab",
      [](py::handle a, py::handle b, py::handle x0, OptD tol, OptI maxiter, py::handle mm, py::kwargs kw) {
        return dispatch({a, b, x0, mm, tol, maxiter}, kw, "trnsolver.bicgstab", TRNSOLVER_SOLVER_LAMBDA(bicgstab));
      },
      py::arg("A"), py::arg("b"), py::arg("x0") = py::none(), py::arg("tol") = py::none(),
      py::arg("maxiter") = py::none(), py::arg("M") = py::none(),
      doc("BiCGStab for general A (trnsolver::bicgstab); maxiter None = 10·n. Not in upstream.").c_str());
  m.def(
      "minres",
      [](py::handle a, py::handle b, py::handle x0, OptD tol, OptI maxiter, py::handle mm, py::kwargs kw) {
        return dispatch({a, b, x0, mm, tol, maxiter}, kw, "trnsolver.minres", TRNSOLVER_SOLVER_LAMBDA(minres));
      },
      py::arg("A"), py::arg("b"), py::arg("x0") = py::none(), py::arg("tol") = py::none(),
      py::arg("maxiter") = py::none(), py::arg("M") = py::none(),
      doc("MINRES for symmetric (possibly indefinite) A with an SPD preconditioner (trnsolver::minres); maxiter "
          "None = 10·n. Not in upstream.")
          .c_str());
  m.def(
      "chebyshev",
      [](py::handle a, py::handle b, py::handle bounds, py::handle x0, OptD tol, OptI maxiter, py::handle mm,
         py::kwargs kw) {
        const auto sb = bounds_of(bounds, "trnsolver.chebyshev");
        return dispatch({a, b, x0, mm, tol, maxiter}, kw, "trnsolver.chebyshev",
                        [sb](const auto& op, auto bs, auto xs, const trnsolver::KrylovOptions& o, const auto& prec) {
                          return trnsolver::chebyshev(op, bs, xs, sb, o, prec);
                        });
      },
      py::arg("A"), py::arg("b"), py::arg("bounds"), py::arg("x0") = py::none(), py::arg("tol") = py::none(),
      py::arg("maxiter") = py::none(), py::arg("M") = py::none(),
      doc("Chebyshev iteration for SPD A whose (preconditioned) spectrum lies in bounds = (lambda_min, "
          "lambda_max) or a SpectrumBounds (lanczos_bounds(A)) (trnsolver::chebyshev): ‖r_k‖ ≤ ‖r_0‖/T_k(σ) when "
          "the interval holds the spectrum. InvalidArgument unless 0 < lambda_min < lambda_max. Not in upstream.")
          .c_str());
  m.def(
      "richardson",
      [](py::handle a, py::handle b, double omega, py::handle x0, OptD tol, OptI maxiter, py::handle mm,
         py::kwargs kw) {
        return dispatch({a, b, x0, mm, tol, maxiter}, kw, "trnsolver.richardson",
                        [omega](const auto& op, auto bs, auto xs, const trnsolver::KrylovOptions& o, const auto& prec) {
                          return trnsolver::richardson(op, bs, xs, omega, o, prec);
                        });
      },
      py::arg("A"), py::arg("b"), py::arg("omega"), py::arg("x0") = py::none(), py::arg("tol") = py::none(),
      py::arg("maxiter") = py::none(), py::arg("M") = py::none(),
      doc("Richardson iteration x ← x + ω·M(b − Ax) (trnsolver::richardson); converges for SPD A iff "
          "0 < ω < 2/λmax(MA). InvalidArgument for ω ≤ 0 or non-finite. Not in upstream.")
          .c_str());
  m.def(
      "cg_bf16",
      [](py::handle a, py::handle b, py::handle x0, OptD tol, OptI maxiter, py::kwargs kwargs) {
        py::dict kw = kwargs;
        constexpr const char* fn = "trnsolver.cg_bf16";
        return is_f32(a, fn) ? bf16_run<float>(a, b, x0, tol, maxiter, std::nullopt, kw, fn)
                             : bf16_run<double>(a, b, x0, tol, maxiter, std::nullopt, kw, fn);
      },
      py::arg("A"), py::arg("b"), py::arg("x0") = py::none(), py::arg("tol") = py::none(),
      py::arg("maxiter") = py::none(),
      doc("CG as a NeuronCore would run it with bf16 vectors (trnsolver::cg_bf16): A, b, x rounded to bf16, "
          "TensorEngine products with fp32 accumulation, every update rounded with rounding='nearest_even'|"
          "'stochastic' (seed= keys the random bits: bitwise reproducible). Accepts backend='sim' (the model runs "
          "on the host either way). KrylovResult.true_residual_history holds the fp64 true residuals. A dense "
          "matrix only, no preconditioner. Not in upstream.")
          .c_str());
  m.def(
      "richardson_bf16",
      [](py::handle a, py::handle b, double omega, py::handle x0, OptD tol, OptI maxiter, py::kwargs kwargs) {
        py::dict kw = kwargs;
        constexpr const char* fn = "trnsolver.richardson_bf16";
        return is_f32(a, fn) ? bf16_run<float>(a, b, x0, tol, maxiter, omega, kw, fn)
                             : bf16_run<double>(a, b, x0, tol, maxiter, omega, kw, fn);
      },
      py::arg("A"), py::arg("b"), py::arg("omega"), py::arg("x0") = py::none(), py::arg("tol") = py::none(),
      py::arg("maxiter") = py::none(),
      doc("Damped Jacobi x ← x + ω·D⁻¹(b − Ax) in the bf16 model of cg_bf16 (trnsolver::richardson_bf16); "
          "rounding='stochastic' keeps converging in expectation where round-to-nearest stagnates. Not in upstream.")
          .c_str());

  m.def(
      "power_iteration",
      [](py::handle a, py::handle v0, py::kwargs kwargs) {
        py::dict kw = kwargs;
        constexpr const char* fn = "trnsolver.power_iteration";
        const bool f32 = !v0.is_none() ? tp::promote(operator_kind(a, fn, "A"),
                                                     real_kind(tp::as_ndarray(v0, fn, "v0"), fn, "v0")) == tp::Kind::f32
                                       : operator_kind(a, fn, "A") == tp::Kind::f32 && !PyCallable_Check(a.ptr());
        return f32 ? power_run<float>(a, v0, kw) : power_run<double>(a, v0, kw);
      },
      py::arg("A"), py::arg("v0") = py::none(),
      R"(The eigenvalue of largest modulus of A by power iteration (trnsolver::power_iteration): returns
(lambda, v) with v the unit eigenvector estimate; report=True returns ((lambda, v), KrylovResult).
v0 None: a pseudo-random start drawn from seed= (std::mt19937_64, uniform in [−1, 1]). Converged when
‖Av − λv‖₂ ≤ max(rtol·|λ|, atol); for symmetric A then |λ − λ_true| ≤ ‖Av − λv‖²/gap. Keywords rtol=1e-8,
atol, max_iterations (0 = 10·n), threads, monitor, seed, report. A callable A needs v0 (its size).
Raises trncore.InvalidArgument for a zero or non-finite v0. Not in upstream.)");
  m.def(
      "lanczos_bounds",
      [](py::handle a, std::int64_t steps, bool spd, py::kwargs kwargs) {
        constexpr const char* fn = "trnsolver.lanczos_bounds";
        py::dict kw = kwargs;
        std::optional<std::int64_t> n = tp::pop<std::int64_t>(kw, "n", fn);
        trncore::Options o;
        tp::pop_options(o, kw, fn);
        tp::reject_unknown(kw, fn);
        auto op = operator_of<double>(a, n.value_or(-1), fn, "A", o).op;
        return tp::run(o, [&] { return trnsolver::lanczos_bounds(op, steps, o, spd); });
      },
      py::arg("A"), py::arg("steps") = 30, py::arg("spd") = true,
      R"(Bounds [lambda_min, lambda_max] on the spectrum of the symmetric operator A from `steps` Lanczos steps
with full reorthogonalization (trnsolver::lanczos_bounds), each Ritz value widened by its Ritz residual;
spd=True clamps lambda_min ≥ 0. Returns SpectrumBounds (unpacks as (lo, hi)). Keywords: seed (start vector),
threads, monitor, n (size of a callable A). float64. Raises trncore.InvalidArgument for steps < 1,
NotSupported for backend='sim'. Not in upstream.)");
  m.def(
      "arnoldi",
      [](py::handle a, py::handle start, std::int64_t steps, const std::string& orth) {
        constexpr const char* fn = "trnsolver.arnoldi";
        auto s = vector_copy<double>(start, fn, "start");
        auto op = operator_of<double>(a, s.shape(0), fn, "A", trncore::Options{}).op;
        const auto o = trnsolver::parse_orthogonalization(orth);
        std::span<const double> ss(s.data(), static_cast<std::size_t>(s.shape(0)));
        auto r = tp::released([&] { return trnsolver::arnoldi(op, ss, steps, o); });
        auto v = tp::new_matrix<double>(r.n, r.steps + 1, trncore::Layout::col_major);
        auto h = tp::new_matrix<double>(r.steps + 1, r.steps, trncore::Layout::col_major);
        std::copy(r.basis.begin(), r.basis.end(), v.array.mutable_data());
        std::copy(r.hessenberg.begin(), r.hessenberg.end(), h.array.mutable_data());
        return py::make_tuple(v.array, h.array);
      },
      py::arg("A"), py::arg("start"), py::arg("steps"), py::arg("orthogonalization") = "mgs",
      R"(k = steps Arnoldi steps from `start` as GMRES runs them (trnsolver::arnoldi): returns (V, H) with
V n×(k+1) orthonormal up to rounding and H (k+1)×k upper Hessenberg, A V[:, :k] = V H (fewer steps on an
invariant subspace). float64. orthogonalization 'mgs' or 'cgs2'. Not in upstream.)");

  m.def(
      "jacobi_preconditioner",
      [](py::handle a) -> py::object {
        constexpr const char* fn = "trnsolver.jacobi_preconditioner";
        if (is_f32(a, fn)) {
          return preconditioner<float>(a, fn, [](auto v) { return trnsolver::jacobi_preconditioner(v); });
        }
        return preconditioner<double>(a, fn, [](auto v) { return trnsolver::jacobi_preconditioner(v); });
      },
      py::arg("A"),
      R"(The Jacobi preconditioner z_i = r_i/a_ii (trnsolver::jacobi_preconditioner) as a LinearOperator
(LinearOperatorF32 for float32 A); callable like upstream's. Pass it as M= to the solvers.
Raises trncore.DimensionMismatch (not square), InvalidArgument (a zero or non-finite diagonal entry).)");
  m.def(
      "block_jacobi_preconditioner",
      [](py::handle a, std::int64_t block_size) -> py::object {
        constexpr const char* fn = "trnsolver.block_jacobi_preconditioner";
        if (is_f32(a, fn)) {
          return preconditioner<float>(
              a, fn, [block_size](auto v) { return trnsolver::block_jacobi_preconditioner(v, block_size); });
        }
        return preconditioner<double>(
            a, fn, [block_size](auto v) { return trnsolver::block_jacobi_preconditioner(v, block_size); });
      },
      py::arg("A"), py::arg("block_size") = 16,
      R"(Block-Jacobi preconditioner: LU-factored diagonal blocks of block_size (the last may be smaller)
(trnsolver::block_jacobi_preconditioner), as a LinearOperator. Raises trncore.InvalidArgument for
block_size < 1 or a singular block, DimensionMismatch for a non-square A.)");
  m.def(
      "ssor_preconditioner",
      [](py::handle a, double omega) -> py::object {
        constexpr const char* fn = "trnsolver.ssor_preconditioner";
        if (is_f32(a, fn)) {
          return preconditioner<float>(a, fn, [omega](auto v) { return trnsolver::ssor_preconditioner(v, omega); });
        }
        return preconditioner<double>(a, fn, [omega](auto v) { return trnsolver::ssor_preconditioner(v, omega); });
      },
      py::arg("A"), py::arg("omega") = 1.0,
      R"(SSOR(ω) preconditioner M = ω/(2−ω)·(D/ω + L)D⁻¹(D/ω + U), applied as z = M⁻¹r by two triangular
sweeps (trnsolver::ssor_preconditioner); SPD for symmetric A with a positive diagonal. A LinearOperator.
Raises trncore.InvalidArgument for ω ∉ (0, 2) or a zero diagonal entry.)");
}

}  // namespace trnsolver_python
