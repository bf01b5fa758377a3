// trnfft plans on the host backend: argument checks, FFTW guru64 planning under the planner mutex,
// execution and new-array execution with the checks FFTW's rules require.
#include "host/checks.hpp"
#include "host/fftw_api.hpp"
#include "host/plan_state.hpp"
#include "sim/transform.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace trnfft {

std::mutex& planner_mutex() noexcept {
  static std::mutex mutex;
  return mutex;
}

namespace detail {
namespace {

using trncore::DimensionMismatch;
using trncore::InvalidArgument;
using trncore::NotSupported;

std::string dims_text(const std::vector<IoDim>& dims) {
  std::string s = "[";
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (k > 0) s += ", ";
    s += "n=" + std::to_string(dims[k].n) + " is=" + std::to_string(dims[k].is) + " os=" + std::to_string(dims[k].os);
  }
  return s + "]";
}

std::int64_t checked_mul(const char* function, std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    throw InvalidArgument(function, what + " overflows int64 (" + std::to_string(a) + " * " + std::to_string(b) + ")",
                          "use smaller sizes or strides");
  return r;
}

std::int64_t checked_add(const char* function, std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    throw InvalidArgument(function, what + " overflows int64 (" + std::to_string(a) + " + " + std::to_string(b) + ")",
                          "use smaller sizes or strides");
  return r;
}

// The extent (1 + largest offset) of one array of a plan, after checking that its strides are positive
// and that no two of its elements share an offset. Dimensions are checked nested: sorted by stride, each
// stride must reach past everything the smaller strides span. `halve_last`: this is the complex side of an
// r2c/c2r plan, whose last transform dimension holds n/2 + 1 points.
std::int64_t array_extent(const char* function, const char* name, const std::vector<IoDim>& dims,
                          const std::vector<IoDim>& batch, bool input, bool halve_last) {
  struct Axis {
    std::int64_t n, stride;
    const char* what;
    std::size_t index;
  };
  std::vector<Axis> axes;
  auto add = [&](const std::vector<IoDim>& list, const char* what, bool halve) {
    for (std::size_t k = 0; k < list.size(); ++k) {
      std::int64_t n = list[k].n;
      if (halve && k + 1 == list.size()) n = n / 2 + 1;
      const std::int64_t stride = input ? list[k].is : list[k].os;
      if (n > 1 && stride <= 0)
        throw InvalidArgument(function,
                              std::string(what) + " dimension " + std::to_string(k) +
                                  " (n=" + std::to_string(list[k].n) + ") has " + (input ? "input" : "output") +
                                  " stride " + std::to_string(stride) + " for array '" + name + "'",
                              "strides must be positive: point the array at its lowest element and reorder the "
                              "data rather than pass a negative or zero stride");
      if (n > 1) axes.push_back({n, stride, what, k});
    }
  };
  add(dims, "transform", halve_last);
  add(batch, "batch", false);
  std::stable_sort(axes.begin(), axes.end(), [](const Axis& a, const Axis& b) { return a.stride < b.stride; });
  std::int64_t span = 1;
  for (const Axis& a : axes) {
    if (a.stride < span)
      throw InvalidArgument(function,
                            std::string("elements of array '") + name + "' overlap: " + a.what + " dimension " +
                                std::to_string(a.index) + " has stride " + std::to_string(a.stride) +
                                " but the dimensions with smaller strides already span " + std::to_string(span) +
                                " elements",
                            "give every dimension a stride at least the extent of the faster ones (e.g. idist >= "
                            "the extent of one transform)");
    span =
        checked_add(function, span, checked_mul(function, a.n - 1, a.stride, "the array extent"), "the array extent");
  }
  return span;
}

bool ranges_intersect(const void* a, std::int64_t a_bytes, const void* b, std::int64_t b_bytes) {
  const auto pa = reinterpret_cast<std::uintptr_t>(a);
  const auto pb = reinterpret_cast<std::uintptr_t>(b);
  return pa < pb + static_cast<std::uintptr_t>(b_bytes) && pb < pa + static_cast<std::uintptr_t>(a_bytes);
}

unsigned fftw_flags(PlanFlags flags, Kind kind) {
  unsigned f = 0;
  switch (flags.rigor) {
    case Rigor::estimate: f = FFTW_ESTIMATE; break;
    case Rigor::measure: f = FFTW_MEASURE; break;
    case Rigor::patient: f = FFTW_PATIENT; break;
    case Rigor::exhaustive: f = FFTW_EXHAUSTIVE; break;
  }
  if (flags.preserve_input)
    f |= FFTW_PRESERVE_INPUT;
  else if (kind == Kind::c2r)
    f |= FFTW_DESTROY_INPUT;
  if (flags.unaligned) f |= FFTW_UNALIGNED;
  return f;
}

std::vector<fftw_iodim64> to_fftw(const std::vector<IoDim>& dims) {
  std::vector<fftw_iodim64> out(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k)
    out[k] = fftw_iodim64{static_cast<std::ptrdiff_t>(dims[k].n), static_cast<std::ptrdiff_t>(dims[k].is),
                          static_cast<std::ptrdiff_t>(dims[k].os)};
  return out;
}

template <Real T>
bool& threads_ready() {
  static bool ready = false;  // guarded by planner_mutex()
  return ready;
}

// Everything FFTW needs to plan, in one call: the checked state and the arrays in FFTW's order.
template <Real T>
std::unique_ptr<PlanState<T>> make_state(const char* function, Kind kind, ComplexLayout layout, Direction direction,
                                         const std::vector<IoDim>& dims, const std::vector<IoDim>& batch,
                                         std::array<void*, 4> arrays, std::array<const char*, 4> names, int nread,
                                         int nwrite, PlanFlags flags, const trncore::Options& options) {
  check_options<T>(function, options);
  if (dims.empty()) throw InvalidArgument(function, "no transform dimensions (rank 0)", "pass at least one dimension");
  if (dims.size() + batch.size() > 64)
    throw InvalidArgument(
        function, "rank " + std::to_string(dims.size()) + " with " + std::to_string(batch.size()) + " batch dimensions",
        "use at most 64 dimensions in all (merge contiguous dimensions)");
  if (direction != Direction::forward && direction != Direction::backward)
    throw InvalidArgument(function, "invalid direction " + std::to_string(static_cast<int>(direction)),
                          "use Direction::forward or Direction::backward");
  if (flags.rigor != Rigor::estimate && flags.rigor != Rigor::measure && flags.rigor != Rigor::patient &&
      flags.rigor != Rigor::exhaustive)
    throw InvalidArgument(function, "invalid rigor " + std::to_string(static_cast<int>(flags.rigor)),
                          "use Rigor::estimate, measure, patient or exhaustive");
  if (flags.sim_mode != SimMode::from_options && flags.sim_mode != SimMode::fp32 && flags.sim_mode != SimMode::bf16 &&
      flags.sim_mode != SimMode::bf16_refined && flags.sim_mode != SimMode::compensated &&
      flags.sim_mode != SimMode::ozaki)
    throw InvalidArgument(function, "invalid sim mode " + std::to_string(static_cast<int>(flags.sim_mode)),
                          "use a SimMode enumerator");
  auto state = std::make_unique<PlanState<T>>();
  state->kind = kind;
  state->layout = layout;
  state->direction = direction;
  state->dims = dims;
  state->batch = batch;
  state->unaligned = flags.unaligned;
  for (std::size_t k = 0; k < dims.size(); ++k)
    if (dims[k].n < 1)
      throw InvalidArgument(function,
                            "transform dimension " + std::to_string(k) + " has n = " + std::to_string(dims[k].n) +
                                " in dims " + dims_text(dims),
                            "every transform length must be >= 1");
  for (std::size_t k = 0; k < batch.size(); ++k)
    if (batch[k].n < 1)
      throw InvalidArgument(function,
                            "batch dimension " + std::to_string(k) + " has n = " + std::to_string(batch[k].n) +
                                " in batch " + dims_text(batch),
                            "every batch count must be >= 1 (skip the call for an empty batch)");
  for (const IoDim& d : dims)
    state->transform_size = checked_mul(function, state->transform_size, d.n, "the transform size");
  for (const IoDim& d : batch) state->batch_count = checked_mul(function, state->batch_count, d.n, "the batch count");
  checked_mul(function, state->transform_size, state->batch_count, "the number of points");

  const bool complex_in = kind == Kind::c2c || kind == Kind::c2r;
  const bool complex_out = kind == Kind::c2c || kind == Kind::r2c;
  const bool interleaved = layout == ComplexLayout::interleaved;
  const std::size_t real = sizeof(T);
  const std::size_t cplx = sizeof(std::complex<T>);
  state->input_extent = array_extent(function, names[0], dims, batch, true, kind == Kind::c2r);
  state->output_extent = array_extent(function, names[nread], dims, batch, false, kind == Kind::r2c);
  state->arrays = arrays;
  state->names = names;
  state->nread = nread;
  state->nwrite = nwrite;
  for (int i = 0; i < nread; ++i) state->element_size[i] = complex_in && interleaved ? cplx : real;
  for (int j = 0; j < nwrite; ++j) state->element_size[nread + j] = complex_out && interleaved ? cplx : real;
  for (int i = 0; i < nread + nwrite; ++i) {
    const std::int64_t extent = i < nread ? state->input_extent : state->output_extent;
    checked_mul(function, extent, static_cast<std::int64_t>(state->element_size[i]), "the array size in bytes");
    if (arrays[i] == nullptr)
      throw InvalidArgument(function, std::string("array '") + names[i] + "' is a null pointer",
                            "pass arrays of at least input_extent()/output_extent() elements");
  }
  for (int i = 0; i < nread; ++i)
    for (int j = 0; j < nwrite; ++j)
      if (arrays[i] == arrays[nread + j]) state->aliasing |= 1u << (i * 4 + j);
  if (layout == ComplexLayout::split && kind == Kind::c2c) {
    const bool re = (state->aliasing & 1u) != 0, im = (state->aliasing & (1u << 5)) != 0;
    if (re != im || (state->aliasing & ~((1u) | (1u << 5))) != 0)
      throw InvalidArgument(function,
                            "split arrays are partly in place (ri " + std::string(re ? "==" : "!=") + " ro, ii " +
                                (im ? "==" : "!=") + " io)",
                            "for in-place pass ri == ro and ii == io; for out-of-place four distinct arrays");
  }
  state->in_place = state->aliasing != 0;
  if (!state->in_place)
    for (int i = 0; i < nread; ++i)
      for (int j = nread; j < nread + nwrite; ++j)
        if (ranges_intersect(arrays[i], state->input_extent * static_cast<std::int64_t>(state->element_size[i]),
                             arrays[j], state->output_extent * static_cast<std::int64_t>(state->element_size[j])))
          throw InvalidArgument(function,
                                std::string("input array '") + names[i] + "' and output array '" + names[j] +
                                    "' overlap but are not the same array",
                                "use disjoint arrays (out-of-place) or the same array (in-place)");
  if (layout == ComplexLayout::split) {
    auto sep = [&](int re, int im) {
      return static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(arrays[im]) -
                                         reinterpret_cast<std::uintptr_t>(arrays[re]));
    };
    if (kind == Kind::c2c) {
      state->read_separation = sep(0, 1);
      state->write_separation = sep(2, 3);
    } else if (kind == Kind::r2c) {
      state->write_separation = sep(1, 2);
    } else {
      state->read_separation = sep(0, 1);
    }
  }
  for (int i = 0; i < nread + nwrite; ++i)
    state->alignment[i] = host::Fftw<T>::alignment_of(static_cast<const T*>(arrays[i]));

