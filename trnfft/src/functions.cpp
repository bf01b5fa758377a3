// numpy.fft semantics on top of trnfft's plans: argument cooking as numpy's _cook_nd_args, zero-padding
// and truncation into the transform's buffer, one estimate plan per call, and the norm's scaling.
#include <trnfft/functions.hpp>
#include <trnfft/plan.hpp>

#include "checks.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace trnfft::detail {

namespace {

using trncore::DimensionMismatch;
using trncore::InvalidArgument;

std::string list_text(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (std::size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + std::to_string(v[k]);
  return s + ")";
}

struct Cooked {
  std::vector<std::int64_t> axes;  // normalised, in the caller's order
  std::vector<std::int64_t> s;     // transform lengths (real lengths for r2c/c2r)
};

std::int64_t element_count(const char* function, const std::vector<std::int64_t>& shape) {
  std::int64_t total = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] < 0)
      throw InvalidArgument(function,
                            "shape " + list_text(shape) + " has a negative entry at axis " + std::to_string(k),
                            "pass the array's dimensions, each >= 0");
    if (__builtin_mul_overflow(total, shape[k], &total))
      throw InvalidArgument(function, "the element count of shape " + list_text(shape) + " overflows int64",
                            "use a smaller array");
  }
  return total;
}

// numpy's _cook_nd_args, checked. `invreal`: irfft-style default for the last length, 2(m − 1).
Cooked cook(const char* function, std::int64_t size, const std::vector<std::int64_t>& shape,
            const std::vector<std::int64_t>& s_arg, const std::vector<std::int64_t>& axes_arg, bool invreal) {
  if (shape.empty())
    throw InvalidArgument(function, "the input has no axes (shape is empty)", "pass at least one dimension");
  const std::int64_t total = element_count(function, shape);
  if (total != size)
    throw DimensionMismatch(function,
                            "the data has " + std::to_string(size) + " elements but shape " + list_text(shape) +
                                " needs " + std::to_string(total),
                            "pass data of exactly the shape's element count");
  const auto nd = static_cast<std::int64_t>(shape.size());
  Cooked c;
  if (axes_arg.empty()) {
    const auto count = s_arg.empty() ? nd : static_cast<std::int64_t>(s_arg.size());
    if (count > nd)
      throw DimensionMismatch(function,
                              "s " + list_text(s_arg) + " has " + std::to_string(count) +
                                  " entries but the array has " + std::to_string(nd) + " axes",
                              "pass at most one length per axis, or give axes");
    for (std::int64_t a = nd - count; a < nd; ++a) c.axes.push_back(a);
  } else {
    if (!s_arg.empty() && s_arg.size() != axes_arg.size())
      throw DimensionMismatch(function,
                              "s " + list_text(s_arg) + " and axes " + list_text(axes_arg) + " have different lengths",
                              "pass one length per axis");
    for (std::int64_t a : axes_arg) {
      const std::int64_t norm_axis = a < 0 ? a + nd : a;
      if (norm_axis < 0 || norm_axis >= nd)
        throw InvalidArgument(
            function, "axis " + std::to_string(a) + " is out of range for an array of " + std::to_string(nd) + " axes",
            "use axes in [-ndim, ndim)");
      if (std::find(c.axes.begin(), c.axes.end(), norm_axis) != c.axes.end())
        throw InvalidArgument(function, "axes " + list_text(axes_arg) + " repeat axis " + std::to_string(norm_axis),
                              "name each axis once (transform twice with two calls if that is what you want)");
      c.axes.push_back(norm_axis);
    }
  }
  if (s_arg.empty()) {
    for (auto a : c.axes) c.s.push_back(shape[static_cast<std::size_t>(a)]);
    if (invreal) c.s.back() = 2 * (c.s.back() - 1);
  } else {
    c.s = s_arg;
  }
  for (std::size_t k = 0; k < c.s.size(); ++k)
    if (c.s[k] < 1)
      throw InvalidArgument(
          function,
          "invalid number of FFT data points (" + std::to_string(c.s[k]) + ") along axis " + std::to_string(c.axes[k]),
          invreal && s_arg.empty()
              ? "the default output length 2*(m-1) is below 1 for m = " +
                    std::to_string(shape[static_cast<std::size_t>(c.axes[k])]) + " input points: pass n (s) explicitly"
              : "pass lengths >= 1 (and a non-empty input when no length is given)");
  return c;
}

template <class Src, class Dst>
Dst convert(const Src& v, bool conjugate) {
  if constexpr (std::is_same_v<Dst, Src>) {
    if constexpr (!std::is_floating_point_v<Src>)
      return conjugate ? std::conj(v) : v;
    else
      return v;
  } else {
    return Dst(v);  // real → complex (imaginary part 0)
  }
}

