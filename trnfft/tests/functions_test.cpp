// numpy.fft semantics of the free functions: against the long-double FFTW oracle (fft_test_support.hpp
// states the tolerance), numpy's documented examples, the norm modes, n/s padding and truncation, the
// hfft/ihfft relations, fftfreq/rfftfreq against numpy's formula, shifts, views, and bad input.
#include "fft_test_support.hpp"

#include <trnfft/trnfft.hpp>

#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <numbers>
#include <type_traits>

namespace {

using namespace trnfft_test;
using trnfft::Norm;

template <class T>
class Functions : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Functions, Precisions);

// Long-double c2c over `axes` of a dense row-major array (fftwl guru interface), for the N-D oracle.
std::vector<cld> oracle_axes(std::vector<cld> x, const std::vector<std::int64_t>& shape,
                             const std::vector<std::int64_t>& axes, int sign) {
  std::vector<std::int64_t> st(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) st[k - 1] = st[k] * shape[k];
  std::vector<fftwl_iodim64> dims, batch;
  for (auto a : axes)
    dims.push_back(
        {shape[static_cast<std::size_t>(a)], st[static_cast<std::size_t>(a)], st[static_cast<std::size_t>(a)]});
  for (std::size_t a = 0; a < shape.size(); ++a)
    if (std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(a)) == axes.end())
      batch.push_back({shape[a], st[a], st[a]});
  std::vector<cld> y(x.size());
  auto* in = reinterpret_cast<fftwl_complex*>(x.data());
  auto* out = reinterpret_cast<fftwl_complex*>(y.data());
  fftwl_plan p = fftwl_plan_guru64_dft(static_cast<int>(dims.size()), dims.data(), static_cast<int>(batch.size()),
                                       batch.data(), in, out, sign, FFTW_ESTIMATE);
  fftwl_execute(p);
  fftwl_destroy_plan(p);
  return y;
}

// x zero-padded or truncated to n (1-D).
std::vector<cld> resized(const std::vector<cld>& x, std::int64_t n) {
  std::vector<cld> y(static_cast<std::size_t>(n), cld(0));
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) y[i] = x[i];
  return y;
}

template <class V>
std::vector<cld> widen(const V& v) {
  return std::vector<cld>(v.begin(), v.end());
}

TYPED_TEST(Functions, FftAndIfftAgainstTheOracleWithPaddingAndTruncation) {
  using T = TypeParam;
  for (std::int64_t m : {1, 5, 16, 127, 1000}) {
    const auto x = random_complex<T>(static_cast<std::size_t>(m), 7);
    const auto xl = widen(x);
    for (std::optional<std::int64_t> n : {std::optional<std::int64_t>{}, std::optional<std::int64_t>{m + 3},
                                          std::optional<std::int64_t>{std::max<std::int64_t>(1, m / 2)}}) {
      const std::int64_t len = n.value_or(m);
      SCOPED_TRACE("m=" + std::to_string(m) + " n=" + std::to_string(len));
      const auto want = reference(trnfft::Kind::c2c, {len}, 1, resized(xl, len), trnfft::Direction::forward);
      const auto got = trnfft::fft(x, n);
      ASSERT_EQ(got.size(), static_cast<std::size_t>(len));
      EXPECT_LE(relative_error(got, want), fft_tolerance<T>(len));
      auto inv = reference(trnfft::Kind::c2c, {len}, 1, resized(xl, len), trnfft::Direction::backward);
      for (auto& v : inv) v /= static_cast<ld>(len);
      EXPECT_LE(relative_error(trnfft::ifft(x, n), inv), fft_tolerance<T>(len) + unit_roundoff<T>());
    }
    // Real input: the same as complex input with zero imaginary parts.
    const auto r = random_reals<T>(static_cast<std::size_t>(m), 8);
    const auto want = reference(trnfft::Kind::c2c, {m}, 1, widen(r), trnfft::Direction::forward);
    EXPECT_LE(relative_error(trnfft::fft(r), want), fft_tolerance<T>(m));
  }
}