  if (options.threads > 0)
    state->threads = options.threads;
  else
    state->threads = state->transform_size * state->batch_count >= (std::int64_t{1} << 17)
                         ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))
                         : 1;

  if (options.backend == trncore::Backend::sim) {
    std::vector<std::int64_t> lengths;
    for (const auto& d : dims) lengths.push_back(d.n);
    state->sim = sim::make_transform<T>(function, kind, lengths, direction, flags.sim_mode, options);
    state->unaligned = true;  // no SIMD alignment rule on the sim backend
    return state;
  }

  const auto fdims = to_fftw(dims);
  const auto fbatch = to_fftw(batch);
  const int rank = static_cast<int>(fdims.size());
  const int hrank = static_cast<int>(fbatch.size());
  const unsigned f = fftw_flags(flags, kind);
  using F = host::Fftw<T>;
  {
    std::lock_guard<std::mutex> lock(planner_mutex());
    // FFTW wants its threads set up before other planner calls: do it on trnfft's first plan. Threaded
    // solvers only apply when a plan is made with more than one thread.
    static bool threads_tried = false;  // per T (a static of a function template); guarded by the mutex
    if (!threads_tried) {
      threads_tried = true;
      threads_ready<T>() = F::init_threads() != 0;
    }
    if (state->threads > 1 && !threads_ready<T>())
      throw trncore::ResourceExhausted(function, "FFTW could not initialise its threads", "use options.threads = 1");
    if (threads_ready<T>()) F::plan_with_nthreads(state->threads);
    T* const* t = reinterpret_cast<T* const*>(arrays.data());
    switch (kind) {
      case Kind::c2c:
        if (interleaved) {
          state->fftw = F::guru_dft(rank, fdims.data(), hrank, fbatch.data(), arrays[0], arrays[1],
                                    direction == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD, f);
        } else {
          state->swap_parts = direction == Direction::backward;
          state->fftw = state->swap_parts
                            ? F::guru_split_dft(rank, fdims.data(), hrank, fbatch.data(), t[1], t[0], t[3], t[2], f)
                            : F::guru_split_dft(rank, fdims.data(), hrank, fbatch.data(), t[0], t[1], t[2], t[3], f);
        }
        break;
      case Kind::r2c:
        state->fftw = interleaved ? F::guru_r2c(rank, fdims.data(), hrank, fbatch.data(), t[0], arrays[1], f)
                                  : F::guru_split_r2c(rank, fdims.data(), hrank, fbatch.data(), t[0], t[1], t[2], f);
        break;
      case Kind::c2r:
        state->fftw = interleaved ? F::guru_c2r(rank, fdims.data(), hrank, fbatch.data(), arrays[0], t[1], f)
                                  : F::guru_split_c2r(rank, fdims.data(), hrank, fbatch.data(), t[0], t[1], t[2], f);
        break;
    }
  }
  if (state->fftw == nullptr)
    throw NotSupported(function, "FFTW cannot plan " + state->description(),
                       state->in_place ? "use an out-of-place layout, or in-place strides FFTW supports (equal input "
                                         "and output strides; padded real rows for r2c/c2r)"
                                       : "for multi-dimensional c2r drop preserve_input; otherwise use a simpler "
                                         "layout");
  return state;
}

