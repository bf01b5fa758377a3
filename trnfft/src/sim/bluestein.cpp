// Bluestein's chirp-z FFT (complex_fft.hpp) for lengths that are neither ≤ 256 nor 7-smooth: with the chirp
// c_j = e^{sign·πi·j²/n}, y = c ∘ F^H(B ∘ F(pad(c ∘ x)))/M restricted to n outputs, where M ≥ 2n − 1 is
// 7-smooth, F and F^H are Stockham transforms of length M and B = F(d) is the spectrum of the conjugate
// chirp, computed once in long double.
#include "sim/complex_fft.hpp"

#include <trncore/detail/format_number.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

namespace trnfft::detail::sim {

namespace {

__extension__ typedef __int128 i128;  // exact index products (chirp indices reduced mod 2n)

// A long-double mixed-radix FFT for plan-time constants (the chirp spectrum): recursive decimation in
// time on the smallest prime factor. Error ≤ c·2^-64·log2(n)·‖X‖₂ (Higham Thm 24.2 type).
std::vector<cld> ld_dft(const std::vector<cld>& x, int sign) {
  const auto n = static_cast<std::int64_t>(x.size());
  if (n == 1) return x;
  std::int64_t p = 2;
  while (n % p != 0) ++p;
  const std::int64_t m = n / p;
  std::vector<std::vector<cld>> sub(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < p; ++r) {
    std::vector<cld> s(static_cast<std::size_t>(m));
    for (std::int64_t j = 0; j < m; ++j) s[static_cast<std::size_t>(j)] = x[static_cast<std::size_t>(j * p + r)];
    sub[static_cast<std::size_t>(r)] = ld_dft(s, sign);
  }
  std::vector<cld> out(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    cld acc = 0;
    for (std::int64_t r = 0; r < p; ++r)
      acc += sub[static_cast<std::size_t>(r)][static_cast<std::size_t>(k % m)] * unit_root(r * k, n, sign);
    out[static_cast<std::size_t>(k)] = acc;
  }
  return out;
}

template <Real T>
class Bluestein final : public ComplexFft<T> {
 public:
  Bluestein(std::int64_t n, int sign, trncore::MathMode mode, const trncore::Options& options)
      : n_(n), sign_(sign), generation_(options.generation) {
    m_ = 2 * n - 1;
    while (!smooth(m_)) ++m_;
    fwd_ = make_complex_fft<T>(m_, -1, mode, options);
    bwd_ = make_complex_fft<T>(m_, +1, mode, options);
    // c_j = e^{sign·πi·j²/n} = unit_root(j² mod 2n, 2n): the index reduced exactly in integers.
    const std::int64_t two_n = 2 * n;
    std::vector<cld> d(static_cast<std::size_t>(m_), cld(0));
    chirp_.resize(static_cast<std::size_t>(n));
    post_.resize(static_cast<std::size_t>(n));
    for (std::int64_t j = 0; j < n; ++j) {
      const auto jj = static_cast<std::int64_t>((static_cast<i128>(j) * j) % two_n);
      const cld c = unit_root(jj, two_n, sign);
      chirp_[static_cast<std::size_t>(j)] = to_t<T>(c);
      post_[static_cast<std::size_t>(j)] = to_t<T>(c / static_cast<long double>(m_));
      d[static_cast<std::size_t>(j)] = std::conj(c);
      if (j > 0) d[static_cast<std::size_t>(m_ - j)] = std::conj(c);
    }
    const std::vector<cld> big = ld_dft(d, -1);
    bhat_.resize(big.size());
    long double bmax = 0;
    for (std::size_t k = 0; k < big.size(); ++k) {
      bhat_[k] = to_t<T>(big[k]);
      bmax = std::max(bmax, std::abs(big[k]));
    }
    beta_max_ = static_cast<double>(bmax);
  }

