#pragma once
/// @file
/// FFTW-style plans: created once for a geometry and a set of arrays, executed many times, on those
/// arrays or on others of the same layout (new-array execute). Host backend: FFTW 3 (fftw3, fftw3f); sim
/// backend: the modelled TensorEngine (docs/trnfft.md, "Sim backend").
///
/// Conventions shared by everything here (docs/trnfft.md):
/// - T is float or double. Interleaved complex arrays hold std::complex<T>; split complex arrays are two
///   arrays of T (real parts, imaginary parts).
/// - The geometry is FFTW's guru geometry: transform dimensions `dims` (row-major order: the last one
///   varies fastest in the usual contiguous layout, and for r2c/c2r it is the halved one) and batch
///   dimensions `batch`, each an IoDim {n, is, os} with strides in elements of the array's type. Every
///   n ≥ 1; strides of dimensions with n > 1 are positive and the elements of one array do not overlap.
/// - Transforms are unnormalised: a forward then a backward transform multiplies by N = Π dims[k].n.
///   r2c computes the forward transform of real input and stores the n/2 + 1 non-redundant outputs
///   along the last dimension; c2r computes the backward transform of such a half spectrum, assuming
///   Hermitian symmetry (for input that is not Hermitian the result is that of some Hermitian input: the
///   imaginary parts of the self-conjugate entries are ignored; do not rely on more).
/// - In-place: the output array is the input array (interleaved c2c: in == out; split c2c: ri == ro and
///   ii == io; r2c/c2r: the real array starts where the complex one does). In-place r2c/c2r need the
///   padded layout: the real array's last dimension has room for 2·(n/2 + 1) reals.
/// - Accuracy: FFTW's algorithms have normwise error ‖ŷ − y‖₂ ≤ c·u·log2(N)·‖y‖₂ with a small constant c
///   (Higham, ASNA 2nd ed., Thm 24.2 gives c ≈ 6.7 for radix-2 Cooley–Tukey with accurate twiddles;
///   FFTW's root-mean-square errors grow like u·√log N), u = 2^-24 (float) or 2^-53 (double).
/// - Thread safety: FFTW's planner is not thread-safe. trnfft serialises everything that touches it —
///   plan creation, plan destruction, wisdom, threads set-up — with one mutex (planner_mutex()).
///   Executing distinct plans, or one plan on distinct arrays via new-array execute, from many threads at
///   once is safe. A program that also calls FFTW's planner directly must hold planner_mutex() meanwhile.
/// - Options: every plan_* function takes one PlanOptions (types.hpp): trncore::Options plus FFTW's planner
///   flags (rigor, preserve_input, unaligned) and the sim refinement (refine). A plain trncore::Options
///   converts to it.
/// - Options, backend sim (any rank, one 1-D pass per axis; docs/trnfft.md "Sim backend"): the transform runs
///   as trnblas sim GEMMs (DFT-as-GEMM, Stockham, Bluestein) in options.math_mode (automatic, fp32, bf16,
///   compensated, ozaki; bf16 with options.refine is bf16_refined); with automatic, target_forward_error
///   picks the cheapest mode whose bound meets it. The execute overloads taking a trncore::AccuracyReport&
///   (last) give each run's certified bound; those without one throw TargetNotMet whenever it is not met.
/// - Options, backend host: math_mode automatic or the precision of T (fp32 for float, fp64 for
///   double); target_forward_error is not supported on host plans (NotSupported). options.threads: FFTW
///   threads for execution; 0 = one thread below 2^17 points per plan (where FFTW's threaded algorithms
///   cost more than they save), hardware concurrency from there. A threaded plan may round differently
///   from a one-thread plan of the same geometry (FFTW picks other algorithms); so may two plans made
///   with Rigor::measure or above. A given plan is deterministic.
/// - Errors (always checked; trncore exceptions, "<function>: <values>: <fix>"): InvalidArgument for an
///   n < 1, an empty `dims`, a zero or negative stride, elements of one array that overlap, a null
///   pointer, read and written arrays that partly overlap, sizes whose extent overflows int64, invalid
///   options, an invalid enum value (Direction, PlanOptions::rigor), refine with a math mode other than bf16;
///   DimensionMismatch for an embedding smaller than the transform (plan_many_*) or a span
///   shorter than the plan's extent; NotSupported when FFTW cannot plan the geometry (e.g. an in-place
///   layout FFTW cannot do, or preserve_input on multi-dimensional c2r), for target_forward_error or refine on
///   host, for a report on a host plan; TargetNotMet when no sim mode certifies the target.

