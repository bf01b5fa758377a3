// The samplers of distributions.hpp over a Stream, written in place into NumPy arrays.
#include "bind.hpp"

#include <trnrand/distributions.hpp>

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

namespace trnrand_python {

namespace {

using trnrand::Stream;

/// f(span<float>) or f(span<double>) on out's memory, as out's dtype says, with the GIL released.
template <class F>
Stream on_real(py::handle out, const char* fn, trncore::Options& o, F&& f) {
  if (!py::isinstance<py::array>(out)) out_flat<double>(out, fn, "out");  // raises: not an ndarray
  py::array a = tp::as_ndarray(out, fn, "out");
  if (py::isinstance<py::array_t<double, 0>>(a)) {
    auto x = out_flat<double>(out, fn, "out");
    return tp::run(o, [&] { return f(x.span); });
  }
  if (py::isinstance<py::array_t<float, 0>>(a)) {
    auto x = out_flat<float>(out, fn, "out");
    return tp::run(o, [&] { return f(x.span); });
  }
  tp::invalid(fn, "out is written in place but has dtype " + tp::detail::dtype_text(a),
              "pass a float32 or float64 array (in-place outputs are never converted)");
}

template <class T, class F>
Stream on(py::handle out, const char* fn, trncore::Options& o, F&& f) {
  auto x = out_flat<T>(out, fn, "out");
  return tp::run(o, [&] { return f(x.span); });
}

template <class S>
using elem = typename S::element_type;

constexpr const char* kOptions =
    " Keywords: threads (splits the work; no value depends on it), backend/generation (backend='sim' raises "
    "trncore.NotSupported unless stated). Raises trncore.InvalidArgument for a bad parameter (the library's "
    "message, naming the value), an out that is not a writable contiguous array of a supported dtype, or bad "
    "options.";

std::string doc(const std::string& text) { return text + kOptions; }

}  // namespace

void bind_distributions(py::module_& m) {
  m.def(
      "normal",
      [](const Stream& s, py::handle out, double mean, double stddev, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.normal";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on_real(out, fn, o, [&](auto sp) {
          using T = elem<decltype(sp)>;
          return trnrand::normal(s, sp, static_cast<T>(mean), static_cast<T>(stddev), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("mean") = 0.0, py::arg("stddev") = 1.0,
      doc("Normal(mean, stddev) in place by Box-Muller (trnrand::normal; the cosine half, computed in double and "
          "rounded once): value i uses words 2i, 2i+1 (float32) or 4i..4i+3 (float64); returns the stream "
          "advanced by 2 or 4 words per value. Tails truncated at 5.77 (float32) / 8.57 (float64) stddev by the "
          "uniform grid. backend='sim' (float32) runs trnrand::sim::normal, whose values are normal_engine_order's "
          "(fp32 engine roundings), not these; float64 on sim raises trncore.NotSupported.")
          .c_str());

  m.def(
      "normal_engine_order",
      [](const Stream& s, py::handle out, double mean, double stddev, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.normal_engine_order";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on<float>(out, fn, o, [&](std::span<float> sp) {
          return trnrand::normal_engine_order(s, sp, static_cast<float>(mean), static_cast<float>(stddev), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("mean") = 0.0, py::arg("stddev") = 1.0,
      doc("Normal float32 values by the sim kernel's fp32 instruction sequence, on the host "
          "(trnrand::normal_engine_order): bitwise equal to normal(..., backend='sim'). |out - z| <= "
          "2**-24 * (9.11 * stddev * r + |out|) + 2**-147 from the exact Box-Muller value z of the same words. "
          "out must be float32.")
          .c_str());

  m.def(
      "lognormal",
      [](const Stream& s, py::handle out, double mean, double stddev, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.lognormal";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on_real(out, fn, o, [&](auto sp) {
          using T = elem<decltype(sp)>;
          return trnrand::lognormal(s, sp, static_cast<T>(mean), static_cast<T>(stddev), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("mean") = 0.0, py::arg("stddev") = 1.0,
      doc("exp of normal(mean, stddev) in place (trnrand::lognormal; mean, stddev of the underlying normal); "
          "words as normal.")
          .c_str());

  m.def(
      "exponential",
      [](const Stream& s, py::handle out, double rate, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.exponential";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on_real(out, fn, o, [&](auto sp) {
          using T = elem<decltype(sp)>;
          return trnrand::exponential(s, sp, static_cast<T>(rate), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("rate") = 1.0,
      doc("Exponential(rate) in place by inversion -ln(u)/rate, u in (0, 1] (trnrand::exponential); one word "
          "(float32) or two (float64) per value; never infinite.")
          .c_str());

  m.def(
      "gamma",
      [](const Stream& s, py::handle out, double shape, double scale, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.gamma";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on_real(out, fn, o, [&](auto sp) {
          using T = elem<decltype(sp)>;
          return trnrand::gamma(s, sp, static_cast<T>(shape), static_cast<T>(scale), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("shape"), py::arg("scale") = 1.0,
      doc("Gamma(shape, scale) in place (trnrand::gamma: Marsaglia-Tsang; shape < 1 by the boost in logarithms); "
          "exact up to a few ulps * max(1, |ln X|); float32 is the float64 value rounded once. Window budget: "
          "value i reads its own 2**32 words, the stream advances by out.size * 2**32.")
          .c_str());

  m.def(
      "beta",
      [](const Stream& s, py::handle out, double a, double b, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.beta";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on_real(out, fn, o, [&](auto sp) {
          using T = elem<decltype(sp)>;
          return trnrand::beta(s, sp, static_cast<T>(a), static_cast<T>(b), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("a"), py::arg("b"),
      doc("Beta(a, b) in place as X/(X+Y) of two gammas (trnrand::beta; from logarithms when a or b < 1); window "
          "budget.")
          .c_str());

  m.def(
      "chi_squared",
      [](const Stream& s, py::handle out, double k, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.chi_squared";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on_real(out, fn, o, [&](auto sp) {
          using T = elem<decltype(sp)>;
          return trnrand::chi_squared(s, sp, static_cast<T>(k), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("k"),
      doc("Chi-squared with k > 0 (real) degrees of freedom in place: 2 * Gamma(k/2) (trnrand::chi_squared); "
          "window budget.")
          .c_str());

  m.def(
      "student_t",
      [](const Stream& s, py::handle out, double nu, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.student_t";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on_real(out, fn, o, [&](auto sp) {
          using T = elem<decltype(sp)>;
          return trnrand::student_t(s, sp, static_cast<T>(nu), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("nu"),
      doc("Student's t with nu > 0 degrees of freedom in place: Z * sqrt(nu/V) (trnrand::student_t); window "
          "budget.")
          .c_str());

  m.def(
      "truncated_normal",
      [](const Stream& s, py::handle out, double mean, double stddev, double low, double high, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.truncated_normal";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on_real(out, fn, o, [&](auto sp) {
          using T = elem<decltype(sp)>;
          return trnrand::truncated_normal(s, sp, static_cast<T>(mean), static_cast<T>(stddev), static_cast<T>(low),
                                           static_cast<T>(high), o);
        });
      },
      py::arg("stream"), py::arg("out"), py::arg("mean"), py::arg("stddev"), py::arg("low"), py::arg("high"),
      doc("Normal(mean, stddev) truncated to [low, high] (absolute bounds, either may be +-inf) in place, exact "
          "(trnrand::truncated_normal: normal, uniform or Robert's exponential rejection); window budget.")
          .c_str());

  m.def(
      "bernoulli",
      [](const Stream& s, py::handle out, double p, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.bernoulli";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on<std::uint8_t>(out, fn, o,
                                [&](std::span<std::uint8_t> sp) { return trnrand::bernoulli(s, sp, p, o); });
      },
      py::arg("stream"), py::arg("out"), py::arg("p"),
      doc("Bernoulli(p) in place into a uint8 array: 1 when u < p, u in [0, 1) on the 2**-53 grid (two words per "
          "value; trnrand::bernoulli). Requires 0 <= p <= 1.")
          .c_str());

  m.def(
      "randint",
      [](const Stream& s, py::handle out, std::int64_t low, std::int64_t high, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.randint";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on<std::int64_t>(out, fn, o,
                                [&](std::span<std::int64_t> sp) { return trnrand::randint(s, sp, low, high, o); });
      },
      py::arg("stream"), py::arg("out"), py::arg("low"), py::arg("high"),
      doc("Uniform integers in the CLOSED range [low, high] (the C++ convention) into an int64 array, without "
          "modulo bias (trnrand::randint: Lemire's multiply-and-reject); window budget. Requires low <= high.")
          .c_str());

  m.def(
      "randperm",
      [](const Stream& s, py::handle out, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.randperm";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on<std::int64_t>(out, fn, o, [&](std::span<std::int64_t> sp) { return trnrand::randperm(s, sp, o); });
      },
      py::arg("stream"), py::arg("out"),
      doc("A uniformly random permutation of 0 .. out.size-1 into an int64 array (trnrand::randperm: "
          "Fisher-Yates, sequential; threads is ignored); the stream advances by out.size * 2**32.")
          .c_str());

  m.def(
      "poisson",
      [](const Stream& s, py::handle out, double lam, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.poisson";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on<std::int64_t>(out, fn, o,
                                [&](std::span<std::int64_t> sp) { return trnrand::poisson(s, sp, lam, o); });
      },
      py::arg("stream"), py::arg("out"), py::arg("lam"),
      doc("Poisson(lam) into an int64 array, exact (trnrand::poisson: inversion for lam < 10, Hormann's PTRS "
          "otherwise); window budget. Requires 0 <= lam <= 1e15.")
          .c_str());

  m.def(
      "binomial",
      [](const Stream& s, py::handle out, std::int64_t n, double p, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.binomial";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on<std::int64_t>(out, fn, o,
                                [&](std::span<std::int64_t> sp) { return trnrand::binomial(s, sp, n, p, o); });
      },
      py::arg("stream"), py::arg("out"), py::arg("n"), py::arg("p"),
      doc("Binomial(n, p) into an int64 array, exact (trnrand::binomial: inversion or Hormann's BTRS with "
          "Loader's log-pmf); window budget. Requires n >= 0, 0 <= p <= 1.")
          .c_str());

  m.def(
      "geometric",
      [](const Stream& s, py::handle out, double p, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.geometric";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        return on<std::int64_t>(out, fn, o,
                                [&](std::span<std::int64_t> sp) { return trnrand::geometric(s, sp, p, o); });
      },
      py::arg("stream"), py::arg("out"), py::arg("p"),
      doc("Geometric(p) on {1, 2, ...} (NumPy's convention) into an int64 array by inversion (trnrand::geometric; "
          "two words per value). Requires 0 < p <= 1.")
          .c_str());

  py::class_<trnrand::AliasTable>(
      m, "AliasTable",
      "Walker's alias table (Vose's construction) for categorical sampling (trnrand::AliasTable): built once in "
      "O(n) from non-negative weights, sampled in O(1). Immutable, so one table may be sampled from many threads. "
      "Raises trncore.InvalidArgument for no weights, a negative/NaN/inf weight or a zero sum.")
      .def(py::init([](py::handle weights) {
             auto w = tp::in_vector<double>(weights, "trnrand.AliasTable", "weights");
             auto wc = py::array_t<double, py::array::c_style>::ensure(w.array);
             std::vector<double> copy(wc.data(), wc.data() + wc.size());
             return std::make_unique<trnrand::AliasTable>(copy);
           }),
           py::arg("weights"))
      .def_property_readonly("size", &trnrand::AliasTable::size, "The number of categories.")
      .def(
          "sample",
          [](const trnrand::AliasTable& t, const Stream& s, py::handle out, py::kwargs kw) {
            constexpr const char* fn = "trnrand.AliasTable.sample";
            auto o = tp::options_from<trncore::Options>(kw, fn);
            return on<std::int64_t>(out, fn, o, [&](std::span<std::int64_t> sp) { return t.sample(s, sp, o); });
          },
          py::arg("stream"), py::arg("out"),
          "out[i] in [0, size) with probability weights[i]/sum (int64 array, in place; two words per value); returns "
          "the advanced stream. Probabilities within size * 2**-53.");

  m.def(
      "categorical",
      [](const Stream& s, py::handle out, py::handle weights, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.categorical";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        auto w = tp::in_vector<double>(weights, fn, "weights");
        auto wc = py::array_t<double, py::array::c_style>::ensure(w.array);
        std::span<const double> ws(wc.data(), static_cast<std::size_t>(wc.size()));
        return on<std::int64_t>(out, fn, o,
                                [&](std::span<std::int64_t> sp) { return trnrand::categorical(s, sp, ws, o); });
      },
      py::arg("stream"), py::arg("out"), py::arg("weights"),
      doc("Categorical draws over weights into an int64 array: AliasTable(weights).sample(stream, out) "
          "(trnrand::categorical).")
          .c_str());

  m.def(
      "multivariate_normal",
      [](const Stream& s, py::handle out, py::handle mean, py::handle L, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.multivariate_normal";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        if (!py::isinstance<py::array>(out)) out_flat<double>(out, fn, "out");  // raises: not an ndarray
        py::array a = tp::as_ndarray(out, fn, "out");
        auto run = [&](auto tag) {
          using T = decltype(tag);
          auto x = out_flat<T>(out, fn, "out");
          auto mu =
              py::array_t<T, py::array::c_style>::ensure(tp::as_dtype<T>(tp::as_ndarray(mean, fn, "mean"), fn, "mean"));
          auto l = py::array_t<T, py::array::c_style>::ensure(tp::as_dtype<T>(tp::as_ndarray(L, fn, "L"), fn, "L"));
          std::span<const T> ms(mu.data(), static_cast<std::size_t>(mu.size()));
          std::span<const T> ls(l.data(), static_cast<std::size_t>(l.size()));
          return tp::run(o, [&] { return trnrand::multivariate_normal(s, x.span, ms, ls, o); });
        };
        if (py::isinstance<py::array_t<double, 0>>(a)) return run(double{});
        if (py::isinstance<py::array_t<float, 0>>(a)) return run(float{});
        tp::invalid(fn, "out is written in place but has dtype " + tp::detail::dtype_text(a),
                    "pass a float32 or float64 array of n x d");
      },
      py::arg("stream"), py::arg("out"), py::arg("mean"), py::arg("L"),
      doc("Multivariate normal N(mean, L L^T) in place: row r of out (n x d, C-contiguous) is mean + L z_r with z "
          "the values normal() would draw (trnrand::multivariate_normal); L the d x d lower-triangular Cholesky "
          "factor (upper triangle ignored). Raises trncore.DimensionMismatch unless d = mean.size >= 1, L.size = "
          "d*d and out.size a multiple of d.")
          .c_str());

  m.def(
      "normal_icdf",
      [](py::handle u, py::object out, py::kwargs kw) -> py::object {
        constexpr const char* fn = "trnrand.normal_icdf";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        py::array a = tp::as_ndarray(u, fn, "u");
        const bool single = a.dtype().kind() == 'f' && a.itemsize() == 4;
        auto run = [&](auto tag) -> py::object {
          using T = decltype(tag);
          auto in = py::array_t<T, py::array::c_style>::ensure(tp::as_dtype<T>(a, fn, "u"));
          py::array result =
              out.is_none() ? py::array(py::array_t<T>(std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim())))
                            : py::array(py::reinterpret_borrow<py::array>(out));
          auto x = out_flat<T>(out.is_none() ? py::handle(result) : py::handle(out), fn, "out");
          std::span<const T> us(in.data(), static_cast<std::size_t>(in.size()));
          tp::run(o, [&] { trnrand::normal_icdf(us, x.span, o); });
          return result;
        };
        return single ? run(float{}) : run(double{});
      },
      py::arg("u"), py::arg("out") = py::none(),
      "Phi^-1(u), the standard normal quantile, element-wise (any shape; u = 0 gives -inf, 1 gives +inf): Halley "
      "iterations in long double (trnrand::normal_icdf), relative error below 2**-50 for u in [2**-1022, 1 - 2**-53]; "
      "float32 input computes in double and rounds once. Returns a new array of u's shape, or writes out "
      "(contiguous, u's dtype) and returns it. Raises trncore.InvalidArgument for u outside [0, 1] or NaN, "
      "trncore.DimensionMismatch when out.size differs.");
}

}  // namespace trnrand_python