// plan_many_* geometry: FFTW's advanced-interface addressing as guru dimensions.
std::vector<IoDim> many_dims(const char* function, const std::vector<std::int64_t>& n,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride,
                             const std::vector<std::int64_t>& onembed, std::int64_t ostride, Kind kind) {
  if (n.empty()) throw InvalidArgument(function, "rank 0 (n is empty)", "pass at least one transform length");
  for (std::size_t k = 0; k < n.size(); ++k)
    if (n[k] < 1)
      throw InvalidArgument(function, "n[" + std::to_string(k) + "] = " + std::to_string(n[k]),
                            "every transform length must be >= 1");
  auto side = [&](bool halve) {
    std::vector<std::int64_t> s = n;
    if (halve) s.back() = s.back() / 2 + 1;
    return s;
  };
  const std::vector<std::int64_t> in_shape = side(kind == Kind::c2r);
  const std::vector<std::int64_t> out_shape = side(kind == Kind::r2c);
  auto strides = [&](const std::vector<std::int64_t>& embed_arg, const std::vector<std::int64_t>& shape,
                     std::int64_t stride, const char* name) {
    const std::vector<std::int64_t>& embed = embed_arg.empty() ? shape : embed_arg;
    if (embed.size() != shape.size())
      throw DimensionMismatch(function,
                              std::string(name) + " has " + std::to_string(embed.size()) + " entries for a rank " +
                                  std::to_string(shape.size()) + " transform",
                              "pass one entry per dimension, or an empty embedding for the dense shape");
    for (std::size_t k = 1; k < shape.size(); ++k)
      if (embed[k] < shape[k])
        throw DimensionMismatch(function,
                                std::string(name) + "[" + std::to_string(k) + "] = " + std::to_string(embed[k]) +
                                    " is below the transform's " + std::to_string(shape[k]) + " points there",
                                "the embedding must contain the transform");
    std::vector<std::int64_t> out(shape.size());
    std::int64_t s = stride;
    for (std::size_t k = shape.size(); k-- > 0;) {
      out[k] = s;
      if (k > 0) s = checked_mul(function, s, embed[k], std::string("the stride from ") + name);
    }
    return out;
  };
  const auto is = strides(inembed, in_shape, istride, "inembed");
  const auto os = strides(onembed, out_shape, ostride, "onembed");
  std::vector<IoDim> dims(n.size());
  for (std::size_t k = 0; k < n.size(); ++k) dims[k] = IoDim{n[k], is[k], os[k]};
  return dims;
}

std::vector<IoDim> many_batch(const char* function, std::int64_t howmany, std::int64_t idist, std::int64_t odist) {
  if (howmany < 1)
    throw InvalidArgument(function, "howmany = " + std::to_string(howmany),
                          "howmany must be >= 1 (skip the call for an empty batch)");
  return {IoDim{howmany, idist, odist}};
}

}  // namespace

template <Real T>
void check_options(const char* function, const trncore::Options& options) {
  trncore::validate(options, function);
  if (options.backend == trncore::Backend::sim) {
    // The math mode is checked here under the caller's name; the target by the sim planner, which knows the
    // transform's bound.
    (void)sim::requested_mode(function, SimMode::from_options, options);
    return;
  }
  if (options.backend != trncore::Backend::host)
    throw NotSupported(function,
                       "backend " + std::string(trncore::to_string(options.backend)) +
                           " is not available for trnfft plans in this release",
                       "use backend host (FFTW)");
  const auto own = std::is_same_v<T, double> ? trncore::MathMode::fp64 : trncore::MathMode::fp32;
  if (options.math_mode != trncore::MathMode::automatic && options.math_mode != own)
    throw NotSupported(function,
                       "math mode " + std::string(trncore::to_string(options.math_mode)) +
                           " is not available on the host backend for " +
                           (std::is_same_v<T, double> ? "double" : "float") + " data",
                       "use math mode automatic or " + std::string(trncore::to_string(own)));
  if (options.target_forward_error)
    throw NotSupported(function,
                       "target_forward_error " + trncore::detail::sci(*options.target_forward_error) +
                           " cannot be certified by host FFT plans",
                       "leave it unset; the host error is O(u log2 N) (docs/trnfft.md, Accuracy)");
}

template void check_options<float>(const char*, const trncore::Options&);
template void check_options<double>(const char*, const trncore::Options&);

