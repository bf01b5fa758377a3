// The three TensorEngine methods of the sim GEMM and their a-priori bounds. Notation: u = 2^-24 (fp32
// PSUM), K = k, |A||B| the product of the absolute values; every bound is componentwise relative to it.
#include "sim/sim_product.hpp"

#include "sim/exact_digit_product.hpp"
#include "sim/row_blocks.hpp"
#include "sim/slices.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/eft.hpp>
#include <trncore/sim/matmul.hpp>
#include <trncore/sim/spec.hpp>

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

namespace trnblas::detail {

namespace {

constexpr double kU32 = 0x1p-24;
constexpr double kU64 = 0x1p-53;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// One full TensorEngine pass over (m, n, k): stationary tiles of ≤ 128 rows of op(A)ᵀ, moving tiles of
// ≤ 512 columns, K in chunks of 128 partitions (DESIGN.md §4.2). Cycles: the multiply-adds at the
// format's rate (the spec table's FLOP/s over the clock), plus the fixed cost of each instruction.
void count_pass(trncore::sim::EngineStats& stats, const trncore::sim::GenerationSpec& spec,
                const trncore::FormatSpec& format, std::int64_t m, std::int64_t n, std::int64_t k) {
  auto& te = stats[trncore::sim::Engine::tensor];
  const std::int64_t instructions = ceil_div(m, 128) * ceil_div(n, 512) * ceil_div(k, 128);
  te.instructions += instructions;
  te.elements += m * n * k;
  te.cycles += static_cast<double>(m * n * k) / trncore::sim::tensor_macs_per_cycle(spec, format) +
               static_cast<double>(instructions) * spec.instruction_overhead_cycles;
}

void count_dma(trncore::sim::EngineStats& stats, std::int64_t elements, std::int64_t bytes_per_element) {
  auto& dma = stats[trncore::sim::Engine::dma];
  dma.instructions += 1;
  dma.bytes += elements * bytes_per_element;
}

// VectorEngine work over `elements` fp32 values, at the spec's element rate.
void count_vector(trncore::sim::EngineStats& stats, const trncore::sim::GenerationSpec& spec, std::int64_t elements) {
  auto& v = stats[trncore::sim::Engine::vector];
  v.instructions += 1;
  v.elements += elements;
  v.cycles +=
      static_cast<double>(elements) / trncore::sim::vector_elements_per_cycle(spec) + spec.instruction_overhead_cycles;
}

int format_bytes(const trncore::FormatSpec& f) { return (f.width() + 7) / 8; }

// Significant bits (with the hidden bit) of a format.
int precision(const trncore::FormatSpec& f) { return f.mantissa_bits + 1; }

trncore::sim::MatmulOptions psum_options(const ProductPlan& plan) {
  trncore::sim::MatmulOptions o;
  o.product = plan.product;
  o.threads = plan.threads;
  return o;
}

// The power of two that scales P_ij back: 2^(ea + eb + extra). A zero line's products are ±0 (or NaN from
// 0·inf), which every finite factor leaves unchanged, so it gets 2^0.
int product_exponent(int ea, int eb, int extra) {
  return ea == kZeroLineExponent || eb == kZeroLineExponent ? 0 : ea + eb + extra;
}

// Why a method's bound does not hold for these operands, per operand ("" when it does): inputs that are
// inf/NaN or overflow `what`, and nonzero inputs below `what`'s normal range after scaling.
std::string caveat_of(const Sliced& a, const Sliced& b, const std::string& what) {
  std::string c;
  const auto one = [&](const Sliced& x, const char* name) {
    if (x.nonfinite > 0)
      c += std::to_string(x.nonfinite) + " entries of " + name + " are inf/NaN or overflow " + what + "; ";
    if (x.underflows > 0)
      c += std::to_string(x.underflows) + " nonzero entries of " + name + " fall below " + what +
           "'s normal range after the per-line power-of-two scaling (the rounding to " + what +
           " is then not relative); ";
  };
  one(a, "op(A)");
  one(b, "op(B)");
  if (!c.empty()) c.resize(c.size() - 2);
  return c;
}

// Slicing an inf or NaN leaves inf·0 products in the lower slices, which would turn an infinite result into
// NaN. The entries such inputs touch get IEEE's answer from a plain fp64 dot product instead (finite
// entries are left alone), which is what an unsliced product on the TensorEngine returns.
// P is held as V (float PSUM values before their power-of-two scale, or doubles): inf and NaN survive
// the scaling unchanged, so writing IEEE's answer in either representation gives it.
template <class E, class Values>
void ieee_nonfinite_entries(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa,
                            std::span<const E> opb, std::int64_t nonfinite, Values& p) {
  using V = typename Values::value_type;
  if (nonfinite == 0) return;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double plain = 0.0;
      for (std::int64_t q = 0; q < k; ++q)
        plain += static_cast<double>(opa[static_cast<std::size_t>(i * k + q)]) *
                 static_cast<double>(opb[static_cast<std::size_t>(q * n + j)]);
      if (!std::isfinite(plain)) p[static_cast<std::size_t>(i * n + j)] = static_cast<V>(plain);
    }
}

template <class E>
SimProduct run_single_pass(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa,
                           std::span<const E> opb, const ProductPlan& plan) {
  SimProduct r;
  const Sliced a = round_to_format(opa, m, k, Lines::rows, plan.format, plan.threads);
  const Sliced b = round_to_format(opb, k, n, Lines::cols, plan.format, plan.threads);
  r.psum.resize(static_cast<std::size_t>(m * n));
  trncore::sim::matmul_psum(m, n, k, a.parts[0].data(), k, b.parts[0].data(), n, r.psum.data(), n, psum_options(plan));
  r.row_exponents = a.exponents;
  r.col_exponents = b.exponents;
  r.bound = single_pass_bound(plan, k);
  r.caveat = caveat_of(a, b, std::string(plan.format.name));
  r.certified = r.caveat.empty();
  r.method = std::string(plan.format.name) + " inputs (power-of-two scaled per row/column), one pass, " +
             std::string(trncore::sim::to_string(plan.product)) + " products, fp32 PSUM";
  r.tensor_passes = 1;
  const auto& spec = trncore::sim::spec(plan.generation);
  count_dma(r.stats, m * k + k * n, format_bytes(plan.format));
  count_pass(r.stats, spec, plan.format, m, n, k);
  count_vector(r.stats, spec, m * n);  // PSUM → SBUF with the scales applied
  return r;
}

// The compensated product's absolute term (see compensated_absolute_per_term) relative to |A||B|: the largest over
// the elements of unit·n_ij / M'_ij, with n_ij = min(K, underflowing entries of row i + of column j) the terms
// that can carry an absolute error and M' = |A'||B'| on the line-scaled operands (a lower bound, from
// scaled_magnitudes). An element with no kept pair but a left-out (tiny) one is computed as 0: |P − 0| ≤ M
// there, a relative error of at most 1.
template <class E>
double compensated_absolute_ratio(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa,
                                  std::span<const E> opb, const Sliced& a, const Sliced& b, double unit, int threads);

template <class E>
SimProduct run_compensated(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa,
                           std::span<const E> opb, const ProductPlan& plan) {
  SimProduct r;
  const int S = plan.slices;
  const Sliced a = split_floating(opa, m, k, Lines::rows, S, plan.bits, plan.threads);
  const Sliced b = split_floating(opb, k, n, Lines::cols, S, plan.bits, plan.threads);
  // K in chunks of kCompensatedChunk (one PSUM K tile each). Per chunk, each pair (s, t) with s + t < S gets
  // its own PSUM pass and the VectorEngine adds the passes in fp32, smallest weight first, so the large
  // terms are added last. The chunk values are then summed across chunks in float-float (TwoSum of the
  // running sum and the chunk value, the rounding errors added in fp32: Sum2 of Ogita, Rump, Oishi without
  // its final rounding), and P keeps both words.
  const std::int64_t chunks = compensated_chunks(k);
  const std::size_t size = static_cast<std::size_t>(m * n);
  Buffer<float> acc(size), pass(size), hi, lo;
  if (chunks > 1) {
    hi.assign(size, 0.0f);
    lo.assign(size, 0.0f);
  }
  std::int64_t passes = 0;
  const auto& spec = trncore::sim::spec(plan.generation);
  const std::int64_t blocks = row_block_count(m, n, plan.threads);
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::int64_t q0 = c * kCompensatedChunk, kc = std::min(kCompensatedChunk, k - q0);
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (int d = S - 1; d >= 0; --d)
      for (int s = 0; s <= d; ++s) {
        const int t = d - s;
        trncore::sim::matmul_psum(m, n, kc, a.parts[static_cast<std::size_t>(s)].data() + q0, k,
                                  b.parts[static_cast<std::size_t>(t)].data() + q0 * n, n, pass.data(), n,
                                  psum_options(plan));
        for (std::size_t i = 0; i < size; ++i) acc[i] += pass[i];  // fp32, round to nearest (no FMA here)
        if (c == 0) ++passes;
        count_pass(r.stats, spec, trncore::formats::bf16, m, n, kc);
        count_vector(r.stats, spec, m * n);
      }
    if (chunks == 1) break;
    for_row_blocks(m, blocks, plan.threads, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      for (std::size_t i = static_cast<std::size_t>(begin * n); i < static_cast<std::size_t>(end * n); ++i) {
        const auto [sum, err] = trncore::two_sum(hi[i], acc[i]);  // exact (subnormals included)
        hi[i] = sum;
        lo[i] += err;
      }
    });
    for (int op = 0; op < 7; ++op) count_vector(r.stats, spec, m * n);  // TwoSum (6 fp32 ops) + 1 add
  }
  if (chunks > 1) {  // renormalise: hi = fl(hi + lo), lo its exact error, so hi = 0 only for a zero sum
    for_row_blocks(m, blocks, plan.threads, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      for (std::size_t i = static_cast<std::size_t>(begin * n); i < static_cast<std::size_t>(end * n); ++i) {
        const auto [sum, err] = trncore::two_sum(hi[i], lo[i]);
        hi[i] = sum;
        lo[i] = err;
      }
    });
    for (int op = 0; op < 6; ++op) count_vector(r.stats, spec, m * n);
    r.psum = std::move(hi);
    r.psum_low = std::move(lo);
  } else {
    r.psum = std::move(acc);
  }
  r.row_exponents = a.exponents;
  r.col_exponents = b.exponents;
  ieee_nonfinite_entries(m, n, k, opa, opb, a.nonfinite + b.nonfinite, r.psum);
  if (!r.psum_low.empty())  // IEEE's inf/NaN stand alone: no low word (a TwoSum of inf leaves NaN there)
    for (std::size_t i = 0; i < size; ++i)
      if (!std::isfinite(r.psum[i])) r.psum_low[i] = 0.0f;
  r.bound = compensated_bound(plan, k);
  // Slice remainders below 2^-63 (split_floating's underflows) void the relative model for the terms they
  // touch; the absolute term covers them (compensated_absolute_per_term). Inf/NaN inputs have no bound at all.
  Sliced finite_a, finite_b;
  finite_a.nonfinite = a.nonfinite;
  finite_b.nonfinite = b.nonfinite;
  r.caveat = caveat_of(finite_a, finite_b, "fp32");
  double absolute = 0.0;
  if (r.caveat.empty() && a.underflows + b.underflows > 0) {
    absolute =
        compensated_absolute_ratio(m, n, k, opa, opb, a, b, compensated_absolute_per_term(plan, k), plan.threads);
    r.bound += absolute;
    if (absolute > plan.absolute_limit)
      r.caveat = "slice remainders below 2^-63 after the per-line power-of-two scaling (" +
                 std::to_string(a.underflows) + " in op(A), " + std::to_string(b.underflows) +
                 " in op(B)) add an absolute error of up to " + trncore::detail::sci(absolute) +
                 " relative to |A||B|, above the " + trncore::detail::sci(plan.absolute_limit) +
                 " that compensated's fp32 level allows without a target (rows or columns whose entries span "
                 "many binades; set a target to accept the bound, or use ozaki)";
  }
  r.certified = r.caveat.empty();
  r.method = "compensated: " + std::to_string(S) + " floating slices of " + std::to_string(plan.bits) +
             " bits per operand (exact under " + std::string(trncore::sim::to_string(plan.product)) + " products), " +
             std::to_string(passes) + " bf16 passes, fp32 PSUM" +
             (chunks > 1 ? ", K in " + std::to_string(chunks) + " chunks of <= " + std::to_string(kCompensatedChunk) +
                               " summed in float-float"
                         : std::string()) +
             (absolute > 0 ? ", absolute term for slices below fp32's normal range " + trncore::detail::sci(absolute)
                           : std::string());
  r.tensor_passes = passes;
  count_dma(r.stats, (m * k + k * n) * S, 2);
  return r;
}

