#pragma once
/// @file
/// NumPy `.npy` arrays (format versions 1.0, 2.0 and 3.0) for reference data and results: the suite's
/// fixtures (data/dfmp2 in the repository) are .npy files, and users exchange tensors with NumPy through them.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

namespace trncore::io {

/// A dense array read from .npy: values in row-major (C) order whatever the file's order, as double.
struct NpyArray {
  /// Extents, outermost first; empty for a 0-d array (one value).
  std::vector<std::int64_t> shape;
  /// The product of `shape` values, row-major.
  std::vector<double> values;
  /// The number of values (product of the extents).
  std::int64_t size() const noexcept { return static_cast<std::int64_t>(values.size()); }
};

/// Parses the bytes of a .npy file. Element types: little-endian float64 ('<f8') and float32 ('<f4',
/// widened exactly), int32/int64 ('<i4', '<i8'; converted to double, exact up to 2^53 in magnitude);
/// fortran_order true or false (Fortran data is reordered to row-major).
/// @param bytes  the whole file
/// @param name   the file name, for messages
/// @throws trncore::ParseError (function "trncore::io::read_npy", line 1, column = 1-based byte offset in
///         the header) for a bad magic string, an unknown version, a malformed header dictionary, an
///         unsupported dtype (big-endian, complex, object, ...), a negative or overflowing shape, or a
///         data section whose length differs from the shape's.
NpyArray parse_npy(std::span<const unsigned char> bytes, std::string_view name = "<memory>");

/// Reads a .npy file. @throws trncore::IoError when the file cannot be opened or read (naming it);
/// ParseError as parse_npy.
NpyArray read_npy(const std::filesystem::path& path);

/// Writes `values` (row-major, product of `shape` elements) as a version 1.0 '<f8' .npy file, readable by
/// numpy.load. @throws trncore::InvalidArgument when values.size() differs from the shape's product or an
/// extent is negative; IoError when the file cannot be written.
void write_npy(const std::filesystem::path& path, std::span<const std::int64_t> shape, std::span<const double> values);

}  // namespace trncore::io
