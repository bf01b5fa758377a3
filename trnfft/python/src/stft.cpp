// STFT and iSTFT (trnfft/stft.hpp) with upstream's (torch.stft's) signature.
#include "bind.hpp"

#include <trnfft/stft.hpp>

#include <cstring>
#include <span>

namespace trnfft_python {

namespace {

using Vec = std::vector<std::int64_t>;

struct Common {
  trnfft::StftParams params;
  trncore::Options options;
  py::object user_window;  // an array, or None for a built-in window
};

Common parse(const char* fn, py::handle n_fft, py::handle hop_length, py::handle win_length, py::handle window,
             bool center, bool normalized, bool onesided, py::dict& kw) {
  Common c;
  tp::pop_options(c.options, kw, fn);
  refuse_report(kw, fn,
                "trnfft::stft/istft have no report overload; a sim plan's execute(x, report=True) certifies one "
                "batched transform");
  tp::reject_unknown(kw, fn);
  const auto n = opt_int(n_fft, fn, "n_fft");
  if (!n) tp::invalid(fn, "n_fft is None", "pass the FFT length");
  c.params.n_fft = *n;
  c.params.hop = opt_int(hop_length, fn, "hop_length");
  c.params.win_length = opt_int(win_length, fn, "win_length");
  c.params.center = center;
  c.params.normalized = normalized;
  c.params.onesided = onesided;
  if (window.is_none()) {
    c.params.window = trnfft::Window::hann;
  } else if (py::isinstance<py::str>(window)) {
    const auto w = window.cast<std::string>();
    bool found = false;
    for (auto k : {trnfft::Window::hann, trnfft::Window::hamming, trnfft::Window::rectangular}) {
      if (w == trnfft::to_string(k)) {
        c.params.window = k;
        found = true;
      }
    }
    if (!found)
      tp::invalid(fn, "window='" + w + "' is not a built-in window",
                  "use 'hann', 'hamming', 'rectangular' or an array");
  } else {
    c.user_window = py::reinterpret_borrow<py::object>(window);
  }
  return c;
}

/// The signal's leading axes (a batch of signals, as torch.stft takes (B, L)).
Vec lead_shape(const py::array& a, py::ssize_t keep) { return Vec(a.shape(), a.shape() + (a.ndim() - keep)); }

template <class T>
py::object stft_t(const char* fn, const py::array& a, Common& c) {
  using C = std::complex<T>;
  auto x = py::array_t<T, py::array::c_style>::ensure(tp::as_dtype<T>(a, fn, "input"));
  std::optional<py::array_t<T, py::array::c_style>> w;
  if (c.user_window) {
    py::array wa = tp::as_ndarray(c.user_window, fn, "window");
    tp::detail::require_ndim(wa, 1, fn, "window");
    w = py::array_t<T, py::array::c_style>::ensure(tp::as_dtype<T>(wa, fn, "window"));
  }
  const Vec lead = lead_shape(x, 1);
  const std::int64_t len = x.shape(x.ndim() - 1);
  std::int64_t count = 1;
  for (auto n : lead) count *= n;
  const T* px = x.data();
  const T* pw = w ? w->data() : nullptr;
  const std::size_t nw = w ? static_cast<std::size_t>(w->size()) : 0;
  std::vector<trncore::Tensor<C>> results = tp::run(c.options, [&] {
    std::vector<trncore::Tensor<C>> r;
    for (std::int64_t b = 0; b < std::max<std::int64_t>(count, 1); ++b) {
      std::span<const T> sig(px + b * len, count == 0 ? 0 : static_cast<std::size_t>(len));
      r.push_back(pw ? trnfft::stft<T>(sig, std::span<const T>(pw, nw), c.params, c.options)
                     : trnfft::stft<T>(sig, c.params, c.options));
      if (count == 0) break;
    }
    return r;
  });
  // (..., frames, bins) C-ordered, returned as its (..., bins, frames) transpose: torch's and upstream's layout.
  py::array full;
  const Vec fb = results.front().shape();
  if (lead.empty()) {
    full = to_numpy(std::move(results.front()));
  } else {
    Vec shape = lead;
    shape.insert(shape.end(), fb.begin(), fb.end());
    auto arr = tp::new_array<C>(shape);
    C* dst = arr.mutable_data();
    const auto per = static_cast<std::size_t>(fb[0] * fb[1]);
    for (std::int64_t b = 0; b < count; ++b)
      std::memcpy(dst + b * per, results[static_cast<std::size_t>(b)].data(), per * sizeof(C));
    full = arr;
  }
  return full.attr("swapaxes")(-1, -2);
}

template <class T>
py::object istft_t(const char* fn, const py::array& a, Common& c, std::optional<std::int64_t> length) {
  using C = std::complex<T>;
  auto spec = tp::in_tensor<C>(a, fn, "input");
  std::optional<py::array_t<T, py::array::c_style>> w;
  if (c.user_window) {
    py::array wa = tp::as_ndarray(c.user_window, fn, "window");
    tp::detail::require_ndim(wa, 1, fn, "window");
    w = py::array_t<T, py::array::c_style>::ensure(tp::as_dtype<T>(wa, fn, "window"));
  }
  const Vec lead = lead_shape(spec.array, 2);
  std::int64_t count = 1;
  for (auto n : lead) count *= n;
  const auto& shape = spec.view.shape();
  const auto& strides = spec.view.strides();
  const auto r = shape.size();
  const std::int64_t bins = shape[r - 2], frames = shape[r - 1];
  const T* pw = w ? w->data() : nullptr;
  const std::size_t nw = w ? static_cast<std::size_t>(w->size()) : 0;
  const C* base = spec.view.data();
  std::vector<std::vector<T>> results = tp::run(c.options, [&] {
    std::vector<std::vector<T>> out;
    for (std::int64_t b = 0; b < std::max<std::int64_t>(count, 1); ++b) {
      // Offset of batch element b, then the (frames, bins) transpose of its (bins, frames) matrix.
      std::int64_t off = 0, rest = b;
      for (std::size_t k = lead.size(); k-- > 0;) {
        off += (rest % lead[k]) * strides[k];
        rest /= lead[k];
      }
      trncore::TensorView<const C> t(base + (count == 0 ? 0 : off), {frames, bins}, {strides[r - 1], strides[r - 2]});
      const auto m = trncore::Tensor<C>::copy_of(t);
      out.push_back(pw ? trnfft::istft<T>(m, std::span<const T>(pw, nw), c.params, length, c.options)
                       : trnfft::istft<T>(m, c.params, length, c.options));
      if (count == 0) break;
    }
    return out;
  });
  if (lead.empty()) {
    auto y = std::move(results.front());
    const Vec s{static_cast<std::int64_t>(y.size())};
    return to_numpy(std::move(y), s);
  }
  Vec shape_out = lead;
  const auto n = static_cast<std::int64_t>(results.front().size());
  shape_out.push_back(n);
  auto arr = tp::new_array<T>(shape_out);
  T* dst = arr.mutable_data();
  for (std::int64_t b = 0; b < count; ++b) {
    std::memcpy(dst + b * n, results[static_cast<std::size_t>(b)].data(), static_cast<std::size_t>(n) * sizeof(T));
  }
  return arr;
}

}  // namespace

void bind_stft(py::module_& m) {
  m.def(
      "stft",
      [](py::object input, py::object n_fft, py::object hop_length, py::object win_length, py::object window,
         bool center, const std::string& pad_mode, bool normalized, bool onesided, py::kwargs kwargs) -> py::object {
        constexpr const char* fn = "trnfft.stft";
        py::dict kw = kwargs;
        Common c = parse(fn, n_fft, hop_length, win_length, window, center, normalized, onesided, kw);
        if (pad_mode == "reflect")
          c.params.pad_mode = trnfft::PadMode::reflect;
        else if (pad_mode == "constant")
          c.params.pad_mode = trnfft::PadMode::constant;
        else
          tp::invalid(fn, "pad_mode='" + pad_mode + "' is not supported", "use 'reflect' or 'constant'");
        py::array a = tp::as_ndarray(input, fn, "input");
        const auto k = tp::kind_of(a, fn, "input");
        if (is_complex(k)) {
          tp::invalid(fn, "input is complex (" + py::str(a.dtype()).cast<std::string>() + ")",
                      "trnfft::stft takes a real signal: pass input.real (torch.stft also takes complex input)");
        }
        if (a.ndim() == 0) tp::mismatch(fn, "input is 0-D", "pass a signal of shape (L,) or (..., L)");
        return k == tp::Kind::f32 ? stft_t<float>(fn, a, c) : stft_t<double>(fn, a, c);
      },
      py::arg("input"), py::arg("n_fft"), py::arg("hop_length") = py::none(), py::arg("win_length") = py::none(),
      py::arg("window") = py::none(), py::arg("center") = true, py::arg("pad_mode") = "reflect",
      py::arg("normalized") = false, py::arg("onesided") = true,
      R"(stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode='reflect', normalized=False, onesided=True, **options) -> complex array

trnfft::stft, with upstream's (torch.stft's) signature: X[t, f] = s * sum_k w[k] x_pad[t*hop + k]
exp(-2 pi i f k/n_fft), returned as (..., bins, frames) like torch.stft(return_complex=True) and upstream
trnfft (a transposed view of the C++ frames x bins result: .swapaxes(-1, -2) is C-contiguous). bins =
n_fft//2 + 1 when onesided, else n_fft; frames = 1 + (L + 2*(n_fft//2)*center - n_fft)//hop.
input: a real signal (L,) or a batch (..., L) (float32 -> complex64, else complex128); complex input raises
InvalidArgument (torch allows it; the C++ stft is real-only). hop_length default n_fft//4; window: None ->
periodic hann (upstream's default; torch.stft's None means rectangular), 'hann', 'hamming', 'rectangular',
or an array of win_length real points (zero-padded to n_fft, centred). pad_mode 'reflect' (numpy's
reflect, torch's default) or 'constant' (zeros, librosa >= 0.10 and scipy.signal.stft's boundary='zeros').
normalized: x 1/sqrt(n_fft). Upstream returned a ComplexTensor; here a NumPy complex array.
Relation to scipy.signal.stft(x, nperseg=n_fft, noverlap=n_fft-hop, window=w, boundary='zeros',
padded=False): with pad_mode='constant', trnfft's result = scipy's Zxx * w.sum() (scipy scales by 1/sum(w)).

Keywords: options as the free functions (backend='sim', mode, target_forward_error, threads, ...); the
transforms run on one batched trnfft plan per signal. report=True is refused (no C++ report overload).
Accuracy: each frame's spectrum within the plan's bound (host: c*log2(n_fft)*u relative).
Errors: trncore.InvalidArgument for n_fft < 1, hop < 1, win_length outside 1..n_fft, an unknown window or
pad_mode, an empty signal or one shorter than a frame, reflect padding not shorter than the signal;
trncore.DimensionMismatch for a window whose length is not win_length or a 0-D input.)");

