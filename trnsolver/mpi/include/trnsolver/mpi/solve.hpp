#pragma once
/// @file
/// Distributed mixed-precision solve of A x = b over a P×Q process grid (docs/distributed.md, "trnsolver:
/// HPL-MxP and solve"): a right-looking block LU without pivoting of the block-cyclic A in fp32 (host
/// OpenBLAS sgemm trailing updates) or with bf16/fp32 TensorEngine trailing updates (sim backend), then
/// GMRES-IR in fp64 (Carson–Higham) with a distributed matrix-vector product and distributed triangular
/// solves with the low-precision factors as the preconditioner.
///
/// Reproducibility (docs/distributed.md): for a given block size nb the factors, every residual, every GMRES
/// iterate, the iteration counts, the solution and the report are the same bits for every grid P×Q and every
/// rank count — every BLAS call covers one global block (a diagonal block, a row block of L21, a column block
/// of U12, an nb×nb trailing tile), so no call's shape depends on the grid; every sum over blocks runs in
/// ascending global block order; the GMRES vectors are replicated on every rank, so their dot products and
/// norms are local loops. The host products go through OpenBLAS, whose kernels' rounding depends on the call
/// shape and on OpenBLAS's own thread count: the guarantee holds for one OpenBLAS build and
/// OPENBLAS_NUM_THREADS (the sim backend has no such dependence). The result is not the single-process
/// trnsolver::solve's bits (its LU calls one GEMM per step over the whole trailing matrix and its refinement sums
/// in OpenBLAS's dgemv/dtrsv order), but agrees with it within the residual bound of either.

#include <trnsolver/solve.hpp>

#include <trncore/mpi.hpp>

#include <cstdint>

namespace trnsolver::mpi {

using trncore::mpi::DistMatrix;
using trncore::mpi::ProcessGrid;

/// Solves A X = B for the distributed X (A n×n, B and X n×nrhs, block-cyclic on `grid`) with GMRES-IR on a
/// low-precision LU without pivoting, and reports what it achieved and what it certifies. Collective over
/// grid.comm().
///
/// Layout: A square blocks (mb = nb), rsrc = csrc = 0; B and X with A's row blocking (mb and rsrc equal to
/// A's), any column block size and csrc, X's layout equal to B's.
///
/// Strategy (the only one distributed): factor A in options.factor (unset: fp32 on the host, bf16 on sim)
/// without pivoting, x₀ = Â⁻¹b in fp64 with the factors, then GMRES-IR corrections (fp64 GMRES
/// preconditioned with the factors, fp64 residuals) with solve()'s stopping rules. There is no fp64 LU to
/// fall back to: a refinement that does not converge leaves the report uncertified (options.fallback is
/// ignored).
///
/// What the report holds: refinement, factor, residual (fp64), refinements, gmres_iterations, converged,
/// forward_error_estimate, backward_error_normwise, trajectory; with error bounds (options.error_bounds or a
/// target), also backward_error_componentwise, condition_estimate (Higham's estimator through Â⁻¹) and
/// forward_error_bound_normwise/componentwise: the residual bound ‖ |Â⁻¹|(|r̂| + δr) ‖ widened by
/// 1/(1 − μ), μ = 3·c·est‖ |Â⁻¹|·|L̂||Û|·1 ‖∞ as in the single-process solve. Not computed distributed (so
/// never part of the certificate): the double-double residual and its correction bound, the measured
/// distance ‖I − Â⁻¹A‖ and the GMRES inverse that the single-process solve uses when μ ≥ ½ — when μ ≥ ½ the
/// result is uncertified (the reason says so) and a target is not met. fallbacks is always 0.
/// With error bounds the LU's GEMMs are certified as trnblas::gemm certifies them (on the host its conditions —
/// no inf/NaN, no fp32 subnormal in C or in a product — are checked once per block and step, not per call; on
/// sim by trnblas); the estimator's solves make a certified solve about 2–3× HPL-MxP's uncertified one.
/// options.threads sets the sim GEMMs' worker threads; the host products run on OpenBLAS's own threads.
///
/// @returns report.info, always 0 here (as the single-process solve, info is the fp64 LU's, which does not run
///   distributed). A zero pivot of the low-precision LU leaves X unwritten and the report unconverged and
///   uncertified, the reason naming the pivot.
/// @throws trncore::InvalidArgument / DimensionMismatch on EVERY rank (trncore::mpi::CollectiveCheck,
///   before any other communication) for bad descriptors, n or nrhs differing between ranks, null local
///   data with a nonzero local size, X's local array overlapping A's or B's, non-finite entries, invalid
///   options (as trnsolver::solve);
///   trncore::NotSupported for options the distributed solve does not offer: pivoting = true (set
///   options.pivoting = false: there is no distributed pivoting, so A must not need it, e.g. diagonally
///   dominant), refinement lu_ir or fp64_lu, factor fp64, residual double_double;
///   trncore::mpi::CommunicationError when MPI fails.
/// Accuracy: as the report documents; report.met = certified && bound ≤ target.
/// Monitor: options.monitor (set on every rank, or on none: DimensionMismatch) is called on every rank after
/// every refinement step with ‖d‖∞/‖x̂‖∞, the same values everywhere; a stop asked on any rank stops every
/// rank (one collective per step), with the single-process solve's semantics (report uncertified, "stopped by
/// the monitor at refinement step N", stopped_by_monitor set; the bounds still computed).
std::int64_t solve(const ProcessGrid& grid, DistMatrix<const double> a, DistMatrix<const double> b,
                   DistMatrix<double> x, const SolveOptions& options, SolveReport& report);

/// As above without a report. @throws trncore::TargetNotMet (on every rank) whenever report.met would be
/// false: a zero pivot, a refinement that did not converge, bounds not computed (error_bounds = false
/// without a target), μ ≥ ½, or a certified bound above the target; plus the argument errors above.
void solve(const ProcessGrid& grid, DistMatrix<const double> a, DistMatrix<const double> b, DistMatrix<double> x,
           const SolveOptions& options = {});

}  // namespace trnsolver::mpi