TEST(Functions, NumpyDocumentedExamples) {
  // np.fft.fft([1, 2, 3, 4]) = [10, -2+2j, -2, -2-2j] (exact in binary floating point).
  const std::vector<double> x = {1, 2, 3, 4};
  const auto y = trnfft::fft(x);
  const std::vector<std::complex<double>> want = {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(y[i], want[i]) << i;
  // numpy's hfft docstring: signal [1, 2, 3, 4, 3, 2]; fft(signal) = hfft(signal[:4]) = hfft(signal, 6)
  // = [15, -4, 0, -1, 0, -4]; ihfft(spectrum) = [1, 2, 3, 4] (the first half of ifft(spectrum)).
  const std::vector<std::complex<double>> half = {1, 2, 3, 4};
  const std::vector<double> spectrum = {15, -4, 0, -1, 0, -4};
  const auto h = trnfft::hfft(half);
  ASSERT_EQ(h.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_NEAR(h[i], spectrum[i], 1e-13) << i;
  const std::vector<std::complex<double>> signal = {1, 2, 3, 4, 3, 2};
  const auto h6 = trnfft::hfft(signal, 6);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_NEAR(h6[i], spectrum[i], 1e-13) << i;
  const auto ih = trnfft::ihfft(spectrum);
  ASSERT_EQ(ih.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(ih[i].real(), static_cast<double>(i + 1), 1e-14) << i;
    EXPECT_NEAR(ih[i].imag(), 0.0, 1e-14) << i;
  }
  // fftshift docstring: fftshift(fftfreq(10, 0.1)) = [-5, -4, …, 4].
  const auto shifted = trnfft::fftshift(trnfft::fftfreq(10, 0.1));
  for (int i = 0; i < 10; ++i) EXPECT_DOUBLE_EQ(shifted[static_cast<std::size_t>(i)], i - 5.0) << i;
  // freqs = fftfreq(9, d=1/9).reshape(3, 3) = [[0,1,2],[3,4,-4],[-3,-2,-1]];
  // fftshift(freqs, axes=(1,)) = [[2,0,1],[-4,3,4],[-1,-3,-2]]; fftshift(freqs) = [[-1,-3,-2],[2,0,1],[-4,3,4]].
  const std::vector<int> freqs = {0, 1, 2, 3, 4, -4, -3, -2, -1};
  EXPECT_EQ(trnfft::fftshift(freqs, {3, 3}, {1}), (std::vector<int>{2, 0, 1, -4, 3, 4, -1, -3, -2}));
  EXPECT_EQ(trnfft::fftshift(freqs, {3, 3}), (std::vector<int>{-1, -3, -2, 2, 0, 1, -4, 3, 4}));
  EXPECT_EQ(trnfft::ifftshift(trnfft::fftshift(freqs, {3, 3}), {3, 3}), freqs);
}

TEST(Functions, FftfreqAndRfftfreqFollowNumpysFormula) {
  for (std::int64_t n : {1, 2, 5, 8, 9, 1000, 1001}) {
    for (double d : {1.0, 0.1, 2.5, -0.5}) {
      const auto f = trnfft::fftfreq(n, d);
      ASSERT_EQ(f.size(), static_cast<std::size_t>(n));
      const double val = 1.0 / (static_cast<double>(n) * d);
      // numpy: results[:N] = arange(0, N), results[N:] = arange(-(n//2), 0), N = (n-1)//2 + 1; times val.
      const std::int64_t big_n = (n - 1) / 2 + 1;
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t k = i < big_n ? i : -(n / 2) + (i - big_n);
        EXPECT_EQ(f[static_cast<std::size_t>(i)], static_cast<double>(k) * val) << n << " " << d << " " << i;
      }
      const auto r = trnfft::rfftfreq(n, d);
      ASSERT_EQ(r.size(), static_cast<std::size_t>(n / 2 + 1));
      for (std::size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i], static_cast<double>(i) * val);
    }
  }
  EXPECT_EQ(trnfft::fftfreq(8), (std::vector<double>{0, 0.125, 0.25, 0.375, -0.5, -0.375, -0.25, -0.125}));
  EXPECT_EQ(trnfft::fftfreq(5), (std::vector<double>{0, 0.2, 0.4, -0.4, -0.2}));
  EXPECT_EQ(trnfft::rfftfreq(8), (std::vector<double>{0, 0.125, 0.25, 0.375, 0.5}));
}

