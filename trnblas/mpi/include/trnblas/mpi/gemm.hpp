#pragma once
/// @file
/// Distributed GEMM (SUMMA) over a P×Q process grid with ScaLAPACK-compatible block-cyclic descriptors:
/// C = alpha·op(A)·op(B) + beta·C, every local product computed by trnblas::gemm on the host (OpenBLAS) or
/// the sim backend in any of its math modes, with one composed AccuracyReport, identical on every rank
/// (docs/distributed.md, "trnblas::mpi::gemm").

#include <trnblas/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/mpi/block_cyclic.hpp>
#include <trncore/options.hpp>

#include <cstdint>

namespace trnblas::mpi {

/// The options of trnblas::mpi::gemm: every trncore::Options field, used exactly as trnblas::gemm uses it
/// (backend, math_mode, target_forward_error, generation, product, seed/stream of the sr mode, threads),
/// plus the K panel width. A plain trncore::Options converts implicitly (panel = 0).
struct GemmOptions : trncore::OptionsFor<GemmOptions> {
  using OptionsFor::OptionsFor;

  /// Width kb of the K panels C is accumulated over: C ← alpha·op(A)[:, K_1]·op(B)[K_1, :] + beta·C, then
  /// C ← alpha·op(A)[:, K_l]·op(B)[K_l, :] + C for the later panels K_l = [(l−1)·kb, min(l·kb, k)), one local
  /// trnblas::gemm per panel on each rank. 0 (the default) = one panel of the whole K: each rank gathers the
  /// full-K row panel of op(A) and column panel of op(B) its C blocks need and makes ONE local gemm call, so
  /// the result is trnblas::gemm's (see the reproducibility contract in gemm()). A finite kb bounds the
  /// working memory to kb·(local rows + local columns of C) elements per rank (classic SUMMA); the result
  /// then depends on kb, never on the grid (same conditions). Must be ≥ 0.
  std::int64_t panel = 0;

