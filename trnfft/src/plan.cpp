// trnfft plans, backend-independent (docs/trnfft.md, "Plans"): option checks, every plan_* interface
// (guru, advanced, basic) reduced to one generic creation path (geometry checks in geometry.cpp), the Plan
// object, new-array execute with the checks FFTW's rules require, and dispatch to the plan's Executor
// (FFTW on host, host/fftw_executor.cpp; the TensorEngine model on sim, sim/sim_executor.cpp).
#include "checks.hpp"
#include "executor.hpp"
#include "geometry.hpp"
#include "plan_state.hpp"
#include "sim/sim_executor.hpp"

#include <trncore/detail/checks.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/threads.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace trnfft {

namespace detail {

ArrayRoles array_roles(Kind kind, ComplexLayout layout) noexcept {
  if (layout == ComplexLayout::interleaved) return {1, 1, {"in", "out", nullptr, nullptr}};
  switch (kind) {
    case Kind::c2c: return {2, 2, {"ri", "ii", "ro", "io"}};
    case Kind::r2c: return {1, 2, {"in", "ro", "io", nullptr}};
    case Kind::c2r: return {2, 1, {"ri", "ii", "out", nullptr}};
  }
  return {1, 1, {"in", "out", nullptr, nullptr}};
}

using trncore::InvalidArgument;
using trncore::NotSupported;

template <Real T>
void check_options(const char* function, const PlanOptions& options) {
  trncore::validate(options, function);
  if (options.backend == trncore::Backend::sim) {
    // The math mode is checked here under the caller's name; the target by the sim planner, which knows the
    // transform's bound.
    (void)sim::requested_precision(function, options);
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
  if (options.refine)
    throw NotSupported(function, "refine is set for a host plan",
                       "refine is a sim-backend option (math_mode bf16 with backend sim); unset it");
  if (options.target_forward_error)
    throw NotSupported(function,
                       "target_forward_error " + trncore::detail::sci(*options.target_forward_error) +
                           " cannot be certified by host FFT plans",
                       "leave it unset; the host error is O(u log2 N) (docs/trnfft.md, Accuracy)");
}

template void check_options<float>(const char*, const PlanOptions&);
template void check_options<double>(const char*, const PlanOptions&);

namespace {

// Every plan_* function, once its interface's geometry is in guru form: the checked state, and the
// backend's executor planned on the creation arrays.
template <Real T>
std::unique_ptr<PlanState<T>> make_state(const char* function, Kind kind, ComplexLayout layout, Direction direction,
                                         const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, Arrays arrays,
                                         const PlanOptions& options) {
  check_options<T>(function, options);
  if (dims.empty()) throw InvalidArgument(function, "no transform dimensions (rank 0)", "pass at least one dimension");
  if (dims.size() + batch.size() > 64)
    throw InvalidArgument(
        function, "rank " + std::to_string(dims.size()) + " with " + std::to_string(batch.size()) + " batch dimensions",
        "use at most 64 dimensions in all (merge contiguous dimensions)");
  if (direction != Direction::forward && direction != Direction::backward)
    throw InvalidArgument(function, "invalid direction " + std::to_string(static_cast<int>(direction)),
                          "use Direction::forward or Direction::backward");
  if (options.rigor != Rigor::estimate && options.rigor != Rigor::measure && options.rigor != Rigor::patient &&
      options.rigor != Rigor::exhaustive)
    throw InvalidArgument(function, "invalid rigor " + std::to_string(static_cast<int>(options.rigor)),
                          "use Rigor::estimate, measure, patient or exhaustive");
  const auto [nread, nwrite, names] = array_roles(kind, layout);
  auto state = std::make_unique<PlanState<T>>();
  Geometry& g = state->geometry;
  g.kind = kind;
  g.layout = layout;
  g.direction = direction;
  g.dims = dims;
  g.batch = batch;
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
  for (const IoDim& d : dims) g.transform_size = checked_mul(function, g.transform_size, d.n, "the transform size");
  for (const IoDim& d : batch) g.batch_count = checked_mul(function, g.batch_count, d.n, "the batch count");
  checked_mul(function, g.transform_size, g.batch_count, "the number of points");

  const bool complex_in = kind == Kind::c2c || kind == Kind::c2r;
  const bool complex_out = kind == Kind::c2c || kind == Kind::r2c;
  const bool interleaved = layout == ComplexLayout::interleaved;
  const std::size_t real = sizeof(T);
  const std::size_t cplx = sizeof(std::complex<T>);
  g.input_extent = array_extent(function, names[0], dims, batch, true, kind == Kind::c2r);
  g.output_extent = array_extent(function, names[nread], dims, batch, false, kind == Kind::r2c);
  state->arrays = arrays;
  state->names = names;
  g.nread = nread;
  g.nwrite = nwrite;
  for (int i = 0; i < nread; ++i) state->element_size[i] = complex_in && interleaved ? cplx : real;
  for (int j = 0; j < nwrite; ++j) state->element_size[nread + j] = complex_out && interleaved ? cplx : real;
  for (int i = 0; i < nread + nwrite; ++i) {
    const std::int64_t extent = i < nread ? g.input_extent : g.output_extent;
    checked_mul(function, extent, static_cast<std::int64_t>(state->element_size[i]), "the array size in bytes");
    trncore::detail::check_pointer(function, names[i], arrays[i], extent);
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
  g.in_place = state->aliasing != 0;
  if (!g.in_place)
    for (int i = 0; i < nread; ++i)
      for (int j = nread; j < nread + nwrite; ++j)
        if (ranges_intersect(arrays[i], g.input_extent * static_cast<std::int64_t>(state->element_size[i]), arrays[j],
                             g.output_extent * static_cast<std::int64_t>(state->element_size[j])))
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
  if (options.threads > 0)
    g.threads = options.threads;
  else
    g.threads = g.transform_size * g.batch_count >= (std::int64_t{1} << 17) ? trncore::default_threads() : 1;

  state->executor = options.backend == trncore::Backend::sim ? make_sim_executor<T>(function, g, arrays, options)
                                                             : make_fftw_executor<T>(function, g, arrays, options);
  return state;
}

// The plan type of each kind.
template <Real T, Kind K>
using PlanOf =
    std::conditional_t<K == Kind::c2c, C2CPlan<T>, std::conditional_t<K == Kind::r2c, R2CPlan<T>, C2RPlan<T>>>;

// The one generic creation path: the guru geometry of any interface, arrays in Arrays order.
template <Real T, Kind K>
PlanOf<T, K> make_plan(const char* function, ComplexLayout layout, Direction direction, const std::vector<IoDim>& dims,
                       const std::vector<IoDim>& batch, Arrays arrays, const PlanOptions& options) {
  if constexpr (K == Kind::r2c) direction = Direction::forward;
  if constexpr (K == Kind::c2r) direction = Direction::backward;
  return PlanState<T>::template wrap<PlanOf<T, K>>(
      make_state<T>(function, K, layout, direction, dims, batch, arrays, options));
}

// The advanced interface (plan_many_*) in guru form.
template <Real T, Kind K>
PlanOf<T, K> make_many_plan(const char* function, const std::vector<std::int64_t>& n, std::int64_t howmany, void* in,
                            const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist,
                            void* out, const std::vector<std::int64_t>& onembed, std::int64_t ostride,
                            std::int64_t odist, Direction direction, const PlanOptions& options) {
  return make_plan<T, K>(function, ComplexLayout::interleaved, direction,
                         many_dims(function, n, inembed, istride, onembed, ostride, K),
                         many_batch(function, howmany, idist, odist), {in, out, nullptr, nullptr}, options);
}

// The basic interface (plan_dft*) in guru form: one contiguous row-major transform; in-place r2c/c2r pad
// the real rows to 2(n/2 + 1) reals.
template <Real T, Kind K>
PlanOf<T, K> make_basic_plan(const char* function, const std::vector<std::int64_t>& n, void* in, void* out,
                             Direction direction, const PlanOptions& options) {
  const bool in_place = in != nullptr && in == out;
  std::vector<std::int64_t> in_embed, out_embed;
  if constexpr (K == Kind::r2c) in_embed = padded_real_embed(function, n, in_place);
  if constexpr (K == Kind::c2r) out_embed = padded_real_embed(function, n, out != nullptr && in_place);
  return make_plan<T, K>(function, ComplexLayout::interleaved, direction,
                         many_dims(function, n, in_embed, 1, out_embed, 1, K), {}, {in, out, nullptr, nullptr},
                         options);
}

}  // namespace

template <Real T>
void PlanState<T>::check_new_arrays(const char* function, const Arrays& a) const {
  const int nread = geometry.nread;
  const int total = nread + geometry.nwrite;
  const Kind kind = geometry.kind;
  const bool in_place = geometry.in_place;
  for (int i = 0; i < total; ++i)  // the check's call only when it throws: this runs on every execute
    if (a[i] == nullptr)
      trncore::detail::check_pointer(function, names[i], a[i],
                                     i < nread ? geometry.input_extent : geometry.output_extent);
  unsigned alias = 0;
  for (int i = 0; i < nread; ++i)
    for (int j = 0; j < geometry.nwrite; ++j)
      if (a[i] == a[nread + j]) alias |= 1u << (i * 4 + j);
  if (alias != aliasing)
    throw InvalidArgument(function,
                          std::string("the plan was made ") + (in_place ? "in-place" : "out-of-place") +
                              " but the new arrays are " + (alias != 0 ? "in-place" : "out-of-place"),
                          "execute on arrays with the plan's in-place-ness, or make another plan");
  if (!in_place)
    for (int i = 0; i < nread; ++i)
      for (int j = nread; j < total; ++j)
        if (ranges_intersect(a[i], geometry.input_extent * static_cast<std::int64_t>(element_size[i]), a[j],
                             geometry.output_extent * static_cast<std::int64_t>(element_size[j])))
          throw InvalidArgument(function,
                                std::string("input array '") + names[i] + "' and output array '" + names[j] +
                                    "' overlap but are not the same array",
                                "use disjoint arrays for an out-of-place plan");
  executor->check_arrays(function, a);
  if (geometry.layout == ComplexLayout::split) {
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
  return state("trnfft::Plan::kind").geometry.kind;
}
template <Real T>
ComplexLayout Plan<T>::layout() const {
  return state("trnfft::Plan::layout").geometry.layout;
}
template <Real T>
Direction Plan<T>::direction() const {
  return state("trnfft::Plan::direction").geometry.direction;
}
template <Real T>
const std::vector<IoDim>& Plan<T>::dims() const {
  return state("trnfft::Plan::dims").geometry.dims;
}
template <Real T>
const std::vector<IoDim>& Plan<T>::batch() const {
  return state("trnfft::Plan::batch").geometry.batch;
}
template <Real T>
bool Plan<T>::in_place() const {
  return state("trnfft::Plan::in_place").geometry.in_place;
}
template <Real T>
std::int64_t Plan<T>::input_extent() const {
  return state("trnfft::Plan::input_extent").geometry.input_extent;
}
template <Real T>
std::int64_t Plan<T>::output_extent() const {
  return state("trnfft::Plan::output_extent").geometry.output_extent;
}
template <Real T>
std::int64_t Plan<T>::transform_size() const {
  return state("trnfft::Plan::transform_size").geometry.transform_size;
}
template <Real T>
std::int64_t Plan<T>::batch_count() const {
  return state("trnfft::Plan::batch_count").geometry.batch_count;
}
template <Real T>
int Plan<T>::threads() const {
  return state("trnfft::Plan::threads").geometry.threads;
}
template <Real T>
std::string Plan<T>::description() const {
  return state("trnfft::Plan::description").description();
}

template <Real T>
std::string Plan<T>::algorithm() const {
  return state("trnfft::Plan::algorithm").executor->algorithm();
}

template <Real T>
void Plan<T>::execute() const {
  state("trnfft::Plan::execute").executor->execute("trnfft::Plan::execute", nullptr, nullptr);
}

template <Real T>
void Plan<T>::execute(trncore::AccuracyReport& report) const {
  const auto& s = state("trnfft::Plan::execute");
  if (!s.executor->certifies())
    throw trncore::NotSupported("trnfft::Plan::execute", "a host (FFTW) plan certifies no error bound to report",
                                "call execute() without a report, or make the plan with backend sim");
  s.executor->execute("trnfft::Plan::execute", nullptr, &report);
}

template <Real T>
trncore::AccuracyReport Plan<T>::accuracy() const {
  const auto& s = state("trnfft::Plan::accuracy");
  if (!s.executor->certifies())
    throw trncore::NotSupported("trnfft::Plan::accuracy", "a host (FFTW) plan certifies no error bound",
                                "see docs/trnfft.md (Accuracy) for FFTW's O(u log2 N) error; make the plan with "
                                "backend sim for a certified bound");
  return s.executor->a_priori_report();
}

namespace {
template <Real T>
const detail::PlanState<T>& checked(const detail::PlanState<T>* s, const char* function, ComplexLayout layout) {
  if (s == nullptr)
    throw trncore::InvalidArgument(function, "the plan is empty (default-constructed or moved from)",
                                   "create it with a plan_* function");
  if (s->geometry.layout != layout)
    throw trncore::InvalidArgument(function,
                                   "the plan was made for the " + std::string(to_string(s->geometry.layout)) +
                                       " layout but execute was called for the " + std::string(to_string(layout)),
                                   layout == ComplexLayout::split ? "call execute(...) with interleaved arrays"
                                                                  : "call execute_split(...) with split arrays");
  return *s;
}

// New-array execute, every form: the layout, the arrays against the creation arrays, then the executor;
// with a report only on a plan that certifies.
template <Real T>
void run_new_arrays(const detail::PlanState<T>* state, const char* function, ComplexLayout layout,
                    const detail::Arrays& arrays, trncore::AccuracyReport* report) {
  const auto& s = checked(state, function, layout);
  if (report != nullptr && !s.executor->certifies())
    throw trncore::NotSupported(function, "a host (FFTW) plan certifies no error bound to report",
                                "call execute without a report, or make the plan with backend sim");
  s.check_new_arrays(function, arrays);
  s.executor->execute(function, &arrays, report);
}

template <Real T>
void check_spans(const detail::PlanState<T>* state, const char* function, std::size_t in, std::size_t out) {
  const auto& s = checked(state, function, ComplexLayout::interleaved);
  trncore::detail::check_span(function, "in", in, s.geometry.input_extent);
  trncore::detail::check_span(function, "out", out, s.geometry.output_extent);
}

template <class E>
void* mut(const E* p) {
  return const_cast<E*>(p);
}
}  // namespace

template <Real T>
void C2CPlan<T>::execute(const std::complex<T>* in, std::complex<T>* out) const {
  run_new_arrays(this->state_.get(), "trnfft::C2CPlan::execute", ComplexLayout::interleaved,
                 {mut(in), out, nullptr, nullptr}, nullptr);
}
template <Real T>
void C2CPlan<T>::execute(const std::complex<T>* in, std::complex<T>* out, trncore::AccuracyReport& report) const {
  run_new_arrays(this->state_.get(), "trnfft::C2CPlan::execute", ComplexLayout::interleaved,
                 {mut(in), out, nullptr, nullptr}, &report);
}
template <Real T>
void C2CPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const {
  check_spans(this->state_.get(), "trnfft::C2CPlan::execute", in.size(), out.size());
  execute(in.data(), out.data());
}
template <Real T>
void C2CPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out,
                         trncore::AccuracyReport& report) const {
  check_spans(this->state_.get(), "trnfft::C2CPlan::execute", in.size(), out.size());
  execute(in.data(), out.data(), report);
}
template <Real T>
void C2CPlan<T>::execute_split(const T* ri, const T* ii, T* ro, T* io) const {
  run_new_arrays(this->state_.get(), "trnfft::C2CPlan::execute_split", ComplexLayout::split, {mut(ri), mut(ii), ro, io},
                 nullptr);
}
template <Real T>
void C2CPlan<T>::execute_split(const T* ri, const T* ii, T* ro, T* io, trncore::AccuracyReport& report) const {
  run_new_arrays(this->state_.get(), "trnfft::C2CPlan::execute_split", ComplexLayout::split, {mut(ri), mut(ii), ro, io},
                 &report);
}

template <Real T>
void R2CPlan<T>::execute(const T* in, std::complex<T>* out) const {
  run_new_arrays(this->state_.get(), "trnfft::R2CPlan::execute", ComplexLayout::interleaved,
                 {mut(in), out, nullptr, nullptr}, nullptr);
}
template <Real T>
void R2CPlan<T>::execute(const T* in, std::complex<T>* out, trncore::AccuracyReport& report) const {
  run_new_arrays(this->state_.get(), "trnfft::R2CPlan::execute", ComplexLayout::interleaved,
                 {mut(in), out, nullptr, nullptr}, &report);
}
template <Real T>
void R2CPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out) const {
  check_spans(this->state_.get(), "trnfft::R2CPlan::execute", in.size(), out.size());
  execute(in.data(), out.data());
}
template <Real T>
void R2CPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out, trncore::AccuracyReport& report) const {
  check_spans(this->state_.get(), "trnfft::R2CPlan::execute", in.size(), out.size());
  execute(in.data(), out.data(), report);
}
template <Real T>
void R2CPlan<T>::execute_split(const T* in, T* ro, T* io) const {
  run_new_arrays(this->state_.get(), "trnfft::R2CPlan::execute_split", ComplexLayout::split, {mut(in), ro, io, nullptr},
                 nullptr);
}
template <Real T>
void R2CPlan<T>::execute_split(const T* in, T* ro, T* io, trncore::AccuracyReport& report) const {
  run_new_arrays(this->state_.get(), "trnfft::R2CPlan::execute_split", ComplexLayout::split, {mut(in), ro, io, nullptr},
                 &report);
}

template <Real T>
void C2RPlan<T>::execute(std::complex<T>* in, T* out) const {
  run_new_arrays(this->state_.get(), "trnfft::C2RPlan::execute", ComplexLayout::interleaved,
                 {in, out, nullptr, nullptr}, nullptr);
}
template <Real T>
void C2RPlan<T>::execute(std::complex<T>* in, T* out, trncore::AccuracyReport& report) const {
  run_new_arrays(this->state_.get(), "trnfft::C2RPlan::execute", ComplexLayout::interleaved,
                 {in, out, nullptr, nullptr}, &report);
}
template <Real T>
void C2RPlan<T>::execute(std::span<std::complex<T>> in, std::span<T> out) const {
  check_spans(this->state_.get(), "trnfft::C2RPlan::execute", in.size(), out.size());
  execute(in.data(), out.data());
}
template <Real T>
void C2RPlan<T>::execute(std::span<std::complex<T>> in, std::span<T> out, trncore::AccuracyReport& report) const {
  check_spans(this->state_.get(), "trnfft::C2RPlan::execute", in.size(), out.size());
  execute(in.data(), out.data(), report);
}
template <Real T>
void C2RPlan<T>::execute_split(T* ri, T* ii, T* out) const {
  run_new_arrays(this->state_.get(), "trnfft::C2RPlan::execute_split", ComplexLayout::split, {ri, ii, out, nullptr},
                 nullptr);
}
template <Real T>
void C2RPlan<T>::execute_split(T* ri, T* ii, T* out, trncore::AccuracyReport& report) const {
  run_new_arrays(this->state_.get(), "trnfft::C2RPlan::execute_split", ComplexLayout::split, {ri, ii, out, nullptr},
                 &report);
}

// ---- Plan creation: every interface through detail::make_plan ----

using detail::make_basic_plan;
using detail::make_many_plan;
using detail::make_plan;
constexpr auto kInterleaved = ComplexLayout::interleaved;
constexpr auto kSplit = ComplexLayout::split;

template <Real T>
C2CPlan<T> plan_guru_dft(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, std::complex<T>* in,
                         std::complex<T>* out, Direction direction, const PlanOptions& options) {
  return make_plan<T, Kind::c2c>("trnfft::plan_guru_dft", kInterleaved, direction, dims, batch,
                                 {in, out, nullptr, nullptr}, options);
}
template <Real T>
C2CPlan<T> plan_guru_split_dft(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* ri, T* ii, T* ro,
                               T* io, Direction direction, const PlanOptions& options) {
  return make_plan<T, Kind::c2c>("trnfft::plan_guru_split_dft", kSplit, direction, dims, batch, {ri, ii, ro, io},
                                 options);
}
template <Real T>
R2CPlan<T> plan_guru_dft_r2c(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* in,
                             std::complex<T>* out, const PlanOptions& options) {
  return make_plan<T, Kind::r2c>("trnfft::plan_guru_dft_r2c", kInterleaved, Direction::forward, dims, batch,
                                 {in, out, nullptr, nullptr}, options);
}
template <Real T>
R2CPlan<T> plan_guru_split_dft_r2c(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* in, T* ro, T* io,
                                   const PlanOptions& options) {
  return make_plan<T, Kind::r2c>("trnfft::plan_guru_split_dft_r2c", kSplit, Direction::forward, dims, batch,
                                 {in, ro, io, nullptr}, options);
}
template <Real T>
C2RPlan<T> plan_guru_dft_c2r(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, std::complex<T>* in,
                             T* out, const PlanOptions& options) {
  return make_plan<T, Kind::c2r>("trnfft::plan_guru_dft_c2r", kInterleaved, Direction::backward, dims, batch,
                                 {in, out, nullptr, nullptr}, options);
}
template <Real T>
C2RPlan<T> plan_guru_split_dft_c2r(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* ri, T* ii,
                                   T* out, const PlanOptions& options) {
  return make_plan<T, Kind::c2r>("trnfft::plan_guru_split_dft_c2r", kSplit, Direction::backward, dims, batch,
                                 {ri, ii, out, nullptr}, options);
}

template <Real T>
C2CPlan<T> plan_many_dft(const std::vector<std::int64_t>& n, std::int64_t howmany, std::complex<T>* in,
                         const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist,
                         std::complex<T>* out, const std::vector<std::int64_t>& onembed, std::int64_t ostride,
                         std::int64_t odist, Direction direction, const PlanOptions& options) {
  return make_many_plan<T, Kind::c2c>("trnfft::plan_many_dft", n, howmany, in, inembed, istride, idist, out, onembed,
                                      ostride, odist, direction, options);
}
template <Real T>
R2CPlan<T> plan_many_dft_r2c(const std::vector<std::int64_t>& n, std::int64_t howmany, T* in,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist,
                             std::complex<T>* out, const std::vector<std::int64_t>& onembed, std::int64_t ostride,
                             std::int64_t odist, const PlanOptions& options) {
  return make_many_plan<T, Kind::r2c>("trnfft::plan_many_dft_r2c", n, howmany, in, inembed, istride, idist, out,
                                      onembed, ostride, odist, Direction::forward, options);
}
template <Real T>
C2RPlan<T> plan_many_dft_c2r(const std::vector<std::int64_t>& n, std::int64_t howmany, std::complex<T>* in,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist, T* out,
                             const std::vector<std::int64_t>& onembed, std::int64_t ostride, std::int64_t odist,
                             const PlanOptions& options) {
  return make_many_plan<T, Kind::c2r>("trnfft::plan_many_dft_c2r", n, howmany, in, inembed, istride, idist, out,
                                      onembed, ostride, odist, Direction::backward, options);
}

template <Real T>
C2CPlan<T> plan_dft(const std::vector<std::int64_t>& n, std::complex<T>* in, std::complex<T>* out, Direction direction,
                    const PlanOptions& options) {
  return make_basic_plan<T, Kind::c2c>("trnfft::plan_dft", n, in, out, direction, options);
}
template <Real T>
R2CPlan<T> plan_dft_r2c(const std::vector<std::int64_t>& n, T* in, std::complex<T>* out, const PlanOptions& options) {
  return make_basic_plan<T, Kind::r2c>("trnfft::plan_dft_r2c", n, in, out, Direction::forward, options);
}
template <Real T>
C2RPlan<T> plan_dft_c2r(const std::vector<std::int64_t>& n, std::complex<T>* in, T* out, const PlanOptions& options) {
  return make_basic_plan<T, Kind::c2r>("trnfft::plan_dft_c2r", n, in, out, Direction::backward, options);
}

#define TRNFFT_INSTANTIATE(T)                                                                                          \
  template class Plan<T>;                                                                                              \
  template class C2CPlan<T>;                                                                                           \
  template class R2CPlan<T>;                                                                                           \
  template class C2RPlan<T>;                                                                                           \
  template C2CPlan<T> plan_guru_dft<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, std::complex<T>*,         \
                                       std::complex<T>*, Direction, const PlanOptions&);                               \
  template C2CPlan<T> plan_guru_split_dft<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, T*, T*, T*, T*,     \
                                             Direction, const PlanOptions&);                                           \
  template R2CPlan<T> plan_guru_dft_r2c<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, T*, std::complex<T>*, \
                                           const PlanOptions&);                                                        \
  template R2CPlan<T> plan_guru_split_dft_r2c<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, T*, T*, T*,     \
                                                 const PlanOptions&);                                                  \
  template C2RPlan<T> plan_guru_dft_c2r<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, std::complex<T>*, T*, \
                                           const PlanOptions&);                                                        \
  template C2RPlan<T> plan_guru_split_dft_c2r<T>(const std::vector<IoDim>&, const std::vector<IoDim>&, T*, T*, T*,     \
                                                 const PlanOptions&);                                                  \
  template C2CPlan<T> plan_many_dft<T>(const std::vector<std::int64_t>&, std::int64_t, std::complex<T>*,               \
                                       const std::vector<std::int64_t>&, std::int64_t, std::int64_t, std::complex<T>*, \
                                       const std::vector<std::int64_t>&, std::int64_t, std::int64_t, Direction,        \
                                       const PlanOptions&);                                                            \
  template R2CPlan<T> plan_many_dft_r2c<T>(const std::vector<std::int64_t>&, std::int64_t, T*,                         \
                                           const std::vector<std::int64_t>&, std::int64_t, std::int64_t,               \
                                           std::complex<T>*, const std::vector<std::int64_t>&, std::int64_t,           \
                                           std::int64_t, const PlanOptions&);                                          \
  template C2RPlan<T> plan_many_dft_c2r<T>(const std::vector<std::int64_t>&, std::int64_t, std::complex<T>*,           \
                                           const std::vector<std::int64_t>&, std::int64_t, std::int64_t, T*,           \
                                           const std::vector<std::int64_t>&, std::int64_t, std::int64_t,               \
                                           const PlanOptions&);                                                        \
  template C2CPlan<T> plan_dft<T>(const std::vector<std::int64_t>&, std::complex<T>*, std::complex<T>*, Direction,     \
                                  const PlanOptions&);                                                                 \
  template R2CPlan<T> plan_dft_r2c<T>(const std::vector<std::int64_t>&, T*, std::complex<T>*, const PlanOptions&);     \
  template C2RPlan<T> plan_dft_c2r<T>(const std::vector<std::int64_t>&, std::complex<T>*, T*, const PlanOptions&);

TRNFFT_INSTANTIATE(float)
TRNFFT_INSTANTIATE(double)
#undef TRNFFT_INSTANTIATE

}  // namespace trnfft