TYPED_TEST(Functions, NormModes) {
  using T = TypeParam;
  const std::int64_t n = 48;
  const auto x = random_complex<T>(n, 3);
  const auto base = trnfft::fft(x);
  const auto inv_base = trnfft::ifft(x);
  const double sq = std::sqrt(static_cast<double>(n));
  const double tol = fft_tolerance<T>(n) + 2 * unit_roundoff<T>();
  auto scaled = [](const auto& v, double f) {
    std::vector<cld> out;
    for (auto e : v) out.push_back(cld(e) * static_cast<ld>(f));
    return out;
  };
  EXPECT_LE(relative_error(trnfft::fft(x, {}, Norm::ortho), scaled(base, 1 / sq)), tol);
  EXPECT_LE(relative_error(trnfft::fft(x, {}, Norm::forward), scaled(base, 1.0 / n)), tol);
  EXPECT_LE(relative_error(trnfft::ifft(x, {}, Norm::ortho), scaled(inv_base, sq)), tol);
  EXPECT_LE(relative_error(trnfft::ifft(x, {}, Norm::forward), scaled(inv_base, static_cast<double>(n))), tol);
  // ifft(fft(x)) = x for every norm; ortho is unitary (Parseval without a factor).
  for (auto norm : {Norm::backward, Norm::ortho, Norm::forward}) {
    EXPECT_LE(relative_error(trnfft::ifft(trnfft::fft(x, {}, norm), {}, norm), x), 2 * tol) << to_string(norm);
    const auto r = random_reals<T>(n, 4);
    EXPECT_LE(relative_error(trnfft::irfft(trnfft::rfft(r, {}, norm), n, norm), r), 2 * tol) << to_string(norm);
  }
  long double ex = 0, ey = 0;
  for (auto v : x) ex += std::norm(cld(v));
  for (auto v : trnfft::fft(x, {}, Norm::ortho)) ey += std::norm(cld(v));
  EXPECT_NEAR(static_cast<double>(std::sqrt(ey / ex)), 1.0, tol);
}

TYPED_TEST(Functions, RfftIrfftAndTheirDefaults) {
  using T = TypeParam;
  for (std::int64_t n : {1, 2, 7, 8, 129, 512, 513}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto r = random_reals<T>(static_cast<std::size_t>(n), 5);
    const auto full = trnfft::fft(r);
    const auto half = trnfft::rfft(r);
    ASSERT_EQ(half.size(), static_cast<std::size_t>(n / 2 + 1));
    EXPECT_LE(relative_error(half, std::vector<std::complex<T>>(full.begin(), full.begin() + n / 2 + 1)),
              2 * fft_tolerance<T>(n));
    const auto back = trnfft::irfft(half, n);
    ASSERT_EQ(back.size(), static_cast<std::size_t>(n));
    EXPECT_LE(relative_error(back, r), 2 * fft_tolerance<T>(n) + unit_roundoff<T>());
    if (n % 2 == 0 && n > 1) {  // the default n = 2(m − 1) recovers even lengths only
      EXPECT_EQ(trnfft::irfft(half).size(), static_cast<std::size_t>(n));
    }
    // rfft with n: padding and truncation of the real input.
    const auto padded = trnfft::rfft(r, n + 5);
    const auto want = reference(trnfft::Kind::r2c, {n + 5}, 1, resized(widen(r), n + 5), trnfft::Direction::forward);
    EXPECT_LE(relative_error(padded, want), fft_tolerance<T>(n + 5));
  }
  // irfft with n: the input is truncated or zero-padded to n/2 + 1 points.
  const auto h = random_complex<T>(9, 6);
  for (std::int64_t n : {4, 5, 16, 17, 30}) {
    auto hl = resized(widen(h), n / 2 + 1);
    const auto want = reference(trnfft::Kind::c2r, {n}, 1, hl, trnfft::Direction::backward);
    std::vector<cld> scaled;
    for (auto v : want) scaled.push_back(v / static_cast<ld>(n));
    EXPECT_LE(relative_error(trnfft::irfft(h, n), scaled), 2 * fft_tolerance<T>(n) + unit_roundoff<T>()) << n;
  }
}

