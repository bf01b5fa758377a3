#pragma once
/// @file
/// Random variates from a Stream (stream.hpp). Each function fills a span and returns the stream
/// advanced past the words it used, so calls compose like the fills do.
///
/// Word budget b, which fixes every sample's words and so makes results reproducible: sample i of a fill
/// uses only words b·i … b·i + b − 1 after the stream's offset, never another sample's, so a fill of n
/// values equals n fills of one value at skip_ahead(s, b·i), and any slice [begin, end) filled from
/// skip_ahead(s, b·begin) reproduces the single fill bit for bit (docs/trnrand.md, "Partitioning"):
/// - samplers with a fixed number of uniforms use consecutive words: one per float uniform, two per
///   double uniform (exponential, geometric, bernoulli, AliasTable::sample: one uniform per sample;
///   normal, lognormal, multivariate_normal: two uniforms per value, the cosine half of Box–Muller, so
///   b = 2 for float and 4 for double);
/// - samplers with a variable number of words (randint, randperm, gamma, beta, chi_squared, student_t,
///   poisson, binomial, truncated_normal — for every parameter value, including constant cases) give
///   sample i its own window of 2^32 words starting at offset + i·2^32 and advance the stream by n·2^32:
///   sample i never depends on how many attempts another sample needed. (The expected use per sample is
///   a handful of words; needing more than 2^32 has probability far below 2^-1000 for every sampler.) A
///   stream holds 2^64 words, so one call of these samplers fills at most 2^32 values — sample i + 2^32 would
///   reuse sample i's window and repeat its value —, and a larger `out` throws InvalidArgument (split such a
///   fill over several streams, skip_ahead_sequence).
/// Parameters are checked: a bad one throws trncore::InvalidArgument naming the function and value; so
/// does a stream whose generator is not a Generator value, and options trncore::validate refuses.
///
/// Options: every function takes a trailing `const trncore::Options& options = {}`. options.threads splits
/// the work (0 = the process default); no value depends on it, since sample i only reads its own words.
/// options.seed and options.stream are not used: the Stream argument is the source of randomness.
/// options.backend = Backend::sim runs the sim kernels (trnrand/sim.hpp) on a NeuronCore of
/// options.generation made for the call: normal(float) and normal_engine_order run trnrand::sim::normal;
/// every other function here throws trncore::NotSupported naming itself on Backend::sim (they have no
/// engine kernel; use Backend::host).
///
/// Uniform variates are fill_uniform in stream.hpp (float: one word, 24-bit grid; double: two words,
/// 53-bit grid; Interval::open_closed = (0, 1], the default and cuRAND's, or Interval::closed_open =
/// [0, 1)); the samplers here use the same grids. For quasi-Monte Carlo, map given uniforms with
/// normal_icdf.

#include <trncore/options.hpp>
#include <trnrand/stream.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace trnrand {

///@{
/// Normal(mean, stddev) by Box–Muller, one value per pair of uniforms: value i takes u1 ∈ (0, 1] and
/// u2 ∈ [0, 1) from its own words (float: words 2i, 2i + 1, 24-bit grid; double: words 4i … 4i + 3, 53-bit
/// grid) and is mean + stddev·√(−2 ln u1)·cos 2πu2, computed in double and rounded once to the output type
/// (the sine half is not used, so no value shares words with another). Returns skip_ahead(s, 2n) (float) or
/// skip_ahead(s, 4n) (double). Tails are truncated where u1 is: |z| ≤ √(2·24 ln 2) ≈ 5.77 for float,
/// ≈ 8.57 for double. On Backend::sim the float overload runs trnrand::sim::normal on a core made for the
/// call, whose values are normal_engine_order's (fp32 engine roundings), not these; the double overload
/// throws trncore::NotSupported there (no fp64 on the engines).
/// @throws InvalidArgument unless mean is finite and stddev is finite and ≥ 0, and for invalid options.
Stream normal(Stream s, std::span<float> out, float mean = 0.0f, float stddev = 1.0f,
              const trncore::Options& options = {});
Stream normal(Stream s, std::span<double> out, double mean = 0.0, double stddev = 1.0,
              const trncore::Options& options = {});
///@}

