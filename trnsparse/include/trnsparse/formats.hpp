#pragma once
/// @file
/// The four storage formats of trnsparse — COO, CSR, CSC and BSR — and the checks, conversions, dense
/// round trips, transposes and duplicate summation between them (docs/trnsparse.md §Formats).
///
/// Every format is templated on the value type T (float, double) and the index type I (std::int32_t,
/// std::int64_t). Sizes are std::int64_t. A matrix is a plain aggregate: the caller may fill the arrays
/// directly and call validate(), which every computational function also calls on its inputs.
///
/// Canonical form: CSR/CSC/BSR are *canonical* when the indices inside each row (column, block row) are
/// strictly increasing — sorted, no duplicates. Conversions produce canonical output except from_coo
/// with SumDuplicates::no, which keeps duplicates (sorted, stable) for callers that want them.

#include <trncore/error.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace trnsparse {

/// Coordinate format: one (row, col, value) triple per stored entry, in any order, duplicates allowed
/// (a duplicate means the sum of its values, as in Matrix Market and scipy).
template <class T, class I = std::int32_t>
struct Coo {
  std::int64_t rows = 0;  ///< number of rows (≥ 0, representable in I)
  std::int64_t cols = 0;  ///< number of columns (≥ 0, representable in I)
  std::vector<I> row;     ///< row index of each entry, in [0, rows)
  std::vector<I> col;     ///< column index of each entry, in [0, cols)
  std::vector<T> values;  ///< value of each entry (row, col and values have one length, nnz)
  /// Number of stored entries, duplicates and explicit zeros included.
  std::int64_t nnz() const { return static_cast<std::int64_t>(values.size()); }
};

/// Compressed sparse row: entries of row r are values[indptr[r] .. indptr[r+1]), with column indices
/// indices[...]. indptr has rows+1 entries, starts at 0 and never decreases.
template <class T, class I = std::int32_t>
struct Csr {
  std::int64_t rows = 0;                            ///< number of rows
  std::int64_t cols = 0;                            ///< number of columns
  std::vector<I> indptr = std::vector<I>(1, I{0});  ///< rows + 1 offsets into indices/values
  std::vector<I> indices;                           ///< column index of each stored entry, in [0, cols)
  std::vector<T> values;                            ///< value of each stored entry
  /// Number of stored entries (indptr[rows]), duplicates and explicit zeros included.
  std::int64_t nnz() const { return static_cast<std::int64_t>(values.size()); }
};

/// Compressed sparse column: CSR of the transpose; entries of column c are values[indptr[c] .. indptr[c+1])
/// with row indices indices[...].
template <class T, class I = std::int32_t>
struct Csc {
  std::int64_t rows = 0;                            ///< number of rows
  std::int64_t cols = 0;                            ///< number of columns
  std::vector<I> indptr = std::vector<I>(1, I{0});  ///< cols + 1 offsets into indices/values
  std::vector<I> indices;                           ///< row index of each stored entry, in [0, rows)
  std::vector<T> values;                            ///< value of each stored entry
  /// Number of stored entries (indptr[cols]), duplicates and explicit zeros included.
  std::int64_t nnz() const { return static_cast<std::int64_t>(values.size()); }
};

/// The native block size of BSR: one 128×128 TensorEngine tile.
inline constexpr std::int64_t default_block_size = 128;

/// Block sparse row with R×C blocks (R = block_rows, C = block_cols; 128×128 is the TensorEngine tile).
/// The matrix is rows×cols; it is tiled into ceil(rows/R) × ceil(cols/C) blocks, and the last block row
/// and column may stick out past the matrix: their out-of-range entries are stored as zeros and ignored.
/// Block row br holds blocks indptr[br] .. indptr[br+1]) with block-column indices indices[...]; block b
/// occupies values[b·R·C .. (b+1)·R·C) in row-major order.
template <class T, class I = std::int32_t>
struct Bsr {
  std::int64_t rows = 0;                            ///< rows of the matrix (not of the block grid)
  std::int64_t cols = 0;                            ///< columns of the matrix
  std::int64_t block_rows = default_block_size;     ///< R, rows of every block (≥ 1)
  std::int64_t block_cols = default_block_size;     ///< C, columns of every block (≥ 1)
  std::vector<I> indptr = std::vector<I>(1, I{0});  ///< block_row_count() + 1 offsets into indices
  std::vector<I> indices;  ///< block-column index of each stored block, in [0, block_col_count())
  std::vector<T> values;   ///< R·C values per stored block, each block row-major
  /// Number of block rows, ceil(rows / block_rows).
  std::int64_t block_row_count() const { return block_rows > 0 ? (rows + block_rows - 1) / block_rows : 0; }
  /// Number of block columns, ceil(cols / block_cols).
  std::int64_t block_col_count() const { return block_cols > 0 ? (cols + block_cols - 1) / block_cols : 0; }
  /// Number of stored blocks.
  std::int64_t block_count() const { return static_cast<std::int64_t>(indices.size()); }
};

/// Whether duplicates are summed when building a compressed format from COO.
enum class SumDuplicates : bool { no = false, yes = true };

