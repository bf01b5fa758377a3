#pragma once
// Pieces every randomized routine shares: argument checks with the suite's message format, the host
// options for the small dense steps, orthonormalisation, and the block products with an operator that
// check what a callback returned.
#include <trnsolver/randomized.hpp>

#include <trncore/detail/checks.hpp>
#include <trncore/error.hpp>
#include <trncore/sim/engine_stats.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trnsolver::randomized_detail {

/// "trnsolver::<name>".
std::string qualified(std::string_view name);

/// Throws InvalidArgument naming the first non-finite entry (i, j) of the dense matrix.
template <class T>
void require_finite(trncore::MatrixView<const T> a, std::string_view function);

/// Throws InvalidArgument when a product with the operator returned a non-finite value.
template <class T>
void require_finite_output(const DenseMatrix<T>& y, std::string_view function, std::string_view product);

/// Throws InvalidArgument for an invalid sketch (nonzeros_per_row < 1) or invalid core options; NotSupported
/// for a target_forward_error (randomized results carry probabilistic bounds, not certified ones).
void check_common(const Sketch& sketch, const trncore::Options& core, std::string_view function);

/// check_common plus rsvd's own options: oversampling and power iterations ≥ 0, refine_math_mode only on
/// sim. @throws InvalidArgument naming the values.
void check_rsvd_options(const RsvdOptions& options, std::string_view function);

/// The options of the small O((m + n)·l²) steps: host backend, T's precision, the caller's threads.
trncore::Options host_options(const trncore::Options& core);

/// Accumulates the modelled engine work of the sim GEMMs a routine runs (nothing on the host).
class CostLedger {
 public:
  explicit CostLedger(const trncore::Options& core) : core_(core) {}
  /// C (m×n, ld m) = alpha·op(A)·op(B) + beta·C, column-major, under the caller's options; sim runs add
  /// their engine statistics.
  template <class T>
  void gemm(Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a, std::int64_t lda,
            const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc);
  /// The estimate of everything recorded (unset on the host backend).
  std::optional<trncore::sim::CostReport> report() const;
  const trncore::Options& options() const noexcept { return core_; }
  /// Later GEMMs run in `mode` (the refinement step of rsvd on sim).
  void set_math_mode(trncore::MathMode mode) noexcept { core_.math_mode = mode; }

 private:
  trncore::Options core_;
  trncore::sim::EngineStats stats_{};
  bool any_ = false;
};

/// Overwrites the column-major rows×cols y (rows ≥ cols) by the Q of its Householder QR (geqrf + orgqr):
/// orthonormal columns to O(u) regardless of y's conditioning (Higham ASNA Thm 19.4).
template <class T>
void orthonormalize(DenseMatrix<T>& y, const trncore::Options& core);

/// y −= Q·(Qᵀ·y), twice (classical Gram–Schmidt with reorthogonalisation: "twice is enough", Giraud et al.
/// 2005), for column-major Q rows×c and y rows×b.
template <class T>
void project_off(const DenseMatrix<T>& q, DenseMatrix<T>& y, const trncore::Options& core);

/// A·x (x cols×b) or, with `transpose`, Aᵀ·x (x rows×b), column-major; counts b matvecs; checks the
/// output is finite (InvalidArgument naming the product otherwise).
template <class T>
DenseMatrix<T> apply(const MatrixOperator<T>& a, const DenseMatrix<T>& x, std::int64_t& matvecs,
                     std::string_view function, bool transpose = false);
template <class T>
DenseMatrix<T> apply_transpose(const MatrixOperator<T>& a, const DenseMatrix<T>& x, std::int64_t& matvecs,
                               std::string_view function) {
  return apply(a, x, matvecs, function, true);
}

}  // namespace trnsolver::randomized_detail
