#pragma once
// The pairwise-order search of the planner: optimal (dynamic programming over operand subsets), greedy, and
// left-to-right, over label sets. Internal; tests include it to compare the optimum with brute force.

#include <bitset>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace trntensor::detail {

/// Labels are small integers (< kMaxLabels); a set of them is a bitset.
inline constexpr int kMaxLabels = 128;
using LabelSet = std::bitset<kMaxLabels>;

struct PathProblem {
  /// Label sets of the operands to combine (every label of an operand occurs in another operand or the output).
  std::vector<LabelSet> operands;
  LabelSet output;
  std::vector<std::int64_t> extents;
  /// Largest intermediate allowed, in elements (the last result is exempt).
  std::optional<std::int64_t> memory_limit;
};

/// A path: pairs of SSA ids (operands 0..n−1, results n, n+1, …) and its total FLOPs.
struct Path {
  std::vector<std::pair<int, int>> pairs;
  double flops = 0;
};

/// The product of the extents of `labels`, as a double (no overflow in the search).
double set_size(const LabelSet& labels, const std::vector<std::int64_t>& extents);
/// FLOPs of combining a and b when `needed` are the labels still needed afterwards: |a ∪ b| elements,
/// times 2 when some label is summed in the step (a multiply-add), else 1 (a product).
double pair_flops(const LabelSet& a, const LabelSet& b, const LabelSet& needed,
                  const std::vector<std::int64_t>& extents);
/// The cost of any complete path (pairs in SSA form); +inf when it breaks the memory limit.
double path_cost(const PathProblem& problem, const std::vector<std::pair<int, int>>& pairs);

/// The path of least total FLOPs within the memory limit (std::nullopt when none exists). O(3^n).
std::optional<Path> optimal_path(const PathProblem& problem);
/// Cheapest-pair-first (ties: the smaller result, then the lower ids); std::nullopt when stuck at the limit.
std::optional<Path> greedy_path(const PathProblem& problem);
/// ((0·1)·2)·…; std::nullopt when an intermediate exceeds the limit.
std::optional<Path> left_to_right_path(const PathProblem& problem);

}  // namespace trntensor::detail
