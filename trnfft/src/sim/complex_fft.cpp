// Which sim algorithm computes a complex FFT of length n (complex_fft.hpp).
#include "sim/complex_fft.hpp"

namespace trnfft::detail::sim {

template <Real T>
std::unique_ptr<ComplexFft<T>> make_complex_fft(std::int64_t n, int sign, trncore::MathMode mode,
                                                const trncore::Options& options) {
  if (n <= 256) return make_dft_as_gemm<T>(n, sign, mode, options);
  if (smooth(n)) return make_stockham<T>(n, sign, mode, options);
  return make_bluestein<T>(n, sign, mode, options);
}

template std::unique_ptr<ComplexFft<float>> make_complex_fft<float>(std::int64_t, int, trncore::MathMode,
                                                                    const trncore::Options&);
template std::unique_ptr<ComplexFft<double>> make_complex_fft<double>(std::int64_t, int, trncore::MathMode,
                                                                      const trncore::Options&);

}  // namespace trnfft::detail::sim
