// BLAS level 3 bindings other than gemm: symm/hemm, syrk/herk, syr2k/her2k, trmm, trsm (host backend).
#include "bind.hpp"
#include "common.hpp"

#include <trnblas/level3.hpp>

namespace trnblas_python {

namespace {

void require_square(const py::array& a, std::int64_t order, std::string_view fn, const char* name, const char* why) {
  if (a.shape(0) != order || a.shape(1) != order) {
    tp::mismatch(fn,
                 std::string(name) + " has shape " + shape_text(a) + " but must be " + std::to_string(order) + "x" +
                     std::to_string(order) + " (" + why + ")",
                 std::string("pass a square ") + name + " of that order");
  }
}

// ---- symm, hemm ----

template <bool Hermitian>
py::object symm(py::object alpha, py::object A, py::object B, py::object beta, py::object C, py::object side_obj,
                py::object uplo_obj, py::kwargs kw) {
  const char* fn = Hermitian ? "trnblas.hemm" : "trnblas.symm";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha"), b = scalar_arg(beta, fn, "beta");
  const Side side = parse_side(side_obj, fn);
  const Uplo uplo = parse_uplo(uplo_obj, fn);
  const Kind k = with_scalar(with_scalar(operands_kind({{A, "A"}, {B, "B"}, {C, "C"}, {out, "out"}}, fn), a), b);
  auto body = [&](auto tag) -> py::object {
    using T = decltype(tag);
    py::array_t<T> aa = typed_matrix<T>(A, fn, "A"), ba = typed_matrix<T>(B, fn, "B");
    const std::int64_t m = ba.shape(0), n = ba.shape(1);
    require_square(aa, side == Side::left ? m : n, fn, "A",
                   side == Side::left ? "side='left': B's rows" : "side='right': B's columns");
    auto r = result_matrix<T>(out, C, m, n, fn, "C");
    const Layout target = r.view.layout();
    // A symmetric matrix stored in the other order is its own transpose: the other triangle (no copy).
    auto ao = operand<T>(aa, target, !Hermitian, fn, "A");
    auto bo = operand<T>(ba, target, false, fn, "B");
    const Uplo u = ao.flipped ? flip(uplo) : uplo;
    const T al = scalar_as<T>(a), be = C.is_none() ? T(0) : scalar_as<T>(b);
    tp::run(opts, [&] {
      if constexpr (Hermitian) {
        trnblas::hemm<T>(target, side, u, m, n, al, ao.view.data(), ao.view.ld(), bo.view.data(), bo.view.ld(), be,
                         r.view.data(), r.view.ld(), opts);
      } else {
        trnblas::symm<T>(target, side, u, m, n, al, ao.view.data(), ao.view.ld(), bo.view.data(), bo.view.ld(), be,
                         r.view.data(), r.view.ld(), opts);
      }
    });
    return r.array;
  };
  if constexpr (Hermitian)
    return dispatch_complex(k, body);
  else
    return dispatch(k, body);
}

// ---- syrk, herk, syr2k, her2k ----

template <bool Hermitian, bool Two>
py::object rank_k(py::object alpha, py::object A, py::object B, py::object beta, py::object C, py::object trans_obj,
                  py::object uplo_obj, py::kwargs kw) {
  const char* fn = Hermitian ? (Two ? "trnblas.her2k" : "trnblas.herk") : (Two ? "trnblas.syr2k" : "trnblas.syrk");
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha"), b = scalar_arg(beta, fn, "beta");
  Op op = parse_trans(trans_obj, fn, "trans");
  // Upstream's trans=True means A^T A; for Hermitian updates the transposed form is A^H A.
  if (Hermitian && op == Op::trans) op = Op::conj_trans;
  const Uplo uplo = parse_uplo(uplo_obj, fn);
  const Kind k = with_scalar(with_scalar(operands_kind({{A, "A"}, {B, "B"}, {C, "C"}, {out, "out"}}, fn), a), b);
  auto body = [&](auto tag) -> py::object {
    using T = decltype(tag);
    using R = trnblas::real_type<T>;
    py::array_t<T> aa = typed_matrix<T>(A, fn, "A");
    const bool t = op != Op::no_trans;
    const std::int64_t n = t ? aa.shape(1) : aa.shape(0), kk = t ? aa.shape(0) : aa.shape(1);
    py::array_t<T> ba = aa;
    if constexpr (Two) {
      ba = typed_matrix<T>(B, fn, "B");
      if (ba.shape(0) != aa.shape(0) || ba.shape(1) != aa.shape(1)) {
        tp::mismatch(fn, "B has shape " + shape_text(ba) + " but A has shape " + shape_text(aa),
                     "pass A and B of the same shape");
      }
    }
    auto r = result_matrix<T>(out, C, n, n, fn, "C");
    const Layout target = r.view.layout();
    // syrk: A stored in the other order is A^T in this one (flip trans, no copy); the others copy.
    auto ao = operand<T>(aa, target, !Hermitian && !Two && op != Op::conj_trans, fn, "A");
    Operand<T> bo = ao;  // syr2k/her2k only: B in the target layout (a copy when stored in the other order)
    if constexpr (Two) bo = operand<T>(ba, target, false, fn, "B");
    const Op opa = ao.flipped ? flip(op) : op;
    const T al = scalar_as<T>(a), be = C.is_none() ? T(0) : scalar_as<T>(b);
    R ral{}, rbe{};
    if constexpr (Hermitian) {
      if constexpr (!Two) ral = real_scalar<R>(a, fn, "alpha");
      rbe = C.is_none() ? R(0) : real_scalar<R>(b, fn, "beta");
    }
    (void)al, (void)be, (void)ral, (void)rbe;
    const bool fresh = out.is_none();
    tp::run(opts, [&] {
      const auto& v = r.view;
      if constexpr (Hermitian && Two) {
        trnblas::her2k<T>(target, uplo, opa, n, kk, al, ao.view.data(), ao.view.ld(), bo.view.data(), bo.view.ld(), rbe,
                          v.data(), v.ld(), opts);
      } else if constexpr (Hermitian) {
        trnblas::herk<T>(target, uplo, opa, n, kk, ral, ao.view.data(), ao.view.ld(), rbe, v.data(), v.ld(), opts);
      } else if constexpr (Two) {
        trnblas::syr2k<T>(target, uplo, opa, n, kk, al, ao.view.data(), ao.view.ld(), bo.view.data(), bo.view.ld(), be,
                          v.data(), v.ld(), opts);
      } else {
        trnblas::syrk<T>(target, uplo, opa, n, kk, al, ao.view.data(), ao.view.ld(), be, v.data(), v.ld(), opts);
      }
      if (fresh) mirror<T>(v, uplo, Hermitian);
    });
    return r.array;
  };
  if constexpr (Hermitian)
    return dispatch_complex(k, body);
  else
    return dispatch(k, body);
}

// ---- trmm, trsm ----

template <bool Solve>
py::object trmm(py::object alpha, py::object A, py::object B, py::object side_obj, py::object uplo_obj,
                py::object trans_obj, py::object diag_obj, py::kwargs kw) {
  const char* fn = Solve ? "trnblas.trsm" : "trnblas.trmm";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha");
  const Side side = parse_side(side_obj, fn);
  const Uplo uplo = parse_uplo(uplo_obj, fn);
  const Op op = parse_trans(trans_obj, fn, "trans");
  const Diag diag = parse_diag(diag_obj, fn);
  const Kind k = with_scalar(operands_kind({{A, "A"}, {B, "B"}, {out, "out"}}, fn), a);
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    py::array_t<T> aa = typed_matrix<T>(A, fn, "A"), ba = typed_matrix<T>(B, fn, "B");
    const std::int64_t m = ba.shape(0), n = ba.shape(1);
    require_square(aa, side == Side::left ? m : n, fn, "A",
                   side == Side::left ? "side='left': B's rows" : "side='right': B's columns");
    auto r = result_matrix<T>(out, B, m, n, fn, "B");
    const Layout target = r.view.layout();
    // A triangular matrix stored in the other order is op(A)^T of the other triangle there (no copy).
    auto ao = operand<T>(aa, target, op != Op::conj_trans, fn, "A");
    const Uplo u = ao.flipped ? flip(uplo) : uplo;
    const Op o = ao.flipped ? flip(op) : op;
    const T al = scalar_as<T>(a);
    tp::run(opts, [&] {
      if constexpr (Solve) {
        trnblas::trsm<T>(target, side, u, o, diag, m, n, al, ao.view.data(), ao.view.ld(), r.view.data(), r.view.ld(),
                         opts);
      } else {
        trnblas::trmm<T>(target, side, u, o, diag, m, n, al, ao.view.data(), ao.view.ld(), r.view.data(), r.view.ld(),
                         opts);
      }
    });
    return r.array;
  });
}

