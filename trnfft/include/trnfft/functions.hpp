#pragma once
/// @file
/// numpy.fft's functions with numpy's semantics: fft, ifft, rfft, irfft, fft2, ifft2, rfft2, irfft2,
/// fftn, ifftn, rfftn, irfftn, hfft, ihfft, fftfreq, rfftfreq, fftshift, ifftshift.
///
/// Conventions (docs/trnfft.md, "numpy correspondence"):
/// - Data: 1-D functions take any contiguous range (std::vector, std::span, std::array) of float,
///   double, std::complex<float> or std::complex<double>, or a trncore::VectorView<const E>, and return a
///   std::vector. N-D functions take the data with its row-major (C-order) `shape`, or an Array (a
///   trncore::Tensor), or a trncore::TensorView of any strides, or for the 2-D functions a
///   trncore::MatrixView<const E> (any layout and ld), and return an Array (row-major trncore::Tensor).
///   The input is never modified. Real input to a complex transform is taken with zero imaginary part;
///   rfft/rfftn/ihfft take real input only.
/// - Sizes and axes: `n` (1-D) and `s` (N-D) are numpy's n and s: the input is zero-padded or truncated
///   along each transformed axis to that length before the transform (for irfft/irfftn the last axis
///   to n/2 + 1 complex points, the output having n real points). Without n/s the input's lengths are used,
///   except for irfft/irfftn/hfft, whose output length is 2·(m − 1) for m input points. `axes` are
///   numpy's axes (negative counts from the end). An empty vector means numpy's None; with s given and
///   axes empty, the last s.size() axes are transformed. Repeated axes are rejected (numpy applies them
///   twice; transform twice explicitly instead).
/// - Normalisation: Norm::backward (numpy's default) leaves forward transforms unscaled and scales inverse
///   ones by 1/N; ortho scales both by 1/√N; forward scales forward ones by 1/N. N is the product of the
///   transformed lengths (for real transforms, the real lengths). Forward transforms use exp(−2πi·jk/N).
///   hfft(a, n, norm) = irfft(conj(a), n) with the norm's direction swapped; ihfft(a, n, norm) =
///   conj(rfft(a, n)) with the norm's direction swapped (numpy's definitions).
/// - Each call plans with Rigor::estimate on its own buffers and executes once; for repeated transforms
///   of one shape, plans (plan.hpp) avoid the planning and allocation.
/// - Accuracy: normwise ‖ŷ − y‖₂ ≤ (c·log2 N + 1)·u·‖y‖₂, c small (plan.hpp); the scaling adds one rounding.
/// - Options: a trncore::Options, as for plans (plan.hpp): host (FFTW; math_mode automatic or the data's
///   precision; no target) or sim (the modelled TensorEngine in options.math_mode, automatic choosing the
///   cheapest mode meeting a target; the call throws TargetNotMet whenever the run's certified bound does
///   not meet it or the run is not certified — for the run's report, use a plan's execute(report)).
///   threads as for plans.
/// - Errors: InvalidArgument for n or s entries < 1 (also the default irfft length 2(m − 1) when m = 1),
///   an axis outside the array or repeated, a negative shape entry, d = 0 or non-finite in fftfreq, invalid
///   options; DimensionMismatch when the data size differs from the product of `shape`, s and axes have
///   different lengths, or s has more entries than the array has axes; NotSupported for a math mode the
///   backend lacks, or a target_forward_error on host; TargetNotMet (sim) as above.

#include <trnfft/types.hpp>
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trncore/scalar_traits.hpp>
#include <trncore/tensor.hpp>
#include <trncore/view.hpp>

#include <complex>
#include <concepts>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

