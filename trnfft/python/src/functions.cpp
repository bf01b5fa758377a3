// The numpy.fft-style free functions (trnfft/functions.hpp): fft … irfftn, hfft/ihfft, fftfreq, fftshift.
#include "bind.hpp"

#include <trnfft/functions.hpp>

#include <span>
#include <type_traits>

namespace trnfft_python {

namespace {

enum class Op { fft, ifft, rfft, irfft, hfft, ihfft, fft2, ifft2, rfft2, irfft2, fftn, ifftn, rfftn, irfftn };

using Vec = std::vector<std::int64_t>;

bool real_input_only(Op op) { return op == Op::rfft || op == Op::ihfft || op == Op::rfft2 || op == Op::rfftn; }
bool real_output(Op op) { return op == Op::irfft || op == Op::hfft || op == Op::irfft2 || op == Op::irfftn; }

trnfft::Norm swapped(trnfft::Norm n) {
  return n == trnfft::Norm::backward  ? trnfft::Norm::forward
         : n == trnfft::Norm::forward ? trnfft::Norm::backward
                                      : trnfft::Norm::ortho;
}

trnfft::Norm norm_of(py::handle v, std::string_view fn) {
  if (v.is_none()) return trnfft::Norm::backward;
  if (!py::isinstance<py::str>(v)) {
    tp::invalid(fn, "norm=" + py::repr(v).cast<std::string>() + " is not a string",
                "pass None, 'backward', 'ortho' or 'forward'");
  }
  return trnfft::parse_norm(v.cast<std::string>());
}

/// The elements of a view in row-major order: the view's storage when dense, else a copy in `buffer`.
template <class E>
std::span<const E> row_major(const trncore::TensorView<const E>& v, trncore::Tensor<E>& buffer) {
  if (v.is_row_major_contiguous()) return {v.data(), static_cast<std::size_t>(v.size())};
  buffer = trncore::Tensor<E>::copy_of(v);
  return {buffer.data(), static_cast<std::size_t>(buffer.size())};
}

/// 1-D input: the C++ 1-D function of the same name.
template <class E>
py::array run_1d(Op op, const trncore::TensorView<const E>& v, std::optional<std::int64_t> n, trnfft::Norm norm,
                 trncore::Options& o) {
  using R = trncore::real_type_t<E>;
  using C = std::complex<R>;
  if (real_output(op)) {
    std::vector<R> y = tp::run(o, [&] {
      trncore::Tensor<E> buffer;
      const auto x = row_major(v, buffer);
      return op == Op::irfft ? trnfft::irfft(x, n, norm, o) : trnfft::hfft(x, n, norm, o);
    });
    const Vec shape{static_cast<std::int64_t>(y.size())};
    return to_numpy(std::move(y), shape);
  }
  std::vector<C> y = tp::run(o, [&]() -> std::vector<C> {
    trncore::Tensor<E> buffer;
    const auto x = row_major(v, buffer);
    if (op == Op::fft) return trnfft::fft(x, n, norm, o);
    if (op == Op::ifft) return trnfft::ifft(x, n, norm, o);
    if constexpr (std::is_same_v<E, R>) {
      return op == Op::rfft ? trnfft::rfft(x, n, norm, o) : trnfft::ihfft(x, n, norm, o);
    }
    throw trncore::InvalidArgument("trnfft", "internal: real transform of complex input", "report this bug");
  });
  const Vec shape{static_cast<std::int64_t>(y.size())};
  return to_numpy(std::move(y), shape);
}

/// N-D input (or a 1-D function along one axis of an N-D array): the C++ N-D functions.
template <class E>
py::array run_nd(Op op, const trncore::TensorView<const E>& v, const Vec& s, const Vec& axes, trnfft::Norm norm,
                 trncore::Options& o) {
  using R = trncore::real_type_t<E>;
  using C = std::complex<R>;
  const Vec shape = v.shape();
  if (real_output(op)) {
    trncore::Tensor<R> y = tp::run(o, [&]() -> trncore::Tensor<R> {
      trncore::Tensor<E> buffer;
      const auto x = row_major(v, buffer);
      if (op == Op::irfft2) return trnfft::irfft2(x, shape, s, axes, norm, o);
      if (op == Op::hfft) {  // numpy: hfft(a, n, axis) = irfft(conj(a), n, axis) with the norm's direction swapped
        std::vector<C> conj(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) conj[i] = std::conj(C(x[i]));
        return trnfft::irfftn(conj, shape, s, axes, swapped(norm), o);
      }
      return trnfft::irfftn(x, shape, s, axes, norm, o);
    });
    return to_numpy(std::move(y));
  }
  trncore::Tensor<C> y = tp::run(o, [&]() -> trncore::Tensor<C> {
    trncore::Tensor<E> buffer;
    const auto x = row_major(v, buffer);
    switch (op) {
      case Op::fft2: return trnfft::fft2(x, shape, s, axes, norm, o);
      case Op::ifft2: return trnfft::ifft2(x, shape, s, axes, norm, o);
      case Op::ifft:
      case Op::ifftn: return trnfft::ifftn(x, shape, s, axes, norm, o);
      case Op::fft:
      case Op::fftn: return trnfft::fftn(x, shape, s, axes, norm, o);
      default: break;
    }
    if constexpr (std::is_same_v<E, R>) {
      if (op == Op::rfft2) return trnfft::rfft2(x, shape, s, axes, norm, o);
      if (op == Op::ihfft) {  // numpy: ihfft(a, n, axis) = conj(rfft(a, n, axis)) with the norm's direction swapped
        auto r = trnfft::rfftn(x, shape, s, axes, swapped(norm), o);
        for (auto& e : r.values()) e = std::conj(e);
        return r;
      }
      return trnfft::rfftn(x, shape, s, axes, norm, o);
    }
    throw trncore::InvalidArgument("trnfft", "internal: real transform of complex input", "report this bug");
  });
  return to_numpy(std::move(y));
}

struct Parsed {
  py::array a;
  tp::Kind kind{};
  trncore::Options options;
  trnfft::Norm norm{};
};

Parsed parse_common(const char* fn, Op op, py::handle input, py::handle norm, py::dict& kw) {
  Parsed p;
  tp::pop_options(p.options, kw, fn);
  refuse_report(kw, fn,
                "the free functions certify through a plan: trnfft.Plan(shape, ..., backend='sim').execute(x, "
                "report=True), or trnfft.Plan(...).accuracy() for the a-priori bound");
  tp::reject_unknown(kw, fn);
  p.norm = norm_of(norm, fn);
  p.a = tp::as_ndarray(input, fn, "input");
  p.kind = tp::kind_of(p.a, fn, "input");
  if (real_input_only(op) && is_complex(p.kind)) {
    tp::invalid(fn,
                "input has dtype " + py::str(p.a.dtype()).cast<std::string>() + " but this transform takes real input",
                "pass input.real, or use fft/fftn for complex input (NumPy would drop the imaginary part with a "
                "warning; trnfft refuses)");
  }
  if (p.a.ndim() == 0) tp::mismatch(fn, "input is 0-D (a scalar)", "pass an array with at least one axis");
  return p;
}

template <class F>
py::object with_kind(const Parsed& p, const char* fn, F&& f) {
  return dispatch(p.kind, [&](auto tag) -> py::object {
    using E = decltype(tag);
    auto in = tp::in_tensor<E>(p.a, fn, "input");
    return f(in.view);
  });
}

py::object one_d(const char* fn, Op op, py::handle input, py::handle n_obj, py::handle axis_obj, py::handle norm_obj,
                 py::kwargs kwargs) {
  py::dict kw = kwargs;
  py::object axis_v = alias(kw, "dim", py::reinterpret_borrow<py::object>(axis_obj), "axis", fn);
  const auto n = opt_int(n_obj, fn, "n");
  const std::int64_t axis = opt_int(axis_v, fn, "axis").value_or(-1);
  Parsed p = parse_common(fn, op, input, norm_obj, kw);
  const bool direct = p.a.ndim() == 1 && (axis == -1 || axis == 0);
  return with_kind(p, fn, [&](const auto& view) -> py::object {
    if (direct) return run_1d(op, view, n, p.norm, p.options);
    return run_nd(op, view, n ? Vec{*n} : Vec{}, Vec{axis}, p.norm, p.options);
  });
}

py::object multi_d(const char* fn, Op op, py::handle input, py::handle s_obj, py::handle axes_obj, py::handle norm_obj,
                   py::kwargs kwargs, bool two_d) {
  py::dict kw = kwargs;
  py::object axes_v = alias(kw, "dim", py::reinterpret_borrow<py::object>(axes_obj), "axes", fn);
  const Vec s = int_list(s_obj, fn, "s");
  Vec axes = int_list(axes_v, fn, "axes");
  if (two_d && axes_v.is_none()) axes = {-2, -1};
  Parsed p = parse_common(fn, op, input, norm_obj, kw);
  return with_kind(p, fn, [&](const auto& view) -> py::object { return run_nd(op, view, s, axes, p.norm, p.options); });
}

template <class E>
py::array shift(const py::array& a, const Vec& axes, bool inverse, const char* fn) {
  auto c = py::array_t<E, py::array::c_style | py::array::forcecast>::ensure(a);
  const Vec shape(c.shape(), c.shape() + c.ndim());
  const std::span<const E> x(c.data(), static_cast<std::size_t>(c.size()));
  std::vector<E> y =
      tp::released([&] { return inverse ? trnfft::ifftshift(x, shape, axes) : trnfft::fftshift(x, shape, axes); });
  (void)fn;
  return to_numpy(std::move(y), shape);
}

py::array shift_py(const char* fn, py::handle x, py::handle axes_obj, bool inverse) {
  const Vec axes = int_list(axes_obj, fn, "axes");
  py::array a = tp::as_ndarray(x, fn, "x");
  switch (tp::kind_of(a, fn, "x")) {
    case tp::Kind::f32: return shift<float>(a, axes, inverse, fn);
    case tp::Kind::f64: return shift<double>(tp::as_dtype<double>(a, fn, "x"), axes, inverse, fn);
    case tp::Kind::c64: return shift<std::complex<float>>(a, axes, inverse, fn);
    default: return shift<std::complex<double>>(a, axes, inverse, fn);
  }
}

// ---- docstrings ----

constexpr const char* kCommon = R"(

Input: any array-like (NumPy array, nested list, an object with __array__ or the buffer protocol, e.g. a
PyTorch CPU tensor) of float32, float64, complex64 or complex128 (integers and bools convert to float64).
An array of the routine's dtype is used without a copy, in any strides (non-contiguous views are gathered
by the C++ function). Output: a new NumPy array; float32/complex64 input gives complex64 (or float32)
output, as scipy.fft does (numpy.fft always returns 128-bit results). The input is never modified.
Upstream trnfft (torch) returned a ComplexTensor: here the result is a NumPy complex array.

Keywords (the suite's options, trncore.Options): backend='host' (FFTW) or 'sim' (the modelled TensorEngine),
mode/math_mode ('automatic', 'fp32', 'bf16', 'compensated', 'ozaki'; sim only — host takes 'automatic' or
the data's precision), target_forward_error (sim only; host raises trncore.NotSupported), threads,
generation, product, options=trncore.Options(...). report=True is refused (trncore.NotSupported): the C++
free functions have no report overload; use trnfft.Plan(..., backend='sim').execute(x, report=True).

Accuracy (docs/trnfft.md, "Accuracy"): host, normwise ||y^ - y||_2 <= (c*log2(N) + 1)*u*||y||_2 with c
small (tested with c = 10; u = 2^-24 float, 2^-53 double); sim: the mode's certified bound (a run whose
bound is not certified or misses target_forward_error raises trncore.TargetNotMet).

Errors: trncore.InvalidArgument (a ValueError) for n/s entries < 1 (a zero-length transform, as NumPy), an
axis out of range or repeated, a bad norm, a dtype that is not numeric, complex input to a real-input
transform, bad options (trncore.ParseError for a misspelt option value); trncore.DimensionMismatch for a 0-D
input, s and axes of different lengths or more s entries than axes; TypeError for an unknown keyword.)";

std::string doc(const char* head) { return std::string(head) + kCommon; }

}  // namespace