/// Normal(mean, stddev) floats by the Box–Muller instruction sequence of trnrand::sim::normal, run on the
/// host: the words of normal() (value i: u1 = ((w_{2i} >> 8) + 1)·2^-24 ∈ (0, 1], u2 from w_{2i+1}), each
/// step rounded to fp32 as the NeuronCore engines round it:
///   a = fl(ln u1),  r = fl(√(−2a)),  t = fl(fl(π)·2^-23·m) with m = (w_{2i+1} >> 8) − 2^23,
///   out[i] = fl(fl(fl(cos t · r)·(−stddev)) + mean),
/// where ln and cos are correctly rounded (trncore/correctly_rounded.hpp). t = 2π·u2 − π up to the
/// rounding of π and of the product, so −cos t is cos 2πu2 with the argument kept in [−π, π) and half the
/// rounding error of fl(2π)·u2. out is bitwise equal to trnrand::sim::normal(s, out,
/// mean, stddev, core), for any options.threads (0 = the process default); use it to reproduce a sim run
/// at host speed (with options.backend = Backend::sim it runs trnrand::sim::normal itself: the same bits). It is less accurate than normal() (double evaluation, one rounding): |out[i] − z_i| ≤
/// 2^-24·(9.11·stddev·r + |out[i]|) + 2^-147 for z_i the exact Box–Muller value of the same words and
/// r = √(−2 ln u1) ≤ 5.77 (docs/trnrand.md derives it). Returns skip_ahead(s, 2n), as normal() does.
/// @throws InvalidArgument unless mean is finite and stddev is finite and ≥ 0, and for invalid options.
Stream normal_engine_order(Stream s, std::span<float> out, float mean = 0.0f, float stddev = 1.0f,
                           const trncore::Options& options = {});

///@{
/// LogNormal: exp of normal(mean, stddev) (the parameters of the underlying normal). Same checks.
Stream lognormal(Stream s, std::span<float> out, float mean = 0.0f, float stddev = 1.0f,
                 const trncore::Options& options = {});
Stream lognormal(Stream s, std::span<double> out, double mean = 0.0, double stddev = 1.0,
                 const trncore::Options& options = {});
///@}

///@{
/// Exponential(rate): −ln(u)/rate with u ∈ (0, 1] (inversion; never infinite; tail truncated at
/// 24·ln 2/rate for float, 53·ln 2/rate for double, by the grid). @throws unless rate > 0, finite.
Stream exponential(Stream s, std::span<float> out, float rate = 1.0f, const trncore::Options& options = {});
Stream exponential(Stream s, std::span<double> out, double rate = 1.0, const trncore::Options& options = {});
///@}

/// Bernoulli(p): 1 when u < p for u ∈ [0, 1) on the 2^-53 grid (two words per sample), else 0. p = 0
/// gives all 0 and p = 1 all 1. @throws unless 0 ≤ p ≤ 1.
Stream bernoulli(Stream s, std::span<std::uint8_t> out, double p, const trncore::Options& options = {});

/// Uniform integers in [low, high] with no modulo bias (Lemire's multiply-and-reject on 64-bit words,
/// within each sample's window). @throws unless low ≤ high.
Stream randint(Stream s, std::span<std::int64_t> out, std::int64_t low, std::int64_t high,
               const trncore::Options& options = {});

/// A uniformly random permutation of 0 … out.size()−1 (Fisher–Yates; step k draws an unbiased index from
/// sample k's window). Returns the stream advanced by out.size()·2^32.
Stream randperm(Stream s, std::span<std::int64_t> out, const trncore::Options& options = {});

/// The Fisher–Yates draws of randperm, from any step on: out[i] = j_{first + i}, where randperm(s, p) of any
/// size n > k runs, for k = n − 1 down to 1, swap(p[k], p[j_k]) with j_k ∈ [0, k] the unbiased index drawn
/// from sample k's window (j_0 = 0: step 0 draws nothing). j_k depends only on s and k — not on n, on the
/// other steps or on options.threads (the draws are split over threads like the samplers) — so the draws
/// of a permutation can be made in slices on many workers and the swaps replayed in O(n): iota, then the
/// swaps for k = n − 1 … 1 give randperm(s, p)'s permutation bit for bit (trnrand::mpi::randperm does
/// this over MPI ranks). Returns skip_ahead(s, (first + out.size())·2^32), as randperm of first +
/// out.size() values would. @throws InvalidArgument for invalid options or generator, or first +
/// out.size() > 2^32 (the steps' windows, as above); NotSupported on Backend::sim (no engine kernel).
Stream randperm_draws(Stream s, std::uint64_t first, std::span<std::int64_t> out, const trncore::Options& options = {});

