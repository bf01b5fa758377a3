// BLAS level 2 bindings: gemv, symv/hemv, trmv, trsv, ger/geru/gerc, syr/her, syr2/her2.
#include "bind.hpp"
#include "common.hpp"

#include <trnblas/level2.hpp>

namespace trnblas_python {

namespace {

/// A matrix operand in whichever layout its strides give (a copy only when neither does).
template <class T>
Operand<T> native(py::handle obj, std::string_view fn, std::string_view name) {
  py::array_t<T> a = typed_matrix<T>(obj, fn, name);
  for (Layout l : {Layout::row_major, Layout::col_major}) {
    if (auto ld = ld_in_layout(a, l))
      return {a, trncore::MatrixView<const T>(a.data(), a.shape(0), a.shape(1), *ld, l)};
  }
  py::array_t<T> c = copy_in_layout(a, Layout::row_major);
  return {c, trncore::MatrixView<const T>(c.data(), c.shape(0), c.shape(1), *ld_in_layout(c, Layout::row_major),
                                          Layout::row_major)};
}

void require_square(std::int64_t rows, std::int64_t cols, std::string_view fn, const char* name) {
  if (rows != cols) {
    tp::mismatch(fn, std::string(name) + " is " + std::to_string(rows) + "x" + std::to_string(cols) + ", not square",
                 std::string("pass a square ") + name);
  }
}

// ---- gemv, symv, hemv ----

py::object gemv(py::object alpha, py::object A, py::object x, py::object beta, py::object y, py::object trans,
                py::kwargs kw) {
  constexpr const char* fn = "trnblas.gemv";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha"), b = scalar_arg(beta, fn, "beta");
  const Op op = parse_trans(trans, fn, "trans");
  Kind k = with_scalar(with_scalar(operands_kind({{A, "A"}, {x, "x"}, {y, "y"}, {out, "out"}}, fn), a), b);
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto av = native<T>(A, fn, "A");
    const bool t = op != Op::no_trans;
    const std::int64_t m = av.view.rows(), n = av.view.cols();
    auto xv = vector_arg<T>(x, fn, "x");
    if (xv.view.size() != (t ? m : n)) {
      tp::mismatch(fn,
                   "x has " + std::to_string(xv.view.size()) + " elements but op(A) has " + std::to_string(t ? m : n) +
                       " columns (A is " + std::to_string(m) + "x" + std::to_string(n) + ")",
                   "pass x with as many elements as op(A) has columns");
    }
    auto r = result_vector<T>(out, y, t ? n : m, fn, "y");
    const T al = scalar_as<T>(a), be = y.is_none() ? T(0) : scalar_as<T>(b);
    tp::run(opts, [&] {
      trnblas::gemv<T>(av.view.layout(), op, m, n, al, av.view.data(), av.view.ld(), xv.view.data(), xv.view.inc(), be,
                       r.view.data(), r.view.inc(), opts);
    });
    return r.array;
  });
}

template <bool Hermitian>
py::object symv(py::object alpha, py::object A, py::object x, py::object beta, py::object y, py::object uplo_obj,
                py::kwargs kw) {
  const char* fn = Hermitian ? "trnblas.hemv" : "trnblas.symv";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha"), b = scalar_arg(beta, fn, "beta");
  const Uplo uplo = parse_uplo(uplo_obj, fn);
  Kind k = with_scalar(with_scalar(operands_kind({{A, "A"}, {x, "x"}, {y, "y"}, {out, "out"}}, fn), a), b);
  auto body = [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto av = native<T>(A, fn, "A");
    const std::int64_t n = av.view.rows();
    require_square(n, av.view.cols(), fn, "A");
    auto xv = vector_arg<T>(x, fn, "x");
    check_length(xv.array, n, fn, "x", "A's order");
    auto r = result_vector<T>(out, y, n, fn, "y");
    const T al = scalar_as<T>(a), be = y.is_none() ? T(0) : scalar_as<T>(b);
    tp::run(opts, [&] {
      if constexpr (Hermitian) {
        trnblas::hemv<T>(av.view.layout(), uplo, n, al, av.view.data(), av.view.ld(), xv.view.data(), xv.view.inc(), be,
                         r.view.data(), r.view.inc(), opts);
      } else {
        trnblas::symv<T>(av.view.layout(), uplo, n, al, av.view.data(), av.view.ld(), xv.view.data(), xv.view.inc(), be,
                         r.view.data(), r.view.inc(), opts);
      }
    });
    return r.array;
  };
  if constexpr (Hermitian)
    return dispatch_complex(k, body);
  else
    return dispatch_real(k, fn, "for complex Hermitian A call trnblas.hemv", body);
}

