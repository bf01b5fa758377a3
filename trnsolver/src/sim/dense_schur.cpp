// gees on the sim backend: A = Q·H·Qᵀ by the blocked Hessenberg reduction (trailing updates as trnblas sim
// GEMMs, panels in VectorEngine fp32), Q formed from the reflectors by sim GEMMs, then H = Z₂·T·Z₂ᵀ by the
// Francis double-shift QR iteration (VectorEngine fp32) with Z = Q·Z₂ accumulated.
#include "sim/dense_routines.hpp"
#include "sim/dense_storage.hpp"

#include "sim/francis_double_shift_qr.hpp"
#include "sim/blocked_hessenberg.hpp"

#include <vector>

namespace trnsolver::detail {

template <class T>
std::int64_t sim_gees(Layout layout, EigJob job, std::int64_t n, T* a, std::int64_t lda, T* wr, T* wi, T* vs,
                      std::int64_t ldvs, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gees";
  check_sizes(f, {{"n", n}});
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  trncore::detail::check_pointer(f, "wr", wr, n);
  trncore::detail::check_pointer(f, "wi", wi, n);
  const bool vectors = job == EigJob::vectors;
  if (vectors) check_matrix(f, "vs", layout, {"n", n}, {"n", n}, vs, ldvs, sizeof(T));
  check_sim<T>(f, options);
  check_finite(f, "a", layout, n, n, a, lda);
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    std::vector<float> h = to_col_major(layout, n, n, a, lda), tau(static_cast<std::size_t>(n));
    blocked_hessenberg(n, h.data(), n, tau.data(), options);
    std::vector<float> z;
    if (vectors) {
      z.resize(static_cast<std::size_t>(n * n));
      hessenberg_q(n, h.data(), n, tau.data(), z.data(), n, options);
    }
    const std::int64_t info = francis_schur(n, h.data(), n, vectors ? z.data() : nullptr, n, wr, wi);
    from_col_major(layout, n, n, h, a, lda);
    if (vectors) from_col_major(layout, n, n, z, vs, ldvs);
    return info;
  } else {
    return 0;  // unreachable: check_sim threw
  }
}

template std::int64_t sim_gees<float>(Layout, EigJob, std::int64_t, float*, std::int64_t, float*, float*, float*,
                                      std::int64_t, const trncore::Options&);
template std::int64_t sim_gees<double>(Layout, EigJob, std::int64_t, double*, std::int64_t, double*, double*, double*,
                                       std::int64_t, const trncore::Options&);

}  // namespace trnsolver::detail
