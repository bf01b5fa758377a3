// DFT-as-GEMM (complex_fft.hpp): a length-n complex DFT, n ≤ 256, as one real GEMM of the batch rows
// (batch × 2n, interleaved) by the 2n × 2n real-stacked DFT matrix: the 4 real products accumulate in PSUM.
// Its bound is one stage's (dft_stage.hpp): √(2n)·ε'.
#include "sim/complex_fft.hpp"
#include "sim/dft_stage.hpp"

#include <utility>
#include <vector>

namespace trnfft::detail::sim {

namespace {

template <Real T>
class DftAsGemm final : public ComplexFft<T> {
 public:
  DftAsGemm(std::int64_t n, int sign, trncore::MathMode mode, const trncore::Options& options)
      : n_(n), sign_(sign), mode_(mode), options_(gemm_options(options, mode)) {
    stages_.push_back(make_dft_stage<T>(n, n, 1, sign, mode, options_));
  }

  double run(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const override {
    const double e =
        run_dft_gemm<T>(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), batch, stages_[0], options_, log);
    count_dma(log.stats, 2 * batch * n_ * static_cast<std::int64_t>(sizeof(std::complex<T>)));
    return compose_stages<T>(stages_, {e});
  }

  double a_priori() const override { return compose_stages<T>(stages_, {stages_[0].eps}); }

  std::string description() const override {
    const std::string dir = sign_ < 0 ? "forward" : "backward";
    return "DFT-as-GEMM n=" + std::to_string(n_) + " " + dir + ": one real GEMM (batch x " + std::to_string(2 * n_) +
           ") * (" + std::to_string(2 * n_) + " x " + std::to_string(2 * n_) + "), i.e. the 4 real products " +
           "accumulating in PSUM, " + mode_name(mode_);
  }

 private:
  std::int64_t n_;
  int sign_;
  trncore::MathMode mode_;
  trncore::Options options_;  // the GEMMs' (gemm_options)
  std::vector<DftStage<T>> stages_;
};

}  // namespace

template <Real T>
std::unique_ptr<ComplexFft<T>> make_dft_as_gemm(std::int64_t n, int sign, trncore::MathMode mode,
                                                const trncore::Options& options) {
  return std::make_unique<DftAsGemm<T>>(n, sign, mode, options);
}

template std::unique_ptr<ComplexFft<float>> make_dft_as_gemm<float>(std::int64_t, int, trncore::MathMode,
                                                                    const trncore::Options&);
template std::unique_ptr<ComplexFft<double>> make_dft_as_gemm<double>(std::int64_t, int, trncore::MathMode,
                                                                      const trncore::Options&);

}  // namespace trnfft::detail::sim
