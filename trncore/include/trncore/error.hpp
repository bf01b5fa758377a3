#pragma once
/// @file
/// The suite's one exception hierarchy (DESIGN.md §5.3).
///
/// Every message reads "<function>: <what is wrong, with the values>: <what to do>", so a user who sees
/// only what() knows which call failed, why, and how to fix it. Numerical outcomes (a singular pivot,
/// non-convergence) are results, never exceptions.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace trncore {

/// Root of every exception a trnsci library throws on bad input or an unmet request.
class Error : public std::runtime_error {
 public:
  /// @param function  the public function that detected the problem, e.g. "trnblas::gemm"
  /// @param problem   what is wrong, naming the offending sizes or values
  /// @param hint      what the caller can do about it
  Error(std::string_view function, std::string_view problem, std::string_view hint);

  /// The public function that threw.
  const std::string& function() const noexcept { return function_; }
  /// What was wrong, without the function name and hint.
  const std::string& problem() const noexcept { return problem_; }
  /// What the caller can do about it.
  const std::string& hint() const noexcept { return hint_; }

 private:
  std::string function_;
  std::string problem_;
  std::string hint_;
};

/// An argument is outside its domain (negative size, null pointer with nonzero size, bad enum value).
class InvalidArgument : public Error {
  using Error::Error;
};

/// Operand shapes do not agree (inner dimensions, leading dimension smaller than the row length, ...).
class DimensionMismatch : public Error {
  using Error::Error;
};

/// A modelled or real resource is too small: SBUF/PSUM capacity, partition count, memory.
class ResourceExhausted : public Error {
  using Error::Error;
};

/// The combination of options is valid but not implemented on this backend or format.
class NotSupported : public Error {
  using Error::Error;
};

/// A requested target_forward_error cannot be certified by any available method.
class TargetNotMet : public Error {
  using Error::Error;
};

/// Malformed text input (Matrix Market file, einsum subscripts, option string).
class ParseError : public Error {
 public:
  /// @param function  the public function that detected the problem, e.g. "trnsparse::read_matrix_market"
  /// @param problem   what is wrong with the input, quoting the offending text where it helps
  /// @param hint      what the caller can do about it
  /// @param line    1-based line of the offending input (0 when the input has no lines)
  /// @param column  1-based column of the offending input
  ParseError(std::string_view function, std::string_view problem, std::string_view hint, std::int64_t line,
             std::int64_t column);

  /// 1-based line of the offending input (0 when the input has no lines, e.g. einsum subscripts).
  std::int64_t line() const noexcept { return line_; }
  /// 1-based column of the offending input on that line.
  std::int64_t column() const noexcept { return column_; }

 private:
  std::int64_t line_;
  std::int64_t column_;
};

/// A file or stream could not be opened, read or written.
class IoError : public Error {
  using Error::Error;
};

}  // namespace trncore