// c2r of a half spectrum that is not Hermitian: numpy (and FFTW) ignore the imaginary parts of the DC
// and, for even n, the Nyquist entry: x_j = (Re X_0 + 2 Σ_{0<k<n/2} Re(X_k e^{2πijk/n}) + Re X_{n/2}(−1)^j)/n.
TYPED_TEST(Functions, IrfftOfNonHermitianInputIgnoresSelfConjugateImaginaryParts) {
  using T = TypeParam;
  for (std::int64_t n : {8, 9, 64, 65}) {
    const auto h = random_complex<T>(static_cast<std::size_t>(n / 2 + 1), 10);  // Im h[0] ≠ 0, Im h[n/2] ≠ 0
    std::vector<ld> want(static_cast<std::size_t>(n));
    for (std::int64_t j = 0; j < n; ++j) {
      ld sum = cld(h[0]).real();
      for (std::int64_t k = 1; 2 * k < n; ++k)
        sum += 2 * (cld(h[static_cast<std::size_t>(k)]) *
                    std::polar(1.0L, 2 * std::numbers::pi_v<ld> * static_cast<ld>(j * k % n) / n))
                       .real();
      if (n % 2 == 0) sum += cld(h[static_cast<std::size_t>(n / 2)]).real() * (j % 2 ? -1 : 1);
      want[static_cast<std::size_t>(j)] = sum / n;
    }
    EXPECT_LE(relative_error(trnfft::irfft(h, n), want), 2 * fft_tolerance<T>(n)) << n;
  }
}

TYPED_TEST(Functions, HfftAndIhfftRelations) {
  using T = TypeParam;
  for (std::int64_t n : {6, 7, 32}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto a = random_complex<T>(static_cast<std::size_t>(n / 2 + 1), 12);
    std::vector<std::complex<T>> conj_a;
    for (auto v : a) conj_a.push_back(std::conj(v));
    // hfft(a, n) = irfft(conj(a), n) · n under Norm::backward (the swapped direction leaves it unscaled).
    auto want = trnfft::irfft(conj_a, n);
    for (auto& v : want) v *= static_cast<T>(n);
    EXPECT_LE(relative_error(trnfft::hfft(a, n), want), 2 * fft_tolerance<T>(n) + unit_roundoff<T>());
    // Norm::forward on hfft = irfft's backward scaling.
    EXPECT_LE(relative_error(trnfft::hfft(a, n, Norm::forward), trnfft::irfft(conj_a, n)),
              2 * fft_tolerance<T>(n) + unit_roundoff<T>());
    // ihfft(x) = conj(rfft(x)) / n, and hfft(ihfft(x), n) = x.
    const auto x = random_reals<T>(static_cast<std::size_t>(n), 13);
    auto r = trnfft::rfft(x);
    std::vector<std::complex<T>> want_ih;
    for (auto v : r) want_ih.push_back(std::conj(v) / static_cast<T>(n));
    const auto ih = trnfft::ihfft(x);
    EXPECT_LE(relative_error(ih, want_ih), 2 * fft_tolerance<T>(n) + unit_roundoff<T>());
    EXPECT_LE(relative_error(trnfft::hfft(ih, n), x), 2 * fft_tolerance<T>(n) + unit_roundoff<T>());
    EXPECT_LE(relative_error(trnfft::hfft(trnfft::ihfft(x, {}, Norm::ortho), n, Norm::ortho), x),
              2 * fft_tolerance<T>(n) + unit_roundoff<T>());
  }
}

