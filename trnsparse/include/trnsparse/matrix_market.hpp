#pragma once
/// @file
/// Matrix Market (NIST, https://math.nist.gov/MatrixMarket/formats.html) reading and writing: coordinate
/// and array formats; real, integer and pattern fields; general, symmetric and skew-symmetric matrices.
/// Complex and hermitian files are recognised and refused with trncore::NotSupported.
///
/// The reader streams: it holds one line at a time besides the entries it returns. Every malformed input
/// throws trncore::ParseError whose line() and column() (1-based) point at the offending token, or at
/// the end of the last line for a truncated file.

#include <trnsparse/formats.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>

namespace trnsparse {

/// The layout of the data lines.
enum class MmFormat : std::uint8_t { coordinate, array };
/// The type of the values.
enum class MmField : std::uint8_t { real, integer, pattern };
/// Which entries the file stores: all (general), the lower triangle of a symmetric matrix (diagonal
/// included), or the strict lower triangle of a skew-symmetric one.
enum class MmSymmetry : std::uint8_t { general, symmetric, skew_symmetric };

/// What a file's banner and size line declared.
struct MmHeader {
  MmFormat format = MmFormat::coordinate;     ///< coordinate (sparse) or array (dense, column-major)
  MmField field = MmField::real;              ///< real, integer or pattern (no values)
  MmSymmetry symmetry = MmSymmetry::general;  ///< general, symmetric or skew-symmetric storage
  std::int64_t rows = 0;                      ///< rows of the matrix, from the size line
  std::int64_t cols = 0;                      ///< columns of the matrix, from the size line
  std::int64_t entries = 0;  ///< data lines in the file (rows·cols, or the triangle's size, for array)
};

/// Reads a Matrix Market stream into COO, expanding symmetric (mirror) and skew-symmetric (mirror with
/// negation) storage to the full matrix. Pattern entries get the value 1. Array files yield every entry,
/// zeros included. Values are parsed as double (round-to-nearest, std::from_chars) and then converted to T.
/// Duplicate coordinate entries are kept (they mean a sum; to_csr sums them).
/// @param in      the stream, positioned at the banner line ("%%MatrixMarket matrix …")
/// @param header  when not null, receives what the file declared
/// @throws trncore::ParseError (line, column) for a missing or malformed banner, unknown qualifiers,
///         pattern with array, a missing/non-numeric/negative size line, a symmetric or skew-symmetric
///         non-square matrix, non-numeric or missing tokens, extra tokens, indices outside [1, n],
///         a skew-symmetric diagonal entry, fewer data lines than declared (truncation) or more;
///         trncore::NotSupported for complex/hermitian files; trncore::InvalidArgument when sizes or the
///         entry count do not fit I.
template <class T = double, class I = std::int32_t>
Coo<T, I> read_matrix_market(std::istream& in, MmHeader* header = nullptr);

/// Reads rows [row_begin, row_begin + row_count) of a Matrix Market stream — the part one process of a
/// row-distributed matrix holds (trnsparse::mpi::read_matrix_market_rows): the whole stream is parsed and
/// checked as by read_matrix_market, and the entries (after symmetric and skew-symmetric expansion) whose row
/// lies in the range are kept, in file order, with row indices relative to row_begin and global column
/// indices. The result is row_count × cols, and to_csr() of it equals rows [row_begin, row_begin +
/// row_count) of to_csr(read_matrix_market(…)) exactly. Memory: the kept entries only.
/// @throws as read_matrix_market; trncore::InvalidArgument for a negative or out-of-range row range.
template <class T = double, class I = std::int32_t>
Coo<T, I> read_matrix_market_rows(std::istream& in, std::int64_t row_begin, std::int64_t row_count,
                                  MmHeader* header = nullptr);

/// Reads the Matrix Market file at `path`.
/// @throws trncore::IoError when the file cannot be opened; otherwise as the stream form.
template <class T = double, class I = std::int32_t>
Coo<T, I> read_matrix_market_file(const std::string& path, MmHeader* header = nullptr);

/// Writes `a` as a coordinate real file with 1-based indices and values printed with max_digits10
/// significant digits, so reading back is exact. With MmSymmetry::symmetric (skew_symmetric) the matrix
/// must be square and exactly symmetric (skew-symmetric) after summing duplicates; only the lower
/// (strict lower) triangle is written.
/// @throws trncore::InvalidArgument when `a` is invalid or not (skew-)symmetric as requested, or symmetry is
///         not an MmSymmetry value;
///         trncore::IoError when the stream fails.
template <class T, class I>
void write_matrix_market(std::ostream& out, const Csr<T, I>& a, MmSymmetry symmetry = MmSymmetry::general);

/// Writes `a` to the file at `path` (see the stream form). @throws trncore::IoError when it cannot be written.
template <class T, class I>
void write_matrix_market_file(const std::string& path, const Csr<T, I>& a, MmSymmetry symmetry = MmSymmetry::general);

/// Writes a dense row-major rows×cols matrix (leading dimension ld ≥ cols) in array real general
/// format (column-major data lines, as the format requires).
/// @throws trncore::InvalidArgument for negative sizes, ld < cols, or null data with nonzero size;
///         trncore::IoError when the stream fails.
template <class T>
void write_matrix_market_array(std::ostream& out, std::int64_t rows, std::int64_t cols, const T* a, std::int64_t ld);

}  // namespace trnsparse
