#include <trnsparse/ops.hpp>

#include "host/host_checks.hpp"
#include "host/row_partition.hpp"

#include <trncore/detail/parallel.hpp>

#include <algorithm>

namespace trnsparse {

template <class T, class I>
Csr<T, I> add(T alpha, const Csr<T, I>& a_in, T beta, const Csr<T, I>& b_in) {
  constexpr const char* fn = "trnsparse::add";
  validate(a_in, fn);
  validate(b_in, fn);
  trncore::detail::check_equal(fn, {"A.rows", a_in.rows}, {"B.rows", b_in.rows});
  trncore::detail::check_equal(fn, {"A.cols", a_in.cols}, {"B.cols", b_in.cols});
  const Csr<T, I> a = is_canonical(a_in) ? a_in : sum_duplicates(a_in);
  const Csr<T, I> b = is_canonical(b_in) ? b_in : sum_duplicates(b_in);
  Csr<T, I> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.indptr.assign(static_cast<std::size_t>(a.rows) + 1, I{0});
  out.indices.reserve(a.indices.size() + b.indices.size());
  out.values.reserve(a.indices.size() + b.indices.size());
  // Merge of two sorted rows.
  for (std::int64_t r = 0; r < a.rows; ++r) {
    auto ka = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
    auto kb = static_cast<std::size_t>(b.indptr[static_cast<std::size_t>(r)]);
    const auto ea = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]);
    const auto eb = static_cast<std::size_t>(b.indptr[static_cast<std::size_t>(r) + 1]);
    while (ka < ea || kb < eb) {
      if (kb == eb || (ka < ea && a.indices[ka] < b.indices[kb])) {
        out.indices.push_back(a.indices[ka]);
        out.values.push_back(alpha * a.values[ka++]);
      } else if (ka == ea || b.indices[kb] < a.indices[ka]) {
        out.indices.push_back(b.indices[kb]);
        out.values.push_back(beta * b.values[kb++]);
      } else {
        out.indices.push_back(a.indices[ka]);
        out.values.push_back(alpha * a.values[ka++] + beta * b.values[kb++]);
      }
    }
    trncore::detail::check_fits_index<I>(fn, "nnz", static_cast<std::int64_t>(out.values.size()));
    out.indptr[static_cast<std::size_t>(r) + 1] = static_cast<I>(out.values.size());
  }
  return out;
}

template <class T, class I>
void scale(T alpha, Csr<T, I>& a) {
  validate(a, "trnsparse::scale");
  for (T& v : a.values) v *= alpha;
}

template <class T, class I>
Csr<T, I> spgemm(const Csr<T, I>& a, const Csr<T, I>& b, const trncore::Options& options) {
  constexpr const char* fn = "trnsparse::spgemm";
  detail::require_host<T>(options, fn);
  validate(a, fn);
  validate(b, fn);
  trncore::detail::check_equal(fn, {"A.cols", a.cols}, {"B.rows", b.rows});
  const std::int64_t rows = a.rows, cols = b.cols;
  // Each row's entries, computed independently (so in parallel), then concatenated.
  std::vector<std::vector<I>> row_indices(static_cast<std::size_t>(rows));
  std::vector<std::vector<T>> row_values(static_cast<std::size_t>(rows));
  const std::int64_t workers = std::min<std::int64_t>(trncore::detail::resolve_threads(options.threads),
                                                      std::max<std::int64_t>(1, (a.nnz() + b.nnz()) / (1 << 14)));
  const auto bounds = detail::balanced_row_ranges(a.indptr, rows, workers);
  trncore::detail::parallel_for(
      static_cast<std::int64_t>(bounds.size()) - 1, static_cast<int>(workers), [&](std::int64_t t) {
        // Dense accumulator and a marker of which columns the current row touched (Gustavson).
        std::vector<T> acc(static_cast<std::size_t>(cols), T(0));
        std::vector<std::int64_t> seen(static_cast<std::size_t>(cols), -1);
        std::vector<I> touched;
        for (std::int64_t r = bounds[static_cast<std::size_t>(t)]; r < bounds[static_cast<std::size_t>(t) + 1]; ++r) {
          touched.clear();
          for (auto ka = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
               ka < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++ka) {
            const auto k = static_cast<std::size_t>(a.indices[ka]);
            for (auto kb = static_cast<std::size_t>(b.indptr[k]); kb < static_cast<std::size_t>(b.indptr[k + 1]);
                 ++kb) {
              const auto j = static_cast<std::size_t>(b.indices[kb]);
              if (seen[j] != r) {
                seen[j] = r;
                acc[j] = T(0);
                touched.push_back(b.indices[kb]);
              }
              acc[j] += a.values[ka] * b.values[kb];
            }
          }
          std::sort(touched.begin(), touched.end());
          auto& ri = row_indices[static_cast<std::size_t>(r)];
          auto& rv = row_values[static_cast<std::size_t>(r)];
          ri = touched;
          rv.reserve(touched.size());
          for (I j : touched) rv.push_back(acc[static_cast<std::size_t>(j)]);
        }
      });
  Csr<T, I> out;
  out.rows = rows;
  out.cols = cols;
  out.indptr.assign(static_cast<std::size_t>(rows) + 1, I{0});
  std::int64_t nnz = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    nnz += static_cast<std::int64_t>(row_indices[static_cast<std::size_t>(r)].size());
    trncore::detail::check_fits_index<I>(fn, "nnz(A*B)", nnz);
    out.indptr[static_cast<std::size_t>(r) + 1] = static_cast<I>(nnz);
  }
  out.indices.reserve(static_cast<std::size_t>(nnz));
  out.values.reserve(static_cast<std::size_t>(nnz));
  for (std::int64_t r = 0; r < rows; ++r) {
    out.indices.insert(out.indices.end(), row_indices[static_cast<std::size_t>(r)].begin(),
                       row_indices[static_cast<std::size_t>(r)].end());
    out.values.insert(out.values.end(), row_values[static_cast<std::size_t>(r)].begin(),
                      row_values[static_cast<std::size_t>(r)].end());
  }
  return out;
}

#define TRNSPARSE_INSTANTIATE_ALGEBRA(T, I)                         \
  template Csr<T, I> add(T, const Csr<T, I>&, T, const Csr<T, I>&); \
  template void scale(T, Csr<T, I>&);                               \
  template Csr<T, I> spgemm(const Csr<T, I>&, const Csr<T, I>&, const trncore::Options&);

TRNSPARSE_INSTANTIATE_ALGEBRA(float, std::int32_t)
TRNSPARSE_INSTANTIATE_ALGEBRA(float, std::int64_t)
TRNSPARSE_INSTANTIATE_ALGEBRA(double, std::int32_t)
TRNSPARSE_INSTANTIATE_ALGEBRA(double, std::int64_t)

}  // namespace trnsparse
