// Sketched Rayleigh–Ritz: whitened sketched projection of A onto range(V) and its eigenpairs (geev).
#include "common.hpp"
#include "internal_gemm.hpp"

#include <trncore/detail/format_number.hpp>
#include <trnblas/gemm.hpp>

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace trnsolver {

namespace {

using namespace randomized_detail;

lapack_int geev(lapack_int n, float* a, lapack_int lda, float* wr, float* wi, float* vr, lapack_int ldvr) {
  return LAPACKE_sgeev(LAPACK_COL_MAJOR, 'N', 'V', n, a, lda, wr, wi, nullptr, 1, vr, ldvr);
}
lapack_int geev(lapack_int n, double* a, lapack_int lda, double* wr, double* wi, double* vr, lapack_int ldvr) {
  return LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'V', n, a, lda, wr, wi, nullptr, 1, vr, ldvr);
}

// Groups of geev's output (single real values or conjugate pairs) ordered by descending modulus.
template <class T>
std::vector<std::int64_t> group_order(const std::vector<T>& wr, const std::vector<T>& wi) {
  std::vector<std::int64_t> starts;
  for (std::size_t j = 0; j < wr.size(); j += wi[j] != T(0) ? 2 : 1) starts.push_back(static_cast<std::int64_t>(j));
  std::stable_sort(starts.begin(), starts.end(), [&](std::int64_t x, std::int64_t y) {
    return std::hypot(wr[static_cast<std::size_t>(x)], wi[static_cast<std::size_t>(x)]) >
           std::hypot(wr[static_cast<std::size_t>(y)], wi[static_cast<std::size_t>(y)]);
  });
  return starts;
}

}  // namespace

