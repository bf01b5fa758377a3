// The sim backend's transforms: DFT-as-GEMM, mixed-radix Stockham and Bluestein over trnblas sim GEMMs,
// the bf16_refined step and the r2c/c2r packings, with the normwise bounds each composes (derivations
// inline; summarised in docs/trnfft.md, "Sim backend").
//
// Notation: u = unit roundoff of T (2^-24 float, 2^-53 double); γ₂ = 2u/(1 − 2u); every complex product
// by a stored constant ĉ (|ĉ − c| ≤ u|c|, |c| = 1) in T arithmetic errs by at most
// τ = u + √2·γ₂·(1 + u) relative to |x| (Higham, ASNA 2nd ed., Lemma 3.5 for the complex product).
// Elementwise steps (twiddles, chirps, packing) are VectorEngine work in T's arithmetic: fp32 for float;
// for double they run in fp64, as trnblas's double output stage does (the hardware VectorEngine is fp32, so
// on a chip these would be multi-word fp32 operations; the counters record one element per operation).
#include "sim/engine.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/sim/spec.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numbers>
#include <tuple>
#include <type_traits>
#include <utility>

namespace trnfft::detail::sim {

namespace {

using cld = std::complex<long double>;
__extension__ typedef __int128 i128;  // exact index products (angles reduced mod n)
using trncore::MathMode;
using trncore::detail::sci;
using trncore::sim::Engine;

template <Real T>
constexpr double unit() {
  return std::numeric_limits<T>::epsilon() / 2;
}

template <Real T>
double tau() {
  const double u = unit<T>();
  const double g2 = 2 * u / (1 - 2 * u);
  return u + std::numbers::sqrt2 * g2 * (1 + u);
}

// e^{sign·2πi·a/n}, a reduced mod n exactly in integers, then the angle reduced to a quadrant so that the
// quarter turns are exact (cos(π/2) is 0, not 6e-17) and evaluated in long double.
cld unit_root(std::int64_t a, std::int64_t n, int sign) {
  a %= n;
  if (a < 0) a += n;
  const i128 a4 = static_cast<i128>(a) * 4;
  const auto q = static_cast<int>(a4 / n);
  const auto rem = static_cast<long double>(a4 - static_cast<i128>(q) * n);  // in [0, n)
  long double c = 1, s = 0;
  if (rem != 0) {
    const long double pi = 3.141592653589793238462643383279502884L;
    const long double th = pi * rem / (2.0L * static_cast<long double>(n));  // in (0, π/2)
    c = std::cos(th);
    s = std::sin(th);
  }
  long double re = c, im = s;
  switch (q) {
    case 1:
      re = -s;
      im = c;
      break;
    case 2:
      re = -c;
      im = -s;
      break;
    case 3:
      re = s;
      im = -c;
      break;
    default: break;
  }
  return {re, sign < 0 ? -im : im};
}

template <Real T>
std::complex<T> to_t(cld z) {
  return {static_cast<T>(z.real()), static_cast<T>(z.imag())};
}

template <Real T>
inline std::complex<T> cmul(std::complex<T> x, std::complex<T> c) {
  return {x.real() * c.real() - x.imag() * c.imag(), x.real() * c.imag() + x.imag() * c.real()};
}

// A long-double mixed-radix FFT for plan-time constants (Bluestein's chirp spectrum): recursive
// decimation in time on the smallest prime factor. Error ≤ c·2^-64·log2(n)·‖X‖₂ (Higham Thm 24.2 type).
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

bool smooth(std::int64_t n) {
  for (std::int64_t p : {2, 3, 5, 7})
    while (n % p == 0) n /= p;
  return n == 1;
}

// Stage radices of a 7-smooth n: 8s, then a 4 or 2, then 3s, 5s, 7s (radix-8/4 stages, as the issue asks).
std::vector<std::int64_t> radices(std::int64_t n) {
  int twos = 0;
  while (n % 2 == 0) {
    n /= 2;
    ++twos;
  }
  std::vector<std::int64_t> r;
  while (twos >= 3) {
    r.push_back(8);
    twos -= 3;
  }
  if (twos == 2) r.push_back(4);
  if (twos == 1) r.push_back(2);
  for (std::int64_t p : {3, 5, 7})
    while (n % p == 0) {
      r.push_back(p);
      n /= p;
    }
  return r;
}

std::string mode_name(MathMode m) { return std::string(trncore::to_string(m)); }

void count_vector(trncore::sim::EngineStats& stats, trncore::sim::Generation g, std::int64_t elements) {
  const auto& spec = trncore::sim::spec(g);
  auto& v = stats[Engine::vector];
  v.instructions += 1;
  v.elements += elements;
  v.cycles +=
      static_cast<double>(elements) / trncore::sim::vector_elements_per_cycle(spec) + spec.instruction_overhead_cycles;
}

void count_dma(trncore::sim::EngineStats& stats, std::int64_t bytes) {
  auto& d = stats[Engine::dma];
  d.instructions += 1;
  d.bytes += bytes;
}

// The data-independent componentwise bound trnblas certifies for a mode at inner dimension k, read from
// trnblas itself (a 1×k by k×1 GEMM of ones, which nothing can underflow), cached per (type, mode, k,
// product model, generation). Ozaki's bound is data-dependent: it picks the slice count that certifies
// 2^-52 for the product, so its a-priori value is that plus the output stage's roundings.
template <Real T>
double mode_eps(MathMode mode, std::int64_t k, const trncore::Options& options) {
  static std::mutex mutex;
  static std::map<std::tuple<int, int, std::int64_t, int, int>, double> cache;
  const auto product = trncore::product_model(options);
  const auto key = std::make_tuple(static_cast<int>(sizeof(T)), static_cast<int>(mode), k, static_cast<int>(product),
                                   static_cast<int>(options.generation));
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  std::vector<T> a(static_cast<std::size_t>(k), T(1)), b(static_cast<std::size_t>(k), T(1));
  T c = 0;
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.math_mode = mode;
  o.generation = options.generation;
  o.product = product;
  o.threads = 1;
  trncore::AccuracyReport rep;
  trnblas::gemm<T>(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, 1, 1, k, T(1), a.data(), k,
                   b.data(), 1, T(0), &c, 1, o, rep);
  double eps = rep.a_priori_bound;
  if (mode == MathMode::ozaki) {
    const double u = unit<T>();
    eps = std::max(eps, 0x1p-52 + (1 + 0x1p-52) * (u * (3 + u * (3 + u))));
  }
  std::lock_guard<std::mutex> lock(mutex);
  cache[key] = eps;
  return eps;
}

// ε' of a GEMM against the exact DFT matrix: trnblas bounds the product with the stored matrix B̂
// (|B̂ − B| ≤ u|B| componentwise), so |Ĉ − AB| ≤ ε|A||B̂| + u|A||B| ≤ (ε(1 + u) + u)|A||B|.
template <Real T>
double with_matrix_rounding(double eps) {
  return eps * (1 + unit<T>()) + unit<T>();
}

}  // namespace

// ---- Core --------------------------------------------------------------------------------------------

template <Real T>
struct Core<T>::Stage {
  std::int64_t r = 1;               // radix: the small DFT's length (n itself for DFT-as-GEMM)
  std::int64_t ncur = 1;            // the sub-transform length this stage splits
  std::int64_t stride = 1;          // product of the earlier radices
  std::vector<T> bt;                // (2r × 2r) row-major: an interleaved row times bt is the row's DFT
  std::vector<std::complex<T>> tw;  // (m × r) twiddles w_ncur^{p·k}; empty on the last stage
};

template <Real T>
Core<T>::Core(std::int64_t n, int sign, MathMode mode, const trncore::Options& options)
    : n_(n), sign_(sign), mode_(mode), options_(options) {
  options_.backend = trncore::Backend::sim;
  options_.math_mode = mode;
  options_.target_forward_error.reset();
  auto make_stage = [&](std::int64_t r, std::int64_t ncur, std::int64_t stride) {
    auto st = std::make_unique<Stage>();
    st->r = r;
    st->ncur = ncur;
    st->stride = stride;
    st->bt.assign(static_cast<std::size_t>(4 * r * r), T(0));
    const std::int64_t w = 2 * r;
    for (std::int64_t j = 0; j < r; ++j)
      for (std::int64_t k = 0; k < r; ++k) {
        const std::complex<T> z = to_t<T>(unit_root(j * k, r, sign));
        // (xr + i·xi)(c + i·s) = (xr·c − xi·s) + i(xr·s + xi·c)
        st->bt[static_cast<std::size_t>((2 * j) * w + 2 * k)] = z.real();
        st->bt[static_cast<std::size_t>((2 * j + 1) * w + 2 * k)] = -z.imag();
        st->bt[static_cast<std::size_t>((2 * j) * w + 2 * k + 1)] = z.imag();
        st->bt[static_cast<std::size_t>((2 * j + 1) * w + 2 * k + 1)] = z.real();
      }
    const std::int64_t m = ncur / r;
    if (m > 1) {
      st->tw.resize(static_cast<std::size_t>(m * r));
      for (std::int64_t p = 0; p < m; ++p)
        for (std::int64_t k = 0; k < r; ++k)
          st->tw[static_cast<std::size_t>(p * r + k)] = to_t<T>(unit_root(p * k, ncur, sign));
    }
    stage_eps_.push_back(with_matrix_rounding<T>(mode_eps<T>(mode, 2 * r, options_)));
    stages_.push_back(std::move(st));
  };
  if (n <= 256) {
    algorithm_ = Algorithm::dft_gemm;
    make_stage(n, n, 1);
  } else if (smooth(n)) {
    algorithm_ = Algorithm::stockham;
    std::int64_t ncur = n, stride = 1;
    for (std::int64_t r : radices(n)) {
      make_stage(r, ncur, stride);
      ncur /= r;
      stride *= r;
    }
  } else {
    algorithm_ = Algorithm::bluestein;
    m_ = 2 * n - 1;
    while (!smooth(m_)) ++m_;
    fwd_ = std::make_unique<Core>(m_, -1, mode, options);
    bwd_ = std::make_unique<Core>(m_, +1, mode, options);
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
    stage_eps_ = {fwd_->a_priori(), bwd_->a_priori()};
  }
}

template <Real T>
Core<T>::~Core() = default;

// Normwise composition.
// - One DFT GEMM of radix r on gathered vectors a (r complex values, real-stacked): the GEMM's
//   componentwise bound |ĉ − c| ≤ ε'|G̃||ã| with |G̃| entries |cos|, |sin| gives for each complex output
//   |b̂_k − b_k| ≤ √2·ε'·‖a‖₁ (|cos||x| + |sin||y| ≤ |x + iy|), so ‖b̂ − b‖₂ ≤ √2·r·ε'·‖a‖₂ = √(2r)·ε'·‖b‖₂
//   since ‖b‖₂ = √r·‖a‖₂. Over a stage's vectors the squares add: δ_s = √(2r)·ε'.
// - A stage's twiddles (unit modulus, stored in T): δ_s' = δ_s + τ(1 + δ_s).
// - Stages compose as 1 + ρ = Π(1 + δ_s') because each exact stage scales every norm by √r exactly
//   (Higham, ASNA 2nd ed., proof of Thm 24.2).
// - Bluestein: see the comment at the run below; eps = {δ_f, δ_b} of its two inner transforms.
template <Real T>
double Core<T>::compose(const std::vector<double>& eps) const {
  const double t = tau<T>();
  if (algorithm_ != Algorithm::bluestein) {
    double one_plus = 1;
    for (std::size_t s = 0; s < stages_.size(); ++s) {
      double d = std::sqrt(2.0 * static_cast<double>(stages_[s]->r)) * eps[s];
      if (!stages_[s]->tw.empty()) d = d + t * (1 + d);
      one_plus *= 1 + d;
    }
    return one_plus - 1;
  }
  // y = c ∘ F^H(B ∘ F(pad(c ∘ x)))/M restricted to n outputs, B = F(d) the chirp's spectrum.
  // â = fl(c∘x): ‖â − a‖ ≤ τ‖x‖. Â = F̂(â): ‖Â − F(a)‖ ≤ √M(τ + δ_f(1 + τ))‖x‖, ‖Â‖ ≤ √M·α₁‖x‖ with
  // α₁ = (1 + τ)(1 + δ_f). B̂ is B computed in long double and rounded: max|B̂ − B| ≤ ε_B·β (β = max|B|),
  // so the pointwise product errs by ≤ β·τ_B·‖Â‖ with τ_B = ε_B + √2γ₂(1 + ε_B); hence
  // ‖Ŵ − W‖ ≤ β√M·e₂‖x‖, e₂ = τ + δ_f(1 + τ) + τ_B·α₁, and ‖Ŵ‖ ≤ β√M·α₁(1 + τ_B)‖x‖. The inverse adds
  // δ_b·√M‖Ŵ‖, the post-chirp (with 1/M folded in) τ‖V̂‖/M. With ‖y‖ = √n‖x‖ and κ = β/√n:
  //   ρ ≤ κ·[e₂ + δ_b·α₁(1 + τ_B) + τ·α₁(1 + τ_B)(1 + δ_b)].
  const double u = unit<T>();
  const double g2 = 2 * u / (1 - 2 * u);
  const double df = eps[0], db = eps[1];
  const double log_m = std::max(1.0, std::log2(static_cast<double>(m_)));
  const double eps_b = u + 10.0 * 0x1p-64 * log_m * std::sqrt(static_cast<double>(m_)) *
                               std::sqrt(static_cast<double>(2 * n_ - 1)) / beta_max_;
  const double tb = eps_b + std::numbers::sqrt2 * g2 * (1 + eps_b);
  const double a1 = (1 + t) * (1 + df);
  const double e2 = t + df * (1 + t) + tb * a1;
  const double kappa = beta_max_ / std::sqrt(static_cast<double>(n_));
  return kappa * (e2 + db * a1 * (1 + tb) + t * a1 * (1 + tb) * (1 + db));
}

template <Real T>
double Core<T>::gemm(const T* a, T* c, std::int64_t rows, const Stage& st, RunLog& log) const {
  const std::int64_t w = 2 * st.r;
  trncore::AccuracyReport rep;
  trnblas::gemm<T>(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, rows, w, w, T(1), a, w,
                   st.bt.data(), w, T(0), c, w, options_, rep);
  if (rep.cost) log.stats += rep.cost->stats;
  // Its certificate, not its met: options_ carries the FFT's target, which a GEMM's componentwise bound
  // need not meet for the composed normwise bound to meet it.
  if (!rep.certified)
    log.uncertify("a radix-" + std::to_string(st.r) + " GEMM is not certified: " +
                  (rep.uncertified_reason.empty() ? std::string("(no reason given)") : rep.uncertified_reason));
  return with_matrix_rounding<T>(rep.a_priori_bound);
}

template <Real T>
double Core<T>::run(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const {
  using C = std::complex<T>;
  const auto g = options_.generation;
  if (algorithm_ == Algorithm::dft_gemm) {
    const double e = gemm(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), batch, *stages_[0], log);
    count_dma(log.stats, 2 * batch * n_ * static_cast<std::int64_t>(sizeof(C)));
    return compose({e});
  }
  if (algorithm_ == Algorithm::stockham) {
    const std::size_t total = static_cast<std::size_t>(batch * n_);
    std::vector<C> work_a(total), work_b(total), gathered(total), product(total);
    const C* src = in;
    std::vector<double> eps;
    for (std::size_t s = 0; s < stages_.size(); ++s) {
      const Stage& st = *stages_[s];
      const std::int64_t r = st.r, stride = st.stride, m = st.ncur / r;
      C* dst = s + 1 == stages_.size() ? out : (s % 2 == 0 ? work_a.data() : work_b.data());
      // Gather: row (b, p, q) holds x[q + stride·(p + j·m)], j < r (a strided DMA on the chip).
      for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t p = 0; p < m; ++p)
          for (std::int64_t q = 0; q < stride; ++q) {
            C* row = gathered.data() + ((b * m + p) * stride + q) * r;
            const C* x = src + b * n_ + q + stride * p;
            for (std::int64_t j = 0; j < r; ++j) row[j] = x[stride * j * m];
          }
      eps.push_back(gemm(reinterpret_cast<const T*>(gathered.data()), reinterpret_cast<T*>(product.data()),
                         batch * m * stride, st, log));
      // Twiddle (VectorEngine) and scatter: y[q + stride·(r·p + k)] = w^{p·k}·b_k.
      for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t p = 0; p < m; ++p)
          for (std::int64_t q = 0; q < stride; ++q) {
            const C* row = product.data() + ((b * m + p) * stride + q) * r;
            C* y = dst + b * n_ + q + stride * r * p;
            if (st.tw.empty() || p == 0) {
              for (std::int64_t k = 0; k < r; ++k) y[stride * k] = row[k];
            } else {
              const C* tw = st.tw.data() + p * r;
              y[0] = row[0];
              for (std::int64_t k = 1; k < r; ++k) y[stride * k] = cmul(row[k], tw[k]);
            }
          }
      count_dma(log.stats, 4 * batch * n_ * static_cast<std::int64_t>(sizeof(C)));
      if (!st.tw.empty()) count_vector(log.stats, g, 6 * batch * n_);
      src = dst;
    }
    return compose(eps);
  }
  // Bluestein (compose() derives the bound).
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
  return compose({df, db});
}