// ---- trmv, trsv ----

template <bool Solve>
py::object trmv(py::object A, py::object x, py::object uplo_obj, py::object trans, py::object diag_obj, py::kwargs kw) {
  const char* fn = Solve ? "trnblas.trsv" : "trnblas.trmv";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Uplo uplo = parse_uplo(uplo_obj, fn);
  const Op op = parse_trans(trans, fn, "trans");
  const Diag diag = parse_diag(diag_obj, fn);
  Kind k = operands_kind({{A, "A"}, {x, Solve ? "b" : "x"}, {out, "out"}}, fn);
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto av = native<T>(A, fn, "A");
    const std::int64_t n = av.view.rows();
    require_square(n, av.view.cols(), fn, "A");
    auto r = result_vector<T>(out, x, n, fn, Solve ? "b" : "x");
    tp::run(opts, [&] {
      if constexpr (Solve) {
        trnblas::trsv<T>(av.view.layout(), uplo, op, diag, n, av.view.data(), av.view.ld(), r.view.data(), r.view.inc(),
                         opts);
      } else {
        trnblas::trmv<T>(av.view.layout(), uplo, op, diag, n, av.view.data(), av.view.ld(), r.view.data(), r.view.inc(),
                         opts);
      }
    });
    return r.array;
  });
}

// ---- ger, geru, gerc ----

enum class Ger { upstream, u, c };

template <Ger Kind_>
py::object ger(py::object alpha, py::object x, py::object y, py::object A, py::kwargs kw) {
  const char* fn = Kind_ == Ger::upstream ? "trnblas.ger" : Kind_ == Ger::u ? "trnblas.geru" : "trnblas.gerc";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha");
  Kind k = with_scalar(operands_kind({{x, "x"}, {y, "y"}, {A, "A"}, {out, "out"}}, fn), a);
  auto body = [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto xv = vector_arg<T>(x, fn, "x");
    auto yv = vector_arg<T>(y, fn, "y");
    const std::int64_t m = xv.view.size(), n = yv.view.size();
    auto r = result_matrix<T>(out, A, m, n, fn, "A", /*zero_fill=*/true);
    const T al = scalar_as<T>(a);
    tp::run(opts, [&] {
      const auto& v = r.view;
      if constexpr (!is_complex<T>) {
        trnblas::ger<T>(v.layout(), m, n, al, xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(), v.data(),
                        v.ld(), opts);
      } else if constexpr (Kind_ == Ger::c) {
        trnblas::gerc<T>(v.layout(), m, n, al, xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(), v.data(),
                         v.ld(), opts);
      } else {
        trnblas::geru<T>(v.layout(), m, n, al, xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(), v.data(),
                         v.ld(), opts);
      }
    });
    return r.array;
  };
  if constexpr (Kind_ == Ger::upstream)
    return dispatch(k, body);
  else
    return dispatch_complex(k, body);
}

// ---- syr, her, syr2, her2 ----

template <bool Hermitian, bool Two>
py::object syr(py::object alpha, py::object x, py::object y, py::object A, py::object uplo_obj, py::kwargs kw) {
  const char* fn = Hermitian ? (Two ? "trnblas.her2" : "trnblas.her") : (Two ? "trnblas.syr2" : "trnblas.syr");
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha");
  const Uplo uplo = parse_uplo(uplo_obj, fn);
  Kind k = with_scalar(operands_kind({{x, "x"}, {y, "y"}, {A, "A"}, {out, "out"}}, fn), a);
  auto body = [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto xv = vector_arg<T>(x, fn, "x");
    const std::int64_t n = xv.view.size();
    tp::InVector<T> yv = xv;
    if constexpr (Two) {
      yv = vector_arg<T>(y, fn, "y");
      check_length(yv.array, n, fn, "y", "x's length");
    }
    // A absent: the triangle starts from zero (a new result entirely; out= only its uplo triangle).
    const bool fresh = out.is_none(), zero_triangle = !fresh && A.is_none();
    auto r = result_matrix<T>(out, A, n, n, fn, "A", /*zero_fill=*/fresh);
    const T al = scalar_as<T>(a);
    trnblas::real_type<T> ral{};
    if constexpr (Hermitian && !Two) ral = real_scalar<trnblas::real_type<T>>(a, fn, "alpha");
    (void)al;
    (void)ral;
    tp::run(opts, [&] {
      const auto& v = r.view;
      if (zero_triangle) {
        for (std::int64_t i = 0; i < n; ++i) {
          for (std::int64_t j = 0; j < n; ++j) {
            if (uplo == Uplo::upper ? j >= i : j <= i) v(i, j) = T(0);
          }
        }
      }
      if constexpr (Hermitian && Two) {
        trnblas::her2<T>(v.layout(), uplo, n, al, xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(),
                         v.data(), v.ld(), opts);
      } else if constexpr (Hermitian) {
        trnblas::her<T>(v.layout(), uplo, n, ral, xv.view.data(), xv.view.inc(), v.data(), v.ld(), opts);
      } else if constexpr (Two) {
        trnblas::syr2<T>(v.layout(), uplo, n, al, xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(),
                         v.data(), v.ld(), opts);
      } else {
        trnblas::syr<T>(v.layout(), uplo, n, al, xv.view.data(), xv.view.inc(), v.data(), v.ld(), opts);
      }
      if (fresh) mirror<T>(v, uplo, Hermitian);
    });
    return r.array;
  };
  if constexpr (Hermitian)
    return dispatch_complex(k, body);
  else
    return dispatch_real(k, fn, Two ? "for complex data call trnblas.her2" : "for complex data call trnblas.her", body);
}

