#pragma once
// The a-posteriori forward error bounds of solve() (in the manner of LAPACK's xGERFSX; Demmel, Hida,
// Kahan, Li, Mukherjee, Riedy, "Error bounds from extra-precise iterative refinement", ACM TOMS 32 (2006))
// and the condition estimate, all through Higham's 1-norm estimator on operators built from A⁻¹.

#include "mixed/correction_gmres.hpp"
#include "mixed/residual.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace trnsolver::detail {

/// v ↦ A⁻¹v and v ↦ A⁻ᵀv in place, as accurate as the caller can make them.
struct Inverse {
  Precondition apply;
  Precondition apply_transpose;
};

/// V ↦ A⁻¹V (transpose false) or A⁻ᵀV in place, V an n×k column-major block of leading dimension n: k
/// vectors for the price of about one when the solve is memory bound (one pass over the factors).
using BlockInverse = std::function<void(double* v, std::int64_t k, bool transpose)>;

/// A norm for scaled_inverse_estimates: ‖ diag(g)·A⁻ᵀ·diag(1/|x|) ‖₁ = ‖ diag(1/|x|)·A⁻¹·diag(g) ‖∞ (g or
/// x null: the identity in its place), estimated as one_norm_estimate does (`two_starts` likewise).
///  - {nullptr, nullptr, false}: ‖A⁻¹‖∞, as inverse_norm_estimate;
///  - {&g, nullptr, true}: ‖ |A⁻¹| g ‖∞ for g ≥ 0, as abs_inverse_norm without its safety factor;
///  - {&g, x, true}: max_i (|A⁻¹| g)_i/|x_i|, as the componentwise estimate of bounds_from (no zero x_i).
///  - {nullptr, nullptr, two_starts, true}: ‖F‖∞ instead, F = I − Â⁻¹A (Â⁻¹ the `inverse`, A applied by
///    scaled_inverse_estimates' `product`), i.e. the 1-norm of B = Fᵀ, Fᵀv = v − Aᵀ(Â⁻ᵀv), Bᵀv = v − Â⁻¹(A v).
struct ScaledInverse {
  const std::vector<double>* g = nullptr;
  const double* x = nullptr;
  bool two_starts = true;
  bool identity_minus = false;  ///< ‖I − Â⁻¹A‖∞ instead of the scaled inverse
};

/// Out = A·V (transpose false) or Aᵀ·V for n×k column-major blocks (leading dimension n).
using BlockProduct = std::function<void(const double* v, double* out, std::int64_t k, bool transpose)>;

/// The estimates (lower bounds of the norms, no safety factor) of every ScaledInverse, their estimator
/// iterations run in lockstep so that each round is one block application of A⁻¹ or A⁻ᵀ through `inverse`
/// (one_norm_estimates). Each value is the one the single-vector estimator computes, up to the rounding of
/// the block solves.
/// `product` is needed only for identity_minus norms.
/// `stop`: as one_norm_estimates' (an empty result when it returned true).
std::vector<double> scaled_inverse_estimates(std::int64_t n, const BlockInverse& inverse,
                                             std::span<const ScaledInverse> norms,
                                             const BlockProduct& product = nullptr,
                                             const std::function<bool(std::span<const double>)>& stop = nullptr);

/// Estimate of ‖A⁻¹‖∞ (= ‖A⁻ᵀ‖₁), one start (the condition estimate and the strategy choice; no bound).
double inverse_norm_estimate(std::int64_t n, const Inverse& inverse);

struct ForwardErrorBounds {
  double normwise = 0.0;       ///< 3·estimate of ‖ |A⁻¹| g ‖∞ / ‖x‖∞
  double componentwise = 0.0;  ///< 3·estimate of max_i (|A⁻¹| g)_i / |x_i|
  double estimate = 0.0;       ///< the normwise estimate itself
};

/// 3·(estimate of ‖ |A⁻¹| g ‖∞) for a non-negative g: with |v| ≤ g, an upper bound on ‖A⁻¹v‖∞ within the
/// estimator's factor (Higham's estimator gives a lower bound of the norm, almost always within 3 of it).
double abs_inverse_norm(std::int64_t n, const Inverse& inverse, const std::vector<double>& g);

/// The bounds of forward_error_bounds for an arbitrary non-negative g (|x̂ − x| ≤ |A⁻¹| g assumed by the
/// caller): 3·‖ |A⁻¹| g ‖∞/‖x‖∞ and 3·max_i (|A⁻¹| g)_i/|x_i|.
/// `normwise` / `componentwise` false skip that estimate (its field stays +inf).
ForwardErrorBounds bounds_from(std::int64_t n, const Inverse& inverse, const std::vector<double>& g, const double* x,
                               bool normwise = true, bool componentwise = true);

/// With g = |r|(1 + 2u) + error_factor·scale (every computed quantity of `res` turned into a bound on the
/// exact residual's magnitude): |x − A⁻¹b| ≤ |A⁻¹| g exactly, whose norms are estimated here.
ForwardErrorBounds forward_error_bounds(std::int64_t n, const Inverse& inverse, const Residual& res, const double* x);

/// One bounds_from computation for bounds_from_block: |x̂ − x| ≤ |A⁻¹| g assumed, x̂ = x (n entries).
struct BoundsRequest {
  const std::vector<double>* g = nullptr;
  const double* x = nullptr;
  bool normwise = true;
  bool componentwise = true;
};

/// bounds_from for every request (same results, same special cases: a zero g gives 0, ‖x‖ = 0 or a zero
/// x_i +inf, an estimate not wanted +inf), plus the raw estimates of `extra` norms, all estimated in one
/// lockstep through block solves (scaled_inverse_estimates). `extra_estimates` receives one value per extra.
/// `stop` sees the lower bounds of the extra estimates only; when it stops, the result and extra_estimates are
/// empty.
std::vector<ForwardErrorBounds> bounds_from_block(std::int64_t n, const BlockInverse& inverse,
                                                  std::span<const BoundsRequest> requests,
                                                  std::span<const ScaledInverse> extra,
                                                  std::vector<double>& extra_estimates,
                                                  const BlockProduct& product = nullptr,
                                                  const std::function<bool(std::span<const double>)>& stop = nullptr);

}  // namespace trnsolver::detail