// Copies the common box of src (shape ss) into dst (shape ds, zero-filled by the caller): zero-padding
// and truncation in one.
template <class Src, class Dst>
void copy_box(const Src* src, const std::vector<std::int64_t>& ss, Dst* dst, const std::vector<std::int64_t>& ds,
              bool conjugate) {
  const std::size_t nd = ss.size();
  std::vector<std::int64_t> box(nd), sst(nd, 1), dst_st(nd, 1);
  for (std::size_t k = 0; k < nd; ++k) {
    box[k] = std::min(ss[k], ds[k]);
    if (box[k] == 0) return;
  }
  for (std::size_t k = nd; k-- > 1;) {
    sst[k - 1] = sst[k] * ss[k];
    dst_st[k - 1] = dst_st[k] * ds[k];
  }
  std::vector<std::int64_t> idx(nd, 0);
  const std::int64_t inner = box[nd - 1];
  while (true) {
    std::int64_t so = 0, d = 0;
    for (std::size_t k = 0; k + 1 < nd; ++k) {
      so += idx[k] * sst[k];
      d += idx[k] * dst_st[k];
    }
    for (std::int64_t j = 0; j < inner; ++j) dst[d + j] = convert<Src, Dst>(src[so + j], conjugate);
    std::size_t k = nd - 1;
    while (k-- > 0) {
      if (++idx[k] < box[k]) break;
      idx[k] = 0;
    }
    if (k == static_cast<std::size_t>(-1)) return;
  }
}

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> st(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) st[k - 1] = st[k] * shape[k];
  return st;
}

// Guru geometry of a transform over `axes` between two row-major arrays (strides ist, ost).
void geometry(const std::vector<std::int64_t>& axes, const std::vector<std::int64_t>& s,
              const std::vector<std::int64_t>& batch_shape, const std::vector<std::int64_t>& ist,
              const std::vector<std::int64_t>& ost, std::vector<IoDim>& dims, std::vector<IoDim>& batch) {
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const auto a = static_cast<std::size_t>(axes[k]);
    dims.push_back(IoDim{s[k], ist[a], ost[a]});
  }
  for (std::size_t a = 0; a < batch_shape.size(); ++a)
    if (std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(a)) == axes.end() && batch_shape[a] > 1)
      batch.push_back(IoDim{batch_shape[a], ist[a], ost[a]});
}

// The norm's factor for a transform of N points in the given direction (forward: fft, rfft).
double scale_factor(Norm norm, bool forward, const std::vector<std::int64_t>& s) {
  double n = 1;
  for (auto v : s) n *= static_cast<double>(v);
  switch (norm) {
    case Norm::ortho: return 1.0 / std::sqrt(n);
    case Norm::forward: return forward ? 1.0 / n : 1.0;
    case Norm::backward:
    default: return forward ? 1.0 : 1.0 / n;
  }
}

template <class V>
void scale(std::vector<V>& v, double factor) {
  if (factor == 1.0) return;
  using T = trncore::real_type_t<V>;
  const T f = static_cast<T>(factor);
  for (auto& x : v) x *= f;
}

void check_norm(const char* function, Norm norm) {
  if (norm != Norm::backward && norm != Norm::ortho && norm != Norm::forward)
    throw InvalidArgument(function, "invalid norm " + std::to_string(static_cast<int>(norm)),
                          "use Norm::backward, Norm::ortho or Norm::forward");
}

std::vector<std::int64_t> with_lengths(std::vector<std::int64_t> shape, const Cooked& c) {
  for (std::size_t k = 0; k < c.axes.size(); ++k) shape[static_cast<std::size_t>(c.axes[k])] = c.s[k];
  return shape;
}

std::int64_t product(const std::vector<std::int64_t>& v) {
  std::int64_t p = 1;
  for (auto x : v) p *= x;
  return p;
}

// What every free transform checks and derives first: options, norm, and the transform geometry (cook).
template <Real T>
Cooked checked_geometry(const char* function, const trncore::Options& options, Norm norm, std::int64_t size,
                        const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s,
                        const std::vector<std::int64_t>& axes, bool c2r) {
  check_options<T>(function, options);
  check_norm(function, norm);
  Cooked c = cook(function, size, shape, s, axes, c2r);
  return c;
}

}  // namespace