namespace {
// Element offsets of every point of a geometry in row-major order: the batch dimensions, then the
// transform dimensions with lengths `len` (the half-spectrum length on the complex side of r2c/c2r).
std::vector<std::int64_t> element_offsets(const std::vector<IoDim>& batch, const std::vector<IoDim>& dims,
                                          const std::vector<std::int64_t>& len, bool input) {
  std::vector<std::int64_t> extent, stride;
  for (const auto& b : batch) {
    extent.push_back(b.n);
    stride.push_back(input ? b.is : b.os);
  }
  for (std::size_t k = 0; k < dims.size(); ++k) {
    extent.push_back(len[k]);
    stride.push_back(input ? dims[k].is : dims[k].os);
  }
  std::int64_t total = 1;
  for (auto e : extent) total *= e;
  std::vector<std::int64_t> out(static_cast<std::size_t>(total));
  std::vector<std::int64_t> idx(extent.size(), 0);
  std::int64_t at = 0;
  for (std::int64_t i = 0; i < total; ++i) {
    out[static_cast<std::size_t>(i)] = at;
    for (std::size_t d = extent.size(); d-- > 0;) {
      at += stride[d];
      if (++idx[d] < extent[d]) break;
      at -= stride[d] * extent[d];
      idx[d] = 0;
    }
  }
  return out;
}
}  // namespace

template <Real T>
void PlanState<T>::sim_execute(const char* function, const std::array<const void*, 4>& a,
                               trncore::AccuracyReport* report) const {
  using C = std::complex<T>;
  std::vector<std::int64_t> real_len, complex_len;
  for (const auto& d : dims) real_len.push_back(d.n);
  complex_len = real_len;
  if (kind != Kind::c2c) complex_len.back() = real_len.back() / 2 + 1;
  const bool split = layout == ComplexLayout::split;
  const auto in_at = element_offsets(batch, dims, kind == Kind::c2r ? complex_len : real_len, true);
  const auto out_at = element_offsets(batch, dims, kind == Kind::r2c ? complex_len : real_len, false);
  auto read_complex = [&]() {
    std::vector<C> buf(in_at.size());
    for (std::size_t i = 0; i < in_at.size(); ++i)
      buf[i] = split ? C(static_cast<const T*>(a[0])[in_at[i]], static_cast<const T*>(a[1])[in_at[i]])
                     : static_cast<const C*>(a[0])[in_at[i]];
    return buf;
  };
  auto write_complex = [&](const std::vector<C>& buf) {
    for (std::size_t i = 0; i < out_at.size(); ++i) {
      if (split) {
        const_cast<T*>(static_cast<const T*>(a[nread]))[out_at[i]] = buf[i].real();
        const_cast<T*>(static_cast<const T*>(a[nread + 1]))[out_at[i]] = buf[i].imag();
      } else {
        const_cast<C*>(static_cast<const C*>(a[nread]))[out_at[i]] = buf[i];
      }
    }
  };
  sim::RunLog log;
  double bound = 0;
  // The bound's hypotheses beyond the GEMMs' own: finite input, and no overflow on the way (a finite input
  // whose transform reaches Inf/NaN). A NaN/Inf input is named as such even though the GEMMs that meet it
  // also refuse to certify: it is the cause.
  bool finite_in = true, finite_out = true;
  const auto finite = [](const auto& v) {
    for (const auto& z : v)
      if constexpr (std::is_same_v<std::decay_t<decltype(z)>, C>) {
        if (!std::isfinite(z.real()) || !std::isfinite(z.imag())) return false;
      } else if (!std::isfinite(z)) {
        return false;
      }
    return true;
  };
  if (kind == Kind::c2c) {
    const auto x = read_complex();
    std::vector<C> y(out_at.size());
    bound = sim->run_c2c(x.data(), y.data(), batch_count, log);
    finite_in = finite(x);
    finite_out = finite(y);
    write_complex(y);
  } else if (kind == Kind::r2c) {
    std::vector<T> x(in_at.size());
    for (std::size_t i = 0; i < in_at.size(); ++i) x[i] = static_cast<const T*>(a[0])[in_at[i]];
    std::vector<C> y(out_at.size());
    bound = sim->run_r2c(x.data(), y.data(), batch_count, log);
    finite_in = finite(x);
    finite_out = finite(y);
    write_complex(y);
  } else {
    const auto x = read_complex();
    std::vector<T> y(out_at.size());
    bound = sim->run_c2r(x.data(), y.data(), batch_count, log);
    finite_in = finite(x);
    finite_out = finite(y);
    T* out = const_cast<T*>(static_cast<const T*>(a[nread]));
    for (std::size_t i = 0; i < out_at.size(); ++i) out[out_at[i]] = y[i];
  }
  if (!finite_in) {
    log.reason.clear();
    log.certified = true;  // so that the input is the reason, ahead of the GEMMs that met it
    log.uncertify("NaN or Inf in the input");
  } else if (!finite_out) {
    log.uncertify("the transform overflowed: Inf or NaN in the output of a finite input");
  }
  trncore::AccuracyReport r = sim->report(bound, log);
  if (report != nullptr)
    *report = std::move(r);
  else if (!r.met)
    trncore::require_target_met(r, function);  // with or without a target (the contract)
}

template <Real T>
PlanState<T>::~PlanState() {
  if (fftw != nullptr) {
    std::lock_guard<std::mutex> lock(planner_mutex());
    host::Fftw<T>::destroy(fftw);
  }
}

template <Real T>
std::string PlanState<T>::description() const {
  std::string s = std::string(to_string(kind)) + " ";
  if (kind == Kind::c2c) s += std::string(to_string(direction)) + " ";
  s += std::string(to_string(layout)) + (in_place ? " in-place" : " out-of-place");
  s += " dims " + dims_text(dims) + " batch " + dims_text(batch) + " threads " + std::to_string(threads);
  if (sim) s += " backend sim mode " + std::string(to_string(sim->mode()));
  return s;
}

