#include <trnsparse/formats.hpp>

#include "structure.hpp"

#include <trncore/detail/checks.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace trnsparse {
namespace {

using std::int64_t;

// "name=value" for messages.
std::string kv(const char* name, int64_t value) { return std::string(name) + "=" + std::to_string(value); }

template <class I>
void check_sizes(int64_t rows, int64_t cols, const char* fn) {
  trncore::detail::check_nonnegative(fn, {{"rows", rows}, {"cols", cols}});
  trncore::detail::check_fits_index<I>(fn, "rows", rows);
  trncore::detail::check_fits_index<I>(fn, "cols", cols);
}

// indptr of length major+1, from 0 to nnz, nondecreasing; indices in [0, minor); optionally strictly
// increasing within each major slice. `slice` names the slice ("row", "column", "block row") in messages.
// `depth` = ends stops after the O(1) checks (lengths, first and last indptr entry).
enum class Depth { ends, everything };

template <class I>
void check_compressed(int64_t major, int64_t minor, const std::vector<I>& indptr, const std::vector<I>& indices,
                      int64_t nnz, bool canonical, const char* slice, const char* fn, Depth depth = Depth::everything) {
  if (static_cast<int64_t>(indptr.size()) != major + 1)
    throw trncore::InvalidArgument(
        fn, "indptr has " + std::to_string(indptr.size()) + " entries for " + std::to_string(major) + " " + slice + "s",
        "indptr needs one entry per " + std::string(slice) + " plus one");
  if (static_cast<int64_t>(indices.size()) != nnz)
    throw trncore::InvalidArgument(
        fn, "indices has " + std::to_string(indices.size()) + " entries, values " + std::to_string(nnz),
        "give one index per stored value");
  if (indptr[0] != 0)
    throw trncore::InvalidArgument(fn, "indptr[0] = " + std::to_string(indptr[0]), "indptr must start at 0");
  if (static_cast<int64_t>(indptr[static_cast<std::size_t>(major)]) != nnz)
    throw trncore::InvalidArgument(fn,
                                   "indptr[" + std::to_string(major) +
                                       "] = " + std::to_string(indptr[static_cast<std::size_t>(major)]) +
                                       " but nnz = " + std::to_string(nnz),
                                   "the last indptr entry must equal the number of stored values");
  if (depth == Depth::ends) return;
  for (int64_t r = 0; r < major; ++r) {
    const int64_t b = indptr[static_cast<std::size_t>(r)], e = indptr[static_cast<std::size_t>(r) + 1];
    if (e < b) detail::throw_bad_indptr(fn, slice, r, b, e);
    for (int64_t k = b; k < e; ++k) {
      const int64_t j = indices[static_cast<std::size_t>(k)];
      if (j < 0 || j >= minor)
        throw trncore::InvalidArgument(fn,
                                       "index " + std::to_string(j) + " at position " + std::to_string(k) + " (" +
                                           slice + " " + std::to_string(r) + ") is outside [0, " +
                                           std::to_string(minor) + ")",
                                       "indices must lie inside the matrix");
      if (canonical && k > b && j <= static_cast<int64_t>(indices[static_cast<std::size_t>(k) - 1]))
        throw trncore::InvalidArgument(
            fn,
            std::string(slice) + " " + std::to_string(r) + " has index " + std::to_string(j) + " after " +
                std::to_string(indices[static_cast<std::size_t>(k) - 1]) + " (unsorted or duplicate)",
            "call sum_duplicates() first to sort and merge the entries");
    }
  }
}

// Counting sort of COO entries into compressed form along `major` (row for CSR, col for CSC). Stable,
// so entries of one slice keep their COO order, and the secondary sort on `minor` is done by sorting
// through the transpose first (two passes of counting sort = LSD radix sort).
template <class T, class I>
void compress(int64_t n_major, int64_t n_minor, const std::vector<I>& major, const std::vector<I>& minor,
              const std::vector<T>& values, std::vector<I>& indptr, std::vector<I>& indices, std::vector<T>& out) {
  const std::size_t nnz = values.size();
  // Pass 1: order by minor.
  std::vector<int64_t> count(static_cast<std::size_t>(std::max(n_major, n_minor)) + 1, 0);
  for (std::size_t k = 0; k < nnz; ++k) ++count[static_cast<std::size_t>(minor[k]) + 1];
  for (int64_t j = 0; j < n_minor; ++j) count[static_cast<std::size_t>(j) + 1] += count[static_cast<std::size_t>(j)];
  std::vector<std::size_t> by_minor(nnz);
  for (std::size_t k = 0; k < nnz; ++k)
    by_minor[static_cast<std::size_t>(count[static_cast<std::size_t>(minor[k])]++)] = k;
  // Pass 2: stable by major.
  indptr.assign(static_cast<std::size_t>(n_major) + 1, I{0});
  for (std::size_t k = 0; k < nnz; ++k) ++indptr[static_cast<std::size_t>(major[k]) + 1];
  for (int64_t i = 0; i < n_major; ++i) indptr[static_cast<std::size_t>(i) + 1] += indptr[static_cast<std::size_t>(i)];
  std::vector<I> next(indptr.begin(), indptr.end() - 1);
  indices.resize(nnz);
  out.resize(nnz);
  for (std::size_t k : by_minor) {
    const auto pos = static_cast<std::size_t>(next[static_cast<std::size_t>(major[k])]++);
    indices[pos] = minor[k];
    out[pos] = values[k];
  }
}

// Sums adjacent equal indices inside each slice of sorted compressed storage, in place.
template <class T, class I>
void merge_sorted_duplicates(int64_t n_major, std::vector<I>& indptr, std::vector<I>& indices, std::vector<T>& values) {
  std::size_t w = 0;
  std::size_t start = 0;
  for (int64_t i = 0; i < n_major; ++i) {
    const auto end = static_cast<std::size_t>(indptr[static_cast<std::size_t>(i) + 1]);
    const std::size_t row_start = w;
    for (std::size_t k = start; k < end; ++k) {
      if (w > row_start && indices[w - 1] == indices[k]) {
        values[w - 1] += values[k];
      } else {
        indices[w] = indices[k];
        values[w] = values[k];
        ++w;
      }
    }
    start = end;
    indptr[static_cast<std::size_t>(i) + 1] = static_cast<I>(w);
  }
  indices.resize(w);
  values.resize(w);
}

// Compressed transpose (CSR ↔ CSC and Aᵀ): counting sort by index, stable so each output slice is
// sorted by the input's major index.
template <class T, class I>
void transpose_compressed(int64_t n_major, int64_t n_minor, const std::vector<I>& indptr, const std::vector<I>& indices,
                          const std::vector<T>& values, std::vector<I>& t_indptr, std::vector<I>& t_indices,
                          std::vector<T>& t_values) {
  const std::size_t nnz = values.size();
  t_indptr.assign(static_cast<std::size_t>(n_minor) + 1, I{0});
  for (std::size_t k = 0; k < nnz; ++k) ++t_indptr[static_cast<std::size_t>(indices[k]) + 1];
  for (int64_t j = 0; j < n_minor; ++j)
    t_indptr[static_cast<std::size_t>(j) + 1] += t_indptr[static_cast<std::size_t>(j)];
  std::vector<I> next(t_indptr.begin(), t_indptr.end() - 1);
  t_indices.resize(nnz);
  t_values.resize(nnz);
  for (int64_t i = 0; i < n_major; ++i)
    for (auto k = static_cast<std::size_t>(indptr[static_cast<std::size_t>(i)]);
         k < static_cast<std::size_t>(indptr[static_cast<std::size_t>(i) + 1]); ++k) {
      const auto pos = static_cast<std::size_t>(next[static_cast<std::size_t>(indices[k])]++);
      t_indices[pos] = static_cast<I>(i);
      t_values[pos] = values[k];
    }
}

// The major index of every stored entry (the row of each CSR entry, the column of each CSC entry).
template <class I>
std::vector<I> expand_indptr(int64_t n_major, const std::vector<I>& indptr) {
  std::vector<I> major(static_cast<std::size_t>(indptr[static_cast<std::size_t>(n_major)]));
  for (int64_t i = 0; i < n_major; ++i)
    std::fill(major.begin() + indptr[static_cast<std::size_t>(i)],
              major.begin() + indptr[static_cast<std::size_t>(i) + 1], static_cast<I>(i));
  return major;
}

}  // namespace

