// One GEMM stage of the sim FFTs (dft_stage.hpp).
#include "sim/dft_stage.hpp"

#include <trnblas/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

namespace trnfft::detail::sim {

namespace {

using trncore::MathMode;

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

trncore::Options gemm_options(const trncore::Options& options, MathMode mode) {
  trncore::Options o = options;
  o.backend = trncore::Backend::sim;
  o.math_mode = mode;
  o.target_forward_error.reset();
  return o;
}

template <Real T>
DftStage<T> make_dft_stage(std::int64_t r, std::int64_t ncur, std::int64_t stride, int sign, MathMode mode,
                           const trncore::Options& options) {
  DftStage<T> st;
  st.r = r;
  st.ncur = ncur;
  st.stride = stride;
  st.bt.assign(static_cast<std::size_t>(4 * r * r), T(0));
  const std::int64_t w = 2 * r;
  for (std::int64_t j = 0; j < r; ++j)
    for (std::int64_t k = 0; k < r; ++k) {
      const std::complex<T> z = to_t<T>(unit_root(j * k, r, sign));
      // (xr + i·xi)(c + i·s) = (xr·c − xi·s) + i(xr·s + xi·c)
      st.bt[static_cast<std::size_t>((2 * j) * w + 2 * k)] = z.real();
      st.bt[static_cast<std::size_t>((2 * j + 1) * w + 2 * k)] = -z.imag();
      st.bt[static_cast<std::size_t>((2 * j) * w + 2 * k + 1)] = z.imag();
      st.bt[static_cast<std::size_t>((2 * j + 1) * w + 2 * k + 1)] = z.real();
    }
  const std::int64_t m = ncur / r;
  if (m > 1) {
    st.tw.resize(static_cast<std::size_t>(m * r));
    for (std::int64_t p = 0; p < m; ++p)
      for (std::int64_t k = 0; k < r; ++k)
        st.tw[static_cast<std::size_t>(p * r + k)] = to_t<T>(unit_root(p * k, ncur, sign));
  }
  st.eps = with_matrix_rounding<T>(mode_eps<T>(mode, 2 * r, options));
  return st;
}

template <Real T>
double run_dft_gemm(const T* a, T* c, std::int64_t rows, const DftStage<T>& st, const trncore::Options& options,
                    RunLog& log) {
  const std::int64_t w = 2 * st.r;
  trncore::AccuracyReport rep;
  trnblas::gemm<T>(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, rows, w, w, T(1), a, w,
                   st.bt.data(), w, T(0), c, w, options, rep);
  if (rep.cost) log.stats += rep.cost->stats;
  // Its certificate, not its met: the FFT's target is not the GEMM's (gemm_options drops it).
  if (!rep.certified)
    log.uncertify("a radix-" + std::to_string(st.r) + " GEMM is not certified: " +
                  (rep.uncertified_reason.empty() ? std::string("(no reason given)") : rep.uncertified_reason));
  return with_matrix_rounding<T>(rep.a_priori_bound);
}

template <Real T>
double compose_stages(const std::vector<DftStage<T>>& stages, const std::vector<double>& eps) {
  const double t = tau<T>();
  double one_plus = 1;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    double d = std::sqrt(2.0 * static_cast<double>(stages[s].r)) * eps[s];
    if (!stages[s].tw.empty()) d = d + t * (1 + d);
    one_plus *= 1 + d;
  }
  return one_plus - 1;
}

#define TRNFFT_INSTANTIATE(T)                                                                                        \
  template DftStage<T> make_dft_stage<T>(std::int64_t, std::int64_t, std::int64_t, int, MathMode,                    \
                                         const trncore::Options&);                                                   \
  template double run_dft_gemm<T>(const T*, T*, std::int64_t, const DftStage<T>&, const trncore::Options&, RunLog&); \
  template double compose_stages<T>(const std::vector<DftStage<T>>&, const std::vector<double>&);
TRNFFT_INSTANTIATE(float)
TRNFFT_INSTANTIATE(double)
#undef TRNFFT_INSTANTIATE

}  // namespace trnfft::detail::sim
