#pragma once
/// @file
/// einsum with numpy semantics, executed by an optimising contraction plan (<trntensor/plan.hpp>), and
/// multi_einsum for batches of contractions.
///
/// Accuracy (every overload): with the default options the host backend computes in T (fp64 for double)
/// with the bound ε = Π_s(1 + ε_s) − 1 over the plan's steps, componentwise relative to the einsum of the
/// operands' absolute values: |Ŷ − Y| ≤ ε·(|α|·einsum(|A|, |B|, …) + |β|·|Y₀|). ε_s is trnblas's GEMM
/// bound for the step's K (host: γ_{K+2}; sim: the step's math mode, docs/trnblas-sim.md), γ_{r−1} for a
/// summation of r terms, u for a direct product. With options.target_forward_error the GEMM steps share the
/// target (each gets (1 + target)^(1/G) after the fixed parts), the sim backend picks the cheapest mode per
/// step meeting it, and the report overloads return the composed bound and each step's method.

#include <trntensor/plan.hpp>
#include <trntensor/tensor.hpp>

#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace trntensor {

/// Returns einsum(subscripts, operands) as a new tensor (numpy.einsum semantics; parse_subscripts).
/// T: float or double. options: the suite's options (backend host or sim; math_mode is every step's mode;
/// target_forward_error; threads) and the planner's (algorithm, optimal_limit, memory_limit); a plain
/// trncore::Options converts.
/// @throws trncore::ParseError / DimensionMismatch as parse_subscripts; trncore::InvalidArgument for no
///         operands or invalid options (out-of-range enums, threads < 0); trncore::TargetNotMet whenever
///         the result is not certified (NaN/Inf operands, products below the normal range, an uncertified
///         GEMM step, overflow) or its bound exceeds the target (docs/trncore.md, "Certificates");
///         trncore::ResourceExhausted when options.memory_limit cannot be kept; trnblas::gemm's errors (e.g.
///         NotSupported for a reduced-precision mode on the host).
template <class T>
Tensor<T> einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands,
                 const PlanOptions& options = {});

/// einsum that also returns the bound, whether it is certified (and why not), whether a target was met
/// (no TargetNotMet is thrown: numerical outcomes are report values) and one trajectory line per plan step.
template <class T>
Tensor<T> einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands, const PlanOptions& options,
                 trncore::AccuracyReport& report);

/// out = alpha·einsum(subscripts, operands) + beta·out (beta = 0 does not read out).
/// @throws as above, and DimensionMismatch when out's shape is not the einsum's; InvalidArgument when out
///         shares storage with an operand or addresses one element from several indices.
template <class T>
void einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands, T alpha, T beta,
            TensorView<T> out, const PlanOptions& options = {});

/// out = alpha·einsum(subscripts, operands) + beta·out with the report (as the report overload above).
template <class T>
void einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands, T alpha, T beta,
            TensorView<T> out, const PlanOptions& options, trncore::AccuracyReport& report);

/// Convenience: einsum("ij,jk->ik", a, b) with default options; operands are Tensor<T> or TensorView<(const) T>.
template <class T, class... More>
Tensor<T> einsum(std::string_view subscripts, const Tensor<T>& first, const More&... more) {
  const TensorView<const T> ops[] = {first.view(), TensorView<const T>(more)...};
  return einsum<T>(subscripts, std::span<const TensorView<const T>>(ops), PlanOptions{});
}

/// One contraction of a multi_einsum batch.
template <class T>
struct EinsumTask {
  std::string subscripts;                     ///< the einsum subscripts, e.g. "ij,jk->ik"
  std::vector<TensorView<const T>> operands;  ///< one view per input term of subscripts
};

/// Runs every task and returns the results in order. Tasks with the same subscripts and operand shapes form
/// a homogeneous group that runs as one einsum with an extra batch label over the stacked operands: one plan,
/// and every GEMM step of it one batched GEMM over the group. Accuracy per task as einsum.
/// @throws as einsum, naming the first failing task's index in the message of an InvalidArgument when the
///         tasks themselves are malformed.
template <class T>
std::vector<Tensor<T>> multi_einsum(std::span<const EinsumTask<T>> tasks, const PlanOptions& options = {});

}  // namespace trntensor
