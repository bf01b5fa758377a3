#pragma once
/// @file
/// BLAS option enums (BLAS++ style). Matrix storage order is trncore::Layout.

#include <trncore/scalar_traits.hpp>
#include <trncore/view.hpp>

#include <complex>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace trnblas {

using trncore::Layout;

/// The real type of a scalar (trncore::real_type_t): float for float and std::complex<float>, double for
/// double and std::complex<double> (the type of norms, of herk's alpha and beta, of rot's c and s).
template <class T>
using real_type = trncore::real_type_t<T>;

/// Whether T is std::complex<float> or std::complex<double> (trncore::is_complex_v).
using trncore::is_complex_v;

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
///@{
/// Parse to_string's names. @throws trncore::ParseError naming the text and the accepted names.
Op parse_op(std::string_view text);
Uplo parse_uplo(std::string_view text);
Diag parse_diag(std::string_view text);
Side parse_side(std::string_view text);
///@}

}  // namespace trnblas
