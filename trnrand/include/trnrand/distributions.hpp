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

}  // namespace trnrand
