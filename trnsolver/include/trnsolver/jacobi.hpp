#pragma once
/// @file
/// The symmetric eigensolvers of the sim backend (cyclic Jacobi below; the Householder-tridiagonal + QL
/// path at the end of the file). Jacobi: cyclic two-sided Jacobi with a round-robin ordering in
/// which every round rotates n/2 disjoint pairs at once (the parallel work a NeuronCore's VectorEngine
/// does across partitions) and every sweep visits every pair exactly once.
///
/// On the host it runs in the input type; on the sim backend in fp32 with every operation rounded on its
/// own (the VectorEngine's arithmetic), counting the modelled engine work. With the relative skipping
/// test |a_pq| ≤ tol·√(|a_pp a_qq|) it computes the eigenvalues of scaled diagonally dominant (graded)
/// matrices to high relative accuracy (Demmel and Veselić, "Jacobi's method is more accurate than QR",
/// SIAM J. Matrix Anal. Appl. 13 (1992) 1204–1245), where a tridiagonal-QR solver (LAPACK syevd) only
/// reaches an absolute error of u·‖A‖.

#include <trncore/options.hpp>
#include <trncore/sim/engine_stats.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace trnsolver {

/// The pairs of one round of the round-robin ("circle method") schedule for n indices: rounds[r] holds
/// ⌊n/2⌋ disjoint pairs (p < q); over the n − 1 rounds (n even; n rounds for odd n, one index resting
/// each round) every pair appears exactly once. @throws trncore::InvalidArgument for n < 0.
std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> jacobi_schedule(std::int64_t n);

/// Options of eigh_jacobi and eigh_tridiagonal_ql. The trncore::Options base (through trncore::OptionsFor: with_*()
/// setters return this struct, a plain Options converts): backend (host: arithmetic in the input type; sim: fp32
/// VectorEngine arithmetic with engine counters), threads (rounds are split over threads; the result never depends on
/// the count), generation, monitor (eigh_jacobi: once per sweep).
struct JacobiOptions : trncore::OptionsFor<JacobiOptions> {
  using OptionsFor::OptionsFor;
  /// A rotation is skipped when |a_pq| ≤ tolerance·√(|a_pp·a_qq|); 0 = the working precision's unit
  /// roundoff (2^-53, or 2^-24 for float and on sim).
  double tolerance = 0.0;
  /// Sweeps at most (≥ 1); not converging within them is reported, not thrown.
  int max_sweeps = 40;
  /// Compute the eigenvectors into V (false: eigenvalues only).
  bool vectors = true;
};

/// What eigh_jacobi did.
struct JacobiResult {
  std::int64_t sweeps = 0;     ///< sweeps run (the last one rotated nothing when converged)
  std::int64_t rotations = 0;  ///< rotations applied over all sweeps
  bool converged = false;      ///< a full sweep skipped every pair
  /// options.monitor asked to stop after sweep `sweeps` (converged is then false; see eigh_jacobi).
  bool stopped_by_monitor = false;
  /// off(A)/‖A‖_F after each sweep, off(A) = ‖A − diag(A)‖_F.
  std::vector<double> off_history;
  /// Modelled NeuronCore work (sim backend only).
  std::optional<trncore::sim::CostReport> cost;
};

/// Eigenvalues (ascending, into w[0..n)) and optionally eigenvectors (columns of V, in `layout` with
/// leading dimension ldv) of the symmetric n×n matrix A (its lower and upper triangles must agree; only the
/// lower one is read). T is float or double.
/// Accuracy: backward error ‖A − VΛVᵀ‖ ≲ c·n·u·‖A‖ with orthogonality ‖VᵀV − I‖ ≲ c·n·u (u of the working
/// precision), and relative accuracy of every eigenvalue for graded A = D·H·D (H with unit diagonal):
/// |λ̂ − λ| ≲ c·n·u·κ(H)·|λ| (Demmel–Veselić). Not converging within max_sweeps is reported (converged =
/// false), not thrown.
/// Monitor: options.monitor, when set, is called after every sweep with the sweep count (from 1) and
/// off(A)/‖A‖_F after it (the off_history entry); when it asks to stop (and the sweep rotated something),
/// eigh_jacobi returns the current diagonal as w (ascending) and the current rotations' product as V — an
/// approximate eigendecomposition whose eigenvalues are within off(A) of A's (Weyl) — with converged = false
/// and stopped_by_monitor = true.
/// @throws trncore::InvalidArgument for n < 0, lda/ldv below n, null pointers with n > 0, non-finite
///         entries, max_sweeps < 1 or a negative tolerance, invalid options (negative threads) and
///         layout or backend values outside their enumerators; trncore::NotSupported for a
///         target_forward_error (no certificate is produced: the accuracy statement below is fixed).
template <class T>
JacobiResult eigh_jacobi(trncore::Layout layout, std::int64_t n, const T* a, std::int64_t lda, T* w, T* v,
                         std::int64_t ldv, const JacobiOptions& options = {});

/// What the Householder-tridiagonal + implicit QL path did.
struct TridiagonalResult {
  std::int64_t iterations = 0;                   ///< QL sweeps over all eigenvalues
  bool converged = false;                        ///< every eigenvalue deflated within 30·n sweeps
  std::optional<trncore::sim::CostReport> cost;  ///< modelled NeuronCore work (sim backend only)
};

/// The scalable symmetric eigensolver path: Householder reduction to tridiagonal form (each step one
/// matrix-vector product and one symmetric rank-2 update of the trailing matrix), implicit QL iterations with
/// Wilkinson-type shifts on the tridiagonal (Givens rotations accumulated into the eigenvectors), and the back
/// transformation by the stored reflectors. Same arguments, arithmetic (host: T; sim: fp32 with every
/// operation rounded, engine counters) and ordering of results as eigh_jacobi. O(n³) once, where Jacobi pays
/// O(n³) per sweep.
/// Accuracy: backward stable, |λ̂ − λ| ≲ c·n·u·‖A‖₂, ‖VᵀV − I‖ ≲ c·n·u (Golub–Van Loan §8.3); absolute, not
/// relative, accuracy for small eigenvalues (use eigh_jacobi for graded matrices).
/// @throws as eigh_jacobi (JacobiOptions.tolerance and max_sweeps are not used).
template <class T>
TridiagonalResult eigh_tridiagonal_ql(trncore::Layout layout, std::int64_t n, const T* a, std::int64_t lda, T* w, T* v,
                                      std::int64_t ldv, const JacobiOptions& options = {});

}  // namespace trnsolver
