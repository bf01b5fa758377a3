#pragma once
// The state behind a trnfft plan: the checked geometry, the creation arrays and what new arrays must
// share with them, and either the FFTW plan (backend host) or the sim transform (backend sim); plan.cpp
// dispatches on which one is set.

#include <trnfft/plan.hpp>
#include <trncore/accuracy_report.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace trnfft::detail {

namespace sim {
template <Real T>
class Transform;
}

template <Real T>
struct PlanState {
  Kind kind = Kind::c2c;
  ComplexLayout layout = ComplexLayout::interleaved;
  Direction direction = Direction::forward;
  std::vector<IoDim> dims;
  std::vector<IoDim> batch;
  bool in_place = false;
  bool unaligned = false;
  /// Split backward c2c runs FFTW's (forward-only) split plan with real and imaginary parts swapped.
  bool swap_parts = false;
  int threads = 1;
  std::int64_t input_extent = 0;
  std::int64_t output_extent = 0;
  std::int64_t transform_size = 1;
  std::int64_t batch_count = 1;

  /// The creation arrays in FFTW's argument order: `nread` read arrays, then `nwrite` written ones.
  std::array<void*, 4> arrays{};
  std::array<std::size_t, 4> element_size{};
  std::array<const char*, 4> names{};
  int nread = 0;
  int nwrite = 0;
  /// fftw_alignment_of of each creation array.
  std::array<int, 4> alignment{};
  /// Bit i·4 + j: read array i is written array j.
  unsigned aliasing = 0;
  /// Split layouts: byte distance from the real to the imaginary array, reads and writes (0 if interleaved).
  std::ptrdiff_t read_separation = 0;
  std::ptrdiff_t write_separation = 0;

  /// The FFTW plan (fftw_plan or fftwf_plan); null for a sim plan.
  void* fftw = nullptr;
  /// The sim backend's transform over all axes (backend sim); null for a host plan.
  std::shared_ptr<const sim::Transform<T>> sim;

  PlanState() = default;
  PlanState(const PlanState&) = delete;
  PlanState& operator=(const PlanState&) = delete;
  ~PlanState();

  template <class P>
  static P wrap(std::unique_ptr<PlanState> state) noexcept {
    return P(std::move(state));
  }

  /// Checks arrays for a new-array execute against the creation arrays.
  void check_new_arrays(const char* function, const std::array<const void*, 4>& arrays) const;
  std::string description() const;
  /// Runs the sim transform on arrays in the creation order (gather, transform, scatter). With `report`,
  /// fills it; without, throws TargetNotMet when a target was set and the run could not certify it.
  void sim_execute(const char* function, const std::array<const void*, 4>& arrays,
                   trncore::AccuracyReport* report) const;
};

}  // namespace trnfft::detail