const char* const kHost =
    "\n\nHost backend only (OpenBLAS): backend='sim', a mode other than 'automatic' or the data's precision, or a "
    "target_forward_error raise NotSupported. Returns a new C-ordered array (as upstream); out= writes the result in "
    "place into a writable matrix of the result dtype (out=C, out=B: BLAS's in-place form). Operands in C or "
    "Fortran order are used without a copy where the routine allows (a transposed view), else copied.\nErrors: "
    "DimensionMismatch for shapes/ndim; InvalidArgument for dtypes, bad side/uplo/trans/diag strings, read-only "
    "or wrongly typed out=, an output overlapping an input; TypeError for unknown keywords.";

const char* const kRankNote =
    "\nOnly the uplo triangle of the result is computed. A new result (out=None) holds the full symmetric/Hermitian "
    "matrix (the other triangle mirrored, like upstream's symmetrised syrk); with out= the other triangle is left "
    "untouched (BLAS).";

}  // namespace

void bind_level3(py::module_& m) {
  using namespace pybind11::literals;
  m.def("symm", &symm<false>, "alpha"_a, "A"_a, "B"_a, "beta"_a = 0.0, "C"_a = py::none(), "side"_a = "left",
        "uplo"_a = "upper",
        (std::string(R"(symm(alpha, A, B, beta=0.0, C=None, side="left", uplo="upper", *, out=None, **options)
    -> alpha*A@B + beta*C (side='left') or alpha*B@A + beta*C (side='right')

trnblas::symm, A symmetric (all four dtypes; complex A is symmetric, not Hermitian: see hemm); only the
uplo triangle is read. Upstream signature. Accuracy: gamma_{K+2}(|alpha||A||B| + |beta||C|), K = order of A.)") +
         kHost)
            .c_str());
  m.def("hemm", &symm<true>, "alpha"_a, "A"_a, "B"_a, "beta"_a = 0.0, "C"_a = py::none(), "side"_a = "left",
        "uplo"_a = "upper",
        (std::string(R"(hemm(alpha, A, B, beta=0.0, C=None, side="left", uplo="upper", *, out=None, **options)

trnblas::hemm (C++ name): symm with A Hermitian (complex; real input converted). Accuracy: symm's bound with 4u.)") +
         kHost)
            .c_str());
  m.def(
      "syrk",
      [](py::object alpha, py::object A, py::object beta, py::object C, py::object trans, py::object uplo,
         py::kwargs kw) { return rank_k<false, false>(alpha, A, py::none(), beta, C, trans, uplo, kw); },
      "alpha"_a, "A"_a, "beta"_a = 0.0, "C"_a = py::none(), "trans"_a = false, "uplo"_a = "upper",
      (std::string(R"(syrk(alpha, A, beta=0.0, C=None, trans=False, uplo="upper", *, out=None, **options)
    -> alpha*A@A.T + beta*C (trans=False) or alpha*A.T@A + beta*C (trans=True)

trnblas::syrk (all four dtypes; complex: unconjugated transpose). Upstream signature.
Accuracy: gamma_{k+2}(|alpha||op(A)||op(A)|^T + |beta||C|).)") +
       kRankNote + kHost)
          .c_str());
  m.def(
      "herk",
      [](py::object alpha, py::object A, py::object beta, py::object C, py::object trans, py::object uplo,
         py::kwargs kw) { return rank_k<true, false>(alpha, A, py::none(), beta, C, trans, uplo, kw); },
      "alpha"_a, "A"_a, "beta"_a = 0.0, "C"_a = py::none(), "trans"_a = false, "uplo"_a = "upper",
      (std::string(R"(herk(alpha, A, beta=0.0, C=None, trans=False, uplo="upper", *, out=None, **options)
    -> alpha*A@A^H + beta*C (trans=False) or alpha*A^H@A + beta*C (trans=True or 'C')

trnblas::herk (C++ name; complex, real alpha and beta). Accuracy: syrk's bound with 4u for u.)") +
       kRankNote + kHost)
          .c_str());
  m.def("syr2k", &rank_k<false, true>, "alpha"_a, "A"_a, "B"_a, "beta"_a = 0.0, "C"_a = py::none(), "trans"_a = false,
        "uplo"_a = "upper",
        (std::string(R"(syr2k(alpha, A, B, beta=0.0, C=None, trans=False, uplo="upper", *, out=None, **options)
    -> alpha*(op(A)@op(B)^T + op(B)@op(A)^T) + beta*C

trnblas::syr2k (C++ name; all four dtypes), op = no transpose or transpose (trans=True).
Accuracy: gamma_{2k+2}(|alpha|(|op(A)||op(B)|^T + |op(B)||op(A)|^T) + |beta||C|).)") +
         kRankNote + kHost)
            .c_str());
  m.def("her2k", &rank_k<true, true>, "alpha"_a, "A"_a, "B"_a, "beta"_a = 0.0, "C"_a = py::none(), "trans"_a = false,
        "uplo"_a = "upper",
        (std::string(R"(her2k(alpha, A, B, beta=0.0, C=None, trans=False, uplo="upper", *, out=None, **options)
    -> alpha*op(A)@op(B)^H + conj(alpha)*op(B)@op(A)^H + beta*C

trnblas::her2k (C++ name; complex, real beta), op = no transpose or ^H (trans=True or 'C').
Accuracy: syr2k's bound with 4u for u.)") +
         kRankNote + kHost)
            .c_str());
  m.def(
      "trmm", &trmm<false>, "alpha"_a, "A"_a, "B"_a, "side"_a = "left", "uplo"_a = "upper", "trans"_a = false,
      "diag"_a = "nonunit",
      (std::string(R"(trmm(alpha, A, B, side="left", uplo="upper", trans=False, diag="nonunit", *, out=None, **options)
    -> alpha*op(tri(A))@B (side='left') or alpha*B@op(tri(A)) (side='right')

trnblas::trmm, upstream signature. Only the uplo triangle of A is read (not its diagonal with diag='unit').
out=B multiplies in place. Accuracy: gamma_{K+1}|alpha||op(A)||B|, K = order of A.)") +
       kHost)
          .c_str());
  m.def("trsm", &trmm<true>, "alpha"_a, "A"_a, "B"_a, "side"_a = "left", "uplo"_a = "upper", "trans"_a = false,
        "diag"_a = "nonunit",
        (std::string(
             R"(trsm(alpha, A, B, side="left", uplo="upper", trans=False, diag="nonunit", *, out=None, **options) -> X

Solves op(A)@X = alpha*B (side='left') or X@op(A) = alpha*B (side='right'), A triangular (trnblas::trsm),
upstream signature. No singularity test (a zero diagonal gives inf/NaN, as BLAS). out=B solves in place.
Accuracy (residual): |alpha*B - op(A)X^| <= gamma_{K+1}|op(A)||X^| + u|alpha||B| (left; mirrored for right).)") +
         kHost)
            .c_str());
}

}  // namespace trnblas_python
