#pragma once
/// @file
/// Latin hypercube samples (McKay, Beckman, Conover 1979): n points in [0,1)^dims such that, in every
/// dimension, each of the n strata [p/n, (p+1)/n) holds exactly one point.

#include <trncore/options.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace trnrand {

/// Options of a Latin hypercube sample: trncore::Options (seed selects the stratum permutations and the
/// positions inside the strata; threads splits the dimensions over threads, which never changes the
/// sample; stream is not used; backend must be Backend::host) plus `centered`, set by assignment.
struct LatinHypercubeOptions : trncore::OptionsFor<LatinHypercubeOptions> {
  /// From a plain trncore::Options (centered = false).
  using OptionsFor::OptionsFor;
  bool centered = false;  ///< true: every point sits at its stratum's midpoint (p + 1/2)/n

  /// The defaults: seed 0, jittered points, host backend.
  LatinHypercubeOptions() = default;
};

/// Writes a Latin hypercube sample of n points in dims dimensions, row-major: coordinate d of point i
/// goes to out[i·ld + d]. Coordinate d of point i is (π_d(i) + u_{d,i}) / n, with π_d an independent
/// uniformly random permutation of {0, …, n−1} (Fisher–Yates) and u_{d,i} uniform on [0, 1) with 53
/// random bits (u = 1/2 if centered). The stored double lies in [π_d(i)/n, (π_d(i)+1)/n) exactly.
///
/// Reproducible: π_d and u_{d,i} are Philox4x32-10 words keyed by (seed, d, i), so the sample depends only
/// on (n, dims, seed, centered), and dimension d is the same whatever dims is. Thread-safe (no state).
/// Scratch: one permutation of n 32-bit indices per thread used (at most half the output's size).
/// @throws trncore::InvalidArgument for options trncore::validate refuses, n < 0, n > 2^32, dims < 1, out
///         null with n > 0, or n·ld overflowing; trncore::DimensionMismatch if ld < dims;
///         trncore::NotSupported for options.backend = Backend::sim (no engine kernel).
void latin_hypercube(std::int64_t n, std::int64_t dims, double* out, std::int64_t ld,
                     LatinHypercubeOptions options = {});

/// As above, into a contiguous row-major span of exactly n·dims elements.
/// @throws as above (n·dims in place of n·ld); trncore::DimensionMismatch if out.size() != n·dims.
void latin_hypercube(std::int64_t n, std::int64_t dims, std::span<double> out, LatinHypercubeOptions options = {});

/// As above, returning the n × dims row-major sample.
/// @throws as above; std::bad_alloc if the sample does not fit in memory.
std::vector<double> latin_hypercube(std::int64_t n, std::int64_t dims, LatinHypercubeOptions options = {});

}  // namespace trnrand