TYPED_TEST(Functions, FftnIfftnOverAxesWithShapes) {
  using T = TypeParam;
  const std::vector<std::int64_t> shape = {4, 6, 5};
  const auto x = random_complex<T>(120, 20);
  // All axes.
  auto y = trnfft::fftn(x, shape);
  EXPECT_EQ(y.shape(), shape);
  EXPECT_LE(relative_error(y.values(), oracle_axes(widen(x), shape, {0, 1, 2}, FFTW_FORWARD)), fft_tolerance<T>(120));
  // Axes (0, 2), negative spelling.
  y = trnfft::fftn(x, shape, {}, {0, -1});
  EXPECT_LE(relative_error(y.values(), oracle_axes(widen(x), shape, {0, 2}, FFTW_FORWARD)), fft_tolerance<T>(20));
  // fft2 = last two axes; ifft2 inverts it.
  y = trnfft::fft2(x, shape);
  EXPECT_LE(relative_error(y.values(), oracle_axes(widen(x), shape, {1, 2}, FFTW_FORWARD)), fft_tolerance<T>(30));
  EXPECT_LE(relative_error(trnfft::ifft2(y.values(), y.shape()).values(), x),
            2 * fft_tolerance<T>(30) + unit_roundoff<T>());
  // s without axes: the last s.size() axes, padded (6 → 8) and truncated (5 → 3).
  y = trnfft::fftn(x, shape, {8, 3});
  EXPECT_EQ(y.shape(), (std::vector<std::int64_t>{4, 8, 3}));
  std::vector<cld> boxed(4 * 8 * 3, cld(0));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 3; ++k)
        boxed[static_cast<std::size_t>((i * 8 + j) * 3 + k)] = x[static_cast<std::size_t>((i * 6 + j) * 5 + k)];
  EXPECT_LE(relative_error(y.values(), oracle_axes(boxed, {4, 8, 3}, {1, 2}, FFTW_FORWARD)), fft_tolerance<T>(24));
  // ifftn scales by 1/N with N the product of the transformed lengths.
  auto z = trnfft::ifftn(x, shape, {}, {1});
  auto want = oracle_axes(widen(x), shape, {1}, FFTW_BACKWARD);
  for (auto& v : want) v /= 6;
  EXPECT_LE(relative_error(z.values(), want), fft_tolerance<T>(6) + unit_roundoff<T>());
  // The Array overloads.
  const trnfft::Array<std::complex<T>> arr{shape, x};
  EXPECT_EQ(trnfft::fftn(arr).values(), trnfft::fftn(x, shape).values());
  // Array is trncore's dense tensor: element (i, j, k) of the result is values()[(i·6 + j)·5 + k].
  static_assert(std::is_same_v<trnfft::Array<std::complex<T>>, trncore::Tensor<std::complex<T>>>);
  const auto full = trnfft::fftn(arr);
  for (std::int64_t i = 0; i < 4; ++i)
    for (std::int64_t j = 0; j < 6; ++j)
      for (std::int64_t k = 0; k < 5; ++k)
        EXPECT_EQ(full(i, j, k), full.values()[static_cast<std::size_t>((i * 6 + j) * 5 + k)]);
}

