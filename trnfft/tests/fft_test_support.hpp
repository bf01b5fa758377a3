#pragma once
// Shared by trnfft's tests: the long-double FFTW oracle on dense data, logical-order gathering of strided
// arrays, random inputs, aligned buffers and the error measure with its bound.
//
// The oracle is independent of the code under test in the ways that matter: it never sees the strides
// (the tests gather inputs and outputs into dense logical order themselves and run fftwl's basic
// advanced interface on dense arrays), and it computes in long double (u = 2^-64), so its own error is
// ≈ 2^11 times below a double transform's.
//
// Tolerance: for a transform of length N computed with unit roundoff u, the normwise error of FFTW's
// algorithms is ‖ŷ − y‖₂ ≤ c·u·log2(N)·‖y‖₂. Higham (ASNA 2nd ed., Thm 24.2) proves it for radix-2
// Cooley–Tukey with c ≈ log2(N)·(μ + γ₄(√2 + μ))/(u·log2 N) ≈ 6.7 when the twiddles are accurate to
// μ ≈ u; FFTW's other algorithms (mixed radix, Rader and Bluestein for primes, r2c/c2r post-processing)
// add a bounded number of such stages, and their measured rms errors grow only like u·√log N. We use
// c = 10 and log2(N) ≥ 1. The measure is the relative 2-norm over all outputs of a batch: each
// transform's squared error is below tol²·‖y_b‖², so the sum is below tol²·Σ‖y_b‖².

#include <trnfft/types.hpp>
#include <trnsci_testing/errors.hpp>

#include <fftw3.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <new>
#include <random>
#include <string>
#include <vector>

namespace trnfft_test {

using ld = long double;
using cld = std::complex<long double>;

template <class T>
constexpr double unit_roundoff() {
  return std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;
}

/// c·u·max(1, log2 N) with c = 10 (file header).
template <class T>
double fft_tolerance(std::int64_t n) {
  return 10.0 * unit_roundoff<T>() * std::max(1.0, std::log2(static_cast<double>(n)));
}

/// ‖got − want‖₂ / ‖want‖₂ (absolute when want = 0).
template <class A, class B>
double relative_error(const std::vector<A>& got, const std::vector<B>& want) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto d = std::complex<long double>(got[i]) - std::complex<long double>(want[i]);
    num += std::norm(d);
    den += std::norm(std::complex<long double>(want[i]));
  }
  return static_cast<double>(den > 0 ? std::sqrt(num / den) : std::sqrt(num));
}

