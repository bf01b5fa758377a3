#pragma once
// The TensorEngine part of a sim GEMM: P = op(A)·op(B) by one of the math-mode methods, with its
// certified a-priori error bound and its modelled engine work. alpha/beta are applied by the caller.

#include "sim/buffer.hpp"

#include <trncore/format.hpp>
#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/generation.hpp>
#include <trncore/sim/product_model.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace trnblas::detail {

/// How P is computed.
enum class ProductMethod : std::uint8_t {
  single_pass,  ///< inputs rounded to `format` (power-of-two scaled per row/column), one pass
  compensated,  ///< floating slices of `bits` bits, pairs s + t < slices, fp32 PSUM per pair
  ozaki,        ///< fixed-point slices of `bits` bits per row/column, exact PSUM sums, exact combination
};

struct ProductPlan {
  ProductMethod method = ProductMethod::single_pass;
  trncore::FormatSpec format = trncore::formats::bf16;  // single_pass only
  trncore::sim::ProductModel product = trncore::sim::ProductModel::bf16;
  /// The generation whose spec table prices the work.
  trncore::sim::Generation generation = trncore::sim::Generation::trn2;
  /// Slices per operand (compensated, ozaki); 0 = the fewest whose bound meets `target` (ozaki only).
  int slices = 1;
  int bits = 8;
  /// For ozaki with slices = 0: the componentwise bound to reach.
  double target = 0x1p-52;
  /// For compensated: the largest absolute term (slice remainders below 2^-63, see compensated_absolute_per_term),
  /// relative to |A||B|, that still certifies the bound. Without a target the mode promises its fp32 level
  /// and mode_choice sets 2^-20; with one, any (the bound is then judged against the target).
  double absolute_limit = std::numeric_limits<double>::infinity();
  int threads = 0;
  /// The inputs were float (fp32 inputs to an fp32 pass are then exact).
  bool inputs_are_float = true;
};

/// The result: P (m×n), the bound and what ran. P is held the way the method produces it: the fp32 PSUM
/// matrix with one power-of-two scale per row and per column (single pass, compensated), or fp64 values
/// (ozaki), so fp32 methods never materialise a double copy.
struct SimProduct {
  /// P_ij = (psum[i·n + j] + psum_low[i·n + j]) · 2^(row_exponents[i] + col_exponents[j]) when `exact` is
  /// empty; psum_low is empty (read as 0) unless the method keeps a float-float result (compensated with K
  /// in several chunks).
  Buffer<float> psum, psum_low;
  std::vector<int> row_exponents, col_exponents;
  /// P itself, row-major, when the method computes it in fp64.
  std::vector<double> exact;
  /// Componentwise: |P − op(A)op(B)| ≤ bound · (|op(A)||op(B)|), when `certified`.
  double bound = 0.0;
  bool certified = true;
  /// Why the bound is not certified (inputs below the format's normal range, inf/NaN inputs, ozaki's slice
  /// cap, a result below fp64's normal range).
  std::string caveat;
  std::string method;              // e.g. "ozaki: 9 fixed-point slices of 4 bits, 45 slice products"
  std::int64_t tensor_passes = 0;  // full matmuls over the K extent
  trncore::sim::EngineStats stats;

  /// Row i of P (n values), each the correctly rounded double of the scaled PSUM value (exact unless it
  /// leaves double's range; with psum_low, hi + lo is rounded to double once, relative error ≤ 2^-53). Returns how many nonzero values fell below double's normal range in the
  /// scaling (rounded to a subnormal or to zero, where the relative bound does not hold).
  std::int64_t row(std::int64_t i, std::int64_t n, double* out) const;
  /// P as m×n row-major doubles.
  std::vector<double> values(std::int64_t m, std::int64_t n) const;
};

/// Runs `plan` on the row-major operands opa (m×k) and opb (k×n), given as float or double.
SimProduct sim_product(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const float> opa,
                       std::span<const float> opb, const ProductPlan& plan);
SimProduct sim_product(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const double> opa,
                       std::span<const double> opb, const ProductPlan& plan);

/// γ_n for unit roundoff u: n·u / (1 − n·u) (Higham, ASNA 2nd ed., Lemma 3.1); +inf when n·u ≥ 1.
double gamma(double n, double u);

/// Compensated slicing accumulates K in chunks of this many terms (one PSUM K tile) and sums the chunks in
/// float-float.
inline constexpr std::int64_t kCompensatedChunk = 128;
/// How many chunks a K extent takes (1 for k ≤ 128, also for k = 0).
std::int64_t compensated_chunks(std::int64_t k);

/// The a-priori bound of a single pass and of compensated slicing (data-independent, see sim_product.cpp;
/// compensated's holds while no slice remainder falls below 2^-63, see compensated_absolute_per_term).
double single_pass_bound(const ProductPlan& plan, std::int64_t k);
double compensated_bound(const ProductPlan& plan, std::int64_t k);
/// Compensated: the absolute error one term x·y of the line-scaled operands (|x|, |y| < 1) can add to the
/// relative bound when its slices or slice products fall below fp32's normal range, including its share of
/// the PSUM, pass and chunk sums (derivation in sim_product.cpp). Scaled back, a term of element (i, j)
/// adds at most 2^(e_i + f_j) times this.
double compensated_absolute_per_term(const ProductPlan& plan, std::int64_t k);
/// The slicing's own part of compensated_bound: truncation and dropped pairs (2T + T² + D).
double compensated_slicing_error(const ProductPlan& plan);

/// Slice width whose products are exact under `model` (bf16 inputs): 8 bits for exact products (8 × 8
/// = 16 significant bits ≤ fp32's 24), 4 bits for bf16-rounded products (4 × 4 = 8 bits ≤ bf16's 8).
int exact_slice_bits(trncore::sim::ProductModel model);

}  // namespace trnblas::detail