// Ozaki's error terms per output element, in the line-scaled operands A' = 2^-ea A, B' = B 2^-eb (entries
// below 1 in magnitude), where they do not depend on how large or small the lines are (see ozaki_bound):
// g_ij = (‖a'_i‖₁ + ‖b'_j‖₁)/M'_ij and h_ij = K/M'_ij with M' = |A'||B'|.
struct OzakiTerms {
  std::vector<double> g, h;
  /// 1 when some P_ij is computed as 0 although entries too small to carry digits make it nonzero (then
  /// only |P_ij − 0| ≤ M_ij holds), else 0.
  double floor = 0.0;
};

// Scaled entries below this are left out of M' (their products could underflow, voiding DGEMM's relative
// error bound; leaving a non-negative term out only lowers M', which is safe) but kept in the norms. They
// are far below every digit (S·bits < 126 bits), so the sliced product ignores them as well.
constexpr double kSmallestKept = 0x1p-511;

// One operand's part of the Ozaki terms, per line (row of op(A), column of op(B)): the scaled magnitudes
// |x|·2^-e with the entries below kSmallestKept zeroed (what M' is built from), each line's 1-norm of all of
// them (summed in ascending order along the line), and whether the line left any entry out.
struct LineMagnitudes {
  std::vector<double> kept, norm;
  std::vector<char> left_out;
};

