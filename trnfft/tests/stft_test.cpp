// STFT/iSTFT: against a direct DFT of the (padded, windowed) frames in long double, perfect reconstruction
// under COLA/NOLA windows, torch's layout and padding conventions, bad input.
//
// Tolerances: each STFT bin is one FFT output of a windowed frame (the windowing is one rounding per
// sample), so the per-frame relative 2-norm error is within FFTW's c·u·log2(n_fft) plus u (fft_tolerance
// covers both, c = 10). Reconstruction: istft(stft(x)) in double is x up to the rounding of two FFTs, the
// window products and the envelope division: a few u·log2(n_fft) relative, so 1e-14 relative is ~45 u.
#include "fft_test_support.hpp"

#include <trnfft/stft.hpp>
#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace {

using namespace trnfft_test;
using trnfft::PadMode;
using trnfft::StftParams;
using trnfft::Window;

// The oracle: frames of the padded signal times the window, DFT'd directly in long double.
std::vector<cld> direct_stft(const std::vector<double>& x, const std::vector<double>& w, const StftParams& p,
                             std::int64_t hop, std::int64_t& frames) {
  const std::int64_t n = p.n_fft, len = static_cast<std::int64_t>(x.size());
  const std::int64_t pad = p.center ? n / 2 : 0;
  std::vector<ld> xp(static_cast<std::size_t>(len + 2 * pad), 0);
  for (std::int64_t i = 0; i < len + 2 * pad; ++i) {
    std::int64_t j = i - pad;
    if (j < 0 || j >= len) {
      if (p.pad_mode == PadMode::constant) continue;
      j = j < 0 ? -j : 2 * (len - 1) - j;
    }
    xp[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(j)];
  }
  frames = 1 + (static_cast<std::int64_t>(xp.size()) - n) / hop;
  const std::int64_t bins = p.onesided ? n / 2 + 1 : n;
  std::vector<cld> out;
  const ld pi = std::numbers::pi_v<long double>;
  for (std::int64_t t = 0; t < frames; ++t)
    for (std::int64_t f = 0; f < bins; ++f) {
      cld acc = 0;
      for (std::int64_t k = 0; k < n; ++k) {
        const ld ang = -2 * pi * static_cast<ld>((f * k) % n) / static_cast<ld>(n);
        acc += static_cast<ld>(w[static_cast<std::size_t>(k)]) * xp[static_cast<std::size_t>(t * hop + k)] *
               cld(std::cos(ang), std::sin(ang));
      }
      if (p.normalized) acc /= std::sqrt(static_cast<ld>(n));
      out.push_back(acc);
    }
  return out;
}

TEST(TrnfftStft, MatchesDirectDftOfFrames) {
  const auto x = random_reals<double>(203, 3);
  for (std::int64_t n_fft : {16, 33, 64})
    for (bool center : {true, false})
      for (PadMode pm : {PadMode::reflect, PadMode::constant})
        for (bool onesided : {true, false})
          for (Window win : {Window::hann, Window::hamming, Window::rectangular}) {
            StftParams p{.n_fft = n_fft,
                         .hop = 5,
                         .win_length = n_fft - 3,
                         .window = win,
                         .center = center,
                         .pad_mode = pm,
                         .onesided = onesided,
                         .normalized = n_fft == 33};
            SCOPED_TRACE("n_fft " + std::to_string(n_fft) + " center " + std::to_string(center) + " " +
                         std::string(trnfft::to_string(pm)) + " onesided " + std::to_string(onesided) + " " +
                         std::string(trnfft::to_string(win)));
            const auto got = trnfft::stft<double>(x, p);
            const auto w = trnfft::stft_window<double>(p);
            std::int64_t frames = 0;
            const auto want = direct_stft(x, w, p, 5, frames);
            ASSERT_EQ(got.shape(), (std::vector<std::int64_t>{frames, onesided ? n_fft / 2 + 1 : n_fft}));
            EXPECT_LE(relative_error(got.values(), want), fft_tolerance<double>(n_fft));
          }
}

TEST(TrnfftStft, WindowDefinitions) {
  // Periodic hann of 8 centred in n_fft = 10: one zero on each side.
  const auto w = trnfft::stft_window<double>({.n_fft = 10, .win_length = 8});
  ASSERT_EQ(w.size(), 10u);
  EXPECT_EQ(w[0], 0.0);
  EXPECT_EQ(w[9], 0.0);
  for (int k = 0; k < 8; ++k)
    EXPECT_NEAR(w[static_cast<std::size_t>(k + 1)], 0.5 - 0.5 * std::cos(2 * std::numbers::pi * k / 8), 1e-16);
  const auto h = trnfft::stft_window<double>({.n_fft = 4, .window = Window::hamming});
  EXPECT_NEAR(h[2], 0.54 + 0.46, 1e-15);
  // Default hop n_fft/4: 64 samples, n_fft 16, centred → 1 + 64/4 = 17 frames (torch's count).
  const std::vector<float> x(64, 1.0f);
  EXPECT_EQ(trnfft::stft<float>(x, {.n_fft = 16}).shape(), (std::vector<std::int64_t>{17, 9}));
}

