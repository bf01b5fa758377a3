#pragma once
/// @file
/// Random sketching operators for randomized numerical linear algebra: Gaussian, Rademacher, sparse sign
/// (SJLT / CountSketch-style) and the subsampled randomized Hadamard transform (SRHT), each a test matrix
/// Ω (n×l) drawn from a trnrand counter-based stream (docs/trnsolver-randomized.md).
///
/// Conventions:
/// - Every kind is normalised so that each column ω of Ω is isotropic, E[ω·ωᵀ] = I (hence E[Ω·Ωᵀ] = l·I):
///   Gaussian N(0, 1) entries; Rademacher ±1; sparse sign: each row has ζ = min(nonzeros_per_row, l)
///   nonzeros ±√(l/ζ) in distinct uniformly chosen columns; SRHT: Ω = D·H·P with D = diag(±1) (N×N), H
///   the N×N unnormalised Walsh–Hadamard matrix (±1 entries, N the power of two ≥ n, rows ≥ n dropped)
///   and P the selection of l distinct columns of H chosen uniformly. Scale is irrelevant to range
///   finders and makes Hutchinson-type estimators unbiased without a correction factor.
/// - Entry Ω(i, j) is a pure function of (kind, seed, stream, n, l, ζ, i, j): the words that define it sit
///   at fixed positions of the stream trnrand::make_stream(seed, stream), so the same spec gives the same
///   sketch bit for bit, for any thread count, on any machine, and a different seed an independent draw.
///   Word positions: Gaussian entry (i, j) is value i of trnrand::normal on column j, whose words start
///   at offset j·2n (float) or j·4n (double), so no two entries share a word; Rademacher (i, j): bit 31 of word i + j·n; sparse sign
///   row i: its column choices from subsequence + 1 (randint windows i·ζ + t, Floyd's algorithm) and its
///   signs from bit 31 of words i·ζ + t of subsequence + 2; SRHT: D's signs from bit 31 of words 0…n−1 and
///   P from subsequence + 1 (randint windows 0…l−1, Floyd's algorithm over N).
/// - Applying a sketch to a dense matrix (sketch_right, sketch_left) never forms Ω for the sparse sign and
///   SRHT kinds (O(nnz(A)·ζ) and O(m·N·log N) work); Gaussian and Rademacher form Ω (n×l, the minimum a
///   dense product needs) and multiply with trnblas::gemm under the caller's options (host, or the sim
///   TensorEngine in options.math_mode).

#include <trnsolver/dense.hpp>

#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <string_view>

namespace trnsolver {

/// Which random test matrix a sketch draws.
enum class SketchKind : std::uint8_t {
  gaussian,     ///< i.i.d. N(0, 1) entries
  rademacher,   ///< i.i.d. ±1 entries
  sparse_sign,  ///< ζ nonzeros ±√(l/ζ) per row (Meng–Mahoney / Nelson–Nguyen sparse embeddings)
  srht,         ///< subsampled randomized Hadamard transform D·H·P (Ailon–Chazelle, Tropp 2011)
};

/// "gaussian", "rademacher", "sparse_sign", "srht". Never throws.
std::string_view to_string(SketchKind kind) noexcept;
/// Parses to_string's names. @throws trncore::ParseError naming the text and the accepted names.
SketchKind parse_sketch_kind(std::string_view text);

/// A sketch's identity: the kind and the trnrand stream (seed, stream) its entries come from.
struct Sketch {
  SketchKind kind = SketchKind::gaussian;  ///< the distribution of the test matrix
  std::uint64_t seed = 0;                  ///< trnrand seed of the entries
  /// trnrand subsequence; the sparse sign and SRHT kinds also use subsequences stream + 1 and + 2.
  std::uint64_t stream = 0;
  /// ζ for SketchKind::sparse_sign (≥ 1; values above l act as l). 8 is the value Tropp et al. recommend
  /// for streaming low-rank approximation (SIAM J. Sci. Comput. 41, 2019, §3.3).
  std::int64_t nonzeros_per_row = 8;
};

/// Writes the n×l test matrix Ω of `sketch` into omega (column-major, leading dimension ldo ≥ max(1, n)).
/// Work O(n·l) (Gaussian, Rademacher, SRHT), O(n·l) writes of zeros plus O(n·ζ) draws (sparse sign).
/// @param sketch   kind, seed, stream and ζ of the test matrix
/// @param n, l     rows and columns of Ω (≥ 0)
/// @param omega    receives Ω
/// @param ldo      leading dimension of omega
/// @param options  threads (0 = the process default) — never changes a bit of the result; the draws are
///                 on the host whatever options.backend says, and options.seed/stream are not used (the
///                 sketch's are).
/// @throws trncore::InvalidArgument for negative n or l, a null omega with n·l > 0, nonzeros_per_row < 1,
///         invalid options (negative threads); DimensionMismatch for ldo < max(1, n).
template <class T>
void sketch_matrix(const Sketch& sketch, std::int64_t n, std::int64_t l, T* omega, std::int64_t ldo,
                   const trncore::Options& options = {});

/// The n×l test matrix Ω, column-major. As the pointer form.
template <class T>
DenseMatrix<T> sketch_matrix(const Sketch& sketch, std::int64_t n, std::int64_t l,
                             const trncore::Options& options = {});

/// Y = A·Ω (m×l, column-major) for A m×n in either layout and Ω = sketch_matrix(sketch, n, l).
/// Gaussian/Rademacher: trnblas::gemm(options) with the formed Ω (host accuracy γ_{n+2}·|A||Ω|
/// componentwise; sim: the math mode's bound, docs/trnblas-sim.md). Sparse sign: each output element is a
/// sum of the row's ζ·(nonzeros) terms in ascending row order of Ω (error ≤ γ_n·|A||Ω|). SRHT: an
/// in-place fast Walsh–Hadamard transform of each row of A·D (error ≤ log₂N·u·√N‖a‖₂ per entry, Higham
/// ASNA §3.5 on the butterfly sums), computed in T; options.backend = sim is accepted and runs on the
/// host for these two kinds (they have no products to put on the TensorEngine). options.threads splits
/// rows of A; results never depend on it.
/// A's values are not inspected (callers that need finite data check them: rsvd does).
/// @throws trncore::InvalidArgument for l < 0, invalid options or an invalid sketch (as sketch_matrix).
template <class T>
DenseMatrix<T> sketch_right(trncore::MatrixView<const T> a, std::int64_t l, const Sketch& sketch,
                            const trncore::Options& options = {});

/// Y = Ωᵀ·A (l×n, column-major) for A m×n in either layout and Ω = sketch_matrix(sketch, m, l): the row
/// sketch used by sketch-and-solve least squares. Computed as (Aᵀ·Ω)ᵀ by sketch_right on the transposed
/// view (no copy of A); accuracy and errors as sketch_right.
template <class T>
DenseMatrix<T> sketch_left(trncore::MatrixView<const T> a, std::int64_t l, const Sketch& sketch,
                           const trncore::Options& options = {});

}  // namespace trnsolver