template <class E>
LineMagnitudes line_magnitudes(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines,
                               const std::vector<int>& e, int threads) {
  const std::size_t count = static_cast<std::size_t>(lines == Lines::rows ? rows : cols);
  LineMagnitudes out{std::vector<double>(x.size()), std::vector<double>(count, 0.0), std::vector<char>(count, 0)};
  // Blocks of whole lines (rows for Lines::rows, columns for Lines::cols), each line summed in ascending order
  // by one thread: the same norms for any thread count.
  const auto lines_n = static_cast<std::int64_t>(count);
  const std::int64_t blocks = row_block_count(lines_n, lines == Lines::rows ? cols : rows, threads);
  for_row_blocks(lines_n, blocks, threads, [&](std::int64_t, std::int64_t first, std::int64_t last) {
    const std::int64_t i0 = lines == Lines::rows ? first : 0, i1 = lines == Lines::rows ? last : rows;
    const std::int64_t j0 = lines == Lines::rows ? 0 : first, j1 = lines == Lines::rows ? cols : last;
    for (std::int64_t i = i0; i < i1; ++i)
      for (std::int64_t j = j0; j < j1; ++j) {
        const auto at = static_cast<std::size_t>(i * cols + j);
        const auto l = static_cast<std::size_t>(lines == Lines::rows ? i : j);
        const double v = std::abs(scale_pow2(static_cast<double>(x[at]), e[l] == kZeroLineExponent ? 0 : -e[l]));
        const bool kept = !(v < kSmallestKept) || x[at] == E(0);
        out.kept[at] = kept ? v : 0.0;
        out.left_out[l] |= static_cast<char>(!kept);
        out.norm[l] += v;
      }
  });
  return out;
}

