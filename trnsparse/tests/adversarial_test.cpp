// Adversarial layer for trnsparse's reported bounds (issue #18, trnsci_testing/adversarial.hpp): sim
// bsr_spmm in every mode and block_sparse_attention on host and sim, on graded and scaled inputs (A's rows
// and B's columns scaled by 2^k, k uniform in ±40 for double, ±20 for float; rows mixing magnitudes 1 and
// 2^-60 / 2^-30; subnormal entries; near-overflow entries; NaN), against a binary128 dense reference
// computed from the same values (dot products and sums in __float128; softmax weights with expq).
//
// Measures, as each call documents its bound:
//   bsr_spmm:   max_ij |Ĉ − C| / (|α|·(|A||B|)_ij + |β|·|C0_ij|)      (sim.hpp, componentwise)
//   attention:  max_ik |Ô − O| / Σ_j p_ij|v_jk|                        (attention.hpp, per element)
// A zero denominator with a nonzero error counts as an infinite error. Tally: a certified bound is never
// below the true error; met with a target never hides an error above it. Case counts are printed;
// TRNSCI_ADVERSARIAL=full runs more shapes and seeds.
#include <trnsparse/attention.hpp>
#include <trnsparse/sim.hpp>

#include "sparse_test_support.hpp"

#include <trnsci_testing/errors.hpp>

#include <trnsci_testing/adversarial.hpp>

#include <gtest/gtest.h>
#include <quadmath.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using trncore::MathMode;
using trnsci_testing::adversarial_count;
using trnsci_testing::adversarial_full;
using trnsci_testing::quad;
using trnsci_testing::Rng;
using trnsci_testing::Tally;

quad qabs(quad x) { return x < 0 ? -x : x; }

trncore::Options sim(MathMode mode) {
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.math_mode = mode;
  return o;
}

enum class Input { normal, graded_rows, graded_cols, mixed_row, subnormal, near_overflow, nan };
constexpr Input kInputs[] = {Input::normal,    Input::graded_rows,   Input::graded_cols, Input::mixed_row,
                             Input::subnormal, Input::near_overflow, Input::nan};
const char* name(Input i) {
  switch (i) {
    case Input::normal: return "normal";
    case Input::graded_rows: return "rows-2^k";
    case Input::graded_cols: return "cols-2^k";
    case Input::mixed_row: return "mixed-row";
    case Input::subnormal: return "subnormal";
    case Input::near_overflow: return "near-overflow";
    case Input::nan: return "nan";
  }
  return "?";
}

template <class T>
int scale_exponent() {
  return std::is_same_v<T, float> ? 20 : 40;
}

// ---- bsr_spmm ---------------------------------------------------------------------------------------

