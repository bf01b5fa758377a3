#pragma once
/// @file
/// numpy.einsum subscripts, parsed against the operands' shapes into integer labels.

#include <trntensor/tensor.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace trntensor {

/// A parsed einsum expression. Labels are small integers; `names[label]` is the letter ("i") or, for an
/// axis covered by an ellipsis, "…k" with k counting the broadcast axes from the left.
struct Subscripts {
  /// For each operand, the label of each of its axes (a label repeated within one operand takes its
  /// diagonal).
  std::vector<std::vector<int>> inputs;
  /// The label of each output axis (distinct).
  std::vector<int> output;
  /// The extent of each label over all operands (an extent of 1 broadcasts against any other).
  std::vector<std::int64_t> extents;
  /// The printable name of each label.
  std::vector<std::string> names;
  /// Whether the expression had "->" (otherwise the output follows numpy's implicit rule).
  bool explicit_output = false;

  /// The expression in normal form, e.g. "ij,jk->ik" (ellipsis axes print as their names).
  std::string to_string() const;
};

/// Parses numpy.einsum subscripts for operands of the given shapes.
///
/// Grammar and semantics are numpy's: comma-separated terms of letters a–z, A–Z and at most one "..." each,
/// optionally "->" and an output term; spaces are ignored. A letter repeated in one term takes the diagonal
/// (its extents there must be equal); a letter absent from the output is summed; "..." stands for the
/// axes not named by letters, aligned from the right across operands and broadcast (extent 1 against n).
/// Letter axes broadcast in the same way. Implicit output (no "->"): the broadcast axes, then the letters
/// that occur exactly once, in ASCII order (upper case before lower case, as numpy). With an explicit output
/// that omits "...", the broadcast axes are summed.
/// @throws trncore::ParseError (line 1, the 1-based column) for a character outside the grammar, a second
///         or malformed ellipsis, a second "->", an output letter that is repeated or appears in no input, or
///         a number of terms different from the number of operands; trncore::DimensionMismatch for a term
///         with more letters than its operand's rank (or fewer, without "..."), unequal extents of a
///         repeated letter in one operand, or extents of one label that are neither equal nor 1.
Subscripts parse_subscripts(std::string_view subscripts, std::span<const Shape> operand_shapes);

}  // namespace trntensor