// M' = |A'||B'| over the kept entries (see kSmallestKept), lowered to a lower bound of the exact value, with
// the operands' line magnitudes.
struct ScaledMagnitudes {
  LineMagnitudes rows, cols;
  std::vector<double> low;  // ≤ M'_ij (0 where no kept pair contributes)
};

template <class E>
ScaledMagnitudes scaled_magnitudes(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa,
                                   std::span<const E> opb, const std::vector<int>& ea, const std::vector<int>& eb,
                                   int threads) {
  ScaledMagnitudes out{
      line_magnitudes(opa, m, k, Lines::rows, ea, threads), line_magnitudes(opb, k, n, Lines::cols, eb, threads), {}};
  // M' over the kept entries in fp64: every product is a normal double (or 0) and every term non-negative,
  // so the computed value is at least (1 − γ_K(u64)) times the exact one, itself at most M'.
  out.low.assign(static_cast<std::size_t>(m * n), 0.0);
  if (m > 0 && n > 0 && k > 0)
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0, out.rows.kept.data(), static_cast<int>(k), out.cols.kept.data(),
                static_cast<int>(n), 0.0, out.low.data(), static_cast<int>(n));
  const double low = 1.0 - gamma(static_cast<double>(k), kU64);
  for_row_blocks(m, row_block_count(m, n, threads), threads, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (auto at = static_cast<std::size_t>(begin * n); at < static_cast<std::size_t>(end * n); ++at)
      out.low[at] *= low;
  });
  return out;
}

template <class E>
OzakiTerms ozaki_terms(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa, std::span<const E> opb,
                       const std::vector<int>& ea, const std::vector<int>& eb, int threads) {
  const ScaledMagnitudes sm = scaled_magnitudes(m, n, k, opa, opb, ea, eb, threads);
  const LineMagnitudes& rows = sm.rows;
  const LineMagnitudes& cols = sm.cols;
  const std::vector<double>& mag = sm.low;
  // The norms may include subnormal terms: relative error γ_K plus at most 2^-1074 absolute per term.
  const double high = 1.0 + gamma(static_cast<double>(k), kU64), slack = static_cast<double>(k) * 0x1p-1074;
  OzakiTerms t;
  t.g.assign(mag.size(), 0.0);
  t.h.assign(mag.size(), 0.0);
  std::vector<char> floor_hit(static_cast<std::size_t>(row_block_count(m, n, threads)), 0);
  for_row_blocks(
      m, static_cast<std::int64_t>(floor_hit.size()), threads,
      [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i)
          for (std::int64_t j = 0; j < n; ++j) {
            const std::size_t at = static_cast<std::size_t>(i * n + j);
            const double mij = mag[at];
            if (!(mij > 0.0)) {
              // No kept pair: with nothing left out, M_ij = 0 and every digit product is 0, so P_ij = 0 exactly;
              // otherwise P_ij is computed as 0 and |P_ij| ≤ M_ij.
              floor_hit[static_cast<std::size_t>(b)] |= static_cast<char>(rows.left_out[static_cast<std::size_t>(i)] ||
                                                                          cols.left_out[static_cast<std::size_t>(j)]);
              continue;
            }
            t.g[at] =
                (high * (cols.norm[static_cast<std::size_t>(j)] + rows.norm[static_cast<std::size_t>(i)]) + 2 * slack) /
                mij;
            t.h[at] = static_cast<double>(k) / mij;
          }
      });
  for (char hit : floor_hit) t.floor = hit ? 1.0 : t.floor;
  return t;
}

template <class E>
double compensated_absolute_ratio(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa,
                                  std::span<const E> opb, const Sliced& a, const Sliced& b, double unit, int threads) {
  const ScaledMagnitudes sm = scaled_magnitudes(m, n, k, opa, opb, a.exponents, b.exponents, threads);
  const std::int64_t blocks = row_block_count(m, n, threads);
  std::vector<double> worst(static_cast<std::size_t>(blocks), 0.0);
  for_row_blocks(m, blocks, threads, [&](std::int64_t blk, std::int64_t begin, std::int64_t end) {
    double w = 0.0;
    for (std::int64_t i = begin; i < end; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const std::int64_t touched = std::min(
            k, a.line_underflows[static_cast<std::size_t>(i)] + b.line_underflows[static_cast<std::size_t>(j)]);
        if (touched == 0) continue;  // every term of this element is in the relative model
        const double mij = sm.low[static_cast<std::size_t>(i * n + j)];
        if (mij > 0.0) {
          w = std::max(w, unit * static_cast<double>(touched) / mij);
        } else if (sm.rows.left_out[static_cast<std::size_t>(i)] || sm.cols.left_out[static_cast<std::size_t>(j)]) {
          // Every nonzero term has a factor below 2^-511, which rounds to 0 in every slice (the slice format's
          // smallest subnormal is 2^-(125 + bits)): P_ij is computed as 0 and |P_ij − 0| ≤ M_ij.
          w = std::max(w, 1.0);
        }  // else M_ij = 0: every term has a zero factor, whose slices are all 0, so P_ij = 0 exactly
      }
    worst[static_cast<std::size_t>(blk)] = w;
  });
  // unit·touched/mij: two roundings on a value whose inputs are upper (unit) and lower (mij) bounds.
  return *std::max_element(worst.begin(), worst.end()) * (1 + 4 * kU64);
}