void bind_functions(py::module_& m) {
  auto def1 = [&](const char* name, const char* fn, Op op, const char* head) {
    m.def(
        name,
        [fn, op](py::object input, py::object n, py::object axis, py::object norm, py::kwargs kw) {
          return one_d(fn, op, input, n, axis, norm, std::move(kw));
        },
        py::arg("input"), py::arg("n") = py::none(), py::arg("axis") = py::none(), py::arg("norm") = py::none(),
        doc(head).c_str());
  };
  auto defn = [&](const char* name, const char* fn, Op op, bool two_d, const char* head) {
    m.def(
        name,
        [fn, op, two_d](py::object input, py::object s, py::object axes, py::object norm, py::kwargs kw) {
          return multi_d(fn, op, input, s, axes, norm, std::move(kw), two_d);
        },
        py::arg("input"), py::arg("s") = py::none(), py::arg("axes") = py::none(), py::arg("norm") = py::none(),
        doc(head).c_str());
  };

  constexpr const char* axis_note =
      " axis (NumPy's name; dim= is accepted as upstream/torch's spelling) is the transformed axis, default -1; "
      "the other axes are a batch. Upstream's signature was (input, n=None) along the last dimension; axis= and "
      "norm= ('backward' default, 'ortho', 'forward') are NumPy's and the C++ function's extras.";

  def1("fft", "trnfft.fft", Op::fft,
       (std::string("fft(input, n=None, axis=-1, norm=None, **options) -> complex array\n\nnumpy.fft.fft / "
                    "trnfft::fft: the forward DFT y_k = sum_j x_j exp(-2 pi i jk/n) of input zero-padded or "
                    "truncated to n points along axis.") +
        axis_note)
           .c_str());
  def1("ifft", "trnfft.ifft", Op::ifft,
       (std::string("ifft(input, n=None, axis=-1, norm=None, **options) -> complex array\n\nnumpy.fft.ifft / "
                    "trnfft::ifft: the inverse DFT (x 1/n with norm='backward').") +
        axis_note)
           .c_str());
  def1("rfft", "trnfft.rfft", Op::rfft,
       (std::string("rfft(input, n=None, axis=-1, norm=None, **options) -> complex array\n\nnumpy.fft.rfft / "
                    "trnfft::rfft: the n//2 + 1 non-negative-frequency outputs of the DFT of real input.") +
        axis_note)
           .c_str());
  def1("irfft", "trnfft.irfft", Op::irfft,
       (std::string("irfft(input, n=None, axis=-1, norm=None, **options) -> real array\n\nnumpy.fft.irfft / "
                    "trnfft::irfft: the n real outputs (default n = 2*(m - 1) for m input points; m = 1 without n "
                    "is InvalidArgument) of the inverse DFT of a half spectrum. The imaginary parts of the "
                    "self-conjugate bins are ignored, as NumPy does.") +
        axis_note)
           .c_str());
  def1("hfft", "trnfft.hfft", Op::hfft,
       (std::string("hfft(input, n=None, axis=-1, norm=None, **options) -> real array\n\nnumpy.fft.hfft / "
                    "trnfft::hfft: the real spectrum of a Hermitian signal given by its first half: "
                    "irfft(conj(input), n) with the norm's direction swapped (norm='backward' leaves it unscaled). "
                    "On more than one axis the binding computes exactly that with trnfft::irfftn (the C++ hfft "
                    "is 1-D), so errors then name trnfft::irfftn.") +
        axis_note)
           .c_str());
  def1("ihfft", "trnfft.ihfft", Op::ihfft,
       (std::string("ihfft(input, n=None, axis=-1, norm=None, **options) -> complex array\n\nnumpy.fft.ihfft / "
                    "trnfft::ihfft: the inverse of hfft, conj(rfft(input, n)) with the norm's direction swapped "
                    "(x 1/n with norm='backward'); real input. On more than one axis computed with trnfft::rfftn.") +
        axis_note)
           .c_str());

  constexpr const char* axes_note =
      " axes (NumPy's name; dim= is accepted as upstream/torch's spelling) are the transformed axes; s their "
      "lengths (zero-pad or truncate). Upstream's signature had s and dim only; norm= is NumPy's and the C++ "
      "function's extra. Repeated axes raise InvalidArgument (NumPy would transform twice).";
  defn("fft2", "trnfft.fft2", Op::fft2, true,
       (std::string("fft2(input, s=None, axes=(-2, -1), norm=None, **options) -> complex array\n\nnumpy.fft.fft2 "
                    "/ trnfft::fft2: the 2-D forward DFT.") +
        axes_note)
           .c_str());
  defn("ifft2", "trnfft.ifft2", Op::ifft2, true,
       (std::string("ifft2(input, s=None, axes=(-2, -1), norm=None, **options) -> complex array\n\n"
                    "numpy.fft.ifft2 / trnfft::ifft2: the 2-D inverse DFT.") +
        axes_note)
           .c_str());
  defn("rfft2", "trnfft.rfft2", Op::rfft2, true,
       (std::string("rfft2(input, s=None, axes=(-2, -1), norm=None, **options) -> complex array\n\n"
                    "numpy.fft.rfft2 / trnfft::rfft2: the 2-D DFT of real input; the last axis keeps s[-1]//2 + 1 "
                    "points.") +
        axes_note)
           .c_str());
  defn("irfft2", "trnfft.irfft2", Op::irfft2, true,
       (std::string("irfft2(input, s=None, axes=(-2, -1), norm=None, **options) -> real array\n\n"
                    "numpy.fft.irfft2 / trnfft::irfft2: the inverse of rfft2 (default last length 2*(m - 1)).") +
        axes_note)
           .c_str());
  defn("fftn", "trnfft.fftn", Op::fftn, false,
       (std::string("fftn(input, s=None, axes=None, norm=None, **options) -> complex array\n\nnumpy.fft.fftn / "
                    "trnfft::fftn: the N-D forward DFT over axes (default all, or the last len(s)).") +
        axes_note)
           .c_str());
  defn("ifftn", "trnfft.ifftn", Op::ifftn, false,
       (std::string("ifftn(input, s=None, axes=None, norm=None, **options) -> complex array\n\nnumpy.fft.ifftn "
                    "/ trnfft::ifftn: the N-D inverse DFT.") +
        axes_note)
           .c_str());
  defn("rfftn", "trnfft.rfftn", Op::rfftn, false,
       (std::string("rfftn(input, s=None, axes=None, norm=None, **options) -> complex array\n\nnumpy.fft.rfftn "
                    "/ trnfft::rfftn: the N-D DFT of real input; the last of axes keeps s[-1]//2 + 1 points.") +
        axes_note)
           .c_str());
  defn("irfftn", "trnfft.irfftn", Op::irfftn, false,
       (std::string("irfftn(input, s=None, axes=None, norm=None, **options) -> real array\n\nnumpy.fft.irfftn "
                    "/ trnfft::irfftn: the inverse of rfftn (default last length 2*(m - 1)).") +
        axes_note)
           .c_str());

  m.def(
      "fftfreq",
      [](py::object n, double d) {
        const auto nn = opt_int(n, "trnfft.fftfreq", "n");
        if (!nn) tp::invalid("trnfft.fftfreq", "n is None", "pass the transform length");
        auto f = trnfft::fftfreq(*nn, d);
        const Vec shape{static_cast<std::int64_t>(f.size())};
        return to_numpy(std::move(f), shape);
      },
      py::arg("n"), py::arg("d") = 1.0,
      "fftfreq(n, d=1.0) -> float64 array\n\nnumpy.fft.fftfreq / trnfft::fftfreq: the n sample frequencies "
      "[0, 1, ..., ceil(n/2) - 1, -floor(n/2), ..., -1] / (n*d), bit-identical to NumPy. Raises "
      "trncore.InvalidArgument for n < 1 or d zero or not finite (NumPy allows n = 0).");
  m.def(
      "rfftfreq",
      [](py::object n, double d) {
        const auto nn = opt_int(n, "trnfft.rfftfreq", "n");
        if (!nn) tp::invalid("trnfft.rfftfreq", "n is None", "pass the transform length");
        auto f = trnfft::rfftfreq(*nn, d);
        const Vec shape{static_cast<std::int64_t>(f.size())};
        return to_numpy(std::move(f), shape);
      },
      py::arg("n"), py::arg("d") = 1.0,
      "rfftfreq(n, d=1.0) -> float64 array\n\nnumpy.fft.rfftfreq / trnfft::rfftfreq: the n//2 + 1 non-negative "
      "frequencies of rfft. Errors as fftfreq.");
  m.def(
      "fftshift", [](py::object x, py::object axes) { return shift_py("trnfft.fftshift", x, axes, false); },
      py::arg("x"), py::arg("axes") = py::none(),
      "fftshift(x, axes=None) -> array\n\nnumpy.fft.fftshift / trnfft::fftshift: rolls each axis in axes (default "
      "all) by floor(n/2), moving the zero frequency to the centre. Returns a new array of x's dtype for "
      "float32/float64/complex64/complex128 (integers convert to float64, unlike NumPy). Raises "
      "trncore.InvalidArgument for an axis out of range or repeated.");
  m.def(
      "ifftshift", [](py::object x, py::object axes) { return shift_py("trnfft.ifftshift", x, axes, true); },
      py::arg("x"), py::arg("axes") = py::none(),
      "ifftshift(x, axes=None) -> array\n\nnumpy.fft.ifftshift / trnfft::ifftshift: the inverse of fftshift "
      "(roll by -floor(n/2)). As fftshift otherwise.");
}

}  // namespace trnfft_python