// The trncore::TensorView overloads: a permuted complex view and a sliced real view are transformed as the
// arrays their index arithmetic describes (built here by hand).
TYPED_TEST(Functions, NdFunctionsOnStridedTensorViews) {
  using T = TypeParam;
  using C = std::complex<T>;
  const std::vector<std::int64_t> shape = {4, 6, 5};
  const auto x = random_complex<T>(120, 21);
  const trncore::TensorView<const C> v(x.data(), shape);
  const int axes[] = {2, 0, 1};
  const auto p = v.permuted(axes);  // element (k, i, j) = x[(i·6 + j)·5 + k], shape {5, 4, 6}
  std::vector<C> xp(120);
  for (int k = 0; k < 5; ++k)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j)
        xp[static_cast<std::size_t>((k * 4 + i) * 6 + j)] = x[static_cast<std::size_t>((i * 6 + j) * 5 + k)];
  const auto y = trnfft::fftn(p);
  EXPECT_EQ(y.shape(), (std::vector<std::int64_t>{5, 4, 6}));
  EXPECT_LE(relative_error(y.values(), oracle_axes(widen(xp), {5, 4, 6}, {0, 1, 2}, FFTW_FORWARD)),
            fft_tolerance<T>(120));
  const auto z = trnfft::ifftn(p, {}, {0});
  auto want = oracle_axes(widen(xp), {5, 4, 6}, {0}, FFTW_BACKWARD);
  for (auto& w : want) w /= 5;
  EXPECT_LE(relative_error(z.values(), want), fft_tolerance<T>(5) + unit_roundoff<T>());
  // A dense view is transformed in place of a copy, as the data + shape call.
  EXPECT_LE(relative_error(trnfft::fftn(v).values(), trnfft::fftn(x, shape).values()), fft_tolerance<T>(120));

  // A real view sliced on axis 1 (j in [1, 4)): shape {4, 3, 5}, element (i, j', k) = r[(i·6 + j' + 1)·5 + k].
  const auto r = random_reals<T>(120, 22);
  std::vector<T> rs(60);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 5; ++k)
        rs[static_cast<std::size_t>((i * 3 + j) * 5 + k)] = r[static_cast<std::size_t>((i * 6 + j + 1) * 5 + k)];
  std::vector<T> rw(r);
  const trncore::TensorView<T> sliced = trncore::TensorView<T>(rw.data(), shape).slice(1, 1, 4);
  const auto ys = trnfft::rfftn(sliced);
  EXPECT_EQ(ys.shape(), (std::vector<std::int64_t>{4, 3, 3}));
  EXPECT_LE(relative_error(ys.values(), trnfft::rfftn(rs, {4, 3, 5}).values()), 2 * fft_tolerance<T>(60));
  const auto back = trnfft::irfftn(trncore::TensorView<const C>(ys.view()), {4, 3, 5});
  EXPECT_LE(relative_error(back.values(), rs), 2 * fft_tolerance<T>(60) + unit_roundoff<T>());
}

TYPED_TEST(Functions, RfftnIrfftnRoundTripsAndShapes) {
  using T = TypeParam;
  const std::vector<std::int64_t> shape = {3, 10, 7};
  const auto x = random_reals<T>(210, 30);
  const auto y = trnfft::rfftn(x, shape);
  EXPECT_EQ(y.shape(), (std::vector<std::int64_t>{3, 10, 4}));
  // rfftn = the first 7/2 + 1 = 4 points of fftn along the last axis.
  const auto full = oracle_axes(widen(x), shape, {0, 1, 2}, FFTW_FORWARD);
  std::vector<cld> cut;
  for (std::size_t e = 0; e < full.size(); ++e)
    if (e % 7 < 4) cut.push_back(full[e]);
  EXPECT_LE(relative_error(y.values(), cut), fft_tolerance<T>(210));
  const auto back = trnfft::irfftn(y.values(), y.shape(), {3, 10, 7});
  EXPECT_EQ(back.shape(), shape);
  EXPECT_LE(relative_error(back.values(), x), 2 * fft_tolerance<T>(210) + unit_roundoff<T>());
  // Default s for irfftn: last axis 2(m − 1) = 6.
  EXPECT_EQ(trnfft::irfftn(y.values(), y.shape()).shape(), (std::vector<std::int64_t>{3, 10, 6}));
  // rfft2 over axes (0, 1): the halved axis is the last one named (1: 10 → 6).
  const auto y2 = trnfft::rfft2(x, shape, {}, {0, 1});
  EXPECT_EQ(y2.shape(), (std::vector<std::int64_t>{3, 6, 7}));
  const auto back2 = trnfft::irfft2(y2.values(), y2.shape(), {3, 10}, {0, 1});
  EXPECT_LE(relative_error(back2.values(), x), 2 * fft_tolerance<T>(30) + unit_roundoff<T>());
  // rfftn with s: truncate axis 1 to 4, pad the last to 9.
  const auto y3 = trnfft::rfftn(x, shape, {4, 9}, {1, 2});
  EXPECT_EQ(y3.shape(), (std::vector<std::int64_t>{3, 4, 5}));
  std::vector<cld> boxed(3 * 4 * 9, cld(0));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 7; ++k)
        boxed[static_cast<std::size_t>((i * 4 + j) * 9 + k)] = x[static_cast<std::size_t>((i * 10 + j) * 7 + k)];
  const auto f3 = oracle_axes(boxed, {3, 4, 9}, {1, 2}, FFTW_FORWARD);
  std::vector<cld> cut3;
  for (std::size_t e = 0; e < f3.size(); ++e)
    if (e % 9 < 5) cut3.push_back(f3[e]);
  EXPECT_LE(relative_error(y3.values(), cut3), fft_tolerance<T>(36));
}