template <Real T>
std::string Core<T>::description() const {
  const std::string dir = sign_ < 0 ? "forward" : "backward";
  switch (algorithm_) {
    case Algorithm::dft_gemm:
      return "DFT-as-GEMM n=" + std::to_string(n_) + " " + dir + ": one real GEMM (batch x " + std::to_string(2 * n_) +
             ") * (" + std::to_string(2 * n_) + " x " + std::to_string(2 * n_) + "), i.e. the 4 real products " +
             "accumulating in PSUM, " + mode_name(mode_);
    case Algorithm::stockham: {
      std::string r;
      for (const auto& st : stages_) r += (r.empty() ? "" : "*") + std::to_string(st->r);
      return "Stockham n=" + std::to_string(n_) + " " + dir + ", radices " + r +
             ": each stage's small DFTs as one GEMM (TensorEngine, " + mode_name(mode_) +
             "), twiddles on the VectorEngine";
    }
    case Algorithm::bluestein:
      return "Bluestein n=" + std::to_string(n_) + " " + dir + " via length " + std::to_string(m_) +
             " (chirp index j^2 mod 2n), kappa = max|B|/sqrt(n) = " + sci(beta_max_ / std::sqrt(double(n_))) +
             "; inner: " + fwd_->description();
  }
  return {};
}