const char* const kOptions =
    "\n\nOptions (keywords): backend ('host' only: the sim backend models gemm), mode ('automatic' or the "
    "data's precision), threads, options=trncore.Options(...); target_forward_error is NotSupported (only gemm "
    "certifies one). Errors: DimensionMismatch for shapes/ndim; InvalidArgument for dtypes, bad option strings, "
    "read-only or wrongly typed out=, an output overlapping an input; TypeError for unknown keywords.";

}  // namespace

void bind_level2(py::module_& m) {
  using namespace pybind11::literals;
  m.def(
      "gemv", &gemv, "alpha"_a, "A"_a, "x"_a, "beta"_a = 0.0, "y"_a = py::none(), "trans"_a = false,
      (std::string(R"(gemv(alpha, A, x, beta=0.0, y=None, trans=False, *, out=None, **options) -> alpha*op(A)@x + beta*y

trnblas::gemv (host OpenBLAS), upstream signature. op(A) = A, A.T (trans=True or 'T') or A^H ('C').
Returns a new vector; with out= (e.g. out=y) it is written in place. beta is ignored when y is None
(upstream adds beta*y only when y is given). A in C or Fortran order (or a slice) is used without a copy.
Accuracy: |r - exact| <= gamma_{K+2}*(|alpha||op(A)||x| + |beta||y|), K = len(x).)") +
       kOptions)
          .c_str());
  m.def("symv", &symv<false>, "alpha"_a, "A"_a, "x"_a, "beta"_a = 0.0, "y"_a = py::none(), "uplo"_a = "upper",
        (std::string(R"(symv(alpha, A, x, beta=0.0, y=None, uplo="upper", *, out=None, **options) -> alpha*A@x + beta*y

trnblas::symv, A symmetric (real data; complex: hemv); only the uplo triangle of A is read.
Accuracy: gamma_{n+2}*(|alpha||A||x| + |beta||y|).)") +
         kOptions)
            .c_str());
  m.def("hemv", &symv<true>, "alpha"_a, "A"_a, "x"_a, "beta"_a = 0.0, "y"_a = py::none(), "uplo"_a = "upper",
        (std::string(R"(hemv(alpha, A, x, beta=0.0, y=None, uplo="upper", *, out=None, **options) -> alpha*A@x + beta*y

trnblas::hemv (C++ name), A Hermitian (real input converted to complex); only the uplo triangle is read,
the diagonal's imaginary parts are taken as zero. Accuracy: gamma_{n+2} bound with 4u for u.)") +
         kOptions)
            .c_str());
  m.def("trmv", &trmv<false>, "A"_a, "x"_a, "uplo"_a = "upper", "trans"_a = false, "diag"_a = "nonunit",
        (std::string(R"(trmv(A, x, uplo="upper", trans=False, diag="nonunit", *, out=None, **options) -> op(tri(A))@x

trnblas::trmv, upstream signature (no alpha). Only the uplo triangle of A is read (not the diagonal with
diag='unit'). Returns a new vector; out=x computes in place.
Accuracy: |r - op(A)x| <= gamma_n*|op(A)||x|.)") +
         kOptions)
            .c_str());
  m.def("trsv", &trmv<true>, "A"_a, "b"_a, "uplo"_a = "upper", "trans"_a = false, "diag"_a = "nonunit",
        (std::string(R"(trsv(A, b, uplo="upper", trans=False, diag="nonunit", *, out=None, **options) -> x

Solves op(A) x = b, A triangular (trnblas::trsv; C++ name). No singularity test: a zero diagonal gives
inf/NaN, as BLAS. Returns a new vector; out=b solves in place.
Accuracy (backward): (op(A) + dA) x = b with |dA| <= gamma_{n+1}|op(A)|.)") +
         kOptions)
            .c_str());
  m.def("ger", &ger<Ger::upstream>, "alpha"_a, "x"_a, "y"_a, "A"_a = py::none(),
        (std::string(R"(ger(alpha, x, y, A=None, *, out=None, **options) -> alpha*outer(x, y) + A

trnblas::ger for real data and trnblas::geru (unconjugated, like upstream's torch.outer and np.outer) for
complex data. Returns a new matrix (C order); out=A updates A in place (any C/F-ordered writable matrix).
Accuracy: gamma_3*(|alpha||x||y|^T + |A|).)") +
         kOptions)
            .c_str());
  m.def("geru", &ger<Ger::u>, "alpha"_a, "x"_a, "y"_a, "A"_a = py::none(),
        (std::string(R"(geru(alpha, x, y, A=None, *, out=None, **options) -> alpha*x@y^T + A (complex, unconjugated;
trnblas::geru). Accuracy: gamma_3 bound with 4u for u.)") +
         kOptions)
            .c_str());
  m.def("gerc", &ger<Ger::c>, "alpha"_a, "x"_a, "y"_a, "A"_a = py::none(),
        (std::string(R"(gerc(alpha, x, y, A=None, *, out=None, **options) -> alpha*x@y^H + A (complex, y conjugated;
trnblas::gerc). Accuracy: gamma_3 bound with 4u for u.)") +
         kOptions)
            .c_str());
  const char* rank_note =
      "\nOnly the uplo triangle is updated. A new result (out=None) is returned as the full symmetric/Hermitian "
      "matrix (the other triangle mirrored from the computed one); with out= the other triangle is left "
      "untouched (BLAS), and A=None starts the uplo triangle from zero (out=A updates A in place).";
  m.def(
      "syr",
      [](py::object alpha, py::object x, py::object A, py::object uplo, py::kwargs kw) {
        return syr<false, false>(alpha, x, py::none(), A, uplo, kw);
      },
      "alpha"_a, "x"_a, "A"_a = py::none(), "uplo"_a = "upper",
      (std::string(R"(syr(alpha, x, A=None, uplo="upper", *, out=None, **options) -> alpha*x@x^T + A

trnblas::syr (real data; complex: her). Accuracy: gamma_3*(|alpha||x||x|^T + |A|).)") +
       rank_note + kOptions)
          .c_str());
  m.def(
      "her",
      [](py::object alpha, py::object x, py::object A, py::object uplo, py::kwargs kw) {
        return syr<true, false>(alpha, x, py::none(), A, uplo, kw);
      },
      "alpha"_a, "x"_a, "A"_a = py::none(), "uplo"_a = "upper",
      (std::string(R"(her(alpha, x, A=None, uplo="upper", *, out=None, **options) -> alpha*x@x^H + A

trnblas::her (complex data, real alpha; the diagonal's imaginary parts become zero).
Accuracy: gamma_3 bound with 4u for u.)") +
       rank_note + kOptions)
          .c_str());
  m.def("syr2", &syr<false, true>, "alpha"_a, "x"_a, "y"_a, "A"_a = py::none(), "uplo"_a = "upper",
        (std::string(R"(syr2(alpha, x, y, A=None, uplo="upper", *, out=None, **options) -> alpha*(x@y^T + y@x^T) + A

trnblas::syr2 (real data; complex: her2). Accuracy: gamma_4*(|alpha|(|x||y|^T + |y||x|^T) + |A|).)") +
         rank_note + kOptions)
            .c_str());
  m.def("her2", &syr<true, true>, "alpha"_a, "x"_a, "y"_a, "A"_a = py::none(), "uplo"_a = "upper",
        (std::string(
             R"(her2(alpha, x, y, A=None, uplo="upper", *, out=None, **options) -> alpha*x@y^H + conj(alpha)*y@x^H + A

trnblas::her2 (complex data). Accuracy: gamma_4 bound with 4u for u.)") +
         rank_note + kOptions)
            .c_str());
}

}  // namespace trnblas_python
