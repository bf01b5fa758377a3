#pragma once
/// @file
/// Random variates from a Stream (stream.hpp). Each function fills a span and returns the stream
/// advanced past the words it used, so calls compose like the fills do.
///
/// Word budget, which fixes every sample's words and so makes results reproducible:
/// - samplers with a fixed number of uniforms use consecutive words: one per float uniform, two per
///   double uniform (normal: one pair of uniforms per pair of outputs);
/// - rejection samplers (randint, gamma, poisson for λ ≥ 10) give sample i its own window of 2^32 words
///   starting at offset + i·2^32 and advance the stream by n·2^32: sample i never depends on how many
///   attempts another sample needed.
/// Parameters are checked: a bad one throws trncore::InvalidArgument naming the function and value.

#include <trnrand/stream.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace trnrand {

/// Normal(mean, stddev) by Box–Muller: for each pair, u1 ∈ (0, 1], u2 ∈ [0, 1), r = √(−2 ln u1),
/// z = (r cos 2πu2, r sin 2πu2), computed in double and rounded once to the output type. An odd count
/// uses the cosine half of a last pair (and consumes the pair). Tails are truncated where u1 is: |z| ≤
/// √(2·24 ln 2) ≈ 5.77 for float, ≈ 8.57 for double. @throws InvalidArgument unless mean is finite and
/// stddev is finite and ≥ 0.
Stream normal(Stream s, std::span<float> out, float mean = 0.0f, float stddev = 1.0f);
Stream normal(Stream s, std::span<double> out, double mean = 0.0, double stddev = 1.0);

/// LogNormal: exp of normal(mean, stddev) (the parameters of the underlying normal). Same checks.
Stream lognormal(Stream s, std::span<float> out, float mean = 0.0f, float stddev = 1.0f);
Stream lognormal(Stream s, std::span<double> out, double mean = 0.0, double stddev = 1.0);

/// Exponential(rate): −ln(u)/rate with u ∈ (0, 1] (inversion; never infinite). @throws unless rate > 0, finite.
Stream exponential(Stream s, std::span<float> out, float rate = 1.0f);
Stream exponential(Stream s, std::span<double> out, double rate = 1.0);

/// Bernoulli(p): 1 when u < p for u ∈ [0, 1) on the 2^-53 grid (two words per sample), else 0. p = 0
/// gives all 0 and p = 1 all 1. @throws unless 0 ≤ p ≤ 1.
Stream bernoulli(Stream s, std::span<std::uint8_t> out, double p);

/// Uniform integers in [low, high] with no modulo bias (Lemire's multiply-and-reject on 64-bit words,
/// within each sample's window). @throws unless low ≤ high.
Stream randint(Stream s, std::span<std::int64_t> out, std::int64_t low, std::int64_t high);

/// A uniformly random permutation of 0 … out.size()−1 (Fisher–Yates; step k draws an unbiased index from
/// sample k's window). Returns the stream advanced by out.size()·2^32.
Stream randperm(Stream s, std::span<std::int64_t> out);

/// Gamma(shape, scale) by Marsaglia–Tsang (ACM TOMS 26(3), 2000); shape < 1 by the boost
/// Gamma(shape) = Gamma(shape + 1)·U^(1/shape). @throws unless shape > 0 and scale > 0, both finite.
Stream gamma(Stream s, std::span<double> out, double shape, double scale = 1.0);

/// Poisson(λ): exact. λ < 10 by inversion (sequential search on one uniform); λ ≥ 10 by Hörmann's
/// transformed rejection with squeeze, PTRS (Insurance: Math. Econ. 12, 1993). λ = 0 gives 0.
/// @throws unless 0 ≤ λ ≤ 1e15 (finite).
Stream poisson(Stream s, std::span<std::int64_t> out, double lambda);

/// Gamma in float: the double sampler's values rounded to float. Same checks.
Stream gamma(Stream s, std::span<float> out, float shape, float scale = 1.0f);

/// Beta(a, b) = X/(X + Y) with X ~ Gamma(a), Y ~ Gamma(b) drawn in sample i's window. Exact (up to
/// rounding of the ratio). @throws InvalidArgument unless a > 0 and b > 0, both finite.
Stream beta(Stream s, std::span<double> out, double a, double b);
Stream beta(Stream s, std::span<float> out, float a, float b);