template <class T>
void bsr_case(Tally& tally, Input input, std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t block,
              MathMode mode, T alpha, T beta, bool with_target, std::uint64_t seed) {
  const std::string what = std::string(std::is_same_v<T, float> ? "float" : "double") + " bsr_spmm " +
                           std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + " block " +
                           std::to_string(block) + " mode " + std::string(trncore::to_string(mode)) + " input " +
                           name(input) + (with_target ? " target" : "");
  SCOPED_TRACE(what);
  Rng rng(seed);
  auto coo = trnsparse_test::random_coo<T, std::int32_t>(m, k, 0.3, seed);
  std::vector<T> b(static_cast<std::size_t>(k * n)), c(static_cast<std::size_t>(m * n));
  for (auto& x : b) x = static_cast<T>(rng.normal());
  for (auto& x : c) x = static_cast<T>(rng.normal());
  const int e = scale_exponent<T>();
  std::vector<int> row_exp(static_cast<std::size_t>(m), 0), col_exp(static_cast<std::size_t>(n), 0);
  switch (input) {
    case Input::normal: break;
    case Input::graded_rows:
      for (auto& r : row_exp) r = static_cast<int>(rng.integer(-e, e));
      for (std::size_t t = 0; t < coo.values.size(); ++t)
        coo.values[t] = std::ldexp(coo.values[t], row_exp[static_cast<std::size_t>(coo.row[t])]);
      break;
    case Input::graded_cols:
      for (auto& cexp : col_exp) cexp = static_cast<int>(rng.integer(-e, e));
      for (std::int64_t i = 0; i < k; ++i)
        for (std::int64_t j = 0; j < n; ++j)
          b[static_cast<std::size_t>(i * n + j)] =
              std::ldexp(b[static_cast<std::size_t>(i * n + j)], col_exp[static_cast<std::size_t>(j)]);
      break;
    case Input::mixed_row:  // every other entry of A 2^-(3e/2) smaller: rows spanning many binades
      for (std::size_t t = 0; t < coo.values.size(); t += 2) coo.values[t] = std::ldexp(coo.values[t], -3 * e / 2);
      break;
    case Input::subnormal:
      for (std::size_t t = 0; t < coo.values.size(); t += 3)
        coo.values[t] *= std::numeric_limits<T>::denorm_min() * T(64);
      break;
    case Input::near_overflow:  // |A||B| row sums stay below the maximum, products of single entries do not overflow
      for (auto& v : coo.values) v *= std::numeric_limits<T>::max() / static_cast<T>(16 * std::max<std::int64_t>(k, 1));
      for (auto& x : b) x = std::clamp(x, T(-2), T(2));
      break;
    case Input::nan:
      if (!b.empty())
        b[static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(b.size()) - 1))] =
            std::numeric_limits<T>::quiet_NaN();
      break;
  }
  const auto bsr = trnsparse::to_bsr(trnsparse::to_csr(coo), block, block);
  const std::vector<T> c0 = c;
  auto opts = sim(mode);
  if (with_target) opts.target_forward_error = std::is_same_v<T, float> ? 1e-5 : 1e-13;
  trncore::AccuracyReport rep;
  trnsparse::bsr_spmm<T, std::int32_t>(alpha, bsr, n, b, n, beta, c, n, opts, rep);
  // Reference in binary128 from the same values.
  std::vector<quad> a(static_cast<std::size_t>(m * k), 0);
  for (std::size_t t = 0; t < coo.values.size(); ++t)
    a[static_cast<std::size_t>(coo.row[t] * k + coo.col[t])] += static_cast<quad>(coo.values[t]);
  double worst = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      quad exact = 0, mag = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        const quad p =
            a[static_cast<std::size_t>(i * k + l)] * static_cast<quad>(b[static_cast<std::size_t>(l * n + j)]);
        exact += p;
        mag += qabs(p);
      }
      const quad cij = static_cast<quad>(c0[static_cast<std::size_t>(i * n + j)]);
      const quad want = static_cast<quad>(alpha) * exact + (beta == T(0) ? quad(0) : static_cast<quad>(beta) * cij);
      const quad scale =
          qabs(static_cast<quad>(alpha)) * mag + (beta == T(0) ? quad(0) : qabs(static_cast<quad>(beta)) * qabs(cij));
      const T got = c[static_cast<std::size_t>(i * n + j)];
      double ratio;
      if (!std::isfinite(got) || !(scale == scale) || std::isinf(static_cast<double>(scale))) {
        ratio = std::numeric_limits<double>::infinity();
      } else {
        const quad err = qabs(static_cast<quad>(got) - want);
        ratio = err == 0     ? 0.0
                : scale == 0 ? std::numeric_limits<double>::infinity()
                             : static_cast<double>(err / scale);
      }
      worst = std::max(worst, ratio);
    }
  EXPECT_TRUE(!rep.met || rep.certified);
  if (!rep.certified) {
    EXPECT_FALSE(rep.uncertified_reason.empty());
  }
  if (input == Input::nan) {
    EXPECT_FALSE(rep.certified);
  }
  if (with_target)
    tally.record_met(rep.certified, rep.met, rep.a_priori_bound, *opts.target_forward_error, worst, what);
  else
    tally.record(rep.certified, rep.a_priori_bound, worst, what);
}

struct Shape {
  std::int64_t m, k, n, block;
};

std::vector<Shape> bsr_shapes() {
  if (adversarial_full())
    return {{1, 1, 1, 4}, {7, 13, 3, 4}, {40, 257, 2, 16}, {129, 127, 5, 128}, {200, 257, 3, 128}, {31, 64, 7, 8}};
  return {{1, 1, 1, 4}, {7, 13, 3, 4}, {129, 127, 5, 128}};
}