#include <trnfft/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/error.hpp>
#include <trncore/options.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace trnfft {

/// The mutex trnfft holds while it calls FFTW's planner, destroys plans, or reads or writes wisdom. Hold
/// it around your own direct calls to FFTW's planner when trnfft plans may be made at the same time.
std::mutex& planner_mutex() noexcept;

namespace detail {
template <Real T>
struct PlanState;
}

/// What every plan has: its geometry and its backend's planned transform (FFTW's plan or the sim
/// transform), owned (move-only; destroying a host plan frees FFTW's plan under planner_mutex()). A
/// default-constructed or moved-from plan is empty: executing it throws InvalidArgument. The
/// backend-independent geometry is public; the executor behind it is private (one Executor implementation
/// per backend), so a backend can be added without changing these types.
template <Real T>
class Plan {
 public:
  Plan() noexcept;
  /// Takes over other's transform; other becomes empty.
  Plan(Plan&&) noexcept;
  /// Frees this plan's transform (under planner_mutex()), then takes over other's; other becomes empty.
  Plan& operator=(Plan&&) noexcept;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan();

  /// Whether the plan holds a transform (false when default-constructed or moved from).
  explicit operator bool() const noexcept { return state_ != nullptr; }
  /// c2c, r2c or c2r. @throws InvalidArgument on an empty plan (as do all accessors below).
  Kind kind() const;
  /// Storage of the complex side.
  ComplexLayout layout() const;
  /// forward for r2c, backward for c2r, as created for c2c.
  Direction direction() const;
  /// The transform dimensions (for plan_many_* and plan_dft_*, the guru dimensions they describe).
  const std::vector<IoDim>& dims() const;
  /// The batch dimensions (empty for a single transform).
  const std::vector<IoDim>& batch() const;
  /// Whether the plan writes its output over its input.
  bool in_place() const;
  /// Elements of the input (output) array the plan touches, from its first element: 1 + the largest
  /// offset, in elements of the array's type (each of the two arrays of a split layout).
  std::int64_t input_extent() const;
  /// Elements of the output array the plan touches (see input_extent()).
  std::int64_t output_extent() const;
  /// N = Π dims[k].n, the length of one transform (the factor a round trip multiplies by).
  std::int64_t transform_size() const;
  /// Number of transforms a call computes: Π batch[k].n.
  std::int64_t batch_count() const;
  /// FFTW threads the plan was made for.
  int threads() const;
  /// One line, e.g. "c2c forward interleaved out-of-place dims [n=8 is=1 os=1] batch [n=3 is=8 os=8] threads 1".
  std::string description() const;
  /// FFTW's own description of the algorithm it chose (fftw_sprint_plan).
  std::string algorithm() const;

  /// Computes the transform on the arrays the plan was created with. No allocation; thread-safe
  /// against other plans (not against another execute of the same plan on the same arrays).
  /// Sim plans allocate work buffers and, following the certificate contract (docs/trncore.md), throw
  /// TargetNotMet whenever the run's met is false, with or without options.target_forward_error: for an
  /// uncertified run (NaN/Inf input, overflow, a GEMM that could not certify, e.g. inputs below bf16's
  /// normal range) the message gives that reason; otherwise the bound and the target.
  /// @throws InvalidArgument on an empty plan; TargetNotMet (sim) as above.
  void execute() const;
  /// Sim plans: execute() on the creation arrays, and the run's AccuracyReport: the normwise relative
  /// bound ‖ŷ − y‖₂ ≤ bound·‖y‖₂ per transform composed from the bound each GEMM certified, certified (false,
  /// with uncertified_reason, for a NaN/Inf input, an overflow or an uncertified GEMM), met = certified &&
  /// (!target || bound ≤ target), the algorithm and mode (trajectory), references and the modelled engine
  /// cost. Never throws TargetNotMet.
  /// @throws NotSupported for a host plan; InvalidArgument on an empty plan.
  void execute(trncore::AccuracyReport& report) const;
  /// A sim plan's a-priori report, fixed at creation before any data is seen: the mode chosen, the bound
  /// it certifies for finite inputs in range, the target and whether it is met (no cost). A property of
  /// the plan, like FFTW's cost estimate; the certificate of a run — which can fail for NaN/Inf or
  /// out-of-range data — comes from execute(…, report) (docs/conventions.md, "Deliberate exceptions").
  /// @throws NotSupported for a host plan; InvalidArgument on an empty plan.
  trncore::AccuracyReport accuracy() const;