template <class T, class I>
void validate(const Coo<T, I>& a, const char* fn) {
  check_sizes<I>(a.rows, a.cols, fn);
  if (a.row.size() != a.values.size() || a.col.size() != a.values.size())
    throw trncore::InvalidArgument(fn,
                                   "row, col and values have " + std::to_string(a.row.size()) + ", " +
                                       std::to_string(a.col.size()) + " and " + std::to_string(a.values.size()) +
                                       " entries",
                                   "give one row and one column index per value");
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    if (a.row[k] < 0 || a.row[k] >= a.rows || a.col[k] < 0 || a.col[k] >= a.cols)
      throw trncore::InvalidArgument(fn,
                                     "entry " + std::to_string(k) + " at (" + std::to_string(a.row[k]) + ", " +
                                         std::to_string(a.col[k]) + ") is outside the " + std::to_string(a.rows) + "x" +
                                         std::to_string(a.cols) + " matrix",
                                     "indices are 0-based and must lie inside the matrix");
  }
}

template <class T, class I>
void validate(const Csr<T, I>& a, const char* fn, bool canonical) {
  check_sizes<I>(a.rows, a.cols, fn);
  check_compressed(a.rows, a.cols, a.indptr, a.indices, a.nnz(), canonical, "row", fn);
}