  m.def(
      "istft",
      [](py::object input, py::object n_fft, py::object hop_length, py::object win_length, py::object window,
         bool center, bool normalized, bool onesided, py::object length, py::kwargs kwargs) -> py::object {
        constexpr const char* fn = "trnfft.istft";
        py::dict kw = kwargs;
        Common c = parse(fn, n_fft, hop_length, win_length, window, center, normalized, onesided, kw);
        const auto len = opt_int(length, fn, "length");
        py::array a = tp::as_ndarray(input, fn, "input");
        const auto k = tp::kind_of(a, fn, "input");
        if (a.ndim() < 2) {
          tp::mismatch(fn, "input has " + std::to_string(a.ndim()) + " axes",
                       "pass a spectrum of shape (bins, frames) or (..., bins, frames), as stft returns");
        }
        return is_single(k) ? istft_t<float>(fn, a, c, len) : istft_t<double>(fn, a, c, len);
      },
      py::arg("input"), py::arg("n_fft"), py::arg("hop_length") = py::none(), py::arg("win_length") = py::none(),
      py::arg("window") = py::none(), py::arg("center") = true, py::arg("normalized") = false,
      py::arg("onesided") = true, py::arg("length") = py::none(),
      R"(istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=True, length=None, **options) -> real array

trnfft::istft (torch.istft's weighted overlap-add), with upstream's signature: input is the (..., bins,
frames) spectrum stft returns (any strides; complex64 -> float32 output, else float64). Each frame's
inverse (irfft when onesided, else the real part of ifft; x sqrt(n_fft) when normalized) times the window,
overlap-added and divided by the window-square envelope; the centre padding is removed and the result
cut or zero-padded to length (default n_fft + hop*(frames - 1) - 2*(n_fft//2)*center). Reconstructs the
stft's signal up to rounding whenever the envelope is nonzero (NOLA), e.g. hann with hop <= n_fft//2.
Window and options as stft. Upstream (and torch) fall back to the unweighted sum where the envelope is
near zero; trnfft raises InvalidArgument instead (NOLA violated).
Errors: as stft, plus trncore.DimensionMismatch when input is not bins x frames for these parameters or
has fewer than 2 axes, trncore.InvalidArgument for length < 0 or an envelope below 1e-11.)");
}

}  // namespace trnfft_python