  double run(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const override {
    using C = std::complex<T>;
    const auto g = generation_;
    const std::size_t big = static_cast<std::size_t>(batch * m_);
    std::vector<C> a(big, C(0)), spec(big), back(big);
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t j = 0; j < n_; ++j)
        a[static_cast<std::size_t>(b * m_ + j)] = cmul(in[b * n_ + j], chirp_[static_cast<std::size_t>(j)]);
    count_vector(log.stats, g, 6 * batch * n_);
    const double df = fwd_->run(a.data(), spec.data(), batch, log);
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t k = 0; k < m_; ++k) {
        C& z = spec[static_cast<std::size_t>(b * m_ + k)];
        z = cmul(z, bhat_[static_cast<std::size_t>(k)]);
      }
    count_vector(log.stats, g, 6 * batch * m_);
    const double db = bwd_->run(spec.data(), back.data(), batch, log);
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t k = 0; k < n_; ++k)
        out[b * n_ + k] = cmul(back[static_cast<std::size_t>(b * m_ + k)], post_[static_cast<std::size_t>(k)]);
    count_vector(log.stats, g, 6 * batch * n_);
    return compose(df, db);
  }

  double a_priori() const override { return compose(fwd_->a_priori(), bwd_->a_priori()); }

  std::string description() const override {
    const std::string dir = sign_ < 0 ? "forward" : "backward";
    return "Bluestein n=" + std::to_string(n_) + " " + dir + " via length " + std::to_string(m_) +
           " (chirp index j^2 mod 2n), kappa = max|B|/sqrt(n) = " +
           trncore::detail::sci(beta_max_ / std::sqrt(double(n_))) + "; inner: " + fwd_->description();
  }

 private:
  // The bound, from δ_f and δ_b of the two inner transforms:
  // â = fl(c∘x): ‖â − a‖ ≤ τ‖x‖. Â = F̂(â): ‖Â − F(a)‖ ≤ √M(τ + δ_f(1 + τ))‖x‖, ‖Â‖ ≤ √M·α₁‖x‖ with
  // α₁ = (1 + τ)(1 + δ_f). B̂ is B computed in long double and rounded: max|B̂ − B| ≤ ε_B·β (β = max|B|),
  // so the pointwise product errs by ≤ β·τ_B·‖Â‖ with τ_B = ε_B + √2γ₂(1 + ε_B); hence
  // ‖Ŵ − W‖ ≤ β√M·e₂‖x‖, e₂ = τ + δ_f(1 + τ) + τ_B·α₁, and ‖Ŵ‖ ≤ β√M·α₁(1 + τ_B)‖x‖. The inverse adds
  // δ_b·√M‖Ŵ‖, the post-chirp (with 1/M folded in) τ‖V̂‖/M. With ‖y‖ = √n‖x‖ and κ = β/√n:
  //   ρ ≤ κ·[e₂ + δ_b·α₁(1 + τ_B) + τ·α₁(1 + τ_B)(1 + δ_b)].
  double compose(double df, double db) const {
    const double t = tau<T>();
    const double u = unit<T>();
    const double g2 = 2 * u / (1 - 2 * u);
    const double log_m = std::max(1.0, std::log2(static_cast<double>(m_)));
    const double eps_b = u + 10.0 * 0x1p-64 * log_m * std::sqrt(static_cast<double>(m_)) *
                                 std::sqrt(static_cast<double>(2 * n_ - 1)) / beta_max_;
    const double tb = eps_b + std::numbers::sqrt2 * g2 * (1 + eps_b);
    const double a1 = (1 + t) * (1 + df);
    const double e2 = t + df * (1 + t) + tb * a1;
    const double kappa = beta_max_ / std::sqrt(static_cast<double>(n_));
    return kappa * (e2 + db * a1 * (1 + tb) + t * a1 * (1 + tb) * (1 + db));
  }

  std::int64_t n_;
  int sign_;
  trncore::sim::Generation generation_;
  std::int64_t m_ = 0;
  std::unique_ptr<ComplexFft<T>> fwd_, bwd_;
  std::vector<std::complex<T>> chirp_, post_, bhat_;
  double beta_max_ = 0;  // max_k |B̂_k| (the chirp's spectrum): κ = beta_max_/√n amplifies the convolution
};

}  // namespace

template <Real T>
std::unique_ptr<ComplexFft<T>> make_bluestein(std::int64_t n, int sign, trncore::MathMode mode,
                                              const trncore::Options& options) {
  return std::make_unique<Bluestein<T>>(n, sign, mode, options);
}

template std::unique_ptr<ComplexFft<float>> make_bluestein<float>(std::int64_t, int, trncore::MathMode,
                                                                  const trncore::Options&);
template std::unique_ptr<ComplexFft<double>> make_bluestein<double>(std::int64_t, int, trncore::MathMode,
                                                                    const trncore::Options&);

}  // namespace trnfft::detail::sim