/// Gamma(shape, scale) (density x^(shape−1) e^(−x/scale)) by Marsaglia–Tsang (ACM TOMS 26(3), 2000);
/// shape < 1 by the boost Gamma(shape) = Gamma(shape + 1)·U^(1/shape), formed in logarithms (values below
/// the double range round to 0 or a subnormal, as the exact variate would). Exact up to the rounding of a
/// few operations (relative error a few ulps·max(1, |ln X|)). Any shape from tiny (1e-3) to huge (1e6+).
/// Window budget. @throws InvalidArgument unless shape > 0 and scale > 0, both finite.
Stream gamma(Stream s, std::span<double> out, double shape, double scale = 1.0, const trncore::Options& options = {});

/// Poisson(λ): exact. λ < 10 by inversion (sequential search on one uniform); λ ≥ 10 by Hörmann's
/// transformed rejection with squeeze, PTRS (Insurance: Math. Econ. 12, 1993). λ = 0 gives 0.
/// @throws unless 0 ≤ λ ≤ 1e15 (finite).
Stream poisson(Stream s, std::span<std::int64_t> out, double lambda, const trncore::Options& options = {});

/// Gamma in float: the double sampler's values (same words) rounded once to float. Same checks.
Stream gamma(Stream s, std::span<float> out, float shape, float scale = 1.0f, const trncore::Options& options = {});

///@{
/// Beta(a, b) (density ∝ x^(a−1)(1−x)^(b−1) on [0, 1]) = X/(X + Y) with X ~ Gamma(a) then Y ~ Gamma(b)
/// drawn one after the other in sample i's window (window budget). Exact up to rounding: the plain ratio
/// when a, b ≥ 1; otherwise from ln X and ln Y (exp(ln X − m)/(exp(ln X − m) + exp(ln Y − m)), m the
/// larger), so tiny shapes (1e-3), whose gammas underflow, still give values in [0, 1] and never 0/0.
/// @throws InvalidArgument unless a > 0 and b > 0, both finite.
Stream beta(Stream s, std::span<double> out, double a, double b, const trncore::Options& options = {});
Stream beta(Stream s, std::span<float> out, float a, float b, const trncore::Options& options = {});
///@}

///@{
/// Chi-squared with k (real, > 0) degrees of freedom: 2·Gamma(k/2) from sample i's window.
/// @throws InvalidArgument unless k > 0, finite.
Stream chi_squared(Stream s, std::span<double> out, double k, const trncore::Options& options = {});
Stream chi_squared(Stream s, std::span<float> out, float k, const trncore::Options& options = {});
///@}

///@{
/// Student's t with ν (real, > 0) degrees of freedom: Z·√(ν/V), Z Box–Muller normal then V ~ χ²(ν), from
/// sample i's window; for ν < 2 √(ν/V) is formed from ln V so an underflowing V does not give ±inf.
/// @throws InvalidArgument unless ν > 0, finite.
Stream student_t(Stream s, std::span<double> out, double nu, const trncore::Options& options = {});
Stream student_t(Stream s, std::span<float> out, float nu, const trncore::Options& options = {});
///@}

/// Binomial(n, p), exact, no normal approximation: inversion (sequential search) when n·min(p, 1−p) < 10,
/// else Hörmann's BTRS transformed rejection (W. Hörmann, "The generation of binomial random variates",
/// J. Stat. Comput. Simul. 46, 1993), whose final test compares with the log-pmf ratio computed by
/// Loader's saddle-point formula, accurate for any n up to 2^63 − 1. p > 1/2 uses n − X with 1 − p.
/// n = 0, p = 0 and p = 1 give exact constants. Window budget.
/// @throws InvalidArgument unless n ≥ 0 and 0 ≤ p ≤ 1.
Stream binomial(Stream s, std::span<std::int64_t> out, std::int64_t n, double p, const trncore::Options& options = {});

/// Geometric(p) on {1, 2, …} (numpy's convention: trials up to and including the first success):
/// ⌈ln u / ln(1 − p)⌉ with u ∈ (0, 1] on the 2^-53 grid, at least 1 (inversion; two words per sample).
/// @throws unless 0 < p ≤ 1.
Stream geometric(Stream s, std::span<std::int64_t> out, double p, const trncore::Options& options = {});

