#pragma once
/// @file
/// Short-time Fourier transform and its inverse (docs/trnfft.md, "STFT and iSTFT"), following
/// torch.stft/torch.istft (and librosa.stft/istft, whose conventions agree except for the default pad mode):
///
///   X[t, f] = s · Σ_{k<n_fft} w[k] · x_pad[t·hop + k] · exp(−2πi·f·k/n_fft)
///
/// with w the window (win_length points, zero-padded on both sides to n_fft, left offset
/// (n_fft − win_length)/2), x_pad the signal padded by n_fft/2 on each side when `center` (reflect: numpy's
/// 'reflect', the edge sample not repeated; constant: zeros), s = 1/√n_fft when `normalized`, else 1.
///
/// Layout: the result is frames × bins, row-major (one frame's spectrum contiguous), shape {frames, bins}:
/// element (t, f) is torch.stft(...)[f, t] and librosa.stft(...)[f, t] — the transpose of both, which
/// return bins × frames. bins = n_fft/2 + 1 when `onesided`, else n_fft. frames = 1 + (len_pad − n_fft)/hop.
///
/// The transforms run on trnfft plans (one batched r2c plan, or c2c when not onesided) with `options`, so
/// the sim backend and its precision modes apply too; everything else is host arithmetic in T.

#include <trnfft/functions.hpp>
#include <trncore/options.hpp>

#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace trnfft {

/// Built-in windows, periodic (as torch.hann_window(periodic=True) and scipy's fftbins=True, the default
/// of torch.stft and librosa): hann w[k] = 0.5 − 0.5·cos(2πk/N), hamming 0.54 − 0.46·cos(2πk/N),
/// rectangular 1, for k < N = win_length.
enum class Window : std::uint8_t { hann, hamming, rectangular };

/// Centre padding: reflect (torch.stft's default) or constant zeros (librosa ≥ 0.10's default).
enum class PadMode : std::uint8_t { reflect, constant };

/// "hann", "hamming" or "rectangular". Never throws.
std::string_view to_string(Window window) noexcept;
/// "reflect" or "constant". Never throws.
std::string_view to_string(PadMode mode) noexcept;

/// Parameters of stft/istft, with torch's defaults.
struct StftParams {
  /// FFT length, ≥ 1.
  std::int64_t n_fft = 0;
  /// Hop between frames, ≥ 1; unset = n_fft/4 (at least 1).
  std::optional<std::int64_t> hop = std::nullopt;
  /// Window length, 1 … n_fft; unset = n_fft (or the user window's length).
  std::optional<std::int64_t> win_length = std::nullopt;
  /// The built-in window of win_length points (ignored by the overloads that take a user window).
  Window window = Window::hann;
  /// Pad n_fft/2 samples on both sides so frame t is centred at t·hop.
  bool center = true;
  /// How `center` pads: reflect (torch's default) or constant zeros (librosa ≥ 0.10's default).
  PadMode pad_mode = PadMode::reflect;
  /// n_fft/2 + 1 bins (real input's non-redundant half) instead of n_fft.
  bool onesided = true;
  /// Scale by 1/√n_fft (torch's normalized=True).
  bool normalized = false;
};

/// The window stft uses: `params.window` of win_length points, zero-padded to n_fft. @throws as stft.
template <Real T>
std::vector<T> stft_window(const StftParams& params);

/// STFT of a real signal; result shape {frames, bins} (see the file header).
/// @throws trncore::InvalidArgument for n_fft < 1, hop < 1, win_length outside 1 … n_fft, an invalid enum,
///         an empty signal, a signal with fewer samples than one frame, or (reflect) a signal not longer
///         than n_fft/2; trncore::DimensionMismatch for a user window whose length is not win_length;
///         plan errors (e.g. NotSupported for a sim mode without an FFT) as the plans throw them.
template <Real T>
Array<std::complex<T>> stft(std::span<const T> signal, const StftParams& params, const trncore::Options& options = {});
/// STFT with a user window of win_length points (win_length unset: the window's length).
template <Real T>
Array<std::complex<T>> stft(std::span<const T> signal, std::span<const T> window, const StftParams& params,
                            const trncore::Options& options = {});

/// Inverse STFT by weighted overlap-add (torch.istft): each frame's inverse transform (irfft when onesided,
/// the real part of ifft otherwise; × √n_fft when normalized) times the window, overlap-added, divided by
/// the window-square envelope Σ_t w²[n − t·hop]; the centre padding is removed, and the result is cut or
/// zero-padded to `length` when given (else n_fft + hop·(frames − 1), minus 2·(n_fft/2) when centred).
/// Perfect reconstruction (up to rounding) of the stft of the same parameters whenever the envelope is
/// nonzero (NOLA), e.g. hann with hop ≤ n_fft/2.
/// @throws as stft, and trncore::DimensionMismatch when spec is not frames × bins for these parameters,
///         trncore::InvalidArgument when the envelope falls below 1e-11 inside the output (NOLA violated)
///         or length < 0.
template <Real T>
std::vector<T> istft(const Array<std::complex<T>>& spec, const StftParams& params,
                     std::optional<std::int64_t> length = std::nullopt, const trncore::Options& options = {});
/// istft with a user window.
template <Real T>
std::vector<T> istft(const Array<std::complex<T>>& spec, std::span<const T> window, const StftParams& params,
                     std::optional<std::int64_t> length = std::nullopt, const trncore::Options& options = {});

}  // namespace trnfft
