// Mixed-radix Stockham autosort FFT (complex_fft.hpp) for 7-smooth n: stages of radix 8, then a 4 or 2,
// then 3s, 5s, 7s; each stage gathers its small DFTs into rows (a strided DMA on the chip), runs them as one
// GEMM (TensorEngine), twiddles and scatters (VectorEngine). Bound: the stages compose as
// 1 + ρ = Π(1 + δ_s') (dft_stage.hpp).
#include "sim/complex_fft.hpp"
#include "sim/dft_stage.hpp"

#include <utility>
#include <vector>

namespace trnfft::detail::sim {

namespace {

// Stage radices of a 7-smooth n: 8s, then a 4 or 2, then 3s, 5s, 7s.
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

template <Real T>
class Stockham final : public ComplexFft<T> {
 public:
  Stockham(std::int64_t n, int sign, trncore::MathMode mode, const trncore::Options& options)
      : n_(n), sign_(sign), mode_(mode), options_(gemm_options(options, mode)) {
    std::int64_t ncur = n, stride = 1;
    for (std::int64_t r : radices(n)) {
      stages_.push_back(make_dft_stage<T>(r, ncur, stride, sign, mode, options_));
      a_priori_eps_.push_back(stages_.back().eps);
      ncur /= r;
      stride *= r;
    }
  }

  double run(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const override {
    using C = std::complex<T>;
    const auto g = options_.generation;
    const std::size_t total = static_cast<std::size_t>(batch * n_);
    std::vector<C> work_a(total), work_b(total), gathered(total), product(total);
    const C* src = in;
    std::vector<double> eps;
    for (std::size_t s = 0; s < stages_.size(); ++s) {
      const DftStage<T>& st = stages_[s];
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
      eps.push_back(run_dft_gemm<T>(reinterpret_cast<const T*>(gathered.data()), reinterpret_cast<T*>(product.data()),
                                    batch * m * stride, st, options_, log));
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
    return compose_stages<T>(stages_, eps);
  }

  double a_priori() const override { return compose_stages<T>(stages_, a_priori_eps_); }

  std::string description() const override {
    const std::string dir = sign_ < 0 ? "forward" : "backward";
    std::string r;
    for (const auto& st : stages_) {
      if (!r.empty()) r += '*';
      r += std::to_string(st.r);
    }
    return "Stockham n=" + std::to_string(n_) + " " + dir + ", radices " + r +
           ": each stage's small DFTs as one GEMM (TensorEngine, " + mode_name(mode_) +
           "), twiddles on the VectorEngine";
  }

 private:
  std::int64_t n_;
  int sign_;
  trncore::MathMode mode_;
  trncore::Options options_;  // the GEMMs' (gemm_options)
  std::vector<DftStage<T>> stages_;
  std::vector<double> a_priori_eps_;
};

}  // namespace

template <Real T>
std::unique_ptr<ComplexFft<T>> make_stockham(std::int64_t n, int sign, trncore::MathMode mode,
                                             const trncore::Options& options) {
  return std::make_unique<Stockham<T>>(n, sign, mode, options);
}

template std::unique_ptr<ComplexFft<float>> make_stockham<float>(std::int64_t, int, trncore::MathMode,
                                                                 const trncore::Options&);
template std::unique_ptr<ComplexFft<double>> make_stockham<double>(std::int64_t, int, trncore::MathMode,
                                                                   const trncore::Options&);

}  // namespace trnfft::detail::sim