  /// @cond TRNSCI_INTERNAL
  // The executor shared with the derived plan types; not part of the API (detail::PlanState).
 protected:
  explicit Plan(std::unique_ptr<detail::PlanState<T>> state) noexcept;
  const detail::PlanState<T>& state(const char* function) const;
  std::unique_ptr<detail::PlanState<T>> state_;

  template <Real U>
  friend struct detail::PlanState;
  /// @endcond
};

/// A complex-to-complex plan (interleaved or split).
template <Real T>
class C2CPlan : public Plan<T> {
 public:
  C2CPlan() noexcept = default;
  /// Computes the transform on the creation arrays (Plan::execute).
  using Plan<T>::execute;
  /// New-array execute, interleaved layout: the transform on `in` → `out`. The arrays must be laid out
  /// as the creation arrays (same geometry, same in-place-ness, and without PlanOptions::unaligned the
  /// same SIMD alignment, fftw_alignment_of). `in` is only read for an out-of-place plan.
  /// @throws InvalidArgument for a split plan, null pointers, other in-place-ness, other alignment, or
  ///         read and written arrays that partly overlap.
  void execute(const std::complex<T>* in, std::complex<T>* out) const;
  /// As above with spans, which must hold at least input_extent() / output_extent() elements.
  /// @throws DimensionMismatch for a short span, else as the pointer form.
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const;
  /// New-array execute, split layout (real and imaginary arrays). Also required: the separations ii − ri
  /// and io − ro equal those at creation (FFTW's rule for split arrays).
  /// @throws as the interleaved form (an interleaved plan throws InvalidArgument).
  void execute_split(const T* ri, const T* ii, T* ro, T* io) const;
  ///@{
  /// The forms above with the run's AccuracyReport (sim plans; as Plan::execute(report): never throws
  /// TargetNotMet). @throws NotSupported for a host plan, else as the forms without a report.
  void execute(const std::complex<T>* in, std::complex<T>* out, trncore::AccuracyReport& report) const;
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out,
               trncore::AccuracyReport& report) const;
  void execute_split(const T* ri, const T* ii, T* ro, T* io, trncore::AccuracyReport& report) const;
  ///@}

 private:
  explicit C2CPlan(std::unique_ptr<detail::PlanState<T>> state) noexcept : Plan<T>(std::move(state)) {}
  template <Real U>
  friend struct detail::PlanState;
};

/// A real-to-complex (forward) plan: real input, n/2 + 1 complex outputs along the last dimension.
template <Real T>
class R2CPlan : public Plan<T> {
 public:
  R2CPlan() noexcept = default;
  /// Computes the transform on the creation arrays (Plan::execute).
  using Plan<T>::execute;
  /// New-array execute, interleaved output. Requirements and errors as C2CPlan::execute.
  void execute(const T* in, std::complex<T>* out) const;
  /// Span form; spans must hold input_extent() / output_extent() elements (DimensionMismatch otherwise).
  void execute(std::span<const T> in, std::span<std::complex<T>> out) const;
  /// New-array execute, split output; io − ro must equal its value at creation.
  void execute_split(const T* in, T* ro, T* io) const;
  ///@{
  /// The forms above with the run's AccuracyReport (sim plans; as C2CPlan's report forms).
  void execute(const T* in, std::complex<T>* out, trncore::AccuracyReport& report) const;
  void execute(std::span<const T> in, std::span<std::complex<T>> out, trncore::AccuracyReport& report) const;
  void execute_split(const T* in, T* ro, T* io, trncore::AccuracyReport& report) const;
  ///@}

 private:
  explicit R2CPlan(std::unique_ptr<detail::PlanState<T>> state) noexcept : Plan<T>(std::move(state)) {}
  template <Real U>
  friend struct detail::PlanState;
};