namespace trnfft {

/// A dense row-major (C-order) array: what the N-D functions return. Since 0.6.0 it is the suite's one owning
/// dense tensor, trncore::Tensor<E> (<trncore/tensor.hpp>): shape() is the extent of each axis, outermost
/// first; values() (a std::vector<E>, Π shape() elements) and data() the elements in row-major order (last
/// axis contiguous); view() a trncore::TensorView, and a(i, j, k) an element. Before 0.6.0 Array was a
/// struct whose `shape` and `data` were members: write `a.shape()` and `a.values()` (or `a.data()` for the
/// pointer) instead.
template <class E>
using Array = trncore::Tensor<E>;

/// The element types the free functions accept: float, double and their std::complex.
template <class E>
concept Element = Real<E> || std::same_as<E, std::complex<float>> || std::same_as<E, std::complex<double>>;

/// A contiguous range of an Element type.
template <class R>
concept ElementRange = std::ranges::contiguous_range<const R> && std::ranges::sized_range<const R> &&
    Element<std::remove_cv_t<std::ranges::range_value_t<const R>>>;
/// A contiguous range of float or double.
template <class R>
concept RealRange = ElementRange<R> && Real<std::remove_cv_t<std::ranges::range_value_t<const R>>>;

/// The element type of a contiguous range R, without const/volatile (float for a std::vector<float>).
template <class R>
using range_element = std::remove_cv_t<std::ranges::range_value_t<const R>>;

namespace detail {
/// The three computations behind every function; `function` names the public call in errors. `x` holds
/// `size` elements; `s`/`axes` empty = numpy's None.
template <Element E>
Array<std::complex<trncore::real_type_t<E>>> c2c(const char* function, const E* x, std::int64_t size,
                                                 const std::vector<std::int64_t>& shape,
                                                 const std::vector<std::int64_t>& s,
                                                 const std::vector<std::int64_t>& axes, Norm norm, Direction direction,
                                                 const trncore::Options& options);
template <Real T>
Array<std::complex<T>> r2c(const char* function, const T* x, std::int64_t size, const std::vector<std::int64_t>& shape,
                           const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& axes, Norm norm,
                           const trncore::Options& options);
/// `conjugate`: use conj(x) (hfft).
template <Element E>
Array<trncore::real_type_t<E>> c2r(const char* function, const E* x, std::int64_t size,
                                   const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s,
                                   const std::vector<std::int64_t>& axes, Norm norm, bool conjugate,
                                   const trncore::Options& options);

template <class R>
std::int64_t size_of(const R& x) {
  return static_cast<std::int64_t>(std::ranges::size(x));
}
inline std::vector<std::int64_t> n_as_s(std::optional<std::int64_t> n) {
  return n ? std::vector<std::int64_t>{*n} : std::vector<std::int64_t>{};
}
inline Norm swap_direction(Norm norm) {
  return norm == Norm::backward ? Norm::forward : norm == Norm::forward ? Norm::backward : Norm::ortho;
}
/// The elements of a vector view, contiguous.
template <class E>
std::vector<E> gather(trncore::VectorView<const E> v) {
  std::vector<E> out(static_cast<std::size_t>(v.size()));
  for (std::int64_t i = 0; i < v.size(); ++i) out[static_cast<std::size_t>(i)] = v[i];
  return out;
}
/// The matrix of a view as a row-major rows × cols Array.
template <class E>
Array<E> gather(trncore::MatrixView<const E> m) {
  Array<E> out(trncore::Shape{m.rows(), m.cols()});
  for (std::int64_t i = 0; i < m.rows(); ++i)
    for (std::int64_t j = 0; j < m.cols(); ++j) out(i, j) = m(i, j);
  return out;
}
}  // namespace detail

// ---- 1-D ----

/// numpy.fft.fft: the forward DFT y_k = Σ_j x_j·exp(−2πi·jk/n) of x zero-padded or truncated to n
/// points (default x.size()), scaled by norm. @throws InvalidArgument for n < 1 (or empty x without n).
template <class R>
requires ElementRange<R> std::vector<std::complex<trncore::real_type_t<range_element<R>>>> fft(
    const R& x, std::optional<std::int64_t> n = std::nullopt, Norm norm = Norm::backward,
    const trncore::Options& options = {}) {
  return detail::c2c("trnfft::fft", std::ranges::data(x), detail::size_of(x), {detail::size_of(x)}, detail::n_as_s(n),
                     {-1}, norm, Direction::forward, options)
      .values();
}

/// numpy.fft.ifft: the inverse DFT y_j = (1/n)·Σ_k x_k·exp(+2πi·jk/n) (the 1/n as norm says), x padded
/// or truncated to n points. @throws as fft.
template <class R>
requires ElementRange<R> std::vector<std::complex<trncore::real_type_t<range_element<R>>>> ifft(
    const R& x, std::optional<std::int64_t> n = std::nullopt, Norm norm = Norm::backward,
    const trncore::Options& options = {}) {
  return detail::c2c("trnfft::ifft", std::ranges::data(x), detail::size_of(x), {detail::size_of(x)}, detail::n_as_s(n),
                     {-1}, norm, Direction::backward, options)
      .values();
}

/// numpy.fft.rfft: the first n/2 + 1 outputs of the forward DFT of real x padded or truncated to n
/// points (the rest follow by Hermitian symmetry). @throws as fft.
template <class R>
requires RealRange<R> std::vector<std::complex<range_element<R>>> rfft(const R& x,
                                                                       std::optional<std::int64_t> n = std::nullopt,
                                                                       Norm norm = Norm::backward,
                                                                       const trncore::Options& options = {}) {
  return detail::r2c("trnfft::rfft", std::ranges::data(x), detail::size_of(x), {detail::size_of(x)}, detail::n_as_s(n),
                     {-1}, norm, options)
      .values();
}

/// numpy.fft.irfft: the n real outputs (default n = 2·(m − 1) for m inputs) of the inverse DFT of the
/// Hermitian sequence whose first half is x, x padded or truncated to n/2 + 1 points. The imaginary parts
/// of x[0] and (n even) x[n/2] are ignored, as numpy does. @throws as fft; m = 1 without n is
/// InvalidArgument (n would be 0).
template <class R>
requires ElementRange<R> std::vector<trncore::real_type_t<range_element<R>>> irfft(
    const R& x, std::optional<std::int64_t> n = std::nullopt, Norm norm = Norm::backward,
    const trncore::Options& options = {}) {
  return detail::c2r("trnfft::irfft", std::ranges::data(x), detail::size_of(x), {detail::size_of(x)}, detail::n_as_s(n),
                     {-1}, norm, false, options)
      .values();
}

/// numpy.fft.hfft: the real spectrum of a signal with Hermitian symmetry given by its first half x:
/// irfft(conj(x), n) with norm's direction swapped, so Norm::backward leaves it unscaled. Default
/// n = 2·(m − 1). @throws as irfft.
template <class R>
requires ElementRange<R> std::vector<trncore::real_type_t<range_element<R>>> hfft(
    const R& x, std::optional<std::int64_t> n = std::nullopt, Norm norm = Norm::backward,
    const trncore::Options& options = {}) {
  return detail::c2r("trnfft::hfft", std::ranges::data(x), detail::size_of(x), {detail::size_of(x)}, detail::n_as_s(n),
                     {-1}, detail::swap_direction(norm), true, options)
      .values();
}

/// numpy.fft.ihfft: the inverse of hfft, conj(rfft(x, n)) with norm's direction swapped (Norm::backward
/// scales by 1/n). n/2 + 1 outputs. @throws as fft.
template <class R>
requires RealRange<R> std::vector<std::complex<range_element<R>>> ihfft(const R& x,
                                                                        std::optional<std::int64_t> n = std::nullopt,
                                                                        Norm norm = Norm::backward,
                                                                        const trncore::Options& options = {}) {
  auto y = detail::r2c("trnfft::ihfft", std::ranges::data(x), detail::size_of(x), {detail::size_of(x)},
                       detail::n_as_s(n), {-1}, detail::swap_direction(norm), options)
               .values();
  for (auto& v : y) v = std::conj(v);
  return y;
}

/// fft of a strided vector view (gathered into contiguous storage first); as fft on a range.
template <Element E>
std::vector<std::complex<trncore::real_type_t<E>>> fft(trncore::VectorView<const E> x,
                                                       std::optional<std::int64_t> n = std::nullopt,
                                                       Norm norm = Norm::backward,
                                                       const trncore::Options& options = {}) {
  return fft(detail::gather(x), n, norm, options);
}
/// ifft of a strided vector view (gathered into contiguous storage first); as ifft on a range.
template <Element E>
std::vector<std::complex<trncore::real_type_t<E>>> ifft(trncore::VectorView<const E> x,
                                                        std::optional<std::int64_t> n = std::nullopt,
                                                        Norm norm = Norm::backward,
                                                        const trncore::Options& options = {}) {
  return ifft(detail::gather(x), n, norm, options);
}
/// rfft of a strided vector view (gathered into contiguous storage first); as rfft on a range.
template <Real T>
std::vector<std::complex<T>> rfft(trncore::VectorView<const T> x, std::optional<std::int64_t> n = std::nullopt,
                                  Norm norm = Norm::backward, const trncore::Options& options = {}) {
  return rfft(detail::gather(x), n, norm, options);
}
/// irfft of a strided vector view (gathered into contiguous storage first); as irfft on a range.
template <Element E>
std::vector<trncore::real_type_t<E>> irfft(trncore::VectorView<const E> x, std::optional<std::int64_t> n = std::nullopt,
                                           Norm norm = Norm::backward, const trncore::Options& options = {}) {
  return irfft(detail::gather(x), n, norm, options);
}

// ---- N-D ----

/// numpy.fft.fftn: the forward DFT over `axes` (default: all, or the last s.size()) of x, a row-major
/// array of `shape`, padded or truncated to s along them. Output shape: shape with s on the axes.
/// @throws as the file header lists.
template <class R>
requires ElementRange<R> Array<std::complex<trncore::real_type_t<range_element<R>>>> fftn(
    const R& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s = {},
    const std::vector<std::int64_t>& axes = {}, Norm norm = Norm::backward, const trncore::Options& options = {}) {
  return detail::c2c("trnfft::fftn", std::ranges::data(x), detail::size_of(x), shape, s, axes, norm, Direction::forward,
                     options);
}

/// numpy.fft.ifftn: the inverse DFT over axes, as fftn.
template <class R>
requires ElementRange<R> Array<std::complex<trncore::real_type_t<range_element<R>>>> ifftn(
    const R& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s = {},
    const std::vector<std::int64_t>& axes = {}, Norm norm = Norm::backward, const trncore::Options& options = {}) {
  return detail::c2c("trnfft::ifftn", std::ranges::data(x), detail::size_of(x), shape, s, axes, norm,
                     Direction::backward, options);
}

/// numpy.fft.rfftn: the forward DFT of real x over axes; the last of the axes keeps s.back()/2 + 1
/// points (the real-input half spectrum), the others s[k].
template <class R>
requires RealRange<R> Array<std::complex<range_element<R>>> rfftn(const R& x, const std::vector<std::int64_t>& shape,
                                                                  const std::vector<std::int64_t>& s = {},
                                                                  const std::vector<std::int64_t>& axes = {},
                                                                  Norm norm = Norm::backward,
                                                                  const trncore::Options& options = {}) {
  return detail::r2c("trnfft::rfftn", std::ranges::data(x), detail::size_of(x), shape, s, axes, norm, options);
}

/// numpy.fft.irfftn: the inverse of rfftn: real output of lengths s over axes (default: the input's
/// lengths, and 2·(m − 1) for the last axis of m points). Input truncated or padded to s[k] points on the
/// other axes and s.back()/2 + 1 on the last.
template <class R>
requires ElementRange<R> Array<trncore::real_type_t<range_element<R>>> irfftn(
    const R& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s = {},
    const std::vector<std::int64_t>& axes = {}, Norm norm = Norm::backward, const trncore::Options& options = {}) {
  return detail::c2r("trnfft::irfftn", std::ranges::data(x), detail::size_of(x), shape, s, axes, norm, false, options);
}

/// numpy.fft.fft2: fftn over axes (default the last two).
template <class R>
requires ElementRange<R> Array<std::complex<trncore::real_type_t<range_element<R>>>> fft2(
    const R& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s = {},
    const std::vector<std::int64_t>& axes = {-2, -1}, Norm norm = Norm::backward,
    const trncore::Options& options = {}) {
  return detail::c2c("trnfft::fft2", std::ranges::data(x), detail::size_of(x), shape, s, axes, norm, Direction::forward,
                     options);
}
/// numpy.fft.ifft2: ifftn over axes (default the last two).
template <class R>
requires ElementRange<R> Array<std::complex<trncore::real_type_t<range_element<R>>>> ifft2(
    const R& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s = {},
    const std::vector<std::int64_t>& axes = {-2, -1}, Norm norm = Norm::backward,
    const trncore::Options& options = {}) {
  return detail::c2c("trnfft::ifft2", std::ranges::data(x), detail::size_of(x), shape, s, axes, norm,
                     Direction::backward, options);
}
/// numpy.fft.rfft2: rfftn over axes (default the last two).
template <class R>
requires RealRange<R> Array<std::complex<range_element<R>>> rfft2(const R& x, const std::vector<std::int64_t>& shape,
                                                                  const std::vector<std::int64_t>& s = {},
                                                                  const std::vector<std::int64_t>& axes = {-2, -1},
                                                                  Norm norm = Norm::backward,
                                                                  const trncore::Options& options = {}) {
  return detail::r2c("trnfft::rfft2", std::ranges::data(x), detail::size_of(x), shape, s, axes, norm, options);
}
/// numpy.fft.irfft2: irfftn over axes (default the last two).
template <class R>
requires ElementRange<R> Array<trncore::real_type_t<range_element<R>>> irfft2(
    const R& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s = {},
    const std::vector<std::int64_t>& axes = {-2, -1}, Norm norm = Norm::backward,
    const trncore::Options& options = {}) {
  return detail::c2r("trnfft::irfft2", std::ranges::data(x), detail::size_of(x), shape, s, axes, norm, false, options);
}

/// fftn of an Array (its values() and shape()); as fftn on data and shape.
template <Element E>
Array<std::complex<trncore::real_type_t<E>>> fftn(const Array<E>& x, const std::vector<std::int64_t>& s = {},
                                                  const std::vector<std::int64_t>& axes = {},
                                                  Norm norm = Norm::backward, const trncore::Options& options = {}) {
  return fftn(x.values(), x.shape(), s, axes, norm, options);
}
/// ifftn of an Array (its values() and shape()); as ifftn on data and shape.
template <Element E>
Array<std::complex<trncore::real_type_t<E>>> ifftn(const Array<E>& x, const std::vector<std::int64_t>& s = {},
                                                   const std::vector<std::int64_t>& axes = {},
                                                   Norm norm = Norm::backward, const trncore::Options& options = {}) {
  return ifftn(x.values(), x.shape(), s, axes, norm, options);
}
/// rfftn of an Array (its values() and shape()); as rfftn on data and shape.
template <Real T>
Array<std::complex<T>> rfftn(const Array<T>& x, const std::vector<std::int64_t>& s = {},
                             const std::vector<std::int64_t>& axes = {}, Norm norm = Norm::backward,
                             const trncore::Options& options = {}) {
  return rfftn(x.values(), x.shape(), s, axes, norm, options);
}
/// irfftn of an Array (its values() and shape()); as irfftn on data and shape.
template <Element E>
Array<trncore::real_type_t<E>> irfftn(const Array<E>& x, const std::vector<std::int64_t>& s = {},
                                      const std::vector<std::int64_t>& axes = {}, Norm norm = Norm::backward,
                                      const trncore::Options& options = {}) {
  return irfftn(x.values(), x.shape(), s, axes, norm, options);
}

namespace detail {
/// The elements of a tensor view in row-major order as a contiguous span: the view's own storage when it is
/// dense row-major, else a copy gathered into `buffer`.
template <class V>
std::span<const std::remove_const_t<V>> row_major(trncore::TensorView<V> x, Array<std::remove_const_t<V>>& buffer) {
  if (x.is_row_major_contiguous()) return {x.data(), static_cast<std::size_t>(x.size())};
  buffer = Array<std::remove_const_t<V>>::copy_of(x);
  return buffer.values();
}
}  // namespace detail

/// fftn of a strided tensor view (any strides, e.g. a permuted or sliced trncore::TensorView; gathered into
/// row-major storage first unless it is dense row-major); as fftn on data and shape.
template <class V>
requires Element<std::remove_const_t<V>> Array<std::complex<trncore::real_type_t<std::remove_const_t<V>>>> fftn(
    trncore::TensorView<V> x, const std::vector<std::int64_t>& s = {}, const std::vector<std::int64_t>& axes = {},
    Norm norm = Norm::backward, const trncore::Options& options = {}) {
  Array<std::remove_const_t<V>> buffer;
  return fftn(detail::row_major(x, buffer), x.shape(), s, axes, norm, options);
}
/// ifftn of a strided tensor view (gathered into row-major storage first unless dense); as ifftn on data and
/// shape.
template <class V>
requires Element<std::remove_const_t<V>> Array<std::complex<trncore::real_type_t<std::remove_const_t<V>>>> ifftn(
    trncore::TensorView<V> x, const std::vector<std::int64_t>& s = {}, const std::vector<std::int64_t>& axes = {},
    Norm norm = Norm::backward, const trncore::Options& options = {}) {
  Array<std::remove_const_t<V>> buffer;
  return ifftn(detail::row_major(x, buffer), x.shape(), s, axes, norm, options);
}
/// rfftn of a strided real tensor view (gathered into row-major storage first unless dense); as rfftn on data
/// and shape.
template <class V>
requires Real<std::remove_const_t<V>> Array<std::complex<std::remove_const_t<V>>> rfftn(
    trncore::TensorView<V> x, const std::vector<std::int64_t>& s = {}, const std::vector<std::int64_t>& axes = {},
    Norm norm = Norm::backward, const trncore::Options& options = {}) {
  Array<std::remove_const_t<V>> buffer;
  return rfftn(detail::row_major(x, buffer), x.shape(), s, axes, norm, options);
}
/// irfftn of a strided tensor view (gathered into row-major storage first unless dense); as irfftn on data and
/// shape.
template <class V>
requires Element<std::remove_const_t<V>> Array<trncore::real_type_t<std::remove_const_t<V>>> irfftn(
    trncore::TensorView<V> x, const std::vector<std::int64_t>& s = {}, const std::vector<std::int64_t>& axes = {},
    Norm norm = Norm::backward, const trncore::Options& options = {}) {
  Array<std::remove_const_t<V>> buffer;
  return irfftn(detail::row_major(x, buffer), x.shape(), s, axes, norm, options);
}

/// fft2 of a matrix view (rows × cols are the two axes; any layout and ld); as fft2 on data and shape.
template <Element E>
Array<std::complex<trncore::real_type_t<E>>> fft2(trncore::MatrixView<const E> a,
                                                  const std::vector<std::int64_t>& s = {}, Norm norm = Norm::backward,
                                                  const trncore::Options& options = {}) {
  const auto g = detail::gather(a);
  return fft2(g.values(), g.shape(), s, {-2, -1}, norm, options);
}
/// ifft2 of a matrix view (rows × cols are the two axes; any layout and ld); as ifft2 on data and shape.
template <Element E>
Array<std::complex<trncore::real_type_t<E>>> ifft2(trncore::MatrixView<const E> a,
                                                   const std::vector<std::int64_t>& s = {}, Norm norm = Norm::backward,
                                                   const trncore::Options& options = {}) {
  const auto g = detail::gather(a);
  return ifft2(g.values(), g.shape(), s, {-2, -1}, norm, options);
}
/// rfft2 of a matrix view (rows × cols are the two axes; any layout and ld); as rfft2 on data and shape.
template <Real T>
Array<std::complex<T>> rfft2(trncore::MatrixView<const T> a, const std::vector<std::int64_t>& s = {},
                             Norm norm = Norm::backward, const trncore::Options& options = {}) {
  const auto g = detail::gather(a);
  return rfft2(g.values(), g.shape(), s, {-2, -1}, norm, options);
}
/// irfft2 of a matrix view (rows × cols are the two axes; any layout and ld); as irfft2 on data and shape.
template <Element E>
Array<trncore::real_type_t<E>> irfft2(trncore::MatrixView<const E> a, const std::vector<std::int64_t>& s = {},
                                      Norm norm = Norm::backward, const trncore::Options& options = {}) {
  const auto g = detail::gather(a);
  return irfft2(g.values(), g.shape(), s, {-2, -1}, norm, options);
}

// ---- Frequencies and shifts ----

/// numpy.fft.fftfreq: the n sample frequencies of an n-point DFT with sample spacing d, in cycles per
/// unit of d: f = [0, 1, …, ⌈n/2⌉ − 1, −⌊n/2⌋, …, −1] · (1/(n·d)), computed as numpy does (k · (1/(n·d))).
/// @throws trncore::InvalidArgument for n < 1 or d zero or not finite; trncore::ResourceExhausted for an n
///         larger than a std::vector<double> can hold.
std::vector<double> fftfreq(std::int64_t n, double d = 1.0);

/// numpy.fft.rfftfreq: the n/2 + 1 non-negative frequencies of rfft: [0, 1, …, ⌊n/2⌋] · (1/(n·d)).
/// @throws as fftfreq.
std::vector<double> rfftfreq(std::int64_t n, double d = 1.0);

namespace detail {
/// Rolls x (row-major, `shape`) by half of each axis in `axes` (all if empty): numpy's fftshift
/// (inverse = false: shift ⌊n/2⌋) or ifftshift (shift −⌊n/2⌋).
void check_shift(const char* function, std::int64_t size, const std::vector<std::int64_t>& shape,
                 std::vector<std::int64_t>& axes);
template <class E>
std::vector<E> roll_half(const char* function, const E* x, std::int64_t size, const std::vector<std::int64_t>& shape,
                         std::vector<std::int64_t> axes, bool inverse) {
  check_shift(function, size, shape, axes);
  const std::size_t nd = shape.size();
  std::vector<std::int64_t> shift(nd, 0);
  for (auto a : axes) {
    const std::int64_t n = shape[static_cast<std::size_t>(a)];
    shift[static_cast<std::size_t>(a)] = inverse ? n - n / 2 : n / 2;  // ifftshift rolls by −⌊n/2⌋ ≡ n − ⌊n/2⌋
  }
  std::vector<E> out(static_cast<std::size_t>(size));
  if (size == 0) return out;
  std::vector<std::int64_t> idx(nd, 0), stride(nd, 1);
  for (std::size_t k = nd; k-- > 1;) stride[k - 1] = stride[k] * shape[k];
  for (std::int64_t e = 0; e < size; ++e) {
    std::int64_t dst = 0;
    for (std::size_t k = 0; k < nd; ++k) {
      std::int64_t i = idx[k] + shift[k];
      if (i >= shape[k]) i -= shape[k];
      dst += i * stride[k];
    }
    out[static_cast<std::size_t>(dst)] = x[e];
    for (std::size_t k = nd; k-- > 0;) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}
}  // namespace detail

/// numpy.fft.fftshift of a 1-D sequence: the zero-frequency term moved to the centre (roll by ⌊n/2⌋).
/// Works for any element type.
template <std::ranges::contiguous_range R>
std::vector<std::ranges::range_value_t<R>> fftshift(const R& x) {
  const auto n = static_cast<std::int64_t>(std::ranges::size(x));
  return detail::roll_half("trnfft::fftshift", std::ranges::data(x), n, {n}, {}, false);
}
/// numpy.fft.ifftshift of a 1-D sequence: the inverse of fftshift (roll by −⌊n/2⌋).
template <std::ranges::contiguous_range R>
std::vector<std::ranges::range_value_t<R>> ifftshift(const R& x) {
  const auto n = static_cast<std::int64_t>(std::ranges::size(x));
  return detail::roll_half("trnfft::ifftshift", std::ranges::data(x), n, {n}, {}, true);
}
/// numpy.fft.fftshift of a row-major array of `shape` over `axes` (empty: all axes).
/// @throws DimensionMismatch when x.size() ≠ Π shape; InvalidArgument for a bad or repeated axis.
template <std::ranges::contiguous_range R>
std::vector<std::ranges::range_value_t<R>> fftshift(const R& x, const std::vector<std::int64_t>& shape,
                                                    const std::vector<std::int64_t>& axes = {}) {
  return detail::roll_half("trnfft::fftshift", std::ranges::data(x), static_cast<std::int64_t>(std::ranges::size(x)),
                           shape, axes, false);
}
/// numpy.fft.ifftshift over axes, as fftshift.
template <std::ranges::contiguous_range R>
std::vector<std::ranges::range_value_t<R>> ifftshift(const R& x, const std::vector<std::int64_t>& shape,
                                                     const std::vector<std::int64_t>& axes = {}) {
  return detail::roll_half("trnfft::ifftshift", std::ranges::data(x), static_cast<std::int64_t>(std::ranges::size(x)),
                           shape, axes, true);
}

}  // namespace trnfft