// Bound of ozaki with S slices of `bits` bits (x = 2^e(Σ_{s<S} d_s 2^(−bits(s+1)) + ρ), |ρ| < 2^(−bits S)):
//  truncation   |xy − 2^(e+f) X_S Y_S| ≤ 2^(−bits S)(2^e|y| + 2^f|x|), summed over k → g_ij;
//  dropped pairs s + t ≥ S (s, t < S): Σ_j (2S−1−j) 2^(−bits j) ≤ 2^(−bits S)(S−1)/(1−2^(−bits)) per
//    term, times K 2^(ea+eb) → h_ij;
//  rounding the exact sum Z to double once: u64 (1 + bound).
// Everything else is exact (slice products, PSUM sums below 2^24, the combination in 128-bit integers).
// Dividing by M_ij = 2^(ea+eb) M'_ij turns 2^e|y| + 2^f|x| summed over k into ‖a'_i‖₁ + ‖b'_j‖₁ and
// K 2^(ea+eb) into K: the terms of OzakiTerms.
// The bound from the worst g + h·dropped over the elements (the tail of ozaki_bound; monotone in `worst`).
double ozaki_bound_from(double worst, double floor, int S, int bits) {
  const double truncation = std::max(std::ldexp(worst, -bits * S), floor);
  return truncation + kU64 * (1.0 + truncation);
}

double ozaki_dropped(int S, int bits) { return (S - 1) / (1.0 - std::ldexp(1.0, -bits)); }

double ozaki_bound(const OzakiTerms& t, int S, int bits, int threads) {
  const double dropped = ozaki_dropped(S, bits);
  const auto size = static_cast<std::int64_t>(t.g.size());
  const std::int64_t blocks = row_block_count(size, 1, threads);
  std::vector<double> worst(static_cast<std::size_t>(blocks), 0.0);
  // max is exact, so the blocks' order does not matter: the same value for any thread count.
  for_row_blocks(size, blocks, threads, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    double w = 0.0;
    for (auto at = static_cast<std::size_t>(begin); at < static_cast<std::size_t>(end); ++at)
      w = std::max(w, t.g[at] + t.h[at] * dropped);
    worst[static_cast<std::size_t>(b)] = w;
  });
  return ozaki_bound_from(*std::max_element(worst.begin(), worst.end()), t.floor, S, bits);
}

// The fewest slices (below `most`) whose ozaki_bound meets `target`, the same S as evaluating ozaki_bound for
// S = 1, 2, … in turn, with most of those passes over the elements replaced by brackets from the largest g
// and h: the computed worst g_ij + h_ij·c lies between max(G, fl(H·c)) (each term is non-negative and the
// roundings are monotone) and (G + H·c)(1 + 2^-40) (two roundings of relative size 2^-53 each), and
// ozaki_bound_from is monotone, so an S is skipped or accepted without a pass whenever the brackets decide.
// Returns S and its bound (computed exactly when S was decided by a bracket).
std::pair<int, double> ozaki_fewest_slices(const OzakiTerms& t, int most, double target, int bits, int threads) {
  double big_g = 0.0, big_h = 0.0;
  for (std::size_t at = 0; at < t.g.size(); ++at) {
    big_g = std::max(big_g, t.g[at]);
    big_h = std::max(big_h, t.h[at]);
  }
  int S = 1;
  for (; S < most; ++S) {
    const double dropped = ozaki_dropped(S, bits);
    if (ozaki_bound_from(std::max(big_g, big_h * dropped), t.floor, S, bits) > target) continue;
    if (ozaki_bound_from((big_g + big_h * dropped) * (1 + 0x1p-40), t.floor, S, bits) <= target) break;
    const double exact = ozaki_bound(t, S, bits, threads);
    if (exact <= target) return {S, exact};
  }
  return {S, ozaki_bound(t, S, bits, threads)};
}

// The most slices the 128-bit exact combination holds: bits·(S+1) + log2 K + 2 log2 S < 126.
int max_ozaki_slices(std::int64_t k, int bits) {
  const double log2k = k > 1 ? std::log2(static_cast<double>(k)) : 0.0;
  int S = 1;
  while (S < 64 && bits * (S + 2) + log2k + 2.0 * std::log2(S + 1.0) + 1.0 < 126.0) ++S;
  return S;
}