/// 64-byte aligned storage of n elements (so new-array execute sees the same alignment every time).
template <class E>
class Buffer {
 public:
  explicit Buffer(std::size_t n, std::size_t offset = 0) : n_(n), offset_(offset) {
    const std::size_t bytes = ((n + offset) * sizeof(E) + 63) / 64 * 64 + 64;
    raw_ = static_cast<E*>(std::aligned_alloc(64, bytes));
    if (raw_ == nullptr) throw std::bad_alloc();
    std::fill(raw_, raw_ + n + offset, E(std::numeric_limits<double>::quiet_NaN()));
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { std::free(raw_); }
  E* data() { return raw_ + offset_; }
  std::size_t size() const { return n_; }
  E& operator[](std::size_t i) { return raw_[offset_ + i]; }

 private:
  E* raw_ = nullptr;
  std::size_t n_, offset_;
};

/// Offsets of every element of one array of a guru geometry, in dense logical order (batch indices
/// outer, row-major; then transform indices, row-major). `halve_last`: complex side of r2c/c2r.
inline std::vector<std::int64_t> logical_offsets(const std::vector<trnfft::IoDim>& dims,
                                                 const std::vector<trnfft::IoDim>& batch, bool input, bool halve_last) {
  std::vector<std::int64_t> n, s;
  for (const auto& d : batch) {
    n.push_back(d.n);
    s.push_back(input ? d.is : d.os);
  }
  for (std::size_t k = 0; k < dims.size(); ++k) {
    n.push_back(halve_last && k + 1 == dims.size() ? dims[k].n / 2 + 1 : dims[k].n);
    s.push_back(input ? dims[k].is : dims[k].os);
  }
  std::int64_t total = 1;
  for (auto v : n) total *= v;
  std::vector<std::int64_t> out(static_cast<std::size_t>(total));
  std::vector<std::int64_t> idx(n.size(), 0);
  for (std::int64_t e = 0; e < total; ++e) {
    std::int64_t off = 0;
    for (std::size_t k = 0; k < n.size(); ++k) off += idx[k] * s[k];
    out[static_cast<std::size_t>(e)] = off;
    for (std::size_t k = n.size(); k-- > 0;) {
      if (++idx[k] < n[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

inline std::int64_t extent_of(const std::vector<std::int64_t>& offsets) {
  std::int64_t m = 0;
  for (auto o : offsets) m = std::max(m, o);
  return m + 1;
}

/// Uniform random values in [-1, 1) of type T (real) or std::complex<T>.
template <class T>
std::vector<T> random_reals(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(u(rng));
  return v;
}
template <class T>
std::vector<std::complex<T>> random_complex(std::size_t n, std::uint64_t seed) {
  const auto r = random_reals<T>(2 * n, seed);
  std::vector<std::complex<T>> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {r[2 * i], r[2 * i + 1]};
  return v;
}

/// The dense reference in long double: `howmany` transforms of shape n, one after another.
/// kind c2c: complex in/out of Π n; r2c: real Π n in, complex (last n/2 + 1) out; c2r: the reverse.
inline std::vector<cld> reference(trnfft::Kind kind, const std::vector<std::int64_t>& shape, std::int64_t howmany,
                                  const std::vector<cld>& in, trnfft::Direction direction) {
  std::vector<int> n(shape.begin(), shape.end());
  int full = 1;
  for (int v : n) full *= v;
  const int half = full / n.back() * (n.back() / 2 + 1);
  const int rank = static_cast<int>(n.size());
  const int hm = static_cast<int>(howmany);
  std::vector<cld> out;
  if (kind == trnfft::Kind::c2c) {
    std::vector<cld> a(in), b(static_cast<std::size_t>(full) * hm);
    fftwl_plan p =
        fftwl_plan_many_dft(rank, n.data(), hm, reinterpret_cast<fftwl_complex*>(a.data()), nullptr, 1, full,
                            reinterpret_cast<fftwl_complex*>(b.data()), nullptr, 1, full,
                            direction == trnfft::Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
    fftwl_execute(p);
    fftwl_destroy_plan(p);
    out = std::move(b);
  } else if (kind == trnfft::Kind::r2c) {
    std::vector<ld> a(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) a[i] = in[i].real();
    std::vector<cld> b(static_cast<std::size_t>(half) * hm);
    fftwl_plan p = fftwl_plan_many_dft_r2c(rank, n.data(), hm, a.data(), nullptr, 1, full,
                                           reinterpret_cast<fftwl_complex*>(b.data()), nullptr, 1, half, FFTW_ESTIMATE);
    fftwl_execute(p);
    fftwl_destroy_plan(p);
    out = std::move(b);
  } else {
    std::vector<cld> a(in);
    std::vector<ld> b(static_cast<std::size_t>(full) * hm);
    fftwl_plan p = fftwl_plan_many_dft_c2r(rank, n.data(), hm, reinterpret_cast<fftwl_complex*>(a.data()), nullptr, 1,
                                           half, b.data(), nullptr, 1, full, FFTW_ESTIMATE);
    fftwl_execute(p);
    fftwl_destroy_plan(p);
    out.assign(b.begin(), b.end());
  }
  return out;
}

/// A Hermitian half spectrum in long double: the r2c of random real data of the given shape, rounded to T
/// (so the test and the oracle see the same values), returned widened.
template <class T>
std::vector<cld> hermitian_input(const std::vector<std::int64_t>& shape, std::int64_t howmany, std::uint64_t seed) {
  std::int64_t full = 1;
  for (auto v : shape) full *= v;
  const auto x = random_reals<T>(static_cast<std::size_t>(full * howmany), seed);
  std::vector<cld> xl(x.begin(), x.end());
  auto h = reference(trnfft::Kind::r2c, shape, howmany, xl, trnfft::Direction::forward);
  for (auto& v : h) v = cld(static_cast<T>(v.real()), static_cast<T>(v.imag()));
  return h;
}

inline std::string shape_text(const std::vector<std::int64_t>& s) {
  std::string t;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (k > 0) t += 'x';
    t += std::to_string(s[k]);
  }
  return t;
}

// The suite's error expectations (trnsci_testing/errors.hpp), under the names the tests use.
using trnsci_testing::expect_error;
using trnsci_testing::message_of;

}  // namespace trnfft_test
