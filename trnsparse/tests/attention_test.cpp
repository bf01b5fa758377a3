// Block-sparse attention against dense masked attention computed in long double from the same mask
// (token i attends token j iff their blocks are stored in the pattern). Tolerance: the call's reported
// relative bound (attention.hpp: |Ô − O| ≤ bound·Σ_j p_ij|v_jk|, from the gemm bounds and the softmax
// perturbation e^{2δ}), checked per element against the oracle's p; the bound itself must be small (the
// value type's precision times a modest factor), so neither a wrong result nor a vacuous bound passes.
#include <trnsparse/attention.hpp>

#include "sparse_test_support.hpp"

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

template <class T>
std::vector<T> random_matrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed, double spread) {
  return trnsparse_test::random_vector<T>(rows * cols, seed, spread);
}

template <class T>
void check(const trnsparse::BlockMask& mask, std::int64_t d, std::int64_t dv, double scale,
           const trncore::Options& opts, double max_bound, std::uint64_t seed) {
  const std::int64_t L = mask.seq_len;
  const auto q = random_matrix<T>(L, d, seed, 2.0), k = random_matrix<T>(L, d, seed + 1, 2.0),
             v = random_matrix<T>(L, dv, seed + 2, 1.0);
  std::vector<T> out(static_cast<std::size_t>(L * dv), T(7));
  trncore::AccuracyReport report;
  trnsparse::block_sparse_attention<T>(mask, d, dv, q, k, v, out, scale, opts, report);
  EXPECT_LE(report.a_priori_bound, max_bound);
  const auto dense_mask = trnsparse::to_dense(mask.pattern);
  const std::int64_t nb = mask.blocks();
  for (std::int64_t i = 0; i < L; ++i) {
    std::vector<long double> s;
    std::vector<std::int64_t> cols;
    for (std::int64_t j = 0; j < L; ++j) {
      if (dense_mask[static_cast<std::size_t>((i / mask.block) * nb + j / mask.block)] == 0.0f) continue;
      long double dot = 0;
      for (std::int64_t l = 0; l < d; ++l)
        dot +=
            static_cast<long double>(q[static_cast<std::size_t>(i * d + l)]) * k[static_cast<std::size_t>(j * d + l)];
      s.push_back(dot * scale);
      cols.push_back(j);
    }
    if (cols.empty()) {  // no key: O_i = 0
      for (std::int64_t c = 0; c < dv; ++c) ASSERT_EQ(out[static_cast<std::size_t>(i * dv + c)], T(0)) << i;
      continue;
    }
    const long double mx = *std::max_element(s.begin(), s.end());
    long double z = 0;
    for (auto& e : s) z += (e = std::exp(e - mx));
    for (std::int64_t c = 0; c < dv; ++c) {
      long double o = 0, mag = 0;
      for (std::size_t t = 0; t < cols.size(); ++t) {
        const long double vv = v[static_cast<std::size_t>(cols[t] * dv + c)];
        o += s[t] / z * vv;
        mag += s[t] / z * std::fabs(vv);
      }
      ASSERT_LE(std::fabs(out[static_cast<std::size_t>(i * dv + c)] - o), report.a_priori_bound * mag)
          << "row " << i << " col " << c;
    }
  }
}

TEST(Attention, MatchesDenseMaskedAttentionForEveryMaskKind) {
  // 300 tokens in blocks of 64: the last block has 44 tokens (ragged), and block rows hold 1..5 blocks.
  const std::int64_t L = 300, B = 64;
  const std::vector<std::int64_t> globals{0};
  const std::vector<trnsparse::BlockMask> masks{
      trnsparse::local_window_mask(L, B, 1),
      trnsparse::local_window_mask(L, B, 2, true),
      trnsparse::dilated_mask(L, B, 2, 2),
      trnsparse::mask_union(trnsparse::local_window_mask(L, B, 0), trnsparse::global_tokens_mask(L, B, globals)),
  };
  std::uint64_t seed = 1;
  for (const auto& m : masks) {
    // Host: float scores carry γ_{d+2}·|q||k| ≈ 1e-5 at most here; double ≈ 1e-13.
    check<float>(m, 16, 8, 1.0 / 4.0, {}, 1e-4, seed++);
    check<double>(m, 16, 8, 0.37, {}, 1e-12, seed++);
  }
  // Tiny and prime shapes: one token, block larger than the sequence, block of 1.
  check<double>(trnsparse::local_window_mask(1, 128, 0), 3, 2, 1.0, {}, 1e-12, seed++);
  check<double>(trnsparse::local_window_mask(7, 128, 0), 5, 3, 0.5, {}, 1e-12, seed++);
  check<double>(trnsparse::dilated_mask(13, 1, 3, 2), 2, 1, 2.0, {}, 1e-12, seed++);
  check<double>(trnsparse::local_window_mask(0, 4, 1), 2, 2, 1.0, {}, 1e-12, seed++);
}