template <Real T>
void PlanState<T>::check_new_arrays(const char* function, const std::array<const void*, 4>& a) const {
  const int total = nread + nwrite;
  for (int i = 0; i < total; ++i)
    if (a[i] == nullptr)
      throw InvalidArgument(function, std::string("array '") + names[i] + "' is a null pointer",
                            "pass arrays laid out as at plan creation");
  unsigned alias = 0;
  for (int i = 0; i < nread; ++i)
    for (int j = 0; j < nwrite; ++j)
      if (a[i] == a[nread + j]) alias |= 1u << (i * 4 + j);
  if (alias != aliasing)
    throw InvalidArgument(function,
                          std::string("the plan was made ") + (in_place ? "in-place" : "out-of-place") +
                              " but the new arrays are " + (alias != 0 ? "in-place" : "out-of-place"),
                          "execute on arrays with the plan's in-place-ness, or make another plan");
  if (!in_place)
    for (int i = 0; i < nread; ++i)
      for (int j = nread; j < total; ++j)
        if (ranges_intersect(a[i], input_extent * static_cast<std::int64_t>(element_size[i]), a[j],
                             output_extent * static_cast<std::int64_t>(element_size[j])))
          throw InvalidArgument(function,
                                std::string("input array '") + names[i] + "' and output array '" + names[j] +
                                    "' overlap but are not the same array",
                                "use disjoint arrays for an out-of-place plan");
  if (!unaligned)
    for (int i = 0; i < total; ++i) {
      const int al = host::Fftw<T>::alignment_of(static_cast<const T*>(a[i]));
      if (al != alignment[i])
        throw InvalidArgument(function,
                              std::string("array '") + names[i] + "' has SIMD alignment offset " + std::to_string(al) +
                                  " bytes but the plan was made for offset " + std::to_string(alignment[i]),
                              "use arrays aligned like the creation arrays (e.g. fftw_malloc'd), or make the plan "
                              "with PlanFlags::unaligned");
    }
  if (layout == ComplexLayout::split) {
    auto sep = [&](int re, int im) {
      return static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(a[im]) -
                                         reinterpret_cast<std::uintptr_t>(a[re]));
    };
    std::ptrdiff_t rs = 0, ws = 0;
    if (kind == Kind::c2c) {
      rs = sep(0, 1);
      ws = sep(2, 3);
    } else if (kind == Kind::r2c) {
      ws = sep(1, 2);
    } else {
      rs = sep(0, 1);
    }
    if (rs != read_separation || ws != write_separation)
      throw InvalidArgument(function,
                            "the imaginary arrays are " + std::to_string(rs) + " / " + std::to_string(ws) +
                                " bytes from the real ones (reads / writes) but were " +
                                std::to_string(read_separation) + " / " + std::to_string(write_separation) +
                                " at plan creation",
                            "keep ii - ri and io - ro as at creation (FFTW's rule for split arrays)");
  }
}

template struct PlanState<float>;
template struct PlanState<double>;

}  // namespace detail

// ---- Plan ----

template <Real T>
Plan<T>::Plan() noexcept = default;
template <Real T>
Plan<T>::Plan(std::unique_ptr<detail::PlanState<T>> state) noexcept : state_(std::move(state)) {}
template <Real T>
Plan<T>::Plan(Plan&&) noexcept = default;
template <Real T>
Plan<T>& Plan<T>::operator=(Plan&&) noexcept = default;
template <Real T>
Plan<T>::~Plan() = default;

template <Real T>
const detail::PlanState<T>& Plan<T>::state(const char* function) const {
  if (!state_)
    throw trncore::InvalidArgument(function, "the plan is empty (default-constructed or moved from)",
                                   "create it with a plan_* function");
  return *state_;
}

template <Real T>
Kind Plan<T>::kind() const {
  return state("trnfft::Plan::kind").kind;
}
template <Real T>
ComplexLayout Plan<T>::layout() const {
  return state("trnfft::Plan::layout").layout;
}
template <Real T>
Direction Plan<T>::direction() const {
  return state("trnfft::Plan::direction").direction;
}
template <Real T>
const std::vector<IoDim>& Plan<T>::dims() const {
  return state("trnfft::Plan::dims").dims;
}
template <Real T>
const std::vector<IoDim>& Plan<T>::batch() const {
  return state("trnfft::Plan::batch").batch;
}
template <Real T>
bool Plan<T>::in_place() const {
  return state("trnfft::Plan::in_place").in_place;
}
template <Real T>
std::int64_t Plan<T>::input_extent() const {
  return state("trnfft::Plan::input_extent").input_extent;
}
template <Real T>
std::int64_t Plan<T>::output_extent() const {
  return state("trnfft::Plan::output_extent").output_extent;
}
template <Real T>
std::int64_t Plan<T>::transform_size() const {
  return state("trnfft::Plan::transform_size").transform_size;
}
template <Real T>
std::int64_t Plan<T>::batch_count() const {
  return state("trnfft::Plan::batch_count").batch_count;
}
template <Real T>
int Plan<T>::threads() const {
  return state("trnfft::Plan::threads").threads;
}
template <Real T>
std::string Plan<T>::description() const {
  return state("trnfft::Plan::description").description();
}

template <Real T>
std::string Plan<T>::algorithm() const {
  const auto& s = state("trnfft::Plan::algorithm");
  if (s.sim) return s.sim->description();
  char* text = nullptr;
  {
    std::lock_guard<std::mutex> lock(planner_mutex());
    text = host::Fftw<T>::sprint(s.fftw);
  }
  std::string out = text != nullptr ? text : "";
  std::free(text);
  return out;
}

template <Real T>
void Plan<T>::execute() const {
  if (!state_) state("trnfft::Plan::execute");
  if (state_->sim) {
    const auto& a = state_->arrays;
    state_->sim_execute("trnfft::Plan::execute", {a[0], a[1], a[2], a[3]}, nullptr);
    return;
  }
  host::Fftw<T>::execute(state_->fftw);
}

template <Real T>
void Plan<T>::execute(trncore::AccuracyReport& report) const {
  const auto& s = state("trnfft::Plan::execute");
  if (!s.sim)
    throw trncore::NotSupported("trnfft::Plan::execute", "a host (FFTW) plan certifies no error bound to report",
                                "call execute() without a report, or make the plan with backend sim");
  const auto& a = s.arrays;
  s.sim_execute("trnfft::Plan::execute", {a[0], a[1], a[2], a[3]}, &report);
}

template <Real T>
trncore::AccuracyReport Plan<T>::accuracy() const {
  const auto& s = state("trnfft::Plan::accuracy");
  if (!s.sim)
    throw trncore::NotSupported("trnfft::Plan::accuracy", "a host (FFTW) plan certifies no error bound",
                                "see docs/trnfft.md (Accuracy) for FFTW's O(u log2 N) error; make the plan with "
                                "backend sim for a certified bound");
  return s.sim->a_priori_report();
}

