#pragma once
// What a plan's backend implements (docs/trnfft.md, "Plans"): the frontend (plan.cpp) checks the
// arguments, derives the Geometry, and hands it with the creation arrays to one Executor — FFTW's
// (host/fftw_executor.cpp) or the sim backend's (sim/sim_executor.cpp) — which plans and runs it.

#include <trnfft/types.hpp>
#include <trncore/accuracy_report.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace trnfft::detail {

/// A plan's arrays in FFTW's argument order: `nread` read arrays, then `nwrite` written ones (interleaved
/// c2c: in, out; split c2c: ri, ii, ro, io; r2c: in, out or in, ro, io; c2r: in, out or ri, ii, out).
using Arrays = std::array<void*, 4>;

/// The names of a plan's arrays in Arrays order (unused entries null): the one table of which arrays a
/// (kind, layout) reads and writes; nread/nwrite count the non-null entries before and after the split.
struct ArrayRoles {
  int nread;
  int nwrite;
  std::array<const char*, 4> names;
};
ArrayRoles array_roles(Kind kind, ComplexLayout layout) noexcept;
inline std::array<const char*, 4> array_names(Kind kind, ComplexLayout layout) noexcept {
  return array_roles(kind, layout).names;
}

/// A plan's geometry, checked by the frontend: what every executor plans for.
struct Geometry {
  Kind kind = Kind::c2c;
  ComplexLayout layout = ComplexLayout::interleaved;
  Direction direction = Direction::forward;
  std::vector<IoDim> dims;
  std::vector<IoDim> batch;
  bool in_place = false;
  int nread = 0;
  int nwrite = 0;
  std::int64_t input_extent = 0;
  std::int64_t output_extent = 0;
  std::int64_t transform_size = 1;
  std::int64_t batch_count = 1;
  /// Threads for execution (options.threads, or the frontend's default for the size).
  int threads = 1;
};

/// "c2c forward interleaved out-of-place dims [n=8 is=1 os=1] batch [] threads 1" (Plan::description
/// without the backend's suffix).
std::string describe(const Geometry& geometry);

/// A planned transform on one backend.
template <Real T>
class Executor {
 public:
  virtual ~Executor() = default;
  /// Computes the transform on the creation arrays (`arrays` null) or on `*arrays`, which the frontend
  /// and check_arrays have checked. With `report` (only when certifies()) fills it; without, an executor
  /// that certifies throws TargetNotMet naming `function` whenever the run's met is false.
  virtual void execute(const char* function, const Arrays* arrays, trncore::AccuracyReport* report) const = 0;
  /// The backend's own rules for new arrays, beyond the frontend's (FFTW: the creation SIMD alignment).
  /// @throws InvalidArgument naming `function`.
  virtual void check_arrays(const char* function, const Arrays& arrays) const = 0;
  /// Whether runs certify an error bound (execute can fill a report).
  virtual bool certifies() const = 0;
  /// The a-priori report fixed at creation (only when certifies()).
  virtual trncore::AccuracyReport a_priori_report() const = 0;
  /// The algorithm, in words (FFTW: fftw_sprint_plan).
  virtual std::string algorithm() const = 0;
  /// What Plan::description adds after describe(geometry) ("" on host, " backend sim mode ..." on sim).
  virtual std::string description_suffix() const = 0;
};

/// FFTW's plan for the geometry on the creation arrays (planner effort, input preservation, alignment
/// and threads from `options`). @throws NotSupported when FFTW cannot plan it, ResourceExhausted when
/// FFTW's threads cannot start.
template <Real T>
std::unique_ptr<Executor<T>> make_fftw_executor(const char* function, const Geometry& geometry, const Arrays& arrays,
                                                const PlanOptions& options);

/// The sim backend's transform for the geometry: the precision from options.math_mode and
/// options.refine, or automatic: without a target the default (compensated for float, ozaki for double),
/// with one the cheapest precision whose a-priori bound meets it. @throws NotSupported (a math mode
/// without a sim FFT), InvalidArgument (refine without bf16), TargetNotMet (no precision meets the target).
template <Real T>
std::unique_ptr<Executor<T>> make_sim_executor(const char* function, const Geometry& geometry, const Arrays& arrays,
                                               const PlanOptions& options);

}  // namespace trnfft::detail
