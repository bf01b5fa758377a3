// One axis of a sim transform (axis_transform.hpp): the real packings and bf16_refined around a ComplexFft,
// with the bounds they compose.
#include "sim/axis_transform.hpp"

#include <trncore/sim/engine_stats.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace trnfft::detail::sim {

template <Real T>
AxisTransform<T>::AxisTransform(Kind kind, std::int64_t n, Direction direction, Precision precision,
                                const trncore::Options& options)
    : kind_(kind), n_(n), precision_(precision), options_(options) {
  sign_ = kind == Kind::r2c ? -1 : kind == Kind::c2r ? +1 : (direction == Direction::forward ? -1 : +1);
  const bool packed = kind != Kind::c2c && n % 2 == 0;
  len_ = packed ? n / 2 : n;
  main_ = make_complex_fft<T>(len_, sign_, gemm_mode(precision), options);
  if (precision == Precision::bf16_refined)
    fp32_inverse_ = make_complex_fft<T>(len_, -sign_, trncore::MathMode::fp32, options);
  if (packed) {
    pack_twiddle_.resize(static_cast<std::size_t>(len_ + 1));
    for (std::int64_t k = 0; k <= len_; ++k)
      pack_twiddle_[static_cast<std::size_t>(k)] = to_t<T>(unit_root(k, n, sign_));
  }
  const double core = fp32_inverse_ ? refine_bound(main_->a_priori(), fp32_inverse_->a_priori()) : main_->a_priori();
  a_priori_ = wrap(core);
}

template <Real T>
AxisTransform<T>::~AxisTransform() = default;

// bf16_refined: y0 = F̂_b(x) (‖e0‖ ≤ δ_b‖y‖), v = F̂⁻_32(y0) (the unnormalised inverse in fp32 mode,
// ‖v − N·F⁻¹y0‖ ≤ δ_32·√N‖y0‖), r = fl(x − fl(v/N)), y1 = fl(y0 + F̂_b(r)). The exact residual is
// r* = −F⁻¹e0, and y1 − y = F(r − r*) + e1 + e_add, so with ρ = √N‖r‖/‖y‖:
//   A = δ_32(1 + δ_b) + u(1 + δ_b)(1 + δ_32)          (√N‖r − r*‖ before the subtraction's rounding)
//   ρ ≤ (δ_b + A)/(1 − u),   bound = A + uρ + δ_b·ρ, plus the final addition's u(1 + bound).
// It is ≈ δ_32 + δ_b²: the refinement is only as good as the fp32-mode transform of the residual.
template <Real T>
double AxisTransform<T>::refine_bound(double db, double d32) const {
  const double u = unit<T>();
  const double a = d32 * (1 + db) + u * (1 + db) * (1 + d32);
  const double rho = (db + a) / (1 - u);
  const double pre = a + u * rho + db * rho;
  return pre + u * (1 + pre);
}

// The kind's packing around the complex core (docs/trnfft.md; derivations):
// - c2c: the core's bound.
// - r2c, n even: Z = F_h(x_even + i·x_odd), X_k = ½(Z_k + conj Z_{h−k}) − ½i·w^k(Z_k − conj Z_{h−k}),
//   each output within c_p(|Z_k| + |Z_{h−k}|) with c_p = 3u + τ; Σ_k(|a_k| + |b_k|)² over k ≤ h is at most
//   8‖Z‖², and ‖Z‖ = √h‖x‖ ≤ ‖X_half‖, so ρ ≤ 2√2(δ + c_p(1 + δ)), relative to the half spectrum.
// - r2c, n odd: the full c2c of (x, 0); the half spectrum holds at least half the energy: √2·δ.
// - c2r, n even: Z_k = (X_k + conj X_{h−k}) + i·w^{−k}(X_k − conj X_{h−k}) errs by ≤ 2c_p(|X_k| + |X_{h−k}|),
//   ‖Z‖ = √(2n)‖x‖ and ‖X_half‖ ≤ √n‖x‖, so ‖ΔZ‖ ≤ 2√2·c_p‖Z‖ and ρ ≤ 2√2c_p + δ(1 + 2√2c_p).
// - c2r, n odd: the full Hermitian spectrum (exact copies), c2c backward, real part: δ.
template <Real T>
double AxisTransform<T>::wrap(double d) const {
  const double cp = 3 * unit<T>() + tau<T>();
  const double s2 = std::numbers::sqrt2;
  if (kind_ == Kind::c2c) return d;
  if (kind_ == Kind::r2c) return n_ % 2 == 0 ? 2 * s2 * (d + cp * (1 + d)) : s2 * d;
  return n_ % 2 == 0 ? 2 * s2 * cp + d * (1 + 2 * s2 * cp) : d;
}

