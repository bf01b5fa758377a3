#pragma once
// The argument checks Sobol, Halton and latin_hypercube share (one copy; they were three), built on
// trncore's check vocabulary (trncore/detail/checks.hpp) where it has the check. Each names the public
// function first. Private to trnrand.

#include <trncore/options.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace trnrand::detail {

/// trncore::validate(options, function), then trncore::NotSupported on Backend::sim (the sequences have
/// no engine kernel).
void check_qmc_options(std::string_view function, const trncore::Options& options);

/// @throws trncore::InvalidArgument unless 1 ≤ dims ≤ max_dims; `hint` says where the bound comes from.
void check_dims(std::string_view function, std::int64_t dims, std::int64_t max_dims, std::string_view hint);

/// @throws trncore::InvalidArgument when `name` (the enum's to_string) is "invalid": "scramble value
/// <value> is not a <type>", hint "pass <accepted>".
void check_scramble(std::string_view function, std::string_view name, int value, std::string_view type,
                    std::string_view accepted);

/// A row-major output of n rows of `dims` values with row stride ld:
/// @throws trncore::InvalidArgument for n < 0, n·ld overflowing int64, or a null out with n > 0;
///         trncore::DimensionMismatch for ld < dims. `dims_name` is how the message names dims ("dims",
///         "dims()").
void check_rows(std::string_view function, std::int64_t n, std::int64_t dims, std::string_view dims_name,
                const void* out, std::int64_t ld);

/// @throws trncore::InvalidArgument when n·dims overflows int64 (n, dims ≥ 0);
///         trncore::DimensionMismatch unless size is exactly n·dims.
void check_span_rows(std::string_view function, std::size_t size, std::int64_t n, std::int64_t dims);

/// @throws trncore::DimensionMismatch unless size is a multiple of dims() (a whole number of points).
void check_whole_points(std::string_view function, std::size_t size, std::int64_t dims);

/// @throws trncore::DimensionMismatch unless a point span has exactly dims() elements.
void check_point_size(std::string_view function, std::size_t size, std::int64_t dims);

}  // namespace trnrand::detail