template <class T, class I>
void validate(const Csc<T, I>& a, const char* fn, bool canonical) {
  check_sizes<I>(a.rows, a.cols, fn);
  check_compressed(a.cols, a.rows, a.indptr, a.indices, a.nnz(), canonical, "column", fn);
}

template <class T, class I>
void validate(const Bsr<T, I>& a, const char* fn, bool canonical) {
  check_sizes<I>(a.rows, a.cols, fn);
  if (a.block_rows < 1 || a.block_cols < 1)
    throw trncore::InvalidArgument(fn, kv("block_rows", a.block_rows) + ", " + kv("block_cols", a.block_cols),
                                   "block sizes must be >= 1 (128 is the TensorEngine tile)");
  const int64_t per_block =
      trncore::detail::checked_product(fn, {{"a.block_rows", a.block_rows}, {"a.block_cols", a.block_cols}});
  const int64_t blocks = a.block_count();
  if (static_cast<int64_t>(a.values.size()) !=
      trncore::detail::checked_product(fn, {{"per_block", per_block}, {"blocks", blocks}}))
    throw trncore::InvalidArgument(fn,
                                   "values has " + std::to_string(a.values.size()) + " entries for " +
                                       std::to_string(blocks) + " blocks of " + std::to_string(a.block_rows) + "x" +
                                       std::to_string(a.block_cols),
                                   "store block_rows*block_cols values per block, row-major");
  check_compressed(a.block_row_count(), a.block_col_count(), a.indptr, a.indices, blocks, canonical, "block row", fn);
}

template <class T, class I>
void detail::validate_ends(const Csr<T, I>& a, const char* fn) {
  check_sizes<I>(a.rows, a.cols, fn);
  check_compressed(a.rows, a.cols, a.indptr, a.indices, a.nnz(), false, "row", fn, Depth::ends);
}

template <class T, class I>
bool is_canonical(const Csr<T, I>& a) {
  for (int64_t r = 0; r < a.rows; ++r)
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]) + 1;
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k)
      if (a.indices[k] <= a.indices[k - 1]) return false;
  return true;
}

