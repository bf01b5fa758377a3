#pragma once
/// @file
/// Integral screening for quantum chemistry and sparsity statistics (docs/trnsparse.md §Screening).
///
/// Notation: n basis functions (or shells), pair index (i, j). The Schwarz (Cauchy–Schwarz) inequality
/// for the positive semidefinite electron-repulsion "matrix" indexed by pairs gives
/// |(ij|kl)| ≤ Q_ij·Q_kl with Q_ij = √(ij|ij) (Häser & Ahlrichs, J. Comput. Chem. 10, 104 (1989)).
/// Every screen here drops only what that bound proves small, so it is rigorous: a dropped quartet has
/// |(ij|kl)| ≤ τ (density-weighted: |(ij|kl)·D_kl| ≤ τ).

#include <trnsparse/formats.hpp>

#include <trncore/options.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace trnsparse {

/// Schwarz factors Q_ij = √(ij|ij) from the n×n row-major array of diagonal integrals (ij|ij).
/// @throws trncore::InvalidArgument for n < 0, a wrong length, or an entry that is negative (beyond
///         rounding, < −1e-14·max) or not finite; tiny negative rounding noise is clamped to 0.
std::vector<double> schwarz_bounds(std::int64_t n, std::span<const double> diagonal_integrals);

/// What a quartet screen keeps.
struct ScreeningStats {
  std::int64_t pairs = 0;              ///< pairs (i, j) considered: n²
  std::int64_t significant_pairs = 0;  ///< pairs that survive against the largest partner: Q_ij·Q_max > τ
  std::int64_t quartets = 0;           ///< quartets considered: pairs²
  std::int64_t kept_quartets = 0;      ///< quartets with Q_ij·Q_kl > τ
  double kept_fraction = 0;            ///< kept_quartets / quartets (0 when there are none)
  /// One line, e.g. "1200 of 4096 quartets kept (29.3%), 40 of 64 pairs significant".
  std::string to_string() const;
};

/// Rigorous quartet screening: counts the quartets (ij|kl) with Q_ij·Q_kl > τ (kept), over all ordered
/// pair pairs, in O(n² log n) by sorting Q.
/// @throws trncore::InvalidArgument for a Q of the wrong length (n²), negative/NaN entries, or τ < 0/NaN.
ScreeningStats quartet_screening(std::int64_t n, std::span<const double> q, double tau);

/// The pairs (i, j) that can contribute above τ to any quartet, Q_ij·Q_max > τ, as an n×n CSR pattern
/// whose values are Q_ij. @throws as quartet_screening.
Csr<double, std::int64_t> significant_pairs(std::int64_t n, std::span<const double> q, double tau);

/// Density-weighted screening (for Coulomb-like contractions J_ij = Σ_kl (ij|kl)·D_kl): keeps quartet
/// (ij|kl) when Q_ij·Q_kl·|D_kl| > τ. Returns the counts as quartet_screening does.
/// @throws as quartet_screening, and when D is not n×n or has NaN.
ScreeningStats density_weighted_screening(std::int64_t n, std::span<const double> q, std::span<const double> density,
                                          double tau);

/// Result of screened_spmm.
struct ScreenedProductReport {
  std::int64_t kept_entries = 0;     ///< entries of A used
  std::int64_t dropped_entries = 0;  ///< entries of A skipped because |a_ij|·‖B(j,:)‖∞ ≤ τ
  double max_row_dropped_bound = 0;  ///< max_i Σ_dropped |a_ij|·‖B(j,:)‖∞: a rigorous bound on |C − C_full|
};

/// C = A·B (A sparse m×k, B dense row-major k×n, C m×n, ld ≥ n) skipping every entry a_ij whose largest
/// possible contribution |a_ij|·‖B(j,:)‖∞ ≤ τ. Each element of C then differs from the full product by
/// at most that row's sum of skipped contributions (reported), plus the rounding of spmm. The product is
/// the host CSR spmm on options.threads (bitwise identical for every thread count).
/// @throws trncore::InvalidArgument for an invalid A, τ < 0/NaN, bad dense arguments, invalid options;
///         trncore::NotSupported for options.backend = sim or a math_mode other than T's precision;
///         trncore::DimensionMismatch for short spans.
template <class T, class I>
ScreenedProductReport screened_spmm(const Csr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb,
                                    std::span<T> c, std::int64_t ldc, double tau, const trncore::Options& options = {});

/// Sparsity statistics of a matrix.
struct SparsityStats {
  ///@{
  /// The shape and the number of stored entries (duplicates and explicit zeros count).
  std::int64_t rows = 0, cols = 0, nonzeros = 0;
  ///@}
  double density = 0;           ///< nonzeros / (rows·cols), 0 for an empty shape
  std::int64_t empty_rows = 0;  ///< rows without a stored entry
  ///@{
  /// The fewest and most stored entries in one row.
  std::int64_t min_row_nonzeros = 0, max_row_nonzeros = 0;
  ///@}
  double mean_row_nonzeros = 0;  ///< nonzeros / rows (0 without rows)
  std::int64_t bandwidth = 0;    ///< max |i − j| over stored entries
  /// One line, e.g. "100x100, 460 nonzeros (4.6%), rows 2..5 (mean 4.6), 0 empty, bandwidth 10".
  std::string to_string() const;
};

/// Statistics of `a` as stored (duplicates count). @throws trncore::InvalidArgument for an invalid `a`.
template <class T, class I>
SparsityStats sparsity_stats(const Csr<T, I>& a);

}  // namespace trnsparse
