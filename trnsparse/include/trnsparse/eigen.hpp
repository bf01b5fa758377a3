#pragma once
/// @file
/// Interop with Eigen's sparse matrices: Csr ↔ Eigen::SparseMatrix<T, RowMajor>, Csc ↔
/// Eigen::SparseMatrix<T, ColMajor>. Copies (Eigen's index type is its own StorageIndex); exact.

#include <trnsparse/formats.hpp>

#include <Eigen/SparseCore>

#include <algorithm>
#include <limits>
#include <string>

#include <cstdint>

namespace trnsparse {

/// An Eigen row-major sparse matrix holding the same entries as `a` (duplicates kept as stored; Eigen
/// treats a compressed matrix's entries as given).
/// @throws trncore::InvalidArgument when `a` is invalid or a size does not fit Eigen's StorageIndex.
template <class T, class I, class StorageIndex = int>
Eigen::SparseMatrix<T, Eigen::RowMajor, StorageIndex> to_eigen(const Csr<T, I>& a) {
  const Csr<T, StorageIndex> c = convert<T, StorageIndex>(a);
  Eigen::SparseMatrix<T, Eigen::RowMajor, StorageIndex> out(static_cast<StorageIndex>(c.rows),
                                                            static_cast<StorageIndex>(c.cols));
  out.resizeNonZeros(static_cast<Eigen::Index>(c.nnz()));
  std::copy(c.indptr.begin(), c.indptr.end(), out.outerIndexPtr());
  std::copy(c.indices.begin(), c.indices.end(), out.innerIndexPtr());
  std::copy(c.values.begin(), c.values.end(), out.valuePtr());
  return out;
}

/// A Csr of an Eigen sparse matrix of either storage order (compressed or not). Entries come out sorted
/// only when Eigen's are (they are after makeCompressed() of a matrix built by setFromTriplets).
/// @throws trncore::InvalidArgument when a size or nnz does not fit I.
template <class T, class I = std::int32_t, int Options, class StorageIndex>
Csr<T, I> from_eigen(const Eigen::SparseMatrix<T, Options, StorageIndex>& m) {
  Coo<T, I> coo;
  coo.rows = m.rows();
  coo.cols = m.cols();
  constexpr auto max_i = static_cast<std::int64_t>(std::numeric_limits<I>::max());
  if (coo.rows > max_i || coo.cols > max_i || static_cast<std::int64_t>(m.nonZeros()) > max_i)
    throw trncore::InvalidArgument("trnsparse::from_eigen",
                                   "a " + std::to_string(coo.rows) + "x" + std::to_string(coo.cols) + " matrix with " +
                                       std::to_string(m.nonZeros()) + " entries does not fit the index type",
                                   "use 64-bit indices (I = std::int64_t)");
  for (Eigen::Index outer = 0; outer < m.outerSize(); ++outer)
    for (typename Eigen::SparseMatrix<T, Options, StorageIndex>::InnerIterator it(m, outer); it; ++it) {
      coo.row.push_back(static_cast<I>(it.row()));
      coo.col.push_back(static_cast<I>(it.col()));
      coo.values.push_back(it.value());
    }
  return to_csr(coo, SumDuplicates::no);
}

}  // namespace trnsparse