template <class E>
SimProduct run_ozaki(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa, std::span<const E> opb,
                     const ProductPlan& plan) {
  SimProduct r;
  const std::vector<int> ea = line_exponents(opa, m, k, Lines::rows, plan.threads);
  const std::vector<int> eb = line_exponents(opb, k, n, Lines::cols, plan.threads);
  const OzakiTerms terms = ozaki_terms(m, n, k, opa, opb, ea, eb, plan.threads);
  const int most = max_ozaki_slices(k, plan.bits);
  int S = plan.slices;
  double bound = -1.0;
  if (S == 0)  // the fewest slices whose bound meets the target
    std::tie(S, bound) = ozaki_fewest_slices(terms, most, plan.target, plan.bits, plan.threads);
  // Target-driven (slices = 0) and stopped by the cap, or an explicit slice count above it.
  const bool capped = (plan.slices == 0 && S >= most) || plan.slices > most;
  if (S > most || bound < 0.0) {
    S = std::min(S, most);
    bound = ozaki_bound(terms, S, plan.bits, plan.threads);
  }
  // The digits are read off the line-scaled operands (the ones split_fixed would store).
  const ScaledLines a = scale_lines(opa, m, k, Lines::rows, ea, plan.threads);
  const ScaledLines b = scale_lines(opb, k, n, Lines::cols, eb, plan.threads);
  const auto z = exact_digit_product(m, n, k, a.values, b.values, S, plan.bits, plan.threads);
  r.exact.resize(z.size());
  // Results whose final rounding left fp64's normal range (not relative then), per row block.
  const std::int64_t blocks = row_block_count(m, n, plan.threads);
  std::vector<std::int64_t> subnormals(static_cast<std::size_t>(blocks), 0);
  for_row_blocks(m, blocks, plan.threads, [&](std::int64_t blk, std::int64_t begin, std::int64_t end) {
    std::int64_t count = 0;
    for (std::int64_t i = begin; i < end; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const auto at = static_cast<std::size_t>(i * n + j);
        const int e =
            product_exponent(ea[static_cast<std::size_t>(i)], eb[static_cast<std::size_t>(j)], -plan.bits * (S + 1));
        r.exact[at] = scale_pow2(static_cast<double>(z[at]), e);  // one rounding to nearest, then exact
        count += z[at] != 0 && !(std::abs(r.exact[at]) >= std::numeric_limits<double>::min());
      }
    subnormals[static_cast<std::size_t>(blk)] = count;
  });
  const std::int64_t subnormal = std::accumulate(subnormals.begin(), subnormals.end(), std::int64_t{0});
  ieee_nonfinite_entries(m, n, k, opa, opb, a.nonfinite + b.nonfinite, r.exact);
  r.bound = bound;
  Sliced finite_a, finite_b;  // ozaki has no underflow hypothesis for its inputs (exact digits)
  finite_a.nonfinite = a.nonfinite;
  finite_b.nonfinite = b.nonfinite;
  r.caveat = caveat_of(finite_a, finite_b, "the fixed-point slices");
  const auto add = [&](const std::string& what) { r.caveat += (r.caveat.empty() ? "" : "; ") + what; };
  // The slice count is capped by the 128-bit exact combination. When the cap stops the slices short of the
  // target (a row of op(A) or column of op(B) whose entries span more than about bits·S binades, or entries
  // too small to carry any digit), the bound is above what the mode documents: not a certificate of it.
  // (A target below ozaki's floor u64 — e.g. what a float output stage leaves of a tiny target — is unreachable
  // for any slice count: the bound is then certified and simply does not meet it.)
  if (plan.slices > most)
    add("ozaki: " + std::to_string(plan.slices) +
        " slices were asked for, but the 128-bit exact combination "
        "holds at most " +
        std::to_string(most) + " of " + std::to_string(plan.bits) + " bits (K = " + std::to_string(k) + ")");
  else if (capped && r.bound > plan.target && plan.target > kU64 * (1.0 + 0x1p-20))
    add("ozaki's slice count is capped at " + std::to_string(most) + " slices of " + std::to_string(plan.bits) +
        " bits (the 128-bit exact combination, K = " + std::to_string(k) + "), which leaves the bound " +
        trncore::detail::sci(r.bound) + " above the target " + trncore::detail::sci(plan.target) +
        ": a row of op(A) or column of op(B) spans too many binades (relative to its largest entry)");
  if (subnormal > 0)
    add(std::to_string(subnormal) +
        " result(s) fall below fp64's normal range, where the final rounding is not "
        "relative");
  r.certified = r.caveat.empty();
  // Exact PSUM sums need K-blocks with K·(2^bits − 1)² < 2^24; each block's integer result is then
  // combined exactly on the VectorEngine (modelled as multi-word integer adds).
  const double digit_product = std::ldexp(1.0, plan.bits) - 1.0;
  const auto k_block = static_cast<std::int64_t>(std::min<double>(
      static_cast<double>(std::max<std::int64_t>(k, 1)), std::floor(0x1p24 / (digit_product * digit_product))));
  const std::int64_t pairs = static_cast<std::int64_t>(S) * (S + 1) / 2;
  r.tensor_passes = pairs;
  const auto& spec = trncore::sim::spec(plan.generation);
  for (std::int64_t q = 0; q < pairs; ++q) {
    count_pass(r.stats, spec, trncore::formats::bf16, m, n, k);
    count_vector(r.stats, spec, m * n * ceil_div(std::max<std::int64_t>(k, 1), k_block));
  }
  count_dma(r.stats, (m * k + k * n) * S, 2);
  r.method = "ozaki: " + std::to_string(S) + " fixed-point slices of " + std::to_string(plan.bits) +
             " bits per row of A / column of B (products exact under " +
             std::string(trncore::sim::to_string(plan.product)) + " products), " + std::to_string(pairs) +
             " slice products, K-blocks of " + std::to_string(k_block) + " (exact PSUM sums), exact combination";
  return r;
}

}  // namespace