TEST(TrnsparseAdversarial, SimBsrSpmmGradedAndScaledInputs) {
  Tally tally("trnsparse sim bsr_spmm");
  std::uint64_t seed = 100;
  const int seeds = adversarial_count(1, 3);
  for (const Shape& s : bsr_shapes())
    for (const Input input : kInputs)
      for (int r = 0; r < seeds; ++r)
        for (const bool target : {false, true}) {
          for (const MathMode mode : {MathMode::fp32, MathMode::bf16, MathMode::compensated, MathMode::ozaki})
            bsr_case<float>(tally, input, s.m, s.k, s.n, s.block, mode, 1.0f, r % 2 == 0 ? 0.0f : -0.5f, target,
                            ++seed);
          for (const MathMode mode : {MathMode::bf16, MathMode::compensated, MathMode::ozaki})
            bsr_case<double>(tally, input, s.m, s.k, s.n, s.block, mode, -1.5, r % 2 == 0 ? 0.0 : 2.0, target, ++seed);
        }
  EXPECT_EQ(tally.violations(), 0);
}

// ---- attention ----------------------------------------------------------------------------------------

enum class AttnInput { normal, sharp_scores, graded_v, graded_k, subnormal_v, nan_v };
constexpr AttnInput kAttnInputs[] = {AttnInput::normal,   AttnInput::sharp_scores, AttnInput::graded_v,
                                     AttnInput::graded_k, AttnInput::subnormal_v,  AttnInput::nan_v};
const char* name(AttnInput i) {
  switch (i) {
    case AttnInput::normal: return "normal";
    case AttnInput::sharp_scores: return "sharp-scores";
    case AttnInput::graded_v: return "v-rows-2^k";
    case AttnInput::graded_k: return "k-rows-2^k";
    case AttnInput::subnormal_v: return "subnormal-v";
    case AttnInput::nan_v: return "nan-v";
  }
  return "?";
}