template <Real T>
void AxisTransform<T>::core_apply(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log,
                                  double& bound) const {
  using C = std::complex<T>;
  if (!fp32_inverse_) {
    bound = main_->run(in, out, batch, log);
    return;
  }
  const std::size_t total = static_cast<std::size_t>(batch * len_);
  std::vector<C> v(total), r(total), z(total);
  const double db = main_->run(in, out, batch, log);  // y0 in out
  const double d32 = fp32_inverse_->run(out, v.data(), batch, log);
  const T len = static_cast<T>(len_);
  for (std::size_t i = 0; i < total; ++i) r[i] = in[i] - C(v[i].real() / len, v[i].imag() / len);
  const double db2 = main_->run(r.data(), z.data(), batch, log);
  for (std::size_t i = 0; i < total; ++i) out[i] += z[i];
  count_vector(log.stats, options_.generation, 8 * static_cast<std::int64_t>(total));
  bound = refine_bound(std::max(db, db2), d32);
}

template <Real T>
void AxisTransform<T>::run_c2c(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log,
                               double& bound) const {
  core_apply(in, out, batch, log, bound);
  bound = wrap(bound);
}

template <Real T>
void AxisTransform<T>::run_r2c(const T* in, std::complex<T>* out, std::int64_t batch, RunLog& log,
                               double& bound) const {
  using C = std::complex<T>;
  const std::int64_t half = n_ / 2 + 1;
  if (n_ % 2 != 0) {
    std::vector<C> x(static_cast<std::size_t>(batch * n_)), y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = C(in[i], 0);
    core_apply(x.data(), y.data(), batch, log, bound);
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t k = 0; k < half; ++k) out[b * half + k] = y[static_cast<std::size_t>(b * n_ + k)];
    bound = wrap(bound);
    return;
  }
  const std::int64_t h = len_;
  std::vector<C> z(static_cast<std::size_t>(batch * h)), zz(z.size());
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t j = 0; j < h; ++j)
      z[static_cast<std::size_t>(b * h + j)] = C(in[b * n_ + 2 * j], in[b * n_ + 2 * j + 1]);
  core_apply(z.data(), zz.data(), batch, log, bound);
  const T half_t = T(0.5);
  for (std::int64_t b = 0; b < batch; ++b) {
    const C* Z = zz.data() + b * h;
    for (std::int64_t k = 0; k <= h; ++k) {
      const C zk = Z[k % h];
      const C zc = std::conj(Z[(h - k) % h]);
      const C s = zk + zc, d = zk - zc;
      const C t = cmul(d, pack_twiddle_[static_cast<std::size_t>(k)]);
      // ½(s − i·t)
      out[b * half + k] = C(half_t * (s.real() + t.imag()), half_t * (s.imag() - t.real()));
    }
  }
  count_vector(log.stats, options_.generation, 12 * batch * (h + 1));
  bound = wrap(bound);
}