/// Chi-squared with k degrees of freedom: 2·Gamma(k/2). @throws unless k > 0, finite.
Stream chi_squared(Stream s, std::span<double> out, double k);
Stream chi_squared(Stream s, std::span<float> out, float k);

/// Student's t with ν degrees of freedom: Z / √(V/ν), Z normal and V ~ χ²(ν) from sample i's window.
/// @throws unless ν > 0, finite.
Stream student_t(Stream s, std::span<double> out, double nu);
Stream student_t(Stream s, std::span<float> out, float nu);

/// Binomial(n, p), exact: inversion (sequential search) when n·min(p, 1−p) < 10, else Hörmann's BTRS
/// transformed rejection (Hörmann 1993; the log-pmf acceptance test makes it exact). p > 1/2 uses n − X
/// with 1 − p. n = 0, p = 0 and p = 1 are exact constants. @throws unless n ≥ 0 and 0 ≤ p ≤ 1.
Stream binomial(Stream s, std::span<std::int64_t> out, std::int64_t n, double p);

/// Geometric(p) on {1, 2, …} (numpy's convention: trials up to and including the first success):
/// ⌈ln u / ln(1 − p)⌉ with u ∈ (0, 1] on the 2^-53 grid, at least 1 (inversion; two words per sample).
/// @throws unless 0 < p ≤ 1.
Stream geometric(Stream s, std::span<std::int64_t> out, double p);

/// Walker's alias method with Vose's construction: built once from weights in O(n), sampled in O(1).
class AliasTable {
public:
  /// @throws InvalidArgument for no weights, a negative/NaN/inf weight, or a zero sum, naming the index.
  explicit AliasTable(std::span<const double> weights);
  /// out[i] ∈ [0, n) with probability weights[i]/Σ weights, from two words per sample (a 53-bit uniform
  /// u: column ⌊u·n⌋, then the column's threshold against the fractional part; the 2^-53 grid biases
  /// probabilities by at most n·2^-53). Returns the stream advanced by 2·out.size().
  Stream sample(Stream s, std::span<std::int64_t> out) const;
  std::int64_t size() const noexcept { return static_cast<std::int64_t>(threshold_.size()); }

private:
  std::vector<double> threshold_;
  std::vector<std::int64_t> alias_;
};

/// Categorical draws over weights (builds an AliasTable; reuse one for repeated sampling).
Stream categorical(Stream s, std::span<std::int64_t> out, std::span<const double> weights);

/// Normal(mean, stddev) truncated to [low, high] (either may be ±inf), exact: normal rejection when the
/// interval holds enough mass, uniform rejection for narrow intervals, Robert's exponential rejection for
/// tails (C. P. Robert, Stat. Comput. 5 (1995) 121–125), from sample i's window. low == high returns low.
/// @throws unless mean is finite, stddev > 0 finite, low ≤ high, not both infinite of one sign.
Stream truncated_normal(Stream s, std::span<double> out, double mean, double stddev, double low, double high);

/// Multivariate normal: row i of out (n × d, row-major) is mean + L·z with z standard normal (Box–Muller,
/// consecutive words as normal() uses them) and L the d × d lower-triangular Cholesky factor of the
/// covariance (row-major; the strict upper triangle is ignored). @throws DimensionMismatch unless
/// mean.size() = d, L.size() = d², out.size() a multiple of d; InvalidArgument for non-finite entries or a
/// negative diagonal of L.
Stream multivariate_normal(Stream s, std::span<double> out, std::span<const double> mean, std::span<const double> L);

/// Φ^{-1}(u), the standard normal quantile, for transforming given uniforms (e.g. QMC points) into
/// normals: out[i] = Φ^{-1}(u[i]); u = 0 gives −inf and u = 1 gives +inf. Halley iterations in long
/// double on erf(x/√2)/2 − (u − 1/2) for |u − 1/2| ≤ 1/4, and on erfc-based Φ from an Abramowitz–Stegun
/// 26.2.23 start in the tails: relative error below 2^-50 for u in [2^-1022, 1 − 2^-53] (tested
/// against MPFR).
/// @throws DimensionMismatch when sizes differ; InvalidArgument for u outside [0, 1] or NaN.
void normal_icdf(std::span<const double> u, std::span<double> out);
void normal_icdf(std::span<const float> u, std::span<float> out);

}  // namespace trnrand
