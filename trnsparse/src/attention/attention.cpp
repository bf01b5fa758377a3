#include <trnsparse/attention.hpp>

#include <trncore/detail/checks.hpp>

#include <trnblas/gemm.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace trnsparse {
namespace {

void check_attention(const BlockMask& mask, std::int64_t d, std::int64_t dv, std::size_t nq, std::size_t nk,
                     std::size_t nv, std::size_t no, double scale, const char* fn) {
  if (mask.block < 1 || mask.seq_len < 0)
    throw trncore::InvalidArgument(
        fn, "mask seq_len = " + std::to_string(mask.seq_len) + ", block = " + std::to_string(mask.block),
        "build the mask with local_window_mask / dilated_mask / global_tokens_mask");
  validate(mask.pattern, fn, true);
  if (mask.pattern.rows != mask.blocks() || mask.pattern.cols != mask.blocks())
    throw trncore::InvalidArgument(fn,
                                   "mask pattern is " + std::to_string(mask.pattern.rows) + "x" +
                                       std::to_string(mask.pattern.cols) + " for " + std::to_string(mask.blocks()) +
                                       " blocks",
                                   "the pattern must be blocks x blocks");
  if (d < 1 || dv < 0)
    throw trncore::InvalidArgument(fn, "d = " + std::to_string(d) + ", dv = " + std::to_string(dv),
                                   "pass d >= 1 and dv >= 0");
  if (!std::isfinite(scale))
    throw trncore::InvalidArgument(fn, "scale = " + trncore::detail::sci(scale),
                                   "pass a finite scale (e.g. 1/sqrt(d))");
  const std::int64_t L = mask.seq_len;
  auto need = [&](std::size_t have, std::int64_t cols, const char* name) {
    if (static_cast<std::int64_t>(have) != trncore::detail::checked_product(fn, {{"L", L}, {"cols", cols}}))
      throw trncore::DimensionMismatch(fn,
                                       std::string(name) + " has " + std::to_string(have) + " entries, L x " +
                                           std::to_string(cols) + " = " + std::to_string(L * cols) + " expected",
                                       "pass row-major L x d (q, k) and L x dv (v, out) arrays");
  };
  need(nq, d, "q");
  need(nk, d, "k");
  need(nv, dv, "v");
  need(no, dv, "out");
}

}  // namespace