template <Real T>
void AxisTransform<T>::run_c2r(const std::complex<T>* in, T* out, std::int64_t batch, RunLog& log,
                               double& bound) const {
  using C = std::complex<T>;
  const std::int64_t half = n_ / 2 + 1;
  if (n_ % 2 != 0) {
    std::vector<C> x(static_cast<std::size_t>(batch * n_)), y(x.size());
    for (std::int64_t b = 0; b < batch; ++b) {
      C* row = x.data() + b * n_;
      row[0] = C(in[b * half].real(), 0);
      for (std::int64_t k = 1; k < half; ++k) {
        row[k] = in[b * half + k];
        row[n_ - k] = std::conj(in[b * half + k]);
      }
    }
    core_apply(x.data(), y.data(), batch, log, bound);
    for (std::size_t i = 0; i < y.size(); ++i) out[i] = y[i].real();
    bound = wrap(bound);
    return;
  }
  const std::int64_t h = len_;
  std::vector<C> z(static_cast<std::size_t>(batch * h)), zz(z.size());
  for (std::int64_t b = 0; b < batch; ++b) {
    const C* X = in + b * half;
    for (std::int64_t k = 0; k < h; ++k) {
      // The self-conjugate entries' imaginary parts are ignored (numpy, FFTW).
      const C xk = k == 0 ? C(X[0].real(), 0) : X[k];
      const C xm = h - k == h ? C(X[h].real(), 0) : X[h - k];
      const C s = xk + std::conj(xm), d = xk - std::conj(xm);
      const C t = cmul(d, pack_twiddle_[static_cast<std::size_t>(k)]);                       // w^{+k}: sign_ is +1 here
      z[static_cast<std::size_t>(b * h + k)] = C(s.real() - t.imag(), s.imag() + t.real());  // s + i·t
    }
  }
  count_vector(log.stats, options_.generation, 12 * batch * h);
  core_apply(z.data(), zz.data(), batch, log, bound);
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t j = 0; j < h; ++j) {
      out[b * n_ + 2 * j] = zz[static_cast<std::size_t>(b * h + j)].real();
      out[b * n_ + 2 * j + 1] = zz[static_cast<std::size_t>(b * h + j)].imag();
    }
  bound = wrap(bound);
}

template <Real T>
std::string AxisTransform<T>::description() const {
  std::string s =
      std::string(to_string(kind_)) + " n=" + std::to_string(n_) + " sim mode " + std::string(name(precision_)) + ": ";
  if (kind_ != Kind::c2c)
    s += n_ % 2 == 0 ? "packed as a length-" + std::to_string(len_) + " c2c (x_even + i x_odd); "
                     : "as a full length-" + std::to_string(n_) + " c2c; ";
  s += main_->description();
  if (fp32_inverse_) s += "; refinement: residual through an fp32-mode inverse, second bf16 transform";
  return s;
}

template <Real T>
trncore::AccuracyReport AxisTransform<T>::a_priori_report() const {
  trncore::AccuracyReport r;
  r.target = options_.target_forward_error;
  r.certify(a_priori_);  // the data-independent bound: certified for any finite input no GEMM refuses
  r.trajectory.push_back({description()});
  r.references = {
      "normwise relative bound ||y_hat - y||_2 <= bound * ||y||_2 per transform, composed stage by stage as in "
      "Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM 2002, Thm 24.2; docs/trnfft.md",
      "componentwise GEMM bounds of each mode: docs/trnblas-sim.md",
      "Stockham autosort FFT (Cochran et al., Proc. IEEE 55, 1967); Bluestein, IEEE Trans. Audio Electroacoust. "
      "18 (1970) 451-455"};
  return r;
}

template <Real T>
trncore::AccuracyReport AxisTransform<T>::report(double bound, const RunLog& log) const {
  trncore::AccuracyReport r = a_priori_report();
  if (log.certified)
    r.certify(bound);
  else {
    r.a_priori_bound = bound;
    r.uncertify(log.reason);
  }
  if (fp32_inverse_) r.iterations = 1;
  for (const auto& c : log.caveats) r.trajectory.push_back({"bound not certified: " + c});
  r.cost = trncore::sim::estimate_cost(log.stats, options_.generation);
  return r;
}

template class AxisTransform<float>;
template class AxisTransform<double>;

}  // namespace trnfft::detail::sim
