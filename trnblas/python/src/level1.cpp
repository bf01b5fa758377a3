// BLAS level 1 bindings: axpy, scal, copy, swap, dot/dotu/dotc, nrm2, asum, iamax, rot, rotg.
#include "bind.hpp"
#include "common.hpp"

#include <trnblas/level1.hpp>

namespace trnblas_python {

namespace {

void same_length(std::int64_t nx, std::int64_t ny, std::string_view fn, const char* x, const char* y) {
  if (nx != ny) {
    tp::mismatch(fn,
                 std::string(x) + " has " + std::to_string(nx) + " elements but " + y + " has " + std::to_string(ny),
                 "pass vectors of the same length");
  }
}

py::object axpy(py::object alpha, py::object x, py::object y, py::kwargs kw) {
  constexpr const char* fn = "trnblas.axpy";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha");
  Kind k = with_scalar(tp::promote(kind_arg(x, fn, "x"), kind_arg(y, fn, "y")), a);
  if (!out.is_none()) k = tp::promote(k, kind_arg(out, fn, "out"));
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto xv = vector_arg<T>(x, fn, "x");
    auto r = result_vector<T>(out, y, xv.view.size(), fn, "y");
    const T av = scalar_as<T>(a);
    tp::run(opts, [&] {
      trnblas::axpy<T>(xv.view.size(), av, xv.view.data(), xv.view.inc(), r.view.data(), r.view.inc(), opts);
    });
    return r.array;
  });
}

py::object scal(py::object alpha, py::object x, py::kwargs kw) {
  constexpr const char* fn = "trnblas.scal";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha");
  Kind k = with_scalar(kind_arg(x, fn, "x"), a);
  if (!out.is_none()) k = tp::promote(k, kind_arg(out, fn, "out"));
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    const auto n = tp::as_ndarray(x, fn, "x");
    tp::detail::require_ndim(n, 1, fn, "x");
    auto r = result_vector<T>(out, x, n.shape(0), fn, "x");
    const T av = scalar_as<T>(a);
    tp::run(opts, [&] { trnblas::scal<T>(r.view.size(), av, r.view.data(), r.view.inc(), opts); });
    return r.array;
  });
}

py::object copy(py::object x, py::object y, py::kwargs kw) {
  constexpr const char* fn = "trnblas.copy";
  auto opts = options_of(kw, fn);
  Kind k = kind_arg(x, fn, "x");
  if (!y.is_none()) k = kind_arg(y, fn, "y");
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto xv = vector_arg<T>(x, fn, "x");
    auto r = result_vector<T>(y, py::none(), xv.view.size(), fn, "y");
    tp::run(opts, [&] {
      trnblas::copy<T>(xv.view.size(), xv.view.data(), xv.view.inc(), r.view.data(), r.view.inc(), opts);
    });
    return r.array;
  });
}

void swap(py::object x, py::object y, py::kwargs kw) {
  constexpr const char* fn = "trnblas.swap";
  auto opts = options_of(kw, fn);
  dispatch(kind_arg(x, fn, "x"), [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto xv = out_vector<T>(x, fn, "x");
    auto yv = out_vector<T>(y, fn, "y");
    same_length(xv.view.size(), yv.view.size(), fn, "x", "y");
    tp::run(opts, [&] {
      trnblas::swap<T>(xv.view.size(), xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(), opts);
    });
    return py::none();
  });
}

py::object dot_impl(py::object x, py::object y, py::kwargs kw, const char* fn, int conj) {
  auto opts = options_of(kw, fn);
  const Kind k = tp::promote(kind_arg(x, fn, "x"), kind_arg(y, fn, "y"));
  auto body = [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto xv = vector_arg<T>(x, fn, "x");
    auto yv = vector_arg<T>(y, fn, "y");
    same_length(xv.view.size(), yv.view.size(), fn, "x", "y");
    const auto n = xv.view.size();
    T r{};
    tp::run(opts, [&] {
      if constexpr (is_complex<T>) {
        r = conj > 0 ? trnblas::dotc<T>(n, xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(), opts)
                     : trnblas::dotu<T>(n, xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(), opts);
      } else {
        r = trnblas::dot<T>(n, xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(), opts);
      }
    });
    return zero_d<T>(r);
  };
  if (conj < 0) return dispatch(k, body);  // dot: real dot or unconjugated complex
  return dispatch_complex(k, body);
}

