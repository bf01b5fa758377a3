#pragma once
/// @file
/// Contraction plans: the pairwise order an einsum runs in, and how each step runs (GEMM through trnblas or
/// a direct kernel), with per-step FLOPs, intermediate sizes, backend and precision mode. A plan depends
/// only on the subscripts and the shapes, so one plan serves any number of executions on new data.

#include <trntensor/subscripts.hpp>
#include <trntensor/tensor.hpp>

#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trntensor {

/// How the pairwise order is searched.
enum class PathAlgorithm : std::uint8_t {
  automatic,      ///< optimal up to PlanOptions::optimal_limit operands, greedy beyond
  optimal,        ///< exhaustive: the order of least total FLOPs (dynamic programming over operand subsets)
  greedy,         ///< cheapest pair first, kept only if no worse than left_to_right (else left_to_right)
  left_to_right,  ///< ((op0·op1)·op2)·…, numpy's order without optimize
};

/// "automatic", "optimal", "greedy", "left_to_right". Never throws.
std::string_view to_string(PathAlgorithm algorithm) noexcept;

/// Options of einsum and of the planner: the suite's trncore::Options (backend, math mode, target, threads,
/// ...) plus how the contraction order is searched. One object per call; a plain trncore::Options converts
/// implicitly (the planner fields keep their defaults), so `einsum(s, ops, trncore::Options{}.with_threads(2))`
/// works. Every with_*() setter, trncore::Options's included (through trncore::OptionsFor), returns
/// PlanOptions&, so a chain keeps the planner fields.
struct PlanOptions : trncore::OptionsFor<PlanOptions> {
  using OptionsFor::OptionsFor;

  /// How the contraction order is searched (see PathAlgorithm).
  PathAlgorithm algorithm = PathAlgorithm::automatic;
  /// The largest operand count `automatic` searches exhaustively (the search costs 3^n).
  int optimal_limit = 8;
  /// When set, no intermediate tensor of the path may hold more elements (the final output is exempt).
  std::optional<std::int64_t> memory_limit;

  /// Sets algorithm = a; returns *this.
  PlanOptions& with_algorithm(PathAlgorithm a) {
    algorithm = a;
    return *this;
  }
  /// Sets optimal_limit = n; returns *this.
  PlanOptions& with_optimal_limit(int n) {
    optimal_limit = n;
    return *this;
  }
  /// Sets memory_limit = elements (the largest intermediate, in elements); returns *this.
  PlanOptions& with_memory_limit(std::int64_t elements) {
    memory_limit = elements;
    return *this;
  }
};

/// What a step does.
enum class StepKind : std::uint8_t {
  reduce,    ///< sum one operand over labels that occur nowhere else (traces, row sums)
  contract,  ///< combine two operands: batch × (m × k)·(k × n)
  finish,    ///< sum the last operand over labels not in the output, permute to the output order, α/β
};

/// How a contract step computes.
enum class StepMethod : std::uint8_t {
  gemm,    ///< (batched) GEMM through trnblas after transposing the operands into matrices where needed
  direct,  ///< elementwise product loop (no contracted label: Hadamard / outer products, host only)
  loop,    ///< the strided summation loop (reduce and finish steps)
};

/// One step of a plan. Operand ids: 0..n−1 are the einsum's operands, n, n+1, … the steps' results in order.
struct PlanStep {
  StepKind kind = StepKind::contract;    ///< reduce, contract or finish
  StepMethod method = StepMethod::gemm;  ///< how the step computes (gemm or direct for contract, loop otherwise)
  /// Consumed operands (one for reduce/finish, two for contract) and the produced id.
  std::vector<int> operands;
  int result = -1;  ///< the id of the step's result (n + step index)
  /// Labels of the result in storage order (for contract: batch, then m, then n).
  std::vector<int> result_labels;
  ///@{
  /// contract: the label groups; the GEMM is batch × (m × k)·(k × n). reduce/finish: `summed` only.
  std::vector<int> batch, m, n, k, summed;
  ///@}
  ///@{
  /// Extent products of the groups.
  std::int64_t batch_size = 1, m_size = 1, n_size = 1, k_size = 1;
  ///@}
  /// contract with k: 2·batch·m·n·k (a multiply-add counts 2); without k: batch·m·n products;
  /// reduce/finish: input size − output size additions.
  double flops = 0;
  /// Elements of the result.
  std::int64_t result_size = 0;
  /// Where the step runs: contract steps on the plan's backend; reduce/finish loops (and direct products) on
  /// the host in T, also in a sim plan (their VectorEngine cost is not modelled).
  trncore::Backend backend = trncore::Backend::host;
  /// The precision mode of this step's GEMMs (settable on a plan; see ContractionPlan::set_mode).
  trncore::MathMode mode = trncore::MathMode::automatic;
  /// True when the step writes the einsum's output directly (the last contract step, when the output's
  /// axis order is batch, m, n and nothing is left to sum).
  bool writes_output = false;
};

