#pragma once
// The kernels of plan steps: the strided summation loop (reduce/finish), operands as GEMM matrices, and a
// contract step through trnblas or the direct product loop. Each returns its componentwise bound ε, relative
// to the same computation on absolute values (so steps compose as Π(1 + ε_s) − 1).

#include "operand.hpp"

#include <trntensor/plan.hpp>

#include <trnblas/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <string>
#include <vector>

namespace trntensor::detail {

/// γ_n = n·u/(1 − n·u) (Higham, ASNA §3.1); +inf when n·u ≥ 1.
double gamma(double n, double u);
/// The bound of out = alpha·s + beta·out after s: 0 when alpha = 1 and beta = 0, else (1 + u)³ − 1.
double output_stage_bound(bool trivial, double u);

/// out(result labels) = alpha·Σ_summed x + beta·out, summing in ascending index order in T.
/// @returns γ_{r−1}(u_T) composed with the output stage, r the number of summed terms.
template <class T>
double sum_into(const Operand<T>& x, const std::vector<int>& out_labels, const std::vector<int>& summed,
                TensorView<T> out, T alpha, T beta);

/// What a contract step reports.
struct StepOutcome {
  double bound = 0;
  /// Whether `bound` is a guarantee for this step (the GEMM reports' `certified`, AND over batch entries).
  bool certified = true;
  /// Why not, when !certified: the first failing GEMM report's uncertified_reason.
  std::string reason;
  std::string method;  // the GEMM's trajectory line, or "direct"
};

/// What a scan of values found: any inf/NaN, and the smallest nonzero magnitude (+inf when all are zero).
struct ValueScan {
  bool nonfinite = false;
  double smallest = 0;
};
template <class T>
ValueScan scan_values(TensorView<const T> v);

/// Runs a contract step. When `out` is non-null and can be addressed as [batch][m][n] with unit n stride,
/// writes alpha·result + beta·out there and returns an empty operand; else returns the result as a new
/// dense intermediate (alpha, beta unused).
template <class T>
Operand<T> run_contract(const PlanStep& step, const Operand<T>& a, const Operand<T>& b,
                        const std::vector<int>& out_labels, TensorView<T>* out, T alpha, T beta,
                        const trncore::Options& options, StepOutcome& outcome);

}  // namespace trntensor::detail