py::object dot(py::object x, py::object y, py::kwargs kw) { return dot_impl(x, y, kw, "trnblas.dot", -1); }
py::object dotu(py::object x, py::object y, py::kwargs kw) { return dot_impl(x, y, kw, "trnblas.dotu", 0); }
py::object dotc(py::object x, py::object y, py::kwargs kw) { return dot_impl(x, y, kw, "trnblas.dotc", 1); }

template <int Which>
py::object reduce(py::object x, py::kwargs kw, const char* fn) {
  auto opts = options_of(kw, fn);
  return dispatch(kind_arg(x, fn, "x"), [&](auto tag) -> py::object {
    using T = decltype(tag);
    auto xv = vector_arg<T>(x, fn, "x");
    if constexpr (Which == 2) {
      std::int64_t i = -1;
      tp::run(opts, [&] { i = trnblas::iamax<T>(xv.view.size(), xv.view.data(), xv.view.inc(), opts); });
      return py::int_(i);
    } else {
      trnblas::real_type<T> r{};
      tp::run(opts, [&] {
        r = Which == 0 ? trnblas::nrm2<T>(xv.view.size(), xv.view.data(), xv.view.inc(), opts)
                       : trnblas::asum<T>(xv.view.size(), xv.view.data(), xv.view.inc(), opts);
      });
      return zero_d(r);
    }
  });
}

void rot(py::object x, py::object y, py::object c, py::object s, py::kwargs kw) {
  constexpr const char* fn = "trnblas.rot";
  auto opts = options_of(kw, fn);
  const Scalar cs = scalar_arg(c, fn, "c"), ss = scalar_arg(s, fn, "s");
  dispatch(kind_arg(x, fn, "x"), [&](auto tag) -> py::object {
    using T = decltype(tag);
    using R = trnblas::real_type<T>;
    const R cv = real_scalar<R>(cs, fn, "c"), sv = real_scalar<R>(ss, fn, "s");
    auto xv = out_vector<T>(x, fn, "x");
    auto yv = out_vector<T>(y, fn, "y");
    same_length(xv.view.size(), yv.view.size(), fn, "x", "y");
    tp::run(opts, [&] {
      trnblas::rot<T>(xv.view.size(), xv.view.data(), xv.view.inc(), yv.view.data(), yv.view.inc(), cv, sv, opts);
    });
    return py::none();
  });
}

py::object rotg(py::object a, py::object b, py::kwargs kw) {
  constexpr const char* fn = "trnblas.rotg";
  py::object dtype = pop_object(kw, "dtype");
  auto opts = options_of(kw, fn);
  const Scalar as = scalar_arg(a, fn, "a"), bs = scalar_arg(b, fn, "b");
  Kind k = with_scalar(with_scalar(Kind::f64, as), bs);
  if (!dtype.is_none()) {
    py::array probe = py::array(py::dtype::from_args(dtype), std::vector<py::ssize_t>{0});
    k = with_scalar(with_scalar(tp::kind_of(probe, fn, "dtype"), as), bs);
  }
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    T av = scalar_as<T>(as), bv = scalar_as<T>(bs), sv{};
    trnblas::real_type<T> cv{};
    tp::run(opts, [&] { trnblas::rotg<T>(&av, &bv, &cv, &sv, opts); });
    return py::make_tuple(av, bv, cv, sv);
  });
}

}  // namespace