/// Walker's alias method (A. J. Walker, ACM TOMS 3 (1977) 253–256) with Vose's numerically stable O(n)
/// construction (M. D. Vose, IEEE TSE 17 (1991) 972–975): built once from weights, sampled in O(1).
/// Immutable after construction, so one table may be sampled from many threads.
class AliasTable {
 public:
  /// @throws InvalidArgument for no weights, a negative/NaN/inf weight, or a zero sum, naming the index.
  explicit AliasTable(std::span<const double> weights);
  /// out[i] ∈ [0, n) with probability weights[i]/Σ weights, from two words per sample (a 53-bit uniform
  /// u: column ⌊u·n⌋, then the column's threshold against the fractional part; the 2^-53 grid biases
  /// probabilities by at most n·2^-53). Returns the stream advanced by 2·out.size().
  Stream sample(Stream s, std::span<std::int64_t> out, const trncore::Options& options = {}) const;
  /// The number of categories (weights.size()).
  std::int64_t size() const noexcept { return static_cast<std::int64_t>(threshold_.size()); }

 private:
  std::vector<double> threshold_;
  std::vector<std::int64_t> alias_;
};

/// Categorical draws over weights: AliasTable(weights).sample(s, out) (builds a table each call; reuse
/// an AliasTable for repeated sampling). Same errors as AliasTable's constructor.
Stream categorical(Stream s, std::span<std::int64_t> out, std::span<const double> weights,
                   const trncore::Options& options = {});

///@{
/// Normal(mean, stddev) truncated to [low, high] (either may be ±inf), exact: normal rejection when the
/// standardized interval straddles 0 and is ≥ 2.5 wide (acceptance ≥ 49%), uniform rejection for narrow
/// intervals (acceptance ≥ e^-1, or ≥ e^-3.2 across 0), Robert's exponential rejection for tails with the
/// optimal rate (C. P. Robert, "Simulation of truncated normal variables", Stat. Comput. 5 (1995)
/// 121–125), all in double from sample i's window (window budget); the value is rounded once to T and
/// clamped to [low, high]. low == high returns low (and still advances by the window budget).
/// @throws InvalidArgument unless mean is finite, stddev > 0 finite, low ≤ high (no NaN), low < +inf and
/// high > −inf, naming the values.
Stream truncated_normal(Stream s, std::span<double> out, double mean, double stddev, double low, double high,
                        const trncore::Options& options = {});
Stream truncated_normal(Stream s, std::span<float> out, float mean, float stddev, float low, float high,
                        const trncore::Options& options = {});
///@}

///@{
/// Multivariate normal N(mean, L·Lᵀ): row r of out (n × d, row-major) is mean + L·z_r, where z_r holds
/// standard normals r·d … r·d + d − 1 of the stream exactly as normal() of n·d values of the same type would
/// draw them (2 words per normal for float, 4 for double, so row r uses only its own d·b words), L the d × d
/// lower-triangular Cholesky factor of the covariance (row-major; the strict upper triangle is ignored).
/// Each entry is summed in double and rounded once to T. Returns the stream advanced as normal() would be.
/// @throws DimensionMismatch unless d = mean.size() ≥ 1, L.size() = d², out.size() a multiple of d;
/// InvalidArgument for a non-finite entry of mean or L or a negative diagonal of L, naming it.
Stream multivariate_normal(Stream s, std::span<double> out, std::span<const double> mean, std::span<const double> L,
                           const trncore::Options& options = {});
Stream multivariate_normal(Stream s, std::span<float> out, std::span<const float> mean, std::span<const float> L,
                           const trncore::Options& options = {});
///@}

///@{
/// Φ^{-1}(u), the standard normal quantile, for transforming given uniforms (e.g. QMC points) into
/// normals: out[i] = Φ^{-1}(u[i]); u = 0 gives −inf and u = 1 gives +inf. Halley iterations in long
/// double on erf(x/√2)/2 − (u − 1/2) for |u − 1/2| ≤ 1/4, and on erfc-based Φ from an Abramowitz–Stegun
/// 26.2.23 start in the tails: relative error below 2^-50 for u in [2^-1022, 1 − 2^-53] (tested
/// against MPFR at about 850 points); subnormal u are accepted (accuracy not claimed there). The float
/// overload computes in double and rounds once (error ≤ ½ ulp + 2^-50 relative). Not an approximation
/// such as Acklam's or AS241: the iterations converge to the long double root.
/// @throws DimensionMismatch when sizes differ; InvalidArgument for u outside [0, 1] or NaN.
void normal_icdf(std::span<const double> u, std::span<double> out, const trncore::Options& options = {});
void normal_icdf(std::span<const float> u, std::span<float> out, const trncore::Options& options = {});
///@}

}  // namespace trnrand