template <class T>
RitzPairs<T> rayleigh_ritz_sketched(const MatrixOperator<T>& a, trncore::MatrixView<const T> basis,
                                    std::int64_t sketch_rows, const Sketch& sketch, double rank_tolerance,
                                    const trncore::Options& options) {
  constexpr const char* kFunction = "trnsolver::rayleigh_ritz_sketched";
  check_common(sketch, options, kFunction);
  const std::int64_t n = a.rows(), d = basis.cols();
  if (a.rows() != a.cols() || basis.rows() != n)
    throw trncore::DimensionMismatch(kFunction,
                                     "A is " + std::to_string(a.rows()) + "x" + std::to_string(a.cols()) + ", V is " +
                                         std::to_string(basis.rows()) + "x" + std::to_string(d),
                                     "pass a square A and a basis V with n rows");
  if (d < 1 || sketch_rows < d || !(rank_tolerance >= 0.0 && rank_tolerance < 1.0))
    throw trncore::InvalidArgument(kFunction,
                                   "d = " + std::to_string(d) + ", sketch_rows = " + std::to_string(sketch_rows) +
                                       ", rank_tolerance = " + trncore::detail::sci(rank_tolerance),
                                   "need d >= 1, d <= sketch_rows (2d to 4d is typical) and 0 <= rank_tolerance < 1");
  require_finite(basis, kFunction);
  const trncore::Options host = host_options(options);

  DenseMatrix<T> v(n, d, Layout::col_major);
  for (std::int64_t j = 0; j < d; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      v(i, j) =
          basis.layout() == Layout::row_major ? basis.data()[i * basis.ld() + j] : basis.data()[i + j * basis.ld()];
  RitzPairs<T> out;
  const DenseMatrix<T> av = apply(a, v, out.matvecs, kFunction);
  DenseMatrix<T> sv = sketch_left<T>(v.view(), sketch_rows, sketch, host);
  const DenseMatrix<T> sav = sketch_left<T>(av.view(), sketch_rows, sketch, host);

  // Whitening: S·V = U·Σ·Wᵀ, keep σ_j > rank_tolerance·σ₁.
  std::vector<T> sigma(static_cast<std::size_t>(d));
  DenseMatrix<T> u(sketch_rows, d, Layout::col_major), wt(d, d, Layout::col_major);
  if (const std::int64_t info = gesdd(Layout::col_major, Job::thin, sketch_rows, d, sv.data.data(), sv.ld(),
                                      sigma.data(), u.data.data(), u.ld(), wt.data.data(), wt.ld(), host);
      info != 0) {  // a numerical outcome, not an exception: rank 0, info says why
    out.info = info;
    out.vectors = DenseMatrix<T>(n, 0, Layout::col_major);
    return out;
  }
  std::int64_t r = 0;
  while (r < d && sigma[static_cast<std::size_t>(r)] > static_cast<T>(rank_tolerance) * sigma[0]) ++r;
  out.rank = r;
  // M = Σ_r⁻¹·U_rᵀ·(S·A·V)·W_r; the coordinates of a Ritz vector in V are W_r·z.
  DenseMatrix<T> t(r, d, Layout::col_major), m(r, r, Layout::col_major), vw(n, r, Layout::col_major),
      avw(n, r, Layout::col_major);
  if (r > 0) {
    trnsolver::detail::internal_gemm(Layout::col_major, Op::trans, Op::no_trans, r, d, sketch_rows, T(1), u.data.data(),
                                     u.ld(), sav.data.data(), sav.ld(), T(0), t.data.data(), t.ld(), host);
    trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::trans, r, r, d, T(1), t.data.data(), t.ld(),
                                     wt.data.data(), wt.ld(), T(0), m.data.data(), m.ld(), host);
    for (std::int64_t j = 0; j < r; ++j)
      for (std::int64_t i = 0; i < r; ++i) m(i, j) /= sigma[static_cast<std::size_t>(i)];
    trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::trans, n, r, d, T(1), v.data.data(), v.ld(),
                                     wt.data.data(), wt.ld(), T(0), vw.data.data(), vw.ld(), host);
    trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::trans, n, r, d, T(1), av.data.data(), av.ld(),
                                     wt.data.data(), wt.ld(), T(0), avw.data.data(), avw.ld(), host);
  }
  std::vector<T> wr(static_cast<std::size_t>(r)), wi(static_cast<std::size_t>(r));
  DenseMatrix<T> z(r, r, Layout::col_major);
  if (const std::int64_t info = r > 0 ? geev(static_cast<lapack_int>(r), m.data.data(), static_cast<lapack_int>(m.ld()),
                                             wr.data(), wi.data(), z.data.data(), static_cast<lapack_int>(z.ld()))
                                      : 0;
      info != 0) {  // a numerical outcome, not an exception: rank 0, info says why
    out.info = info;
    out.rank = 0;
    out.vectors = DenseMatrix<T>(n, 0, Layout::col_major);
    return out;
  }
  // X = (V·W)·Z and A·X = (A·V·W)·Z, then reorder and normalise.
  DenseMatrix<T> x(n, r, Layout::col_major), ax(n, r, Layout::col_major);
  if (r > 0) {
    trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::no_trans, n, r, r, T(1), vw.data.data(),
                                     vw.ld(), z.data.data(), z.ld(), T(0), x.data.data(), x.ld(), host);
    trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::no_trans, n, r, r, T(1), avw.data.data(),
                                     avw.ld(), z.data.data(), z.ld(), T(0), ax.data.data(), ax.ld(), host);
  }
  out.values.reserve(static_cast<std::size_t>(r));
  out.vectors = DenseMatrix<T>(n, r, Layout::col_major);
  std::int64_t col = 0;
  for (std::int64_t start : group_order(wr, wi)) {
    const auto s0 = static_cast<std::size_t>(start);
    const bool pair = wi[s0] != T(0);
    const std::int64_t width = pair ? 2 : 1;
    double norm = 0.0, res = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double xr = x(i, start), xi = pair ? static_cast<double>(x(i, start + 1)) : 0.0;
      norm += xr * xr + xi * xi;
      // (A − λI)(xr + i·xi) with λ = a + i·b: real part A·xr − a·xr + b·xi, imaginary A·xi − a·xi − b·xr.
      const double lr = wr[s0], li = wi[s0];
      const double rr = ax(i, start) - lr * xr + li * xi;
      const double ri = pair ? ax(i, start + 1) - lr * xi - li * xr : 0.0;
      res += rr * rr + ri * ri;
    }
    norm = std::sqrt(norm);
    for (std::int64_t c = 0; c < width; ++c) {
      out.values.push_back(wr[s0]);
      out.imag.push_back(c == 0 ? wi[s0] : static_cast<T>(-wi[s0]));
      out.residuals.push_back(norm > 0.0 ? std::sqrt(res) / norm : 0.0);
      for (std::int64_t i = 0; i < n; ++i)
        out.vectors(i, col) = norm > 0.0 ? static_cast<T>(x(i, start + c) / norm) : T(0);
      ++col;
    }
  }
  return out;
}

template RitzPairs<float> rayleigh_ritz_sketched<float>(const MatrixOperator<float>&, trncore::MatrixView<const float>,
                                                        std::int64_t, const Sketch&, double, const trncore::Options&);
template RitzPairs<double> rayleigh_ritz_sketched<double>(const MatrixOperator<double>&,
                                                          trncore::MatrixView<const double>, std::int64_t,
                                                          const Sketch&, double, const trncore::Options&);

}  // namespace trnsolver