namespace {
template <Real T>
const detail::PlanState<T>& checked(const detail::PlanState<T>* s, const char* function, ComplexLayout layout) {
  if (s == nullptr)
    throw trncore::InvalidArgument(function, "the plan is empty (default-constructed or moved from)",
                                   "create it with a plan_* function");
  if (s->layout != layout)
    throw trncore::InvalidArgument(function,
                                   "the plan was made for the " + std::string(to_string(s->layout)) +
                                       " layout but execute was called for the " + std::string(to_string(layout)),
                                   layout == ComplexLayout::split ? "call execute(...) with interleaved arrays"
                                                                  : "call execute_split(...) with split arrays");
  return *s;
}

void check_span(const char* function, const char* name, std::size_t size, std::int64_t extent) {
  if (static_cast<std::uint64_t>(extent) > size)
    throw trncore::DimensionMismatch(function,
                                     std::string("span '") + name + "' has " + std::to_string(size) +
                                         " elements but the plan touches " + std::to_string(extent),
                                     "pass a span of at least the plan's extent (input_extent()/output_extent())");
}
}  // namespace

template <Real T>
void C2CPlan<T>::execute(const std::complex<T>* in, std::complex<T>* out) const {
  const auto& s = checked(this->state_.get(), "trnfft::C2CPlan::execute", ComplexLayout::interleaved);
  s.check_new_arrays("trnfft::C2CPlan::execute", {in, out, nullptr, nullptr});
  if (s.sim) return s.sim_execute("trnfft::C2CPlan::execute", {in, out, nullptr, nullptr}, nullptr);
  host::Fftw<T>::execute_dft(s.fftw, const_cast<std::complex<T>*>(in), out);
}

template <Real T>
void C2CPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const {
  const auto& s = checked(this->state_.get(), "trnfft::C2CPlan::execute", ComplexLayout::interleaved);
  check_span("trnfft::C2CPlan::execute", "in", in.size(), s.input_extent);
  check_span("trnfft::C2CPlan::execute", "out", out.size(), s.output_extent);
  execute(in.data(), out.data());
}

template <Real T>
void C2CPlan<T>::execute_split(const T* ri, const T* ii, T* ro, T* io) const {
  const auto& s = checked(this->state_.get(), "trnfft::C2CPlan::execute_split", ComplexLayout::split);
  s.check_new_arrays("trnfft::C2CPlan::execute_split", {ri, ii, ro, io});
  T* r = const_cast<T*>(ri);
  T* i = const_cast<T*>(ii);
  if (s.sim) return s.sim_execute("trnfft::C2CPlan::execute_split", {ri, ii, ro, io}, nullptr);
  if (s.swap_parts)
    host::Fftw<T>::execute_split_dft(s.fftw, i, r, io, ro);
  else
    host::Fftw<T>::execute_split_dft(s.fftw, r, i, ro, io);
}

template <Real T>
void R2CPlan<T>::execute(const T* in, std::complex<T>* out) const {
  const auto& s = checked(this->state_.get(), "trnfft::R2CPlan::execute", ComplexLayout::interleaved);
  s.check_new_arrays("trnfft::R2CPlan::execute", {in, out, nullptr, nullptr});
  if (s.sim) return s.sim_execute("trnfft::R2CPlan::execute", {in, out, nullptr, nullptr}, nullptr);
  host::Fftw<T>::execute_r2c(s.fftw, const_cast<T*>(in), out);
}

template <Real T>
void R2CPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out) const {
  const auto& s = checked(this->state_.get(), "trnfft::R2CPlan::execute", ComplexLayout::interleaved);
  check_span("trnfft::R2CPlan::execute", "in", in.size(), s.input_extent);
  check_span("trnfft::R2CPlan::execute", "out", out.size(), s.output_extent);
  execute(in.data(), out.data());
}

template <Real T>
void R2CPlan<T>::execute_split(const T* in, T* ro, T* io) const {
  const auto& s = checked(this->state_.get(), "trnfft::R2CPlan::execute_split", ComplexLayout::split);
  s.check_new_arrays("trnfft::R2CPlan::execute_split", {in, ro, io, nullptr});
  if (s.sim) return s.sim_execute("trnfft::R2CPlan::execute_split", {in, ro, io, nullptr}, nullptr);
  host::Fftw<T>::execute_split_r2c(s.fftw, const_cast<T*>(in), ro, io);
}

template <Real T>
void C2RPlan<T>::execute(std::complex<T>* in, T* out) const {
  const auto& s = checked(this->state_.get(), "trnfft::C2RPlan::execute", ComplexLayout::interleaved);
  s.check_new_arrays("trnfft::C2RPlan::execute", {in, out, nullptr, nullptr});
  if (s.sim) return s.sim_execute("trnfft::C2RPlan::execute", {in, out, nullptr, nullptr}, nullptr);
  host::Fftw<T>::execute_c2r(s.fftw, in, out);
}

template <Real T>
void C2RPlan<T>::execute(std::span<std::complex<T>> in, std::span<T> out) const {
  const auto& s = checked(this->state_.get(), "trnfft::C2RPlan::execute", ComplexLayout::interleaved);
  check_span("trnfft::C2RPlan::execute", "in", in.size(), s.input_extent);
  check_span("trnfft::C2RPlan::execute", "out", out.size(), s.output_extent);
  execute(in.data(), out.data());
}

template <Real T>
void C2RPlan<T>::execute_split(T* ri, T* ii, T* out) const {
  const auto& s = checked(this->state_.get(), "trnfft::C2RPlan::execute_split", ComplexLayout::split);
  s.check_new_arrays("trnfft::C2RPlan::execute_split", {ri, ii, out, nullptr});
  if (s.sim) return s.sim_execute("trnfft::C2RPlan::execute_split", {ri, ii, out, nullptr}, nullptr);
  host::Fftw<T>::execute_split_c2r(s.fftw, ri, ii, out);
}

// ---- Plan creation ----

