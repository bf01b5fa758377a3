#pragma once
/// @file
/// The suite's one set of scalar traits: which scalar types are complex and what their real type is.

#include <complex>
#include <type_traits>

namespace trncore {

namespace detail {
template <class T>
struct RealType {
  using type = T;
};
template <class T>
struct RealType<std::complex<T>> {
  using type = T;
};
}  // namespace detail

/// The real type of a scalar: float for float and std::complex<float>, double for double and
/// std::complex<double> (the type of norms, of herk's alpha and beta, of an FFT's real input).
template <class T>
using real_type_t = typename detail::RealType<T>::type;

/// Whether T is a std::complex specialization.
template <class T>
inline constexpr bool is_complex_v = !std::is_same_v<T, real_type_t<T>>;

/// The complex type with the real type of T: std::complex<float> for float and std::complex<float>.
template <class T>
using complex_type_t = std::complex<real_type_t<T>>;

}  // namespace trncore
