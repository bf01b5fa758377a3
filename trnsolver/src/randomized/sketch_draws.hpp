#pragma once
// The random choices that define a sketch, drawn at fixed stream positions (sketch.hpp documents them) so
// that every entry is a pure function of the spec: shared by forming Ω and by applying it without forming.
#include <trnsolver/sketch.hpp>

#include <cstdint>
#include <vector>

namespace trnsolver::randomized_detail {

/// N = the smallest power of two ≥ max(n, 1): the SRHT's padded length.
std::int64_t hadamard_length(std::int64_t n);

/// Sparse sign: row i's ζ distinct columns cols[i·ζ + t] in [0, l) and its values vals[i·ζ + t] = ±√(l/ζ).
template <class T>
struct SparseSignRows {
  std::int64_t zeta = 0;
  std::vector<std::int64_t> cols;
  std::vector<T> vals;
};
template <class T>
SparseSignRows<T> sparse_sign_rows(const Sketch& sketch, std::int64_t n, std::int64_t l, int threads);

/// SRHT: D's n signs (±1) and P's l distinct column indices in [0, N).
template <class T>
struct SrhtDraws {
  std::int64_t length = 1;  ///< N
  std::vector<T> signs;
  std::vector<std::int64_t> picks;
};
/// @throws InvalidArgument when l > N (an SRHT has only N distinct columns).
template <class T>
SrhtDraws<T> srht_draws(const Sketch& sketch, std::int64_t n, std::int64_t l, const char* function);

/// In-place unnormalised fast Walsh–Hadamard transform (Sylvester order: result_p = Σ_i (−1)^{popcount(i & p)}·x_i,
/// N = length a power of two) of `width` interleaved vectors at once: vector c is x[c], x[width + c],
/// x[2·width + c], …; every vector sees the same butterflies in the same order whatever the width.
template <class T>
void fwht_interleaved(T* x, std::int64_t length, std::int64_t width);

}  // namespace trnsolver::randomized_detail