double gamma(double n, double u) {
  const double nu = n * u;
  return nu >= 1.0 ? std::numeric_limits<double>::infinity() : nu / (1.0 - nu);
}

int exact_slice_bits(trncore::sim::ProductModel model) { return model == trncore::sim::ProductModel::exact ? 8 : 4; }

// One pass: Â = A + ΔA with |ΔA| ≤ u_in|A| (nearest rounding, no underflow; the power-of-two scaling is
// exact), likewise B; each product is rounded with u_p (0 when the significands' product fits the
// product format); the fp32 PSUM sum of K terms adds γ_K(u) (Higham, ASNA §3.1). Altogether
// |P − AB| ≤ ((1+u_in)²(1+u_p)(1+γ_K) − 1)|A||B|.
double single_pass_bound(const ProductPlan& plan, std::int64_t k) {
  const int p = precision(plan.format);
  const double u_in = (plan.inputs_are_float && p >= 24) ? 0.0 : std::ldexp(1.0, -p);
  const int product_bits = plan.product == trncore::sim::ProductModel::bf16 ? 8 : 24;
  const double u_p = 2 * std::min(p, 24) <= product_bits ? 0.0 : std::ldexp(1.0, -product_bits);
  const double g = gamma(static_cast<double>(k), kU32);
  return (1 + u_in) * (1 + u_in) * (1 + u_p) * (1 + g) - 1;
}

// Compensated: with y the line-scaled operand, y = Σ_{s<S} y_s + ρ, |ρ| ≤ T|y|, T = 2^(−bits S), and
// |y_s| ≤ c_s|y|, c_s = 2^(−bits s)(1 + 2^(−bits)). Slice products are exact (bits ≤ exact_slice_bits).
//  truncation   |xy − X_S Y_S| ≤ (2T + T²)|x||y|;
//  dropped pairs s + t ≥ S:   D = Σ c_s c_t;
//  each pass's fp32 PSUM sum: γ_K Σ_k |x_s||y_t|; adding the P passes in fp32: γ_P (1+γ_K) Σ |pass|;
//  with C = Σ_{s+t<S} c_s c_t, the total is (2T + T² + D + (γ_K + γ_P(1+γ_K)) C)|x||y|.
namespace {
// Σ over kept pairs and dropped pairs of c_s c_t, and the truncation 2T + T².
struct SlicingTerms {
  double kept = 0.0, dropped = 0.0, truncation = 0.0;
};
SlicingTerms slicing_terms(const ProductPlan& plan) {
  const int S = plan.slices;
  const double T = std::ldexp(1.0, -plan.bits * S);
  const auto c = [&](int s) { return std::ldexp(1.0 + std::ldexp(1.0, -plan.bits), -plan.bits * s); };
  SlicingTerms t;
  for (int s = 0; s < S; ++s)
    for (int u = 0; u < S; ++u) (s + u < S ? t.kept : t.dropped) += c(s) * c(u);
  t.truncation = 2 * T + T * T;
  return t;
}
}  // namespace

double compensated_slicing_error(const ProductPlan& plan) {
  const SlicingTerms t = slicing_terms(plan);
  return t.truncation + t.dropped;
}

std::int64_t compensated_chunks(std::int64_t k) { return k <= kCompensatedChunk ? 1 : ceil_div(k, kCompensatedChunk); }

// With K in n_c > 1 chunks of ≤ 128 terms, each chunk value (an fp32 PSUM/pass sum over its own terms) obeys the
// bound above with γ_128 for γ_K: |v_c − Σ_{k∈c} x_k y_k| ≤ ε_c M_c, M_c = Σ_{k∈c}|x_k||y_k|, so Σ_c|v_c| ≤
// (1 + ε_c)M. The float-float chunk sum (TwoSums, the errors added in fp32) represents Σ v_c within
// γ_{n_c−1}² Σ|v_c| (Ogita, Rump, Oishi, SIAM J. Sci. Comput. 26 (2005), Alg. 4.4 before its last rounding;
// TwoSum is exact even for subnormals and fp32 additions that underflow are exact), the final TwoSum is exact,
// and hi + lo is rounded to double once (u64). So ε = ε_c + γ²(1 + ε_c), plus u64(1 + ε).
double compensated_bound(const ProductPlan& plan, std::int64_t k) {
  const SlicingTerms t = slicing_terms(plan);
  const double passes = plan.slices * (plan.slices + 1) / 2.0;
  const std::int64_t chunks = compensated_chunks(k);
  const double gk = gamma(static_cast<double>(std::min(k, kCompensatedChunk)), kU32), gp = gamma(passes, kU32);
  const double chunk = t.truncation + t.dropped + (gk + gp * (1 + gk)) * t.kept;
  if (chunks == 1) return chunk;
  const double g = gamma(static_cast<double>(chunks - 1), kU32);
  const double sum = chunk + g * g * (1 + chunk);
  return sum + kU64 * (1 + sum);
}

