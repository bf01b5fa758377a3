#pragma once
/// @file
/// BLAS option enums (BLAS++ style). Matrix storage order is trncore::Layout.

#include <trncore/view.hpp>

#include <cstdint>
#include <string_view>

namespace trnblas {

using trncore::Layout;

/// op(X) = X, Xᵀ or Xᴴ (conj_trans equals trans for real types).
enum class Op : std::uint8_t { no_trans, trans, conj_trans };
/// Which triangle of a symmetric/Hermitian/triangular matrix is referenced.
enum class Uplo : std::uint8_t { upper, lower };
/// Whether a triangular matrix has an implicit unit diagonal.
enum class Diag : std::uint8_t { non_unit, unit };
/// Whether the special matrix multiplies from the left or the right.
enum class Side : std::uint8_t { left, right };

/// "no_trans", "trans", "conj_trans". Never throws.
std::string_view to_string(Op op) noexcept;
/// "upper", "lower". Never throws.
std::string_view to_string(Uplo uplo) noexcept;
/// "non_unit", "unit". Never throws.
std::string_view to_string(Diag diag) noexcept;
/// "left", "right". Never throws.
std::string_view to_string(Side side) noexcept;
/// Parse to_string's names. @throws trncore::ParseError naming the text and the accepted names.
Op parse_op(std::string_view text);
Uplo parse_uplo(std::string_view text);
Diag parse_diag(std::string_view text);
Side parse_side(std::string_view text);

}  // namespace trnblas