TYPED_TEST(Functions, ViewsAndThreads) {
  using T = TypeParam;
  // A strided vector view: every second element.
  const auto x = random_complex<T>(40, 40);
  std::vector<std::complex<T>> even;
  for (std::size_t i = 0; i < x.size(); i += 2) even.push_back(x[i]);
  const trncore::VectorView<const std::complex<T>> v(x.data(), 20, 2);
  EXPECT_EQ(trnfft::fft(v), trnfft::fft(even));
  // A column-major 5×8 matrix view with ld 6 equals its row-major copy.
  const auto storage = random_reals<T>(6 * 8, 41);
  const trncore::MatrixView<const T> m(storage.data(), 5, 8, 6, trncore::Layout::col_major);
  std::vector<T> rows(40);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 8; ++j) rows[static_cast<std::size_t>(i * 8 + j)] = m(i, j);
  EXPECT_EQ(trnfft::rfft2(m).values(), trnfft::rfft2(rows, {5, 8}).values());
  EXPECT_EQ(trnfft::fft2(m).values(), trnfft::fft2(rows, {5, 8}).values());
  // Two FFTW threads: the same transform within the bound.
  const auto big = random_complex<T>(256 * 512, 42);
  const auto one = trnfft::fft2(big, {256, 512}, {}, {-2, -1}, Norm::backward, trncore::Options{}.with_threads(1));
  const auto two = trnfft::fft2(big, {256, 512}, {}, {-2, -1}, Norm::backward, trncore::Options{}.with_threads(2));
  EXPECT_LE(relative_error(two.values(), one.values()), 2 * fft_tolerance<T>(256 * 512));
}

TEST(Functions, EmptyArraysAndPaddingFromNothing) {
  // An empty batch axis gives an empty result of the right shape.
  const std::vector<double> none;
  const auto y = trnfft::fftn(none, {0, 8}, {}, {1});
  EXPECT_EQ(y.shape(), (std::vector<std::int64_t>{0, 8}));
  EXPECT_TRUE(y.values().empty());
  // n pads an empty input with zeros.
  const auto z = trnfft::fft(none, 4);
  EXPECT_EQ(z, (std::vector<std::complex<double>>(4, 0.0)));
  EXPECT_EQ(trnfft::fftshift(std::vector<int>{}), std::vector<int>{});
}