/// Checks the structure of a matrix: nonnegative sizes that fit I, array lengths that agree, indices in
/// range, indptr starting at 0 and nondecreasing to nnz; with require_canonical, indices strictly
/// increasing within each row (column, block row). Values are not inspected (NaN and inf are data).
/// @param a         the matrix to check
/// @param function  the public function on whose behalf the check runs; it leads the message
/// @throws trncore::InvalidArgument naming `function`, the offending position and value, and a fix.
template <class T, class I>
void validate(const Coo<T, I>& a, const char* function = "trnsparse::validate");
/// @copydoc validate(const Coo<T, I>&, const char*)
/// @param require_canonical  also require strictly increasing indices within each row (column, block row)
template <class T, class I>
void validate(const Csr<T, I>& a, const char* function = "trnsparse::validate", bool require_canonical = false);
/// @copydoc validate(const Coo<T, I>&, const char*)
/// @param require_canonical  also require strictly increasing indices within each row (column, block row)
template <class T, class I>
void validate(const Csc<T, I>& a, const char* function = "trnsparse::validate", bool require_canonical = false);
/// @copydoc validate(const Coo<T, I>&, const char*)
/// BSR also needs block sizes ≥ 1 (and R·C·blocks == values.size()).
/// @param require_canonical  also require strictly increasing indices within each row (column, block row)
template <class T, class I>
void validate(const Bsr<T, I>& a, const char* function = "trnsparse::validate", bool require_canonical = false);

/// Whether a compressed matrix is canonical (validate(a, ..., true) would not throw). Never throws
/// on a matrix that passes validate().
template <class T, class I>
bool is_canonical(const Csr<T, I>& a);

/// CSR from COO by a stable counting sort on rows then columns (O(nnz + rows + cols)); duplicates are
/// summed in their COO order when `sum` is yes (so the result is canonical), kept otherwise.
/// @throws trncore::InvalidArgument when `a` fails validate or nnz does not fit I.
template <class T, class I>
Csr<T, I> to_csr(const Coo<T, I>& a, SumDuplicates sum = SumDuplicates::yes);
/// CSC from COO, as to_csr on the transpose.
template <class T, class I>
Csc<T, I> to_csc(const Coo<T, I>& a, SumDuplicates sum = SumDuplicates::yes);
/// COO from CSR (row-major entry order). Exact.
template <class T, class I>
Coo<T, I> to_coo(const Csr<T, I>& a);
/// COO from CSC (column-major entry order). Exact.
template <class T, class I>
Coo<T, I> to_coo(const Csc<T, I>& a);
/// CSC from CSR (the same matrix, stored by columns); sorted output; duplicates kept. Exact.
template <class T, class I>
Csc<T, I> to_csc(const Csr<T, I>& a);
/// CSR from CSC; sorted output; duplicates kept. Exact.
template <class T, class I>
Csr<T, I> to_csr(const Csc<T, I>& a);
/// CSR with duplicate entries of each row summed (in storage order) and columns sorted. Explicit zeros
/// are kept: they are structure, and dropping them is drop_zeros' job.
template <class T, class I>
Csr<T, I> sum_duplicates(const Csr<T, I>& a);
/// CSR without entries whose value is exactly ±0.
template <class T, class I>
Csr<T, I> drop_zeros(const Csr<T, I>& a);
/// The transpose Aᵀ as CSR (cols×rows). Exact.
template <class T, class I>
Csr<T, I> transpose(const Csr<T, I>& a);

/// BSR with R×C blocks from CSR: a block is stored when any entry of `a` falls in it (explicit zeros
/// count). Exact; duplicates are summed.
/// @throws trncore::InvalidArgument for block sizes < 1 or an invalid `a`.
template <class T, class I>
Bsr<T, I> to_bsr(const Csr<T, I>& a, std::int64_t block_rows = default_block_size,
                 std::int64_t block_cols = default_block_size);
/// CSR from BSR keeping every in-range entry of every stored block, zeros included (so a CSR → BSR → CSR
/// round trip adds the zeros that pad its blocks; drop_zeros removes them). Exact.
template <class T, class I>
Csr<T, I> to_csr(const Bsr<T, I>& a);

/// Dense row-major rows×cols array of the matrix (duplicates summed in storage order).
/// @throws trncore::InvalidArgument when rows·cols overflows or `a` is invalid.
template <class T, class I>
std::vector<T> to_dense(const Csr<T, I>& a);
/// @copydoc to_dense(const Csr<T, I>&)
template <class T, class I>
std::vector<T> to_dense(const Bsr<T, I>& a);
/// CSR of a dense row-major rows×cols array with leading dimension ld (≥ cols), keeping entries with
/// |a_ij| > drop_tolerance (the default 0 keeps every nonzero; NaN is kept).
/// @throws trncore::InvalidArgument for negative sizes, ld < cols, null data with nonzero size, or an
///         nnz that does not fit I.
template <class T, class I = std::int32_t>
Csr<T, I> csr_from_dense(std::int64_t rows, std::int64_t cols, const T* a, std::int64_t ld,
                         double drop_tolerance = 0.0);

/// Converts values and indices to another value/index type (e.g. Csr<double,int64> → Csr<float,int32>).
/// Values are converted with static_cast (round to nearest for double → float).
/// @throws trncore::InvalidArgument when a size or index does not fit the target index type, or `a`
///         is invalid.
template <class T2, class I2, class T, class I>
Csr<T2, I2> convert(const Csr<T, I>& a) {
  validate(a, "trnsparse::convert");
  constexpr auto max2 = static_cast<std::int64_t>(std::numeric_limits<I2>::max());
  if (a.rows > max2 || a.cols > max2 || a.nnz() > max2)
    throw trncore::InvalidArgument("trnsparse::convert",
                                   "rows=" + std::to_string(a.rows) + ", cols=" + std::to_string(a.cols) +
                                       ", nnz=" + std::to_string(a.nnz()) + " exceed the target index type's max " +
                                       std::to_string(max2),
                                   "convert to 64-bit indices instead");
  Csr<T2, I2> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.indptr.assign(a.indptr.begin(), a.indptr.end());
  out.indices.assign(a.indices.begin(), a.indices.end());
  out.values.assign(a.values.begin(), a.values.end());
  return out;
}

}  // namespace trnsparse
