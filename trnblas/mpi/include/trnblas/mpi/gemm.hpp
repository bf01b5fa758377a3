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
/// local C. On a 1×1 grid with one panel, trnblas::gemm runs directly on the local arrays.
///
/// Types: float and double. Backends as trnblas::gemm: host (OpenBLAS; math mode automatic, or fp32/fp64
/// matching the data) and sim (every math mode trnblas::gemm's sim backend has: bf16, fp16, fp8_e4m3,
/// fp8_e5m2, tf32, fp32, sr, compensated, ozaki, automatic with or without a target).
///
/// Reproducibility contract (exactly when results are bitwise identical across grids P×Q, block sizes and
/// source processes; otherwise they agree within the reported bound):
/// - 1×1 grid, default panel: bitwise trnblas::gemm on the same arrays (the same call), report included.
/// - For a fixed panel width (default: the whole K), the result is bitwise the same for every grid whenever
///   each C element's local result depends only on its row of op(A), its column of op(B), alpha, beta and
///   its old value — i.e. not on which other rows and columns share the local call. The code guarantees
///   this for the sim backend in modes fp32, tf32, bf16, fp16, fp8_*, sr and compensated (per-row/column
///   power-of-two scaling and slicing, TensorEngine accumulation in ascending k, K chunks fixed by k; sr's
///   random word is keyed here by the element's GLOBAL index, as in the serial call) and in automatic
///   mode for float without a target (compensated). It holds for the host backend when OpenBLAS computes an
///   element in an order fixed by K alone: true of OpenBLAS 0.3.21's x86-64 (Haswell/Zen) kernels when each
///   local call runs on one thread (OPENBLAS_NUM_THREADS=1), which the tests check; OpenBLAS does not
///   promise it in general (its threaded driver splits K differently from the serial one).
/// - Not bitwise across grids: sim ozaki (and automatic for double without a target, which runs ozaki)
///   picks its slice count from the data of the whole local call, and automatic with a target falls back
///   per local call when a cheaper mode's bound is not certified for its data; then each rank's elements
///   meet that rank's bound, and the report's bound is the largest.
/// - With the default panel and the bitwise conditions above, the result equals the serial trnblas::gemm on
///   the global matrices bitwise, for every grid.
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
///         C's local array overlapping A's or B's, invalid options or panel < 0, or ranks passing different
///         alpha, beta, options or panel; trncore::DimensionMismatch when op(A), op(B) and C do not
///         conform (naming the shapes) or ranks pass different descriptors or ops; trncore::NotSupported
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