TEST(Functions, BadInput) {
  using trncore::DimensionMismatch;
  using trncore::InvalidArgument;
  const std::vector<double> x(12, 1.0);
  const std::vector<std::complex<double>> one(1, 1.0);
  expect_error<InvalidArgument>([&] { (void)trnfft::fft(x, 0); }, "trnfft::fft", {"(0) along axis 0"});
  expect_error<InvalidArgument>([&] { (void)trnfft::ifft(x, -3); }, "trnfft::ifft", {"(-3)"});
  expect_error<InvalidArgument>([&] { (void)trnfft::fft(std::vector<double>{}); }, "trnfft::fft", {"(0)"});
  expect_error<InvalidArgument>([&] { (void)trnfft::irfft(one); }, "trnfft::irfft", {"(0)", "2*(m-1)", "m = 1"});
  expect_error<InvalidArgument>([&] { (void)trnfft::hfft(one); }, "trnfft::hfft", {"(0)"});
  expect_error<InvalidArgument>([&] { (void)trnfft::rfft(x, 0); }, "trnfft::rfft", {"(0)"});
  expect_error<InvalidArgument>([&] { (void)trnfft::ihfft(x, 0); }, "trnfft::ihfft", {"(0)"});
  expect_error<DimensionMismatch>(
      [&] {
        (void)trnfft::fftn(x, {3, 5});
      },
      "trnfft::fftn", {"12 elements", "(3, 5) needs 15"});
  expect_error<InvalidArgument>(
      [&] {
        (void)trnfft::fftn(x, {3, 4}, {}, {2});
      },
      "trnfft::fftn", {"axis 2 is out of range", "2 axes"});
  expect_error<InvalidArgument>([&] { (void)trnfft::fftn(x, {3, 4}, {}, {-3}); }, "trnfft::fftn", {"axis -3"});
  expect_error<InvalidArgument>(
      [&] {
        (void)trnfft::ifftn(x, {3, 4}, {}, {1, -1});
      },
      "trnfft::ifftn", {"repeat axis 1"});
  expect_error<DimensionMismatch>(
      [&] {
        (void)trnfft::rfftn(x, {3, 4}, {3}, {0, 1});
      },
      "trnfft::rfftn", {"s (3) and axes (0, 1) have different lengths"});
  expect_error<DimensionMismatch>(
      [&] {
        (void)trnfft::irfftn(x, {3, 4}, {3, 4, 5});
      },
      "trnfft::irfftn", {"3 entries but the array has 2 axes"});
  expect_error<InvalidArgument>([&] { (void)trnfft::fft2(x, {-3, -4}); }, "trnfft::fft2", {"negative entry"});
  expect_error<InvalidArgument>([&] { (void)trnfft::fftn(x, {}); }, "trnfft::fftn", {"no axes"});
  expect_error<InvalidArgument>([&] { (void)trnfft::rfft2(x, {3, 4}, {0, 4}); }, "trnfft::rfft2", {"(0) along axis 0"});
  expect_error<InvalidArgument>(
      [&] {
        (void)trnfft::irfft2(x, {3, 4}, {}, {-2, -1}, static_cast<Norm>(7));
      },
      "trnfft::irfft2", {"invalid norm 7"});
  expect_error<InvalidArgument>([] { (void)trnfft::fftfreq(0); }, "trnfft::fftfreq", {"n = 0"});
  // A length no vector can hold is the suite's error, not std::length_error.
  expect_error<trncore::ResourceExhausted>([] { (void)trnfft::fftfreq(std::int64_t{1} << 62); }, "trnfft::fftfreq",
                                           {"n = 4611686018427387904"});
  expect_error<trncore::ResourceExhausted>([] { (void)trnfft::rfftfreq(std::int64_t{1} << 62); }, "trnfft::rfftfreq",
                                           {"n = 4611686018427387904"});
  expect_error<InvalidArgument>([] { (void)trnfft::rfftfreq(4, 0.0); }, "trnfft::rfftfreq", {"d = 0"});
  expect_error<InvalidArgument>([] { (void)trnfft::fftfreq(4, std::numeric_limits<double>::infinity()); },
                                "trnfft::fftfreq", {"d = inf"});
  expect_error<DimensionMismatch>([&] { (void)trnfft::fftshift(x, {5, 2}); }, "trnfft::fftshift", {"needs 10"});
  expect_error<InvalidArgument>(
      [&] {
        (void)trnfft::ifftshift(x, {3, 4}, {0, 0});
      },
      "trnfft::ifftshift", {"axis 0 is repeated"});
  expect_error<trncore::NotSupported>(
      [&] {
        (void)trnfft::fft2(
            x, {3, 4}, {}, {}, Norm::backward,
            trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::tf32));
      },
      "trnfft::fft2", {"math mode tf32", "no sim FFT"});
  expect_error<trncore::NotSupported>(
      [&] { (void)trnfft::rfft(x, {}, Norm::backward, trncore::Options{}.with_target(1e-6)); }, "trnfft::rfft",
      {"target_forward_error"});
}

}  // namespace
