// STFT and iSTFT on trnfft's batched 1-D plans (conventions in <trnfft/stft.hpp> and docs/trnfft.md).
#include <trnfft/plan.hpp>
#include <trnfft/stft.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <cmath>
#include <numbers>
#include <string>

namespace trnfft {

std::string_view to_string(Window window) noexcept {
  switch (window) {
    case Window::hann: return "hann";
    case Window::hamming: return "hamming";
    case Window::rectangular: return "rectangular";
  }
  return "invalid";
}

std::string_view to_string(PadMode mode) noexcept {
  switch (mode) {
    case PadMode::reflect: return "reflect";
    case PadMode::constant: return "constant";
  }
  return "invalid";
}

namespace {

using trncore::DimensionMismatch;
using trncore::InvalidArgument;

struct Geometry {
  std::int64_t n_fft, hop, win_length, bins;
};

Geometry check_params(const char* function, const StftParams& p, std::optional<std::int64_t> user_window) {
  if (p.n_fft < 1)
    throw InvalidArgument(function, "n_fft = " + std::to_string(p.n_fft), "pass an FFT length n_fft >= 1");
  const std::int64_t hop = p.hop.value_or(std::max<std::int64_t>(1, p.n_fft / 4));
  if (hop < 1) throw InvalidArgument(function, "hop = " + std::to_string(hop), "pass a hop >= 1 (unset: n_fft/4)");
  std::int64_t wl = p.win_length.value_or(user_window.value_or(p.n_fft));
  if (wl < 1 || wl > p.n_fft)
    throw InvalidArgument(function, "win_length = " + std::to_string(wl) + " for n_fft = " + std::to_string(p.n_fft),
                          "use 1 <= win_length <= n_fft");
  if (user_window && *user_window != wl)
    throw DimensionMismatch(
        function, "the window has " + std::to_string(*user_window) + " points but win_length is " + std::to_string(wl),
        "pass a window of win_length points (or leave win_length unset)");
  if (p.window != Window::hann && p.window != Window::hamming && p.window != Window::rectangular)
    throw InvalidArgument(function, "invalid window " + std::to_string(static_cast<int>(p.window)),
                          "use Window::hann, hamming or rectangular, or pass a window array");
  if (p.pad_mode != PadMode::reflect && p.pad_mode != PadMode::constant)
    throw InvalidArgument(function, "invalid pad mode " + std::to_string(static_cast<int>(p.pad_mode)),
                          "use PadMode::reflect or PadMode::constant");
  return {p.n_fft, hop, wl, p.onesided ? p.n_fft / 2 + 1 : p.n_fft};
}

// The window of win_length points, centred in n_fft (torch/librosa's padding).
template <Real T>
std::vector<T> full_window(const Geometry& g, const StftParams& p, std::span<const T> user) {
  std::vector<T> w(static_cast<std::size_t>(g.n_fft), T(0));
  const std::int64_t left = (g.n_fft - g.win_length) / 2;
  const double pi = std::numbers::pi;
  for (std::int64_t k = 0; k < g.win_length; ++k) {
    T v = T(1);
    if (!user.empty())
      v = user[static_cast<std::size_t>(k)];
    else if (p.window == Window::hann)
      v = static_cast<T>(0.5 - 0.5 * std::cos(2 * pi * static_cast<double>(k) / static_cast<double>(g.win_length)));
    else if (p.window == Window::hamming)
      v = static_cast<T>(0.54 - 0.46 * std::cos(2 * pi * static_cast<double>(k) / static_cast<double>(g.win_length)));
    w[static_cast<std::size_t>(left + k)] = v;
  }
  return w;
}

template <Real T>
Array<std::complex<T>> stft_impl(const char* function, std::span<const T> x, std::span<const T> user,
                                 const StftParams& p, const trncore::Options& options) {
  const Geometry g =
      check_params(function, p, user.empty() ? std::nullopt : std::optional<std::int64_t>(std::ssize(user)));
  const auto len = static_cast<std::int64_t>(x.size());
  if (len == 0) throw InvalidArgument(function, "the signal is empty", "pass at least one sample");
  const std::int64_t pad = p.center ? g.n_fft / 2 : 0;
  if (p.center && p.pad_mode == PadMode::reflect && pad >= len)
    throw InvalidArgument(function,
                          "reflect padding of n_fft/2 = " + std::to_string(pad) +
                              " samples needs a signal longer "
                              "than that, got " +
                              std::to_string(len),
                          "use a longer signal, PadMode::constant, or center = false");
  const std::int64_t padded = len + 2 * pad;
  if (padded < g.n_fft)
    throw InvalidArgument(
        function,
        "the (padded) signal has " + std::to_string(padded) + " samples, fewer than n_fft = " + std::to_string(g.n_fft),
        "use a longer signal or a smaller n_fft");
  const std::int64_t frames = 1 + (padded - g.n_fft) / g.hop;
  auto sample = [&](std::int64_t i) -> T {  // x_pad[i]
    std::int64_t j = i - pad;
    if (j >= 0 && j < len) return x[static_cast<std::size_t>(j)];
    if (p.pad_mode == PadMode::constant) return T(0);
    j = j < 0 ? -j : 2 * (len - 1) - j;  // numpy 'reflect' (pad < len keeps it in range)
    return x[static_cast<std::size_t>(j)];
  };
  const std::vector<T> w = full_window<T>(g, p, user);
  std::vector<T> frame_data(static_cast<std::size_t>(frames * g.n_fft));
  for (std::int64_t t = 0; t < frames; ++t)
    for (std::int64_t k = 0; k < g.n_fft; ++k)
      frame_data[static_cast<std::size_t>(t * g.n_fft + k)] = w[static_cast<std::size_t>(k)] * sample(t * g.hop + k);
  Array<std::complex<T>> out(trncore::Shape{frames, g.bins});  // zeros
  if (p.onesided) {
    plan_many_dft_r2c<T>({g.n_fft}, frames, frame_data.data(), {}, 1, g.n_fft, out.data(), {}, 1, g.bins, options)
        .execute();
  } else {
    std::vector<std::complex<T>> c(frame_data.begin(), frame_data.end());
    plan_many_dft<T>({g.n_fft}, frames, c.data(), {}, 1, g.n_fft, out.data(), {}, 1, g.n_fft, Direction::forward,
                     options)
        .execute();
  }
  if (p.normalized) {
    const T s = T(1) / std::sqrt(static_cast<T>(g.n_fft));
    for (auto& v : out.values()) v *= s;
  }
  return out;
}

template <Real T>
std::vector<T> istft_impl(const char* function, const Array<std::complex<T>>& spec, std::span<const T> user,
                          const StftParams& p, std::optional<std::int64_t> length, const trncore::Options& options) {
  const Geometry g =
      check_params(function, p, user.empty() ? std::nullopt : std::optional<std::int64_t>(std::ssize(user)));
  if (spec.shape().size() != 2 || spec.shape()[1] != g.bins || spec.shape()[0] < 1 ||
      static_cast<std::int64_t>(spec.values().size()) != spec.shape()[0] * spec.shape()[1])
    throw DimensionMismatch(
        function,
        "the spectrum has shape [" +
            (spec.shape().empty()
                 ? std::string()
                 : std::to_string(spec.shape()[0]) +
                       (spec.shape().size() > 1 ? ", " + std::to_string(spec.shape()[1]) : std::string())) +
            "] with " + std::to_string(spec.values().size()) + " values; expected frames x " + std::to_string(g.bins) +
            " bins",
        "pass stft's result for the same n_fft and onesided");
  if (length && *length < 0)
    throw InvalidArgument(function, "length = " + std::to_string(*length), "pass length >= 0 or leave it unset");
  const std::int64_t frames = spec.shape()[0];
  std::vector<T> frames_time(static_cast<std::size_t>(frames * g.n_fft));
  if (p.onesided) {
    std::vector<std::complex<T>> in = spec.values();  // c2r may overwrite its input
    plan_many_dft_c2r<T>({g.n_fft}, frames, in.data(), {}, 1, g.bins, frames_time.data(), {}, 1, g.n_fft, options)
        .execute();
  } else {
    std::vector<std::complex<T>> in = spec.values(), outc(in.size());
    plan_many_dft<T>({g.n_fft}, frames, in.data(), {}, 1, g.n_fft, outc.data(), {}, 1, g.n_fft, Direction::backward,
                     options)
        .execute();
    for (std::size_t i = 0; i < outc.size(); ++i) frames_time[i] = outc[i].real();
  }
  // Unnormalised inverse: × 1/n_fft, and × √n_fft undoes `normalized`.
  const T scale = p.normalized ? T(1) / std::sqrt(static_cast<T>(g.n_fft)) : T(1) / static_cast<T>(g.n_fft);
  const std::vector<T> w = full_window<T>(g, p, user);
  const std::int64_t total = g.n_fft + g.hop * (frames - 1);
  std::vector<T> y(static_cast<std::size_t>(total), T(0)), env(y.size(), T(0));
  for (std::int64_t t = 0; t < frames; ++t)
    for (std::int64_t k = 0; k < g.n_fft; ++k) {
      const auto i = static_cast<std::size_t>(t * g.hop + k);
      const T wk = w[static_cast<std::size_t>(k)];
      y[i] += frames_time[static_cast<std::size_t>(t * g.n_fft + k)] * scale * wk;
      env[i] += wk * wk;
    }
  const std::int64_t start = p.center ? g.n_fft / 2 : 0;
  std::int64_t end = length ? start + *length : (p.center ? total - g.n_fft / 2 : total);
  end = std::min(end, total);
  std::vector<T> out(static_cast<std::size_t>(length ? *length : std::max<std::int64_t>(0, end - start)), T(0));
  for (std::int64_t i = start; i < end; ++i) {
    const T e = env[static_cast<std::size_t>(i)];
    if (!(std::abs(e) > T(1e-11)))
      throw InvalidArgument(function,
                            "the window-square envelope is " + trncore::detail::sci(static_cast<double>(e)) +
                                " at output sample " + std::to_string(i - start) + " (NOLA violated: hop " +
                                std::to_string(g.hop) + ", win_length " + std::to_string(g.win_length) + ")",
                            "use a window and hop whose overlapped squares never vanish, e.g. hann with hop <= "
                            "win_length/2");
    out[static_cast<std::size_t>(i - start)] = y[static_cast<std::size_t>(i)] / e;
  }
  return out;
}

}  // namespace

template <Real T>
std::vector<T> stft_window(const StftParams& params) {
  const Geometry g = check_params("trnfft::stft_window", params, std::nullopt);
  return full_window<T>(g, params, {});
}

template <Real T>
Array<std::complex<T>> stft(std::span<const T> signal, const StftParams& params, const trncore::Options& options) {
  return stft_impl<T>("trnfft::stft", signal, {}, params, options);
}

template <Real T>
Array<std::complex<T>> stft(std::span<const T> signal, std::span<const T> window, const StftParams& params,
                            const trncore::Options& options) {
  if (window.empty())
    throw DimensionMismatch("trnfft::stft", "the window is empty", "pass win_length >= 1 window values");
  return stft_impl<T>("trnfft::stft", signal, window, params, options);
}

template <Real T>
std::vector<T> istft(const Array<std::complex<T>>& spec, const StftParams& params, std::optional<std::int64_t> length,
                     const trncore::Options& options) {
  return istft_impl<T>("trnfft::istft", spec, {}, params, length, options);
}

template <Real T>
std::vector<T> istft(const Array<std::complex<T>>& spec, std::span<const T> window, const StftParams& params,
                     std::optional<std::int64_t> length, const trncore::Options& options) {
  if (window.empty())
    throw DimensionMismatch("trnfft::istft", "the window is empty", "pass win_length >= 1 window values");
  return istft_impl<T>("trnfft::istft", spec, window, params, length, options);
}

#define TRNFFT_STFT(T)                                                                                            \
  template std::vector<T> stft_window<T>(const StftParams&);                                                      \
  template Array<std::complex<T>> stft<T>(std::span<const T>, const StftParams&, const trncore::Options&);        \
  template Array<std::complex<T>> stft<T>(std::span<const T>, std::span<const T>, const StftParams&,              \
                                          const trncore::Options&);                                               \
  template std::vector<T> istft<T>(const Array<std::complex<T>>&, const StftParams&, std::optional<std::int64_t>, \
                                   const trncore::Options&);                                                      \
  template std::vector<T> istft<T>(const Array<std::complex<T>>&, std::span<const T>, const StftParams&,          \
                                   std::optional<std::int64_t>, const trncore::Options&);
TRNFFT_STFT(float)
TRNFFT_STFT(double)
#undef TRNFFT_STFT

}  // namespace trnfft