// The absolute term. compensated_bound assumes no slice and no slice product leaves fp32's normal range;
// split_floating flags an entry with a nonzero remainder below 2^-63 (below that a product of two slices could
// be subnormal), and only terms with a flagged factor can leave the relative model (otherwise every nonzero
// slice is ≥ 2^-63 and every slice product ≥ 2^-126, exact). For such a term x·y (line-scaled, |x|, |y| < 1),
// with b bits, S slices, P = S(S+1)/2 passes, T = 2^-bS and c_s = 2^-bs(1 + 2^-b) as above:
//  - a slice of a remainder below fp32's normal range is rounded on the subnormal grid of spacing
//    2^-(125+b): |r_(s+1)| ≤ 2^-b|r_s| + 2^-(126+b) in every case, so by induction
//    |r_s| ≤ 2^-bs|x| + δ with δ = 2^-(126+b)/(1 − 2^-b), hence |ρ| ≤ T|x| + δ and |x_s| ≤ c_s|x| + 2δ;
//  - a slice product below the normal range is rounded to fp32's grid (≤ 2^-150) and, under the bf16
//    product model, then to bf16's (≤ 2^-134): η = 2^-150 (exact products) or 2^-134 + 2^-150 (bf16);
// and against the relative analysis the term adds at most
//   truncation  |xρ_y| + |ρ_x Y_S| − (2T + T²)|x||y| ≤ δ((1 + T)(|x| + |y|) + δ) ≤ 3δ,
//   dropped     Σ_{s+t≥S} (|x_s||y_t| − c_s c_t|x||y|) ≤ S(S−1)/2 · (2δ(c_s + c_t) + 4δ²) ≤ S(S−1)/2 · 9δ,
//   products    P·η (each kept slice product rounded once),
//   summation   (γ_Kc + γ_P(1 + γ_Kc))·P·(9δ + η): the PSUM and pass sums' relative bound applied to the extra
//               mass of the computed products (additions that underflow are exact, so it holds for them);
// with K_c = min(K, 128) the chunk length; the chunk sum and the final rounding to double scale this by
// (1 + γ_{n_c−1}²)(1 + u64). Summed over the ≤ K touched terms and scaled back, element (i, j) errs by at most
// ε·(|A||B|)_ij + 2^(e_i + f_j)·n_ij·unit, n_ij ≤ K the terms with a flagged factor.
double compensated_absolute_per_term(const ProductPlan& plan, std::int64_t k) {
  const double S = plan.slices, passes = S * (S + 1) / 2;
  const double delta = std::ldexp(1.0, -126 - plan.bits) / (1.0 - std::ldexp(1.0, -plan.bits));
  const double eta = plan.product == trncore::sim::ProductModel::bf16 ? 0x1p-134 + 0x1p-150 : 0x1p-150;
  const double gk = gamma(static_cast<double>(std::min(k, kCompensatedChunk)), kU32), gp = gamma(passes, kU32);
  const double per_term =
      3 * delta + S * (S - 1) / 2 * 9 * delta + passes * eta + (gk + gp * (1 + gk)) * passes * (9 * delta + eta);
  const double g = gamma(static_cast<double>(compensated_chunks(k) - 1), kU32);
  return per_term * (1 + g * g) * (1 + kU64) * (1 + 0x1p-40);  // margin for this expression's own rounding
}

std::int64_t SimProduct::row(std::int64_t i, std::int64_t n, double* out) const {
  if (!exact.empty()) {  // ozaki: its final rounding is checked where it happens (run_ozaki)
    std::copy_n(exact.data() + i * n, n, out);
    return 0;
  }
  const float* p = psum.data() + i * n;
  const int ea = row_exponents[static_cast<std::size_t>(i)];
  std::int64_t underflows = 0;
  if (!psum_low.empty()) {  // float-float: hi + lo rounded to double once (hi = 0 only when both are 0)
    const float* lo = psum_low.data() + i * n;
    for (std::int64_t j = 0; j < n; ++j) {
      const double v = static_cast<double>(p[j]) + static_cast<double>(lo[j]);
      out[j] = scale_pow2(v, product_exponent(ea, col_exponents[static_cast<std::size_t>(j)], 0));
      underflows += p[j] != 0.0f && std::isfinite(p[j]) && !(std::abs(out[j]) >= std::numeric_limits<double>::min());
    }
    return underflows;
  }
  for (std::int64_t j = 0; j < n; ++j) {
    out[j] = scale_pow2(static_cast<double>(p[j]), product_exponent(ea, col_exponents[static_cast<std::size_t>(j)], 0));
    underflows += p[j] != 0.0f && std::isfinite(p[j]) && !(std::abs(out[j]) >= std::numeric_limits<double>::min());
  }
  return underflows;
}

std::vector<double> SimProduct::values(std::int64_t m, std::int64_t n) const {
  std::vector<double> out(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i) row(i, n, out.data() + i * n);
  return out;
}

namespace {
template <class E>
SimProduct run(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const E> opa, std::span<const E> opb,
               const ProductPlan& plan) {
  switch (plan.method) {
    case ProductMethod::single_pass: return run_single_pass(m, n, k, opa, opb, plan);
    case ProductMethod::compensated: return run_compensated(m, n, k, opa, opb, plan);
    case ProductMethod::ozaki: return run_ozaki(m, n, k, opa, opb, plan);
  }
  return {};
}

}  // namespace

SimProduct sim_product(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const float> opa,
                       std::span<const float> opb, const ProductPlan& plan) {
  return run(m, n, k, opa, opb, plan);
}

SimProduct sim_product(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const double> opa,
                       std::span<const double> opb, const ProductPlan& plan) {
  return run(m, n, k, opa, opb, plan);
}

}  // namespace trnblas::detail