/// A reusable, inspectable contraction plan for one einsum expression and one set of operand shapes.
class ContractionPlan {
 public:
  /// Plans `subscripts` for operands of `shapes` (see parse_subscripts for the grammar and its errors).
  /// `options` fixes the backend and the default mode of every step (options.math_mode) and how the order is
  /// searched (algorithm, optimal_limit, memory_limit).
  /// @throws as parse_subscripts; trncore::InvalidArgument for invalid options or an optimal_limit outside
  ///         [1, 16]; trncore::ResourceExhausted when no path keeps every intermediate within memory_limit.
  ContractionPlan(std::string_view subscripts, std::span<const Shape> shapes, const PlanOptions& options = {});

  /// The parsed expression.
  const Subscripts& subscripts() const noexcept { return subs_; }
  /// The operand shapes the plan was made for.
  const std::vector<Shape>& shapes() const noexcept { return shapes_; }
  /// Every step in execution order: reduce steps, then contract steps, then one finish step.
  const std::vector<PlanStep>& steps() const noexcept { return steps_; }
  /// The contraction order as pairs of operand ids (numpy/opt_einsum "SSA" form).
  std::vector<std::pair<int, int>> path() const;
  /// The sum of the steps' FLOPs.
  double total_flops() const noexcept;
  /// The largest intermediate (a contract-step result other than the last), in elements; 0 if none.
  std::int64_t largest_intermediate() const noexcept;
  /// Which search produced the path (greedy falls back to left_to_right when that is cheaper).
  PathAlgorithm algorithm() const noexcept { return algorithm_; }
  /// The backend every step runs on.
  trncore::Backend backend() const noexcept { return backend_; }
  /// Sets the precision mode of contract step `step` (index into steps()).
  /// @throws trncore::InvalidArgument when `step` is not a contract step.
  void set_mode(std::size_t step, trncore::MathMode mode);
  /// A readable multi-line description: expression, algorithm, each step with its labels, GEMM shape,
  /// method, backend, mode, FLOPs and result size, and the totals.
  std::string to_string() const;

  /// out = alpha·einsum(operands) + beta·out, as einsum() documents. The operands must have the planned
  /// shapes; options.backend must be the planned backend (options.math_mode is ignored: each step uses its
  /// own mode). The report is the composed bound (componentwise, relative to the einsum of the operands'
  /// absolute values), certified / uncertified_reason (every GEMM step's trnblas report certified, finite
  /// operands, no product below the format's normal range, a finite result), met, and one trajectory line
  /// per step — the contract of docs/trncore.md, "Certificates".
  /// @throws trncore::DimensionMismatch for operands or an output of other shapes; trncore::InvalidArgument
  ///         for an output overlapping an operand, invalid options (out-of-range enums, threads < 0, a
  ///         target outside (0, 1)); trncore::TargetNotMet whenever met is false — the result is not
  ///         certified, or its bound exceeds options.target_forward_error; errors of trnblas::gemm.
  template <class T>
  void execute(std::span<const TensorView<const T>> operands, T alpha, T beta, TensorView<T> out,
               const trncore::Options& options = {}) const;

  /// execute that also returns the report (see above); never throws for a numerical outcome (met = false
  /// instead of TargetNotMet).
  template <class T>
  void execute(std::span<const TensorView<const T>> operands, T alpha, T beta, TensorView<T> out,
               const trncore::Options& options, trncore::AccuracyReport& report) const;

  /// The output shape.
  Shape output_shape() const;

 private:
  Subscripts subs_;
  std::vector<Shape> shapes_;
  std::vector<PlanStep> steps_;
  PathAlgorithm algorithm_ = PathAlgorithm::automatic;
  trncore::Backend backend_ = trncore::Backend::host;
};

}  // namespace trntensor