template <class T>
void block_sparse_attention(const BlockMask& mask, std::int64_t d, std::int64_t dv, std::span<const T> q,
                            std::span<const T> k, std::span<const T> v, std::span<T> out, double scale,
                            const trncore::Options& options, trncore::AccuracyReport& report) {
  constexpr const char* fn = "trnsparse::block_sparse_attention";
  trncore::validate(options, fn);
  check_attention(mask, d, dv, q.size(), k.size(), v.size(), out.size(), scale, fn);
  const std::int64_t L = mask.seq_len, B = mask.block, nb = mask.blocks();
  const double u = std::numeric_limits<T>::epsilon() / 2;
  trncore::sim::EngineStats stats;
  double eps_s = 0, eps_o = 0, worst = 0;
  // The bound's hypotheses: finite inputs, every GEMM certified (its certificate, not its met: the
  // caller's target constrains the attention's bound, not each GEMM's), and a finite output.
  std::string uncertified;
  const auto all_finite = [](std::span<const T> x) {
    return std::all_of(x.begin(), x.end(), [](T e) { return std::isfinite(e); });
  };
  if (!all_finite(q) || !all_finite(k) || !all_finite(v)) uncertified = "NaN or Inf in the input";
  // Row norms |q_i|₂, |k_j|₂ for the score-error bound (Cauchy–Schwarz bounds Σ_l |q_il||k_jl|).
  auto row_norms = [&](std::span<const T> x) {
    std::vector<double> nrm(static_cast<std::size_t>(L), 0.0);
    for (std::int64_t i = 0; i < L; ++i) {
      double s = 0;
      for (std::int64_t l = 0; l < d; ++l)
        s += static_cast<double>(x[static_cast<std::size_t>(i * d + l)]) *
             static_cast<double>(x[static_cast<std::size_t>(i * d + l)]);
      nrm[static_cast<std::size_t>(i)] = std::sqrt(s);
    }
    return nrm;
  };
  const auto qn = row_norms(q), kn = row_norms(k);
  // Per row: |scale|·max_j |q_i||k_j| (multiplied by ε_s at the end) and max_j |s_ij|.
  std::vector<double> qk_term(static_cast<std::size_t>(L), 0.0), score_term(static_cast<std::size_t>(L), 0.0);
  auto record = [&](const trncore::AccuracyReport& r, double& eps, const char* which, std::int64_t bi,
                    std::int64_t bj) {
    eps = std::max(eps, r.a_priori_bound);
    if (!r.certified && uncertified.empty())
      uncertified = std::string("the ") + which + " GEMM of query block " + std::to_string(bi) + " and key block " +
                    std::to_string(bj) + " is not certified: " +
                    (r.uncertified_reason.empty() ? std::string("(no reason given)") : r.uncertified_reason);
    if (r.cost) stats += r.cost->stats;
  };
  for (std::int64_t bi = 0; bi < nb; ++bi) {
    const std::int64_t r0 = bi * B, h = std::min(B, L - r0);
    const auto first = static_cast<std::size_t>(mask.pattern.indptr[static_cast<std::size_t>(bi)]);
    const auto last = static_cast<std::size_t>(mask.pattern.indptr[static_cast<std::size_t>(bi) + 1]);
    T* o = out.data() + r0 * dv;
    std::fill(o, o + h * dv, T(0));
    if (first == last) continue;  // no key block: an empty softmax, O = 0
    // Pass 1: the scores of every stored key block, side by side (h × keys), and each row's maximum.
    std::vector<std::int64_t> col0, width;
    for (std::size_t b = first; b < last; ++b) {
      const std::int64_t c0 = static_cast<std::int64_t>(mask.pattern.indices[b]) * B;
      col0.push_back(c0);
      width.push_back(std::min(B, L - c0));
    }
    std::int64_t keys = 0;
    for (auto w : width) keys += w;
    std::vector<T> s(static_cast<std::size_t>(h * keys));
    std::int64_t offset = 0;
    for (std::size_t t = 0; t < col0.size(); ++t) {
      trncore::AccuracyReport r;
      trnblas::gemm<T>(trnblas::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::trans, h, width[t], d,
                       static_cast<T>(scale), q.data() + r0 * d, d, k.data() + col0[t] * d, d, T(0), s.data() + offset,
                       keys, options, r);
      record(r, eps_s, "score", bi, col0[t] / B);
      offset += width[t];
    }
    std::vector<T> row_sum(static_cast<std::size_t>(h));
    for (std::int64_t i = 0; i < h; ++i) {
      T* si = s.data() + i * keys;
      const T mx = *std::max_element(si, si + keys);
      double max_abs = 0, max_qk = 0;
      T sum = T(0);
      std::int64_t col = 0;
      for (std::size_t t = 0; t < col0.size(); ++t)
        for (std::int64_t j = 0; j < width[t]; ++j, ++col) {
          max_abs = std::max(max_abs, std::fabs(static_cast<double>(si[col])));
          max_qk = std::max(max_qk, qn[static_cast<std::size_t>(r0 + i)] * kn[static_cast<std::size_t>(col0[t] + j)]);
          si[col] = std::exp(si[col] - mx);  // ≤ 1: no overflow; the max entry is exactly 1
          sum += si[col];
        }
      row_sum[static_cast<std::size_t>(i)] = sum;
      qk_term[static_cast<std::size_t>(r0 + i)] = max_qk * std::fabs(scale);
      score_term[static_cast<std::size_t>(r0 + i)] = max_abs;
    }
    // Pass 2: O += P_block · V_block for each key block, then divide by the row sums.
    offset = 0;
    for (std::size_t t = 0; t < col0.size(); ++t) {
      trncore::AccuracyReport r;
      trnblas::gemm<T>(trnblas::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, h, dv, width[t], T(1),
                       s.data() + offset, keys, v.data() + col0[t] * dv, dv, t == 0 ? T(0) : T(1), o, dv, options, r);
      record(r, eps_o, "P.V", bi, col0[t] / B);
      offset += width[t];
    }
    for (std::int64_t i = 0; i < h; ++i)
      for (std::int64_t c = 0; c < dv; ++c) o[i * dv + c] /= row_sum[static_cast<std::size_t>(i)];
  }
  // δ_i = ε_s·|scale|·max_j|q_i||k_j| + 2u·max_j|s_ij|.
  for (std::int64_t i = 0; i < L; ++i)
    worst =
        std::max(worst, eps_s * qk_term[static_cast<std::size_t>(i)] + 2 * u * score_term[static_cast<std::size_t>(i)]);
  if (uncertified.empty() && !all_finite(std::span<const T>(out.data(), out.size())))
    uncertified = "Inf or NaN in the output of finite inputs (overflow)";
  trncore::AccuracyReport r;
  r.target = options.target_forward_error;
  const double bound = std::expm1(2 * worst + 2 * eps_o + 4 * u);
  if (uncertified.empty()) {
    r.certify(bound);
  } else {
    r.a_priori_bound = bound;
    r.uncertify(uncertified);
  }
  r.trajectory.push_back(
      {"block-sparse attention: scores and P.V by trnblas::gemm (" + std::string(trncore::to_string(options.backend)) +
       ", " + std::string(trncore::to_string(options.math_mode)) + "), two-pass softmax in the value type"});
  r.references.push_back("softmax perturbation e^{2 delta}: docs/trnsparse.md section Attention");
  if (options.backend == trncore::Backend::sim) r.cost = trncore::sim::estimate_cost(stats, options.generation);
  report = std::move(r);
}

template <class T>
void block_sparse_attention(const BlockMask& mask, std::int64_t d, std::int64_t dv, std::span<const T> q,
                            std::span<const T> k, std::span<const T> v, std::span<T> out, double scale,
                            const trncore::Options& options) {
  trncore::AccuracyReport report;
  block_sparse_attention<T>(mask, d, dv, q, k, v, out, scale, options, report);
  // No report: never return an uncertified or unmet result silently.
  trncore::require_target_met(report, "trnsparse::block_sparse_attention");
}

#define TRNSPARSE_INSTANTIATE_ATTENTION(T)                                                                  \
  template void block_sparse_attention<T>(const BlockMask&, std::int64_t, std::int64_t, std::span<const T>, \
                                          std::span<const T>, std::span<const T>, std::span<T>, double,     \
                                          const trncore::Options&, trncore::AccuracyReport&);               \
  template void block_sparse_attention<T>(const BlockMask&, std::int64_t, std::int64_t, std::span<const T>, \
                                          std::span<const T>, std::span<const T>, std::span<T>, double,     \
                                          const trncore::Options&);
TRNSPARSE_INSTANTIATE_ATTENTION(float)
TRNSPARSE_INSTANTIATE_ATTENTION(double)

}  // namespace trnsparse