template <Element E>
Array<std::complex<trncore::real_type_t<E>>> c2c(const char* function, const E* x, std::int64_t size,
                                                 const std::vector<std::int64_t>& shape,
                                                 const std::vector<std::int64_t>& s,
                                                 const std::vector<std::int64_t>& axes, Norm norm, Direction direction,
                                                 const trncore::Options& options) {
  using T = trncore::real_type_t<E>;
  using C = std::complex<T>;
  const Cooked c = checked_geometry<T>(function, options, norm, size, shape, s, axes, false);
  std::vector<std::int64_t> out_shape = with_lengths(shape, c);
  const std::int64_t count = element_count(function, out_shape);
  std::vector<C> out(static_cast<std::size_t>(count), C(0));
  if (count > 0) {
    const auto st = row_major_strides(out_shape);
    std::vector<IoDim> dims, batch;
    geometry(c.axes, c.s, out_shape, st, st, dims, batch);
    const C* direct = nullptr;  // the input itself when there is nothing to pad or truncate
    if constexpr (std::is_same_v<E, C>) {
      if (out_shape == shape) direct = x;
    }
    if (direct != nullptr) {  // transform straight from the input
      plan_guru_dft<T>(dims, batch, const_cast<C*>(direct), out.data(), direction, options).execute();
    } else {
      copy_box(x, shape, out.data(), out_shape, false);
      plan_guru_dft<T>(dims, batch, out.data(), out.data(), direction, options).execute();
    }
    scale(out, scale_factor(norm, direction == Direction::forward, c.s));
  }
  return Array<C>(std::move(out_shape), std::move(out));  // the vector moves in: no copy
}

template <Real T>
Array<std::complex<T>> r2c(const char* function, const T* x, std::int64_t size, const std::vector<std::int64_t>& shape,
                           const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& axes, Norm norm,
                           const trncore::Options& options) {
  using C = std::complex<T>;
  const Cooked c = checked_geometry<T>(function, options, norm, size, shape, s, axes, false);
  const auto real_shape = with_lengths(shape, c);
  std::vector<std::int64_t> out_shape = real_shape;
  out_shape[static_cast<std::size_t>(c.axes.back())] = c.s.back() / 2 + 1;
  const std::int64_t count = element_count(function, out_shape);
  std::vector<C> out(static_cast<std::size_t>(count), C(0));
  if (count == 0 || product(real_shape) == 0) return Array<C>(std::move(out_shape), std::move(out));
  std::vector<T> padded;
  const T* in = x;
  if (real_shape != shape) {
    padded.assign(static_cast<std::size_t>(product(real_shape)), T(0));
    copy_box(x, shape, padded.data(), real_shape, false);
    in = padded.data();
  }
  std::vector<IoDim> dims, batch;
  geometry(c.axes, c.s, real_shape, row_major_strides(real_shape), row_major_strides(out_shape), dims, batch);
  plan_guru_dft_r2c<T>(dims, batch, const_cast<T*>(in), out.data(), options).execute();
  scale(out, scale_factor(norm, true, c.s));
  return Array<C>(std::move(out_shape), std::move(out));
}

template <Element E>
Array<trncore::real_type_t<E>> c2r(const char* function, const E* x, std::int64_t size,
                                   const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& s,
                                   const std::vector<std::int64_t>& axes, Norm norm, bool conjugate,
                                   const trncore::Options& options) {
  using T = trncore::real_type_t<E>;
  using C = std::complex<T>;
  const Cooked c = checked_geometry<T>(function, options, norm, size, shape, s, axes, true);
  std::vector<std::int64_t> out_shape = with_lengths(shape, c);
  const std::int64_t count = element_count(function, out_shape);
  std::vector<T> out(static_cast<std::size_t>(count), T(0));
  if (count == 0) return Array<T>(std::move(out_shape), std::move(out));
  auto half_shape = out_shape;
  half_shape[static_cast<std::size_t>(c.axes.back())] = c.s.back() / 2 + 1;
  std::vector<C> half(static_cast<std::size_t>(product(half_shape)), C(0));  // c2r overwrites its input
  copy_box(x, shape, half.data(), half_shape, conjugate);
  std::vector<IoDim> dims, batch;
  geometry(c.axes, c.s, out_shape, row_major_strides(half_shape), row_major_strides(out_shape), dims, batch);
  plan_guru_dft_c2r<T>(dims, batch, half.data(), out.data(), options).execute();
  scale(out, scale_factor(norm, false, c.s));
  return Array<T>(std::move(out_shape), std::move(out));
}

template Array<std::complex<float>> c2c<float>(const char*, const float*, std::int64_t,
                                               const std::vector<std::int64_t>&, const std::vector<std::int64_t>&,
                                               const std::vector<std::int64_t>&, Norm, Direction,
                                               const trncore::Options&);
template Array<std::complex<double>> c2c<double>(const char*, const double*, std::int64_t,
                                                 const std::vector<std::int64_t>&, const std::vector<std::int64_t>&,
                                                 const std::vector<std::int64_t>&, Norm, Direction,
                                                 const trncore::Options&);
template Array<std::complex<float>> c2c<std::complex<float>>(const char*, const std::complex<float>*, std::int64_t,
                                                             const std::vector<std::int64_t>&,
                                                             const std::vector<std::int64_t>&,
                                                             const std::vector<std::int64_t>&, Norm, Direction,
                                                             const trncore::Options&);