// ---- Executor ------------------------------------------------------------------------------------------

namespace {
MathMode core_mode(SimMode m) {
  switch (m) {
    case SimMode::fp32: return MathMode::fp32;
    case SimMode::bf16:
    case SimMode::bf16_refined: return MathMode::bf16;
    case SimMode::compensated: return MathMode::compensated;
    default: return MathMode::ozaki;
  }
}
}  // namespace

template <Real T>
Executor<T>::Executor(Kind kind, std::int64_t n, Direction direction, SimMode mode, const trncore::Options& options)
    : kind_(kind), n_(n), mode_(mode), options_(options) {
  sign_ = kind == Kind::r2c ? -1 : kind == Kind::c2r ? +1 : (direction == Direction::forward ? -1 : +1);
  const bool packed = kind != Kind::c2c && n % 2 == 0;
  len_ = packed ? n / 2 : n;
  main_ = std::make_unique<Core<T>>(len_, sign_, core_mode(mode), options);
  if (mode == SimMode::bf16_refined) fp32_inverse_ = std::make_unique<Core<T>>(len_, -sign_, MathMode::fp32, options);
  if (packed) {
    pack_twiddle_.resize(static_cast<std::size_t>(len_ + 1));
    for (std::int64_t k = 0; k <= len_; ++k)
      pack_twiddle_[static_cast<std::size_t>(k)] = to_t<T>(unit_root(k, n, sign_));
  }
  const double core = fp32_inverse_ ? refine_bound(main_->a_priori(), fp32_inverse_->a_priori()) : main_->a_priori();
  a_priori_ = wrap(core);
}