TEST(Attention, RowsWithoutBlocksGiveZeroAndSimBf16MeetsItsBound) {
  auto mask = trnsparse::local_window_mask(40, 8, 1);
  // Empty block row 2 (ragged to the extreme): its 8 queries attend nothing.
  trnsparse::Coo<float> coo = trnsparse::to_coo(mask.pattern);
  trnsparse::Coo<float> kept{coo.rows, coo.cols, {}, {}, {}};
  for (std::size_t t = 0; t < coo.values.size(); ++t)
    if (coo.row[t] != 2) {
      kept.row.push_back(coo.row[t]);
      kept.col.push_back(coo.col[t]);
      kept.values.push_back(1.0f);
    }
  mask.pattern = trnsparse::to_csr(kept);
  check<float>(mask, 8, 4, 0.35, {}, 1e-4, 5);
  // sim bf16: scores from bf16 inputs (ε_s ≈ 2^-7) — the bound is larger but still certified per element.
  check<float>(mask, 8, 4, 0.35,
               trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::bf16), 0.5, 6);
}

TEST(Attention, BitwiseIdenticalForOneAndTwoThreadsOnSim) {
  const auto mask = trnsparse::local_window_mask(256, 128, 1);
  const auto q = random_matrix<float>(256, 32, 1, 1.0), k = random_matrix<float>(256, 32, 2, 1.0),
             v = random_matrix<float>(256, 16, 3, 1.0);
  std::vector<float> o1(256 * 16), o2(256 * 16);
  auto opts = trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::bf16);
  trnsparse::block_sparse_attention<float>(mask, 32, 16, q, k, v, o1, 0.17, opts.with_threads(1));
  trnsparse::block_sparse_attention<float>(mask, 32, 16, q, k, v, o2, 0.17, opts.with_threads(2));
  EXPECT_EQ(o1, o2);
}

TEST(Attention, BadInputIsNamed) {
  const auto mask = trnsparse::local_window_mask(10, 4, 1);
  std::vector<float> q(20), k(20), v(20), out(20), short_q(19);
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnsparse::block_sparse_attention<float>(mask, 2, 2, short_q, k, v, out, 1.0); },
      "trnsparse::block_sparse_attention");
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::block_sparse_attention<float>(mask, 2, 2, q, k, v, out, std::nan("")); },
      "trnsparse::block_sparse_attention", {"scale"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::block_sparse_attention<float>(mask, 0, 2, q, k, v, out, 1.0); },
      "trnsparse::block_sparse_attention", {"d = 0"});
  // Extreme geometries: ceil(L/block) must not overflow (L + block − 1 did, under UBSan, found by the Python
  // bindings' sweep), and too many blocks for the int32 pattern is an error, not an allocation attempt.
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(trnsparse::local_window_mask(huge, huge, 0).blocks(), 1);
  EXPECT_EQ(trnsparse::local_window_mask(huge - 1, huge, 0).pattern.nnz(), 1);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [] { (void)trnsparse::global_tokens_mask(std::int64_t{1} << 62, 1, {}); }, "trnsparse::global_tokens_mask",
      {"blocks"});
  trnsci_testing::expect_error<trncore::InvalidArgument>([] { (void)trnsparse::local_window_mask(10, 0, 1); },
                                                         "trnsparse::local_window_mask", {"block"});
  trnsci_testing::expect_error<trncore::InvalidArgument>([] { (void)trnsparse::dilated_mask(10, 2, 1, 0); },
                                                         "trnsparse::dilated_mask", {"dilation"});
  const std::vector<std::int64_t> bad{9};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::global_tokens_mask(10, 4, bad); },
                                                         "trnsparse::global_tokens_mask", {"global block 9"});
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { (void)trnsparse::mask_union(mask, trnsparse::local_window_mask(12, 4, 1)); }, "trnsparse::mask_union",
      {"seq_len"});
}

}  // namespace