template Array<std::complex<double>> c2c<std::complex<double>>(const char*, const std::complex<double>*, std::int64_t,
                                                               const std::vector<std::int64_t>&,
                                                               const std::vector<std::int64_t>&,
                                                               const std::vector<std::int64_t>&, Norm, Direction,
                                                               const trncore::Options&);
template Array<std::complex<float>> r2c<float>(const char*, const float*, std::int64_t,
                                               const std::vector<std::int64_t>&, const std::vector<std::int64_t>&,
                                               const std::vector<std::int64_t>&, Norm, const trncore::Options&);
template Array<std::complex<double>> r2c<double>(const char*, const double*, std::int64_t,
                                                 const std::vector<std::int64_t>&, const std::vector<std::int64_t>&,
                                                 const std::vector<std::int64_t>&, Norm, const trncore::Options&);
template Array<float> c2r<float>(const char*, const float*, std::int64_t, const std::vector<std::int64_t>&,
                                 const std::vector<std::int64_t>&, const std::vector<std::int64_t>&, Norm, bool,
                                 const trncore::Options&);
template Array<double> c2r<double>(const char*, const double*, std::int64_t, const std::vector<std::int64_t>&,
                                   const std::vector<std::int64_t>&, const std::vector<std::int64_t>&, Norm, bool,
                                   const trncore::Options&);
template Array<float> c2r<std::complex<float>>(const char*, const std::complex<float>*, std::int64_t,
                                               const std::vector<std::int64_t>&, const std::vector<std::int64_t>&,
                                               const std::vector<std::int64_t>&, Norm, bool, const trncore::Options&);
template Array<double> c2r<std::complex<double>>(const char*, const std::complex<double>*, std::int64_t,
                                                 const std::vector<std::int64_t>&, const std::vector<std::int64_t>&,
                                                 const std::vector<std::int64_t>&, Norm, bool, const trncore::Options&);

void check_shift(const char* function, std::int64_t size, const std::vector<std::int64_t>& shape,
                 std::vector<std::int64_t>& axes) {
  const std::int64_t total = element_count(function, shape);
  if (total != size)
    throw DimensionMismatch(function,
                            "the data has " + std::to_string(size) + " elements but shape " + list_text(shape) +
                                " needs " + std::to_string(total),
                            "pass data of exactly the shape's element count");
  const auto nd = static_cast<std::int64_t>(shape.size());
  if (axes.empty()) {
    for (std::int64_t a = 0; a < nd; ++a) axes.push_back(a);
    return;
  }
  std::vector<std::int64_t> seen;
  for (auto& a : axes) {
    const std::int64_t orig = a;
    if (a < 0) a += nd;
    if (a < 0 || a >= nd)
      throw InvalidArgument(
          function, "axis " + std::to_string(orig) + " is out of range for an array of " + std::to_string(nd) + " axes",
          "use axes in [-ndim, ndim)");
    if (std::find(seen.begin(), seen.end(), a) != seen.end())
      throw InvalidArgument(function, "axis " + std::to_string(a) + " is repeated", "name each axis once");
    seen.push_back(a);
  }
}

}  // namespace trnfft::detail

namespace trnfft {

namespace {
void check_freq(const char* function, std::int64_t n, double d) {
  if (n < 1) throw trncore::InvalidArgument(function, "n = " + std::to_string(n), "pass the transform length, n >= 1");
  if (static_cast<std::uint64_t>(n) > std::vector<double>().max_size())
    throw trncore::ResourceExhausted(function, "n = " + std::to_string(n) + " frequencies do not fit in one vector",
                                     "pass a transform length that fits in memory");
  if (d == 0 || !std::isfinite(d))
    throw trncore::InvalidArgument(function, "sample spacing d = " + trncore::detail::sci(d),
                                   "pass a finite, nonzero sample spacing");
}
}  // namespace

std::vector<double> fftfreq(std::int64_t n, double d) {
  check_freq("trnfft::fftfreq", n, d);
  const double val = 1.0 / (static_cast<double>(n) * d);
  std::vector<double> f(static_cast<std::size_t>(n));
  const std::int64_t positive = (n - 1) / 2 + 1;
  for (std::int64_t k = 0; k < positive; ++k) f[static_cast<std::size_t>(k)] = static_cast<double>(k) * val;
  for (std::int64_t k = positive; k < n; ++k) f[static_cast<std::size_t>(k)] = static_cast<double>(k - n) * val;
  return f;
}

std::vector<double> rfftfreq(std::int64_t n, double d) {
  check_freq("trnfft::rfftfreq", n, d);
  const double val = 1.0 / (static_cast<double>(n) * d);
  std::vector<double> f(static_cast<std::size_t>(n / 2 + 1));
  for (std::size_t k = 0; k < f.size(); ++k) f[k] = static_cast<double>(k) * val;
  return f;
}

}  // namespace trnfft