template <class T>
void attention_case(Tally& tally, AttnInput input, const trnsparse::BlockMask& mask, const std::string& mask_name,
                    std::int64_t d, std::int64_t dv, const trncore::Options& opts, std::uint64_t seed) {
  const std::string what = std::string(std::is_same_v<T, float> ? "float" : "double") + " attention " + mask_name +
                           " L=" + std::to_string(mask.seq_len) + " " + std::string(trncore::to_string(opts.backend)) +
                           " " + std::string(trncore::to_string(opts.math_mode)) + " input " + name(input);
  SCOPED_TRACE(what);
  Rng rng(seed);
  const std::int64_t L = mask.seq_len;
  std::vector<T> q(static_cast<std::size_t>(L * d)), k(q.size()), v(static_cast<std::size_t>(L * dv)), out(v.size());
  for (auto& x : q) x = static_cast<T>(rng.normal());
  for (auto& x : k) x = static_cast<T>(rng.normal());
  for (auto& x : v) x = static_cast<T>(rng.normal());
  double scale = 1.0 / std::sqrt(static_cast<double>(d));
  const int e = scale_exponent<T>();
  switch (input) {
    case AttnInput::normal: break;
    case AttnInput::sharp_scores: scale = 30.0; break;  // scores of ±100s: softmax nearly one-hot
    case AttnInput::graded_v:
      for (std::int64_t j = 0; j < L; ++j) {
        const int ex = static_cast<int>(rng.integer(-e, e));
        for (std::int64_t c = 0; c < dv; ++c)
          v[static_cast<std::size_t>(j * dv + c)] = std::ldexp(v[static_cast<std::size_t>(j * dv + c)], ex);
      }
      break;
    case AttnInput::graded_k:  // keys of very different norms (scores up to 2^6·|q|)
      for (std::int64_t j = 0; j < L; ++j) {
        const int ex = static_cast<int>(rng.integer(-6, 6));
        for (std::int64_t l = 0; l < d; ++l)
          k[static_cast<std::size_t>(j * d + l)] = std::ldexp(k[static_cast<std::size_t>(j * d + l)], ex);
      }
      break;
    case AttnInput::subnormal_v:
      for (std::size_t t = 0; t < v.size(); t += 2) v[t] *= std::numeric_limits<T>::denorm_min() * T(64);
      break;
    case AttnInput::nan_v:
      if (!v.empty())
        v[static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(v.size()) - 1))] =
            std::numeric_limits<T>::quiet_NaN();
      break;
  }
  trncore::AccuracyReport rep;
  trnsparse::block_sparse_attention<T>(mask, d, dv, q, k, v, out, scale, opts, rep);
  // Reference: dense masked attention in binary128 (scores exact to 2^-113, weights via expq).
  const auto dense_mask = trnsparse::to_dense(mask.pattern);
  const std::int64_t nb = mask.blocks();
  double worst = 0;
  for (std::int64_t i = 0; i < L; ++i) {
    std::vector<quad> s;
    std::vector<std::int64_t> cols;
    for (std::int64_t j = 0; j < L; ++j) {
      if (dense_mask[static_cast<std::size_t>((i / mask.block) * nb + j / mask.block)] == 0.0f) continue;
      quad dot = 0;
      for (std::int64_t l = 0; l < d; ++l)
        dot += static_cast<quad>(q[static_cast<std::size_t>(i * d + l)]) *
               static_cast<quad>(k[static_cast<std::size_t>(j * d + l)]);
      s.push_back(dot * static_cast<quad>(scale));
      cols.push_back(j);
    }
    for (std::int64_t c = 0; c < dv; ++c) {
      const T got = out[static_cast<std::size_t>(i * dv + c)];
      double ratio = 0;
      if (cols.empty()) {
        ratio = got == T(0) ? 0.0 : std::numeric_limits<double>::infinity();
      } else {
        quad mx = s[0];
        for (quad x : s) mx = std::max(mx, x);
        quad z = 0;
        std::vector<quad> p(s.size());
        for (std::size_t t = 0; t < s.size(); ++t) z += (p[t] = expq(s[t] - mx));
        quad o = 0, mag = 0;
        for (std::size_t t = 0; t < s.size(); ++t) {
          const quad vv = static_cast<quad>(v[static_cast<std::size_t>(cols[t] * dv + c)]);
          o += p[t] / z * vv;
          mag += p[t] / z * qabs(vv);
        }
        const quad err = qabs(static_cast<quad>(got) - o);
        if (!std::isfinite(got) || !(mag == mag))
          ratio = std::numeric_limits<double>::infinity();
        else
          ratio = err == 0 ? 0.0 : mag == 0 ? std::numeric_limits<double>::infinity() : static_cast<double>(err / mag);
      }
      worst = std::max(worst, ratio);
    }
  }
  EXPECT_TRUE(!rep.met || rep.certified);
  if (!rep.certified) {
    EXPECT_FALSE(rep.uncertified_reason.empty());
  }
  if (input == AttnInput::nan_v) {
    EXPECT_FALSE(rep.certified);
  }
  tally.record(rep.certified, rep.a_priori_bound, worst, what);
}

TEST(TrnsparseAdversarial, AttentionOnHostAndSim) {
  Tally tally("trnsparse block_sparse_attention");
  std::uint64_t seed = 500;
  std::vector<std::pair<std::string, trnsparse::BlockMask>> masks = {
      {"local", trnsparse::local_window_mask(37, 8, 1)},
      {"causal", trnsparse::local_window_mask(1, 4, 0, true)},
      {"global", trnsparse::mask_union(trnsparse::local_window_mask(129, 16, 1),
                                       trnsparse::global_tokens_mask(129, 16, std::vector<std::int64_t>{0, 8}))}};
  if (adversarial_full()) masks.push_back({"dilated", trnsparse::dilated_mask(257, 32, 2, 2)});
  const int seeds = adversarial_count(1, 3);
  for (const auto& [mask_name, mask] : masks)
    for (const AttnInput input : kAttnInputs)
      for (int r = 0; r < seeds; ++r) {
        attention_case<double>(tally, input, mask, mask_name, 5, 3, trncore::Options{}, ++seed);
        attention_case<float>(tally, input, mask, mask_name, 5, 3, trncore::Options{}, ++seed);
        for (const MathMode mode : {MathMode::fp32, MathMode::bf16, MathMode::compensated})
          attention_case<float>(tally, input, mask, mask_name, 5, 3, sim(mode), ++seed);
        attention_case<double>(tally, input, mask, mask_name, 5, 3, sim(MathMode::ozaki), ++seed);
      }
  EXPECT_EQ(tally.violations(), 0);
}

}  // namespace