/// A complex-to-real (backward) plan: n/2 + 1 complex inputs along the last dimension, real output. The
/// input is overwritten unless the plan was made with PlanOptions::preserve_input.
template <Real T>
class C2RPlan : public Plan<T> {
 public:
  C2RPlan() noexcept = default;
  /// Computes the transform on the creation arrays (Plan::execute).
  using Plan<T>::execute;
  /// New-array execute, interleaved input. Requirements and errors as C2CPlan::execute.
  void execute(std::complex<T>* in, T* out) const;
  /// Span form; spans must hold input_extent() / output_extent() elements (DimensionMismatch otherwise).
  void execute(std::span<std::complex<T>> in, std::span<T> out) const;
  /// New-array execute, split input; ii − ri must equal its value at creation.
  void execute_split(T* ri, T* ii, T* out) const;
  ///@{
  /// The forms above with the run's AccuracyReport (sim plans; as C2CPlan's report forms).
  void execute(std::complex<T>* in, T* out, trncore::AccuracyReport& report) const;
  void execute(std::span<std::complex<T>> in, std::span<T> out, trncore::AccuracyReport& report) const;
  void execute_split(T* ri, T* ii, T* out, trncore::AccuracyReport& report) const;
  ///@}

 private:
  explicit C2RPlan(std::unique_ptr<detail::PlanState<T>> state) noexcept : Plan<T>(std::move(state)) {}
  template <Real U>
  friend struct detail::PlanState;
};

// ---- Guru interface: any geometry (fftw_plan_guru64_*). The base of all plan creation. ----

/// A c2c plan for the guru geometry (dims, batch) on interleaved arrays. With Rigor::estimate the
/// arrays are not touched; with higher rigor they are overwritten while planning. FFTW's planning cost
/// (from microseconds for estimate to seconds for patient at large N) is paid here, once.
/// @param dims       transform dimensions, at least one; strides in std::complex<T> elements
/// @param batch      batch dimensions (empty: one transform)
/// @param in, out    the arrays; in == out for in-place
/// @param direction  sign of the exponent
/// @param options    backend, math mode, target, threads, planner effort, input preservation, alignment and
///                   sim refinement (PlanOptions), as the file header describes
/// @throws as the file header lists.
template <Real T>
C2CPlan<T> plan_guru_dft(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, std::complex<T>* in,
                         std::complex<T>* out, Direction direction, const PlanOptions& options = {});

/// A c2c plan on split arrays: real parts ri/ro and imaginary parts ii/io, strides in T elements. Both
/// directions are supported (FFTW's split interface is forward-only; backward swaps the parts).
/// In-place: ri == ro and ii == io. @throws as plan_guru_dft, and InvalidArgument when only one of the
/// pairs is in place.
template <Real T>
C2CPlan<T> plan_guru_split_dft(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* ri, T* ii, T* ro,
                               T* io, Direction direction, const PlanOptions& options = {});

/// An r2c plan: real input (strides in T), interleaved complex output (strides in std::complex<T>).
/// dims.back().n is the real length n; the output holds n/2 + 1 points along that dimension.
template <Real T>
R2CPlan<T> plan_guru_dft_r2c(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* in,
                             std::complex<T>* out, const PlanOptions& options = {});

/// An r2c plan with split complex output (ro, io; strides in T).
template <Real T>
R2CPlan<T> plan_guru_split_dft_r2c(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* in, T* ro, T* io,
                                   const PlanOptions& options = {});

/// A c2r plan: interleaved half-spectrum input (strides in std::complex<T>), real output (strides in T);
/// dims.back().n is the real output length n, the input holds n/2 + 1 points along it.
template <Real T>
C2RPlan<T> plan_guru_dft_c2r(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, std::complex<T>* in,
                             T* out, const PlanOptions& options = {});

/// A c2r plan with split complex input (ri, ii; strides in T).
template <Real T>
C2RPlan<T> plan_guru_split_dft_c2r(const std::vector<IoDim>& dims, const std::vector<IoDim>& batch, T* ri, T* ii,
                                   T* out, const PlanOptions& options = {});

// ---- Advanced interface: batches of equally strided transforms (fftw_plan_many_dft). ----

/// `howmany` c2c transforms of shape n (rank = n.size() ≥ 1). Transform b's element at multi-index
/// (j0, …, j_{r−1}) is in[b·idist + istride·(j_{r−1} + inembed[r−1]·(j_{r−2} + inembed[r−2]·(…)))], and
/// likewise for out with onembed, ostride, odist. An empty embedding means n (as FFTW's NULL); inembed[0]
/// is not used. @throws DimensionMismatch when an embedding has another rank or an entry k ≥ 1 below
/// n[k]; else as plan_guru_dft.
template <Real T>
C2CPlan<T> plan_many_dft(const std::vector<std::int64_t>& n, std::int64_t howmany, std::complex<T>* in,
                         const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist,
                         std::complex<T>* out, const std::vector<std::int64_t>& onembed, std::int64_t ostride,
                         std::int64_t odist, Direction direction, const PlanOptions& options = {});