TEST(TrnfftStft, PerfectReconstructionUnderCola) {
  for (std::int64_t n_fft : {64, 256, 100}) {
    const auto x = random_reals<double>(3000, static_cast<std::uint64_t>(n_fft));
    for (bool onesided : {true, false})
      for (PadMode pm : {PadMode::reflect, PadMode::constant}) {
        StftParams p{.n_fft = n_fft, .hop = n_fft / 4, .pad_mode = pm, .onesided = onesided, .normalized = onesided};
        const auto spec = trnfft::stft<double>(x, p);
        const auto y = trnfft::istft<double>(spec, p, static_cast<std::int64_t>(x.size()));
        ASSERT_EQ(y.size(), x.size());
        EXPECT_LE(relative_error(y, x), 1e-14) << n_fft;
      }
  }
  // Without a length: centred output has n_fft + hop·(frames − 1) − 2·(n_fft/2) samples.
  const auto x = random_reals<float>(1000, 5);
  StftParams p{.n_fft = 128, .hop = 32};
  const auto spec = trnfft::stft<float>(x, p);
  const auto y = trnfft::istft<float>(spec, p);
  EXPECT_EQ(static_cast<std::int64_t>(y.size()), 128 + 32 * (spec.shape()[0] - 1) - 128);
  std::vector<float> head(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(y.size()));
  EXPECT_LE(relative_error(y, head), 1e-5);
  // A user window (sqrt-hann, hop n_fft/2) reconstructs too.
  std::vector<double> sw(64);
  for (std::size_t k = 0; k < sw.size(); ++k) sw[k] = std::sin(std::numbers::pi * static_cast<double>(k) / 64);
  const auto xd = random_reals<double>(777, 6);
  StftParams q{.n_fft = 64, .hop = 32};
  const auto yd = trnfft::istft<double>(trnfft::stft<double>(xd, sw, q), sw, q, 777);
  EXPECT_LE(relative_error(yd, xd), 1e-14);
}

TEST(TrnfftStft, RunsOnTheSimBackend) {
  const auto x = random_reals<float>(1024, 8);
  StftParams p{.n_fft = 64, .hop = 16};
  auto o = trncore::Options{}.with_backend(trncore::Backend::sim).with_threads(1);
  o.math_mode = trncore::MathMode::compensated;
  const auto y = trnfft::istft<float>(trnfft::stft<float>(x, p, o), p, 1024, o);
  EXPECT_LE(relative_error(y, x), 1e-4);
}

TEST(TrnfftStft, BadInput) {
  const std::vector<double> x(100, 1.0);
  auto expect_invalid = [](auto f, const std::string& what) {
    try {
      f();
      ADD_FAILURE() << "no exception for " << what;
    } catch (const trncore::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  expect_invalid([&] { (void)trnfft::stft<double>(x, {.n_fft = 0}); }, "n_fft = 0");
  expect_invalid([&] { (void)trnfft::stft<double>(x, {.n_fft = 16, .hop = 0}); }, "hop = 0");
  expect_invalid([&] { (void)trnfft::stft<double>(x, {.n_fft = 16, .win_length = 17}); }, "win_length = 17");
  expect_invalid([&] { (void)trnfft::stft<double>(std::vector<double>{}, {.n_fft = 4}); }, "empty");
  expect_invalid([&] { (void)trnfft::stft<double>(std::vector<double>(8, 1.0), {.n_fft = 16}); }, "reflect padding");
  expect_invalid([&] { (void)trnfft::stft<double>(std::vector<double>(8, 1.0), {.n_fft = 16, .center = false}); },
                 "fewer than n_fft");
  expect_invalid([&] { (void)trnfft::stft<double>(x, {.n_fft = 16, .window = static_cast<Window>(9)}); },
                 "invalid window");
  const std::vector<double> w5(5, 1.0);
  EXPECT_THROW((void)trnfft::stft<double>(x, w5, {.n_fft = 16, .win_length = 8}), trncore::DimensionMismatch);
  // NOLA: a rectangular window of 4 with hop 8 leaves gaps.
  StftParams gap{.n_fft = 8, .hop = 8, .win_length = 4, .window = Window::rectangular, .center = false};
  const auto spec = trnfft::stft<double>(x, gap);
  expect_invalid([&] { (void)trnfft::istft<double>(spec, gap); }, "NOLA");
  // Wrong bin count for the parameters.
  EXPECT_THROW((void)trnfft::istft<double>(spec, {.n_fft = 16, .hop = 8}), trncore::DimensionMismatch);
  expect_invalid([&] { (void)trnfft::istft<double>(spec, {.n_fft = 8, .hop = 8}, -1); }, "length = -1");
}

}  // namespace