template <Real T>
C2CPlan<T> plan_guru_dft(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, std::complex<T>* in,
                         std::complex<T>* out, Direction direction, PlanFlags flags, const trncore::Options& options) {
  return detail::PlanState<T>::template wrap<C2CPlan<T>>(
      detail::make_state<T>("trnfft::plan_guru_dft", Kind::c2c, ComplexLayout::interleaved, direction, dims, batch,
                            {in, out, nullptr, nullptr}, {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}

template <Real T>
C2CPlan<T> plan_guru_split_dft(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* ri, T* ii, T* ro,
                               T* io, Direction direction, PlanFlags flags, const trncore::Options& options) {
  return detail::PlanState<T>::template wrap<C2CPlan<T>>(
      detail::make_state<T>("trnfft::plan_guru_split_dft", Kind::c2c, ComplexLayout::split, direction, dims, batch,
                            {ri, ii, ro, io}, {"ri", "ii", "ro", "io"}, 2, 2, flags, options));
}

template <Real T>
R2CPlan<T> plan_guru_dft_r2c(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* in,
                             std::complex<T>* out, PlanFlags flags, const trncore::Options& options) {
  return detail::PlanState<T>::template wrap<R2CPlan<T>>(detail::make_state<T>(
      "trnfft::plan_guru_dft_r2c", Kind::r2c, ComplexLayout::interleaved, Direction::forward, dims, batch,
      {in, out, nullptr, nullptr}, {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}

template <Real T>
R2CPlan<T> plan_guru_split_dft_r2c(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* in, T* ro, T* io,
                                   PlanFlags flags, const trncore::Options& options) {
  return detail::PlanState<T>::template wrap<R2CPlan<T>>(
      detail::make_state<T>("trnfft::plan_guru_split_dft_r2c", Kind::r2c, ComplexLayout::split, Direction::forward,
                            dims, batch, {in, ro, io, nullptr}, {"in", "ro", "io", nullptr}, 1, 2, flags, options));
}

template <Real T>
C2RPlan<T> plan_guru_dft_c2r(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, std::complex<T>* in,
                             T* out, PlanFlags flags, const trncore::Options& options) {
  return detail::PlanState<T>::template wrap<C2RPlan<T>>(detail::make_state<T>(
      "trnfft::plan_guru_dft_c2r", Kind::c2r, ComplexLayout::interleaved, Direction::backward, dims, batch,
      {in, out, nullptr, nullptr}, {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}

template <Real T>
C2RPlan<T> plan_guru_split_dft_c2r(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* ri, T* ii,
                                   T* out, PlanFlags flags, const trncore::Options& options) {
  return detail::PlanState<T>::template wrap<C2RPlan<T>>(
      detail::make_state<T>("trnfft::plan_guru_split_dft_c2r", Kind::c2r, ComplexLayout::split, Direction::backward,
                            dims, batch, {ri, ii, out, nullptr}, {"ri", "ii", "out", nullptr}, 2, 1, flags, options));
}

template <Real T>
C2CPlan<T> plan_many_dft(const std::vector<std::int64_t>& n, std::int64_t howmany, std::complex<T>* in,
                         const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist,
                         std::complex<T>* out, const std::vector<std::int64_t>& onembed, std::int64_t ostride,
                         std::int64_t odist, Direction direction, PlanFlags flags, const trncore::Options& options) {
  const char* f = "trnfft::plan_many_dft";
  return detail::PlanState<T>::template wrap<C2CPlan<T>>(
      detail::make_state<T>(f, Kind::c2c, ComplexLayout::interleaved, direction,
                            detail::many_dims(f, n, inembed, istride, onembed, ostride, Kind::c2c),
                            detail::many_batch(f, howmany, idist, odist), {in, out, nullptr, nullptr},
                            {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}

template <Real T>
R2CPlan<T> plan_many_dft_r2c(const std::vector<std::int64_t>& n, std::int64_t howmany, T* in,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist,
                             std::complex<T>* out, const std::vector<std::int64_t>& onembed, std::int64_t ostride,
                             std::int64_t odist, PlanFlags flags, const trncore::Options& options) {
  const char* f = "trnfft::plan_many_dft_r2c";
  return detail::PlanState<T>::template wrap<R2CPlan<T>>(
      detail::make_state<T>(f, Kind::r2c, ComplexLayout::interleaved, Direction::forward,
                            detail::many_dims(f, n, inembed, istride, onembed, ostride, Kind::r2c),
                            detail::many_batch(f, howmany, idist, odist), {in, out, nullptr, nullptr},
                            {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}

template <Real T>
C2RPlan<T> plan_many_dft_c2r(const std::vector<std::int64_t>& n, std::int64_t howmany, std::complex<T>* in,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist, T* out,
                             const std::vector<std::int64_t>& onembed, std::int64_t ostride, std::int64_t odist,
                             PlanFlags flags, const trncore::Options& options) {
  const char* f = "trnfft::plan_many_dft_c2r";
  return detail::PlanState<T>::template wrap<C2RPlan<T>>(
      detail::make_state<T>(f, Kind::c2r, ComplexLayout::interleaved, Direction::backward,
                            detail::many_dims(f, n, inembed, istride, onembed, ostride, Kind::c2r),
                            detail::many_batch(f, howmany, idist, odist), {in, out, nullptr, nullptr},
                            {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}

template <Real T>
C2CPlan<T> plan_dft(const std::vector<std::int64_t>& n, std::complex<T>* in, std::complex<T>* out, Direction direction,
                    PlanFlags flags, const trncore::Options& options) {
  const char* f = "trnfft::plan_dft";
  return detail::PlanState<T>::template wrap<C2CPlan<T>>(detail::make_state<T>(
      f, Kind::c2c, ComplexLayout::interleaved, direction, detail::many_dims(f, n, {}, 1, {}, 1, Kind::c2c), {},
      {in, out, nullptr, nullptr}, {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}
template <Real T>
C2CPlan<T> plan_dft_1d(std::int64_t n0, std::complex<T>* in, std::complex<T>* out, Direction direction, PlanFlags flags,
                       const trncore::Options& options) {
  return plan_dft<T>({n0}, in, out, direction, flags, options);
}
template <Real T>
C2CPlan<T> plan_dft_2d(std::int64_t n0, std::int64_t n1, std::complex<T>* in, std::complex<T>* out, Direction direction,
                       PlanFlags flags, const trncore::Options& options) {
  return plan_dft<T>({n0, n1}, in, out, direction, flags, options);
}

namespace {
// The real side's embedding of the basic r2c/c2r interface: rows padded to 2(n/2 + 1) reals in place.
std::vector<std::int64_t> padded_real_embed(const char* function, const std::vector<std::int64_t>& n, bool in_place) {
  if (!in_place || n.empty()) return {};
  for (std::size_t k = 0; k < n.size(); ++k)
    if (n[k] < 1)
      throw trncore::InvalidArgument(function, "n[" + std::to_string(k) + "] = " + std::to_string(n[k]),
                                     "every transform length must be >= 1");
  std::vector<std::int64_t> e = n;
  e.back() = 2 * (n.back() / 2 + 1);
  return e;
}
}  // namespace

template <Real T>
R2CPlan<T> plan_dft_r2c(const std::vector<std::int64_t>& n, T* in, std::complex<T>* out, PlanFlags flags,
                        const trncore::Options& options) {
  const char* f = "trnfft::plan_dft_r2c";
  const bool in_place = in != nullptr && static_cast<void*>(in) == static_cast<void*>(out);
  return detail::PlanState<T>::template wrap<R2CPlan<T>>(
      detail::make_state<T>(f, Kind::r2c, ComplexLayout::interleaved, Direction::forward,
                            detail::many_dims(f, n, padded_real_embed(f, n, in_place), 1, {}, 1, Kind::r2c), {},
                            {in, out, nullptr, nullptr}, {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}
template <Real T>
R2CPlan<T> plan_dft_r2c_1d(std::int64_t n0, T* in, std::complex<T>* out, PlanFlags flags,
                           const trncore::Options& options) {
  return plan_dft_r2c<T>({n0}, in, out, flags, options);
}
template <Real T>
R2CPlan<T> plan_dft_r2c_2d(std::int64_t n0, std::int64_t n1, T* in, std::complex<T>* out, PlanFlags flags,
                           const trncore::Options& options) {
  return plan_dft_r2c<T>({n0, n1}, in, out, flags, options);
}

template <Real T>
C2RPlan<T> plan_dft_c2r(const std::vector<std::int64_t>& n, std::complex<T>* in, T* out, PlanFlags flags,
                        const trncore::Options& options) {
  const char* f = "trnfft::plan_dft_c2r";
  const bool in_place = out != nullptr && static_cast<void*>(in) == static_cast<void*>(out);
  return detail::PlanState<T>::template wrap<C2RPlan<T>>(
      detail::make_state<T>(f, Kind::c2r, ComplexLayout::interleaved, Direction::backward,
                            detail::many_dims(f, n, {}, 1, padded_real_embed(f, n, in_place), 1, Kind::c2r), {},
                            {in, out, nullptr, nullptr}, {"in", "out", nullptr, nullptr}, 1, 1, flags, options));
}
template <Real T>
C2RPlan<T> plan_dft_c2r_1d(std::int64_t n0, std::complex<T>* in, T* out, PlanFlags flags,
                           const trncore::Options& options) {
  return plan_dft_c2r<T>({n0}, in, out, flags, options);
}
template <Real T>
C2RPlan<T> plan_dft_c2r_2d(std::int64_t n0, std::int64_t n1, std::complex<T>* in, T* out, PlanFlags flags,
                           const trncore::Options& options) {
  return plan_dft_c2r<T>({n0, n1}, in, out, flags, options);
}

#define TRNFFT_INSTANTIATE(T)                                                                                          \
  template class Plan<T>;                                                                                              \
  template class C2CPlan<T>;                                                                                           \
  template class R2CPlan<T>;                                                                                           \
  template class C2RPlan<T>;                                                                                           \
  template C2CPlan<T> plan_guru_dft<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, std::complex<T>*,         \
                                       std::complex<T>*, Direction, PlanFlags, const trncore::Options&);               \
  template C2CPlan<T> plan_guru_split_dft<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, T*, T*, T*, T*,     \
                                             Direction, PlanFlags, const trncore::Options&);                           \
  template R2CPlan<T> plan_guru_dft_r2c<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, T*, std::complex<T>*, \
                                           PlanFlags, const trncore::Options&);                                        \
  template R2CPlan<T> plan_guru_split_dft_r2c<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, T*, T*, T*,     \
                                                 PlanFlags, const trncore::Options&);                                  \
  template C2RPlan<T> plan_guru_dft_c2r<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, std::complex<T>*, T*, \
                                           PlanFlags, const trncore::Options&);                                        \
  template C2RPlan<T> plan_guru_split_dft_c2r<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, T*, T*, T*,     \
                                                 PlanFlags, const trncore::Options&);                                  \
  template C2CPlan<T> plan_many_dft<T>(const std::vector<std::int64_t>&, std::int64_t, std::complex<T>*,               \
                                       const std::vector<std::int64_t>&, std::int64_t, std::int64_t, std::complex<T>*, \
                                       const std::vector<std::int64_t>&, std::int64_t, std::int64_t, Direction,        \
                                       PlanFlags, const trncore::Options&);                                            \
  template R2CPlan<T> plan_many_dft_r2c<T>(const std::vector<std::int64_t>&, std::int64_t, T*,                         \
                                           const std::vector<std::int64_t>&, std::int64_t, std::int64_t,               \
                                           std::complex<T>*, const std::vector<std::int64_t>&, std::int64_t,           \
                                           std::int64_t, PlanFlags, const trncore::Options&);                          \
  template C2RPlan<T> plan_many_dft_c2r<T>(const std::vector<std::int64_t>&, std::int64_t, std::complex<T>*,           \
                                           const std::vector<std::int64_t>&, std::int64_t, std::int64_t, T*,           \
                                           const std::vector<std::int64_t>&, std::int64_t, std::int64_t, PlanFlags,    \
                                           const trncore::Options&);                                                   \
  template C2CPlan<T> plan_dft<T>(const std::vector<std::int64_t>&, std::complex<T>*, std::complex<T>*, Direction,     \
                                  PlanFlags, const trncore::Options&);                                                 \
  template C2CPlan<T> plan_dft_1d<T>(std::int64_t, std::complex<T>*, std::complex<T>*, Direction, PlanFlags,           \
                                     const trncore::Options&);                                                         \
  template C2CPlan<T> plan_dft_2d<T>(std::int64_t, std::int64_t, std::complex<T>*, std::complex<T>*, Direction,        \
                                     PlanFlags, const trncore::Options&);                                              \
  template R2CPlan<T> plan_dft_r2c<T>(const std::vector<std::int64_t>&, T*, std::complex<T>*, PlanFlags,               \
                                      const trncore::Options&);                                                        \
  template R2CPlan<T> plan_dft_r2c_1d<T>(std::int64_t, T*, std::complex<T>*, PlanFlags, const trncore::Options&);      \
  template R2CPlan<T> plan_dft_r2c_2d<T>(std::int64_t, std::int64_t, T*, std::complex<T>*, PlanFlags,                  \
                                         const trncore::Options&);                                                     \
  template C2RPlan<T> plan_dft_c2r<T>(const std::vector<std::int64_t>&, std::complex<T>*, T*, PlanFlags,               \
                                      const trncore::Options&);                                                        \
  template C2RPlan<T> plan_dft_c2r_1d<T>(std::int64_t, std::complex<T>*, T*, PlanFlags, const trncore::Options&);      \
  template C2RPlan<T> plan_dft_c2r_2d<T>(std::int64_t, std::int64_t, std::complex<T>*, T*, PlanFlags,                  \
                                         const trncore::Options&);

TRNFFT_INSTANTIATE(float)
TRNFFT_INSTANTIATE(double)
#undef TRNFFT_INSTANTIATE

}  // namespace trnfft