/// `howmany` r2c transforms of real shape n; the complex side's shape is n with its last entry n/2 + 1,
/// and an empty onembed means that shape (an empty inembed means n). Addressing as plan_many_dft.
template <Real T>
R2CPlan<T> plan_many_dft_r2c(const std::vector<std::int64_t>& n, std::int64_t howmany, T* in,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist,
                             std::complex<T>* out, const std::vector<std::int64_t>& onembed, std::int64_t ostride,
                             std::int64_t odist, const PlanOptions& options = {});

/// `howmany` c2r transforms of real shape n (input: shape n with its last entry n/2 + 1). Addressing as
/// plan_many_dft.
template <Real T>
C2RPlan<T> plan_many_dft_c2r(const std::vector<std::int64_t>& n, std::int64_t howmany, std::complex<T>* in,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride, std::int64_t idist, T* out,
                             const std::vector<std::int64_t>& onembed, std::int64_t ostride, std::int64_t odist,
                             const PlanOptions& options = {});

// ---- Basic interface: one contiguous row-major transform (fftw_plan_dft, _r2c, _c2r). ----

/// One c2c transform of a contiguous row-major array of shape n (any rank ≥ 1).
template <Real T>
C2CPlan<T> plan_dft(const std::vector<std::int64_t>& n, std::complex<T>* in, std::complex<T>* out, Direction direction,
                    const PlanOptions& options = {});
/// plan_dft({n0}, …).
template <Real T>
C2CPlan<T> plan_dft_1d(std::int64_t n0, std::complex<T>* in, std::complex<T>* out, Direction direction,
                       const PlanOptions& options = {}) {
  return plan_dft<T>({n0}, in, out, direction, options);
}
/// plan_dft({n0, n1}, …).
template <Real T>
C2CPlan<T> plan_dft_2d(std::int64_t n0, std::int64_t n1, std::complex<T>* in, std::complex<T>* out, Direction direction,
                       const PlanOptions& options = {}) {
  return plan_dft<T>({n0, n1}, in, out, direction, options);
}

/// One r2c transform of a row-major real array of shape n into the row-major complex array of shape n
/// with the last entry n/2 + 1. In-place (in == (T*)out), the real rows are padded to 2·(n/2 + 1) reals,
/// as in FFTW's basic interface.
template <Real T>
R2CPlan<T> plan_dft_r2c(const std::vector<std::int64_t>& n, T* in, std::complex<T>* out,
                        const PlanOptions& options = {});
/// plan_dft_r2c({n0}, …).
template <Real T>
R2CPlan<T> plan_dft_r2c_1d(std::int64_t n0, T* in, std::complex<T>* out, const PlanOptions& options = {}) {
  return plan_dft_r2c<T>({n0}, in, out, options);
}
/// plan_dft_r2c({n0, n1}, …).
template <Real T>
R2CPlan<T> plan_dft_r2c_2d(std::int64_t n0, std::int64_t n1, T* in, std::complex<T>* out,
                           const PlanOptions& options = {}) {
  return plan_dft_r2c<T>({n0, n1}, in, out, options);
}

/// One c2r transform, the inverse layout of plan_dft_r2c (padded real rows when in-place).
template <Real T>
C2RPlan<T> plan_dft_c2r(const std::vector<std::int64_t>& n, std::complex<T>* in, T* out,
                        const PlanOptions& options = {});
/// plan_dft_c2r({n0}, …).
template <Real T>
C2RPlan<T> plan_dft_c2r_1d(std::int64_t n0, std::complex<T>* in, T* out, const PlanOptions& options = {}) {
  return plan_dft_c2r<T>({n0}, in, out, options);
}
/// plan_dft_c2r({n0, n1}, …).
template <Real T>
C2RPlan<T> plan_dft_c2r_2d(std::int64_t n0, std::int64_t n1, std::complex<T>* in, T* out,
                           const PlanOptions& options = {}) {
  return plan_dft_c2r<T>({n0, n1}, in, out, options);
}

}  // namespace trnfft