namespace {
// COO → CSR (by_rows) or CSC (the CSR of the transpose): the one compression both conversions share.
template <class Out, class T, class I>
Out compress_coo(const Coo<T, I>& a, SumDuplicates sum, bool by_rows, const char* fn) {
  validate(a, fn);
  trncore::detail::check_fits_index<I>(fn, "nnz", a.nnz());
  Out out;
  out.rows = a.rows;
  out.cols = a.cols;
  const int64_t outer = by_rows ? a.rows : a.cols, inner = by_rows ? a.cols : a.rows;
  compress(outer, inner, by_rows ? a.row : a.col, by_rows ? a.col : a.row, a.values, out.indptr, out.indices,
           out.values);
  if (sum == SumDuplicates::yes) merge_sorted_duplicates(outer, out.indptr, out.indices, out.values);
  return out;
}
}  // namespace

template <class T, class I>
Csr<T, I> to_csr(const Coo<T, I>& a, SumDuplicates sum) {
  return compress_coo<Csr<T, I>>(a, sum, true, "trnsparse::to_csr");
}

template <class T, class I>
Csc<T, I> to_csc(const Coo<T, I>& a, SumDuplicates sum) {
  return compress_coo<Csc<T, I>>(a, sum, false, "trnsparse::to_csc");
}

template <class T, class I>
Coo<T, I> to_coo(const Csr<T, I>& a) {
  validate(a, "trnsparse::to_coo");
  Coo<T, I> out{a.rows, a.cols, expand_indptr(a.rows, a.indptr), a.indices, a.values};
  return out;
}

template <class T, class I>
Coo<T, I> to_coo(const Csc<T, I>& a) {
  validate(a, "trnsparse::to_coo");
  Coo<T, I> out{a.rows, a.cols, a.indices, expand_indptr(a.cols, a.indptr), a.values};
  return out;
}

namespace {
// CSR ↔ CSC: the same stable transpose of the compressed arrays, over n_major × n_minor.
template <class Out, class In>
Out recompress(const In& a, int64_t n_major, int64_t n_minor, const char* fn) {
  validate(a, fn);
  Out out;
  out.rows = a.rows;
  out.cols = a.cols;
  transpose_compressed(n_major, n_minor, a.indptr, a.indices, a.values, out.indptr, out.indices, out.values);
  return out;
}
}  // namespace

template <class T, class I>
Csc<T, I> to_csc(const Csr<T, I>& a) {
  return recompress<Csc<T, I>>(a, a.rows, a.cols, "trnsparse::to_csc");
}

template <class T, class I>
Csr<T, I> to_csr(const Csc<T, I>& a) {
  return recompress<Csr<T, I>>(a, a.cols, a.rows, "trnsparse::to_csr");
}

template <class T, class I>
Csr<T, I> sum_duplicates(const Csr<T, I>& a) {
  validate(a, "trnsparse::sum_duplicates");
  // Two stable transposes sort every row by column while keeping duplicates in storage order.
  Csr<T, I> out = to_csr(to_csc(a));
  merge_sorted_duplicates(out.rows, out.indptr, out.indices, out.values);
  return out;
}

template <class T, class I>
Csr<T, I> drop_zeros(const Csr<T, I>& a) {
  validate(a, "trnsparse::drop_zeros");
  Csr<T, I> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.indptr.assign(static_cast<std::size_t>(a.rows) + 1, I{0});
  for (int64_t r = 0; r < a.rows; ++r) {
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k)
      if (a.values[k] != T(0)) {
        out.indices.push_back(a.indices[k]);
        out.values.push_back(a.values[k]);
      }
    out.indptr[static_cast<std::size_t>(r) + 1] = static_cast<I>(out.values.size());
  }
  return out;
}

template <class T, class I>
Csr<T, I> transpose(const Csr<T, I>& a) {
  validate(a, "trnsparse::transpose");
  Csr<T, I> out;
  out.rows = a.cols;
  out.cols = a.rows;
  transpose_compressed(a.rows, a.cols, a.indptr, a.indices, a.values, out.indptr, out.indices, out.values);
  return out;
}

