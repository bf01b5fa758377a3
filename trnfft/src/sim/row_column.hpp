#pragma once
// A sim plan's whole transform, row-column: rank 1 is one AxisTransform; rank d > 1 runs one AxisTransform per axis over
// the row-major array (row-column algorithm), the axis being transformed gathered into contiguous rows.
// r2c transforms the last axis first (real → half spectrum), then the others forward; c2r transforms the
// other axes backward first, then the last one (half spectrum → real), as FFTW's multi-dimensional r2c/c2r.
//
// Bounds: each axis pass is a batch of 1-D transforms, each within δ_k of its exact output in the 2-norm,
// so the pass is within δ_k in the Frobenius norm of the whole array; every exact pass scales that norm by
// exactly √n_k, which makes the passes compose as 1 + δ = Π(1 + δ_k) (the argument of stage composition,
// docs/trnfft.md "The bound and how it composes", step 4), r2c's first pass included (its bound is relative
// to the half spectrum, which the later passes act on unitarily up to scale). c2r's last pass differs: an
// error e in its half-spectrum input reaches the real output as ‖c2r(e)‖ ≤ √(2m)·‖e‖ (the Hermitian
// extension at most doubles the energy), while for Hermitian input H the exact output has
// ‖c2r(H)‖ ≥ √m·‖H‖, so with δ₁ the composed bound of the other axes and δ_c the c2r pass's own,
// δ = √2·δ₁ + δ_c·(1 + √2·δ₁).

#include "sim/axis_transform.hpp"

#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace trnfft::detail::sim {

template <Real T>
class RowColumnTransform {
 public:
  /// `n` the transform lengths (row-major; for r2c/c2r the last is the real length). All axes run
  /// `precision`; `options` is the plan's (its target is reported, not checked here).
  RowColumnTransform(Kind kind, std::vector<std::int64_t> n, Direction direction, Precision precision,
                     const trncore::Options& options);
  ~RowColumnTransform();
  RowColumnTransform(const RowColumnTransform&) = delete;
  RowColumnTransform& operator=(const RowColumnTransform&) = delete;

  /// Contiguous row-major batches: c2c complex Π n → complex Π n; r2c real Π n → complex with the last
  /// extent n/2 + 1; c2r the reverse. `in` is not modified. Returns the bound certified for this run.
  double run_c2c(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const;
  double run_r2c(const T* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const;
  double run_c2r(const std::complex<T>* in, T* out, std::int64_t batch, RunLog& log) const;

  double a_priori() const { return a_priori_; }
  Precision precision() const { return precision_; }
  std::size_t rank() const { return n_.size(); }
  std::string description() const;
  trncore::AccuracyReport report(double bound, const RunLog& log) const;
  trncore::AccuracyReport a_priori_report() const;

 private:
  double compose(const std::vector<double>& axis_bounds) const;
  /// The complex side's extents of r2c/c2r: n with the last length halved to n/2 + 1.
  std::vector<std::int64_t> half_spectrum_extent() const;
  /// Runs axis `axis`'s transform in place on a complex array whose extents are `extent` (row-major,
  /// after the leading batch): gathers the axis into rows, transforms, scatters back.
  double pass(std::size_t axis, std::vector<std::complex<T>>& data, const std::vector<std::int64_t>& extent,
              std::int64_t batch, RunLog& log) const;

  Kind kind_;
  std::vector<std::int64_t> n_;
  Precision precision_;
  trncore::Options options_;
  std::vector<std::unique_ptr<AxisTransform<T>>> axis_;  // one per axis, in row-major axis order
  double a_priori_ = 0;
};

}  // namespace trnfft::detail::sim