  /// Sets panel = kb; returns *this. Checked by gemm (kb ≥ 0).
  GemmOptions& with_panel(std::int64_t kb) {
    panel = kb;
    return *this;
  }
};

/// C = alpha·op(A)·op(B) + beta·C for distributed matrices on `grid`: op(A) m×k, op(B) k×n, C m×n, with
/// BLAS semantics (m = 0 or n = 0: nothing; k = 0 or alpha = 0: C = beta·C without reading A, B; beta = 0
/// does not read C). Collective over grid.comm(): every rank calls with its local parts.
///
/// Layout: C's descriptor drives. A and B may have any block sizes and source processes (they need not
/// match C's or each other's): the routine redistributes them. Each rank receives, by one all-to-all per
/// operand and K panel (messages of at most 2^30 elements: a panel is sent in several slabs when needed),
/// the rows of op(A) and the columns of op(B) that its C blocks need — the transposition of Op::trans /
/// Op::conj_trans (equal for real data) happens in that exchange, so every transa/transb combination is
/// supported — and then runs trnblas::gemm(col_major, no_trans, no_trans, …) on the gathered panels and its
/// local C (its own part is copied, not sent). An operand whose local array already is its working panel —
/// op = no_trans, the whole K on every rank (A on a P×1 grid, B on a 1×Q grid) and dealt like C along C's
/// index — is read in place without any exchange. On a 1×1 grid with one panel, trnblas::gemm runs directly
/// on the local arrays.
///
/// Types: float and double. Backends as trnblas::gemm: host (OpenBLAS; math mode automatic, or fp32/fp64
/// matching the data) and sim (every math mode trnblas::gemm's sim backend has: bf16, fp16, fp8_e4m3,
/// fp8_e5m2, tf32, fp32, sr, compensated, ozaki, automatic with or without a target).
///
/// Reproducibility contract — exactly when results are bitwise identical for every grid P×Q, block sizes and
/// source processes (for one panel width; otherwise they agree within the reported bound):
/// - 1×1 grid, default panel: this IS trnblas::gemm on the local arrays (the same call: result and report).
/// - sim backend in modes fp32, tf32, bf16, fp16, fp8_e4m3, fp8_e5m2, sr and compensated, and automatic for
///   float data without a target (which runs compensated): bitwise identical across grids, and with the
///   default panel bitwise equal to the serial trnblas::gemm on the global matrices. The code guarantees it:
///   each C element's local result depends only on its row of op(A), its column of op(B), alpha, beta and its
///   old value (per-row/column power-of-two scaling and slicing, TensorEngine accumulation in ascending k,
///   K chunks fixed by k, the output stage per element; sr's random word is keyed by the element's GLOBAL
///   row-major index i·n + j — plus l·m·n for panel l — as in the serial call), never on which other rows and
///   columns share its local call, nor on options.threads.
/// - sim ozaki, automatic for double without a target (ozaki), and automatic with a target: within the bound
///   only. Ozaki picks its slice count from the data of the whole local call, and automatic with a target
///   falls back to the next mode per local call when a cheaper mode's bound is not certified for that call's
///   data; each rank's elements then meet that rank's bound, and the report's bound is the largest.
/// - host backend, grids beyond 1×1: within the bound only. OpenBLAS's micro-kernels compute the edge rows
///   and columns of their register tiles in another order than the interior, so an element's last bits
///   depend on where it falls in the local block (seen with OpenBLAS 0.3.21's Haswell kernels on one thread).
///
/// Accuracy (componentwise, relative to |alpha||op(A)||op(B)| + |beta||C|): each local call l certifies
/// ε_l (trnblas::gemm's bound for its backend and mode; with kb, for k = kb). Panels accumulate exactly as
/// the proof of the report composes them: 1 + δ = Π_l (1 + ε_l), δ rounded upward, so one panel gives
/// δ = ε_1 and the host gives ≈ (k + 2L)·u for L panels. A target_forward_error t is split over the L panels
/// for the local mode choice ((1 + t)^(1/L) − 1 each) and judged on δ. The report is the same on every rank:
/// a_priori_bound = the largest δ over ranks; certified only if every local call on every rank certified
/// its bound (uncertified_reason names the first failing rank and panel); the trajectory lists the SUMMA
/// step and the local methods (with the ranks that ran each, when they differ); on sim, cost is the modelled
/// cost of the busiest rank's NeuronCore (the ranks run in parallel; communication is not modelled).
///
/// Validation (one trncore::mpi::CollectiveCheck before any other communication, so bad input gives the
/// same exception on every rank, never a hang):
/// @throws trncore::InvalidArgument for an invalid transa/transb, a bad descriptor (negative size, block
///         size < 1, source outside the grid), lld below the local rows, a null local array with elements,
///         C's local array overlapping A's or B's, invalid options or panel < 0; trncore::DimensionMismatch
///         when op(A), op(B) and C do not conform (naming the shapes), or when ranks disagree about a value
///         that must be the same everywhere (descriptors' m, n, mb, nb, rsrc, csrc; transa, transb; the bits of
///         alpha and beta; backend, math_mode, target, generation, product, seed, stream, panel — the message
///         names each rank's value; options.threads may differ); trncore::NotSupported
///         for a math mode the backend lacks (host: anything but automatic or the data's precision; sim:
///         fp64) or local sizes beyond OpenBLAS's 32-bit integers; trncore::TargetNotMet (this overload)
///         whenever the report overload would return met = false — on every rank, C then holds the
///         computed, uncertified result; trncore::mpi::CommunicationError when MPI fails.
void gemm(const trncore::mpi::ProcessGrid& grid, Op transa, Op transb, float alpha,
          trncore::mpi::DistMatrix<const float> a, trncore::mpi::DistMatrix<const float> b, float beta,
          trncore::mpi::DistMatrix<float> c, const GemmOptions& options = {});
/// The double overload of gemm() above.
void gemm(const trncore::mpi::ProcessGrid& grid, Op transa, Op transb, double alpha,
          trncore::mpi::DistMatrix<const double> a, trncore::mpi::DistMatrix<const double> b, double beta,
          trncore::mpi::DistMatrix<double> c, const GemmOptions& options = {});

/// gemm() that also fills `report` with the composed certificate (identical on every rank; see gemm()
/// above for its fields). Never throws for a numerical outcome. @throws as gemm() above, except
/// TargetNotMet.
void gemm(const trncore::mpi::ProcessGrid& grid, Op transa, Op transb, float alpha,
          trncore::mpi::DistMatrix<const float> a, trncore::mpi::DistMatrix<const float> b, float beta,
          trncore::mpi::DistMatrix<float> c, const GemmOptions& options, trncore::AccuracyReport& report);
/// The double overload of the report form above.
void gemm(const trncore::mpi::ProcessGrid& grid, Op transa, Op transb, double alpha,
          trncore::mpi::DistMatrix<const double> a, trncore::mpi::DistMatrix<const double> b, double beta,
          trncore::mpi::DistMatrix<double> c, const GemmOptions& options, trncore::AccuracyReport& report);

}  // namespace trnblas::mpi