template <class T, class I>
Bsr<T, I> to_bsr(const Csr<T, I>& a, int64_t br, int64_t bc) {
  constexpr const char* fn = "trnsparse::to_bsr";
  validate(a, fn);
  if (br < 1 || bc < 1)
    throw trncore::InvalidArgument(fn, kv("block_rows", br) + ", " + kv("block_cols", bc),
                                   "block sizes must be >= 1 (128 is the TensorEngine tile)");
  Bsr<T, I> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.block_rows = br;
  out.block_cols = bc;
  const int64_t nbr = out.block_row_count(), nbc = out.block_col_count();
  const std::size_t per_block =
      static_cast<std::size_t>(trncore::detail::checked_product(fn, {{"br", br}, {"bc", bc}}));
  out.indptr.assign(static_cast<std::size_t>(nbr) + 1, I{0});
  // slot[bj] = position of block column bj in the current block row, or -1; reset after each block row.
  std::vector<int64_t> slot(static_cast<std::size_t>(nbc), -1);
  std::vector<I> touched;
  for (int64_t bi = 0; bi < nbr; ++bi) {
    touched.clear();
    const int64_t r_end = std::min(a.rows, (bi + 1) * br);
    for (int64_t r = bi * br; r < r_end; ++r)
      for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
           k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k) {
        const auto bj = static_cast<std::size_t>(a.indices[k] / bc);
        if (slot[bj] < 0) {
          slot[bj] = 0;
          touched.push_back(static_cast<I>(bj));
        }
      }
    std::sort(touched.begin(), touched.end());
    const std::size_t first = out.indices.size();
    for (std::size_t t = 0; t < touched.size(); ++t) {
      slot[static_cast<std::size_t>(touched[t])] = static_cast<int64_t>(first + t);
      out.indices.push_back(touched[t]);
    }
    trncore::detail::check_fits_index<I>(fn, "block count", static_cast<int64_t>(out.indices.size()));
    out.values.resize(out.indices.size() * per_block, T(0));
    for (int64_t r = bi * br; r < r_end; ++r)
      for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
           k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k) {
        const int64_t c = a.indices[k];
        const auto b = static_cast<std::size_t>(slot[static_cast<std::size_t>(c / bc)]);
        out.values[b * per_block + static_cast<std::size_t>((r - bi * br) * bc + c % bc)] += a.values[k];
      }
    for (I bj : touched) slot[static_cast<std::size_t>(bj)] = -1;
    out.indptr[static_cast<std::size_t>(bi) + 1] = static_cast<I>(out.indices.size());
  }
  return out;
}

template <class T, class I>
Csr<T, I> to_csr(const Bsr<T, I>& a) {
  constexpr const char* fn = "trnsparse::to_csr";
  validate(a, fn);
  Csr<T, I> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.indptr.assign(static_cast<std::size_t>(a.rows) + 1, I{0});
  const int64_t R = a.block_rows, C = a.block_cols;
  for (int64_t r = 0; r < a.rows; ++r) {
    const int64_t bi = r / R, lr = r % R;
    for (auto b = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(bi)]);
         b < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(bi) + 1]); ++b) {
      const int64_t c0 = static_cast<int64_t>(a.indices[b]) * C;
      const int64_t width = std::min(C, a.cols - c0);
      for (int64_t lc = 0; lc < width; ++lc) {
        out.indices.push_back(static_cast<I>(c0 + lc));
        out.values.push_back(a.values[b * static_cast<std::size_t>(R * C) + static_cast<std::size_t>(lr * C + lc)]);
      }
    }
    trncore::detail::check_fits_index<I>(fn, "nnz", static_cast<int64_t>(out.values.size()));
    out.indptr[static_cast<std::size_t>(r) + 1] = static_cast<I>(out.values.size());
  }
  return out;
}