void bind_level1(py::module_& m) {
  m.def("axpy", &axpy, py::arg("alpha"), py::arg("x"), py::arg("y"),
        R"(axpy(alpha, x, y, *, out=None, **options) -> alpha*x + y

BLAS axpy (trnblas::axpy, host OpenBLAS). Returns a new array like upstream trnblas.axpy; with out=y
(or any writable 1-D array of the result dtype) the result is written there in place and returned.
x, y: 1-D, float32/float64/complex64/complex128 (promoted like NumPy; a complex alpha makes it complex).
Upstream accepts any shape (torch broadcasting); here x and y are BLAS vectors of equal length.
Accuracy: |r - (alpha*x + y)| <= gamma_2*(|alpha||x| + |y|) componentwise (4u for u with complex data).
Errors: DimensionMismatch for lengths or ndim; InvalidArgument for dtypes, out= of another dtype,
read-only out, out overlapping x; NotSupported for backend='sim' or another math mode; TypeError for
unknown keywords.)");
  m.def("scal", &scal, py::arg("alpha"), py::arg("x"),
        R"(scal(alpha, x, *, out=None, **options) -> alpha*x

BLAS scal (trnblas::scal). Returns a new array (as upstream); out=x scales x in place.
Accuracy: |r - alpha*x| <= gamma_1*|alpha||x|. Errors as axpy.)");
  m.def("copy", &copy, py::arg("x"), py::arg("y") = py::none(),
        R"(copy(x, y=None, **options) -> y

BLAS copy (trnblas::copy; C++ name, no upstream counterpart): y := x, exact. y=None returns a new
array; else y (1-D, same length, x's dtype) is written in place and returned. InvalidArgument when y
overlaps x.)");
  m.def("swap", &swap, py::arg("x"), py::arg("y"),
        R"(swap(x, y, **options) -> None

BLAS swap (trnblas::swap; C++ name): exchanges x and y in place (both writable 1-D arrays of one
dtype and length). Exact. InvalidArgument when they overlap or are not writable arrays of that dtype.)");
  m.def("dot", &dot, py::arg("x"), py::arg("y"),
        R"(dot(x, y, **options) -> 0-D array

x^T y (trnblas::dot for real data, trnblas::dotu for complex data): NumPy's and upstream's (torch.dot)
unconjugated product, returned as a 0-D array like upstream. Note that the C++ view form
trnblas::dot(x, y) conjugates complex x (BLAS++'s convention); use dotc for x^H y.
x, y: 1-D of one length (upstream flattens any shape: pass x.ravel()).
Accuracy: |r - x^T y| <= gamma_n*|x|^T|y| (4u for u with complex data).)");
  m.def("dotu", &dotu, py::arg("x"), py::arg("y"),
        R"(dotu(x, y, **options) -> 0-D complex array: x^T y unconjugated (trnblas::dotu; real input is converted
to complex). Accuracy: gamma_n*|x|^T|y| with 4u for u.)");
  m.def("dotc", &dotc, py::arg("x"), py::arg("y"),
        R"(dotc(x, y, **options) -> 0-D complex array: x^H y, x conjugated (trnblas::dotc; real input is
converted to complex). Accuracy: gamma_n*|x|^T|y| with 4u for u.)");
  m.def(
      "nrm2", [](py::object x, py::kwargs kw) { return reduce<0>(x, kw, "trnblas.nrm2"); }, py::arg("x"),
      R"(nrm2(x, **options) -> 0-D real array: ||x||_2 (trnblas::nrm2; 0 for an empty x), as upstream
(torch.linalg.norm), 1-D x only. Accuracy: relative error <= gamma_{n+1}.)");
  m.def(
      "asum", [](py::object x, py::kwargs kw) { return reduce<1>(x, kw, "trnblas.asum"); }, py::arg("x"),
      R"(asum(x, **options) -> 0-D real array: sum |x_i| (trnblas::asum). For complex x this is BLAS's
sum(|Re x_i| + |Im x_i|), not upstream's sum of moduli (torch.abs(x).sum()). Accuracy: relative
gamma_{n-1} (real), gamma_{2n-1} (complex).)");
  m.def(
      "iamax", [](py::object x, py::kwargs kw) { return reduce<2>(x, kw, "trnblas.iamax"); }, py::arg("x"),
      R"(iamax(x, **options) -> int: the 0-based index of the first largest |x_i| (trnblas::iamax; complex:
|Re| + |Im| as BLAS, where upstream compares moduli). Returns -1 for an empty x (upstream raises).)");
  m.def("rot", &rot, py::arg("x"), py::arg("y"), py::arg("c"), py::arg("s"),
        R"(rot(x, y, c, s, **options) -> None

Plane rotation in place (trnblas::rot; C++ name): x_i, y_i := c*x_i + s*y_i, c*y_i - s*x_i, real c and s.
x and y: writable 1-D arrays of one dtype and length. Accuracy: gamma_2*(|c||x_i| + |s||y_i|) per output.)");
  m.def("rotg", &rotg, py::arg("a"), py::arg("b"),
        R"(rotg(a, b, *, dtype=None, **options) -> (r, z, c, s)

Constructs the Givens rotation zeroing b (trnblas::rotg; C++ name): [c s; -conj(s) c] [a; b] = [r; 0].
z is BLAS's reconstruction value for real data (b unchanged for complex data). Computed in float64
(complex128 for complex a or b) unless dtype= names float32/complex64.)");
}

}  // namespace trnblas_python