template <Real T>
Executor<T>::~Executor() = default;

// bf16_refined: y0 = F̂_b(x) (‖e0‖ ≤ δ_b‖y‖), v = F̂⁻_32(y0) (the unnormalised inverse in fp32 mode,
// ‖v − N·F⁻¹y0‖ ≤ δ_32·√N‖y0‖), r = fl(x − fl(v/N)), y1 = fl(y0 + F̂_b(r)). The exact residual is
// r* = −F⁻¹e0, and y1 − y = F(r − r*) + e1 + e_add, so with ρ = √N‖r‖/‖y‖:
//   A = δ_32(1 + δ_b) + u(1 + δ_b)(1 + δ_32)          (√N‖r − r*‖ before the subtraction's rounding)
//   ρ ≤ (δ_b + A)/(1 − u),   bound = A + uρ + δ_b·ρ, plus the final addition's u(1 + bound).
// It is ≈ δ_32 + δ_b²: the refinement is only as good as the fp32-mode transform of the residual.
template <Real T>
double Executor<T>::refine_bound(double db, double d32) const {
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
double Executor<T>::wrap(double d) const {
  const double cp = 3 * unit<T>() + tau<T>();
  const double s2 = std::numbers::sqrt2;
  if (kind_ == Kind::c2c) return d;
  if (kind_ == Kind::r2c) return n_ % 2 == 0 ? 2 * s2 * (d + cp * (1 + d)) : s2 * d;
  return n_ % 2 == 0 ? 2 * s2 * cp + d * (1 + 2 * s2 * cp) : d;
}

template <Real T>
void Executor<T>::core_apply(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log,
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
void Executor<T>::run_c2c(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log,
                          double& bound) const {
  core_apply(in, out, batch, log, bound);
  bound = wrap(bound);
}

template <Real T>
void Executor<T>::run_r2c(const T* in, std::complex<T>* out, std::int64_t batch, RunLog& log, double& bound) const {
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
void Executor<T>::run_c2r(const std::complex<T>* in, T* out, std::int64_t batch, RunLog& log, double& bound) const {
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
std::string Executor<T>::description() const {
  std::string s =
      std::string(to_string(kind_)) + " n=" + std::to_string(n_) + " sim mode " + std::string(to_string(mode_)) + ": ";
  if (kind_ != Kind::c2c)
    s += n_ % 2 == 0 ? "packed as a length-" + std::to_string(len_) + " c2c (x_even + i x_odd); "
                     : "as a full length-" + std::to_string(n_) + " c2c; ";
  s += main_->description();
  if (fp32_inverse_) s += "; refinement: residual through an fp32-mode inverse, second bf16 transform";
  return s;
}

template <Real T>
trncore::AccuracyReport Executor<T>::a_priori_report() const {
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
trncore::AccuracyReport Executor<T>::report(double bound, const RunLog& log) const {
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

SimMode requested_mode(const char* function, SimMode flags_mode, const trncore::Options& options) {
  SimMode mode = flags_mode;
  if (mode == SimMode::from_options) {
    switch (options.math_mode) {
      case MathMode::fp32: mode = SimMode::fp32; break;
      case MathMode::bf16: mode = SimMode::bf16; break;
      case MathMode::compensated: mode = SimMode::compensated; break;
      case MathMode::ozaki: mode = SimMode::ozaki; break;
      case MathMode::automatic: break;
      default:
        throw trncore::NotSupported(function, "math mode " + mode_name(options.math_mode) + " has no sim FFT",
                                    "use automatic, fp32, bf16, compensated or ozaki (or PlanFlags::sim_mode "
                                    "bf16_refined)");
    }
  }
  if (mode != SimMode::from_options && mode != SimMode::fp32 && mode != SimMode::bf16 &&
      mode != SimMode::bf16_refined && mode != SimMode::compensated && mode != SimMode::ozaki)
    throw trncore::InvalidArgument(function, "invalid sim mode " + std::to_string(static_cast<int>(mode)),
                                   "use a SimMode enumerator");
  return mode;
}

template class Core<float>;
template class Core<double>;
template class Executor<float>;
template class Executor<double>;

}  // namespace trnfft::detail::sim