template <class T, class I>
std::vector<T> to_dense(const Csr<T, I>& a) {
  constexpr const char* fn = "trnsparse::to_dense";
  validate(a, fn);
  std::vector<T> d(
      static_cast<std::size_t>(trncore::detail::checked_product(fn, {{"a.rows", a.rows}, {"a.cols", a.cols}})), T(0));
  for (int64_t r = 0; r < a.rows; ++r)
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k)
      d[static_cast<std::size_t>(r * a.cols + a.indices[k])] += a.values[k];
  return d;
}

template <class T, class I>
std::vector<T> to_dense(const Bsr<T, I>& a) {
  return to_dense(to_csr(a));
}

template <class T, class I>
Csr<T, I> csr_from_dense(int64_t rows, int64_t cols, const T* a, int64_t ld, double drop_tolerance) {
  constexpr const char* fn = "trnsparse::csr_from_dense";
  check_sizes<I>(rows, cols, fn);
  if (ld < std::max<int64_t>(1, cols))
    throw trncore::InvalidArgument(fn, kv("ld", ld) + " < " + kv("cols", cols), "pass ld >= max(1, cols)");
  if (a == nullptr && rows > 0 && cols > 0)
    throw trncore::InvalidArgument(
        fn, "a is null for a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix", "pass the dense data");
  if (!(drop_tolerance >= 0))
    throw trncore::InvalidArgument(fn, "drop_tolerance = " + trncore::detail::sci(drop_tolerance),
                                   "pass a tolerance >= 0");
  Csr<T, I> out;
  out.rows = rows;
  out.cols = cols;
  out.indptr.assign(static_cast<std::size_t>(rows) + 1, I{0});
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const T v = a[r * ld + c];
      if (std::isnan(v) || std::abs(static_cast<double>(v)) > drop_tolerance) {
        out.indices.push_back(static_cast<I>(c));
        out.values.push_back(v);
      }
    }
    trncore::detail::check_fits_index<I>(fn, "nnz", static_cast<int64_t>(out.values.size()));
    out.indptr[static_cast<std::size_t>(r) + 1] = static_cast<I>(out.values.size());
  }
  return out;
}

#define TRNSPARSE_INSTANTIATE_FORMATS(T, I)                                \
  template void validate(const Coo<T, I>&, const char*);                   \
  template void validate(const Csr<T, I>&, const char*, bool);             \
  template void validate(const Csc<T, I>&, const char*, bool);             \
  template void validate(const Bsr<T, I>&, const char*, bool);             \
  template bool is_canonical(const Csr<T, I>&);                            \
  template void detail::validate_ends(const Csr<T, I>&, const char*);      \
  template Csr<T, I> to_csr(const Coo<T, I>&, SumDuplicates);              \
  template Csc<T, I> to_csc(const Coo<T, I>&, SumDuplicates);              \
  template Coo<T, I> to_coo(const Csr<T, I>&);                             \
  template Coo<T, I> to_coo(const Csc<T, I>&);                             \
  template Csc<T, I> to_csc(const Csr<T, I>&);                             \
  template Csr<T, I> to_csr(const Csc<T, I>&);                             \
  template Csr<T, I> sum_duplicates(const Csr<T, I>&);                     \
  template Csr<T, I> drop_zeros(const Csr<T, I>&);                         \
  template Csr<T, I> transpose(const Csr<T, I>&);                          \
  template Bsr<T, I> to_bsr(const Csr<T, I>&, std::int64_t, std::int64_t); \
  template Csr<T, I> to_csr(const Bsr<T, I>&);                             \
  template std::vector<T> to_dense(const Csr<T, I>&);                      \
  template std::vector<T> to_dense(const Bsr<T, I>&);                      \
  template Csr<T, I> csr_from_dense(std::int64_t, std::int64_t, const T*, std::int64_t, double);

TRNSPARSE_INSTANTIATE_FORMATS(float, std::int32_t)
TRNSPARSE_INSTANTIATE_FORMATS(float, std::int64_t)
TRNSPARSE_INSTANTIATE_FORMATS(double, std::int32_t)
TRNSPARSE_INSTANTIATE_FORMATS(double, std::int64_t)

}  // namespace trnsparse
