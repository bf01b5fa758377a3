#include <trnsparse/matrix_market.hpp>

#include <trncore/detail/checks.hpp>

#include <trncore/error.hpp>

#include <fstream>
#include <limits>
#include <ostream>
#include <string>

namespace trnsparse {
namespace {
// "name=value" for messages.
std::string kv(const char* name, std::int64_t value) { return std::string(name) + "=" + std::to_string(value); }
}  // namespace
namespace {

// Whether a (canonical, duplicates summed) matrix equals sign·Aᵀ exactly.
template <class T, class I>
bool equals_signed_transpose(const Csr<T, I>& a, T sign) {
  const Csr<T, I> t = transpose(a);  // sorted rows, as `a` is canonical
  if (t.indptr != a.indptr || t.indices != a.indices) return false;
  for (std::size_t k = 0; k < a.values.size(); ++k)
    if (!(a.values[k] == sign * t.values[k])) return false;
  return true;
}

void check_stream(std::ostream& out, const char* fn) {
  if (!out)
    throw trncore::IoError(fn, "the output stream failed while writing", "check the file system (space, permissions)");
}

}  // namespace

template <class T, class I>
void write_matrix_market(std::ostream& out, const Csr<T, I>& a_in, MmSymmetry symmetry) {
  constexpr const char* fn = "trnsparse::write_matrix_market";
  if (symmetry != MmSymmetry::general && symmetry != MmSymmetry::symmetric && symmetry != MmSymmetry::skew_symmetric)
    throw trncore::InvalidArgument(fn,
                                   "symmetry = " + std::to_string(static_cast<int>(symmetry)) + " is not an MmSymmetry",
                                   "pass MmSymmetry::general, symmetric or skew_symmetric");
  validate(a_in, fn);
  const Csr<T, I> a = sum_duplicates(a_in);
  if (symmetry != MmSymmetry::general) {
    if (a.rows != a.cols)
      throw trncore::InvalidArgument(
          fn, "symmetric storage of a " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + " matrix",
          "write non-square matrices as general");
    const T sign = symmetry == MmSymmetry::symmetric ? T(1) : T(-1);
    if (!equals_signed_transpose(a, sign))
      throw trncore::InvalidArgument(fn,
                                     std::string("the matrix is not exactly ") +
                                         (symmetry == MmSymmetry::symmetric ? "symmetric" : "skew-symmetric"),
                                     "write it as general, or symmetrize it first");
  }
  const bool lower_only = symmetry != MmSymmetry::general;
  const bool strict = symmetry == MmSymmetry::skew_symmetric;
  std::int64_t entries = 0;
  for (std::int64_t r = 0; r < a.rows; ++r)
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k) {
      const std::int64_t c = a.indices[k];
      if (!lower_only || c < r || (c == r && !strict)) ++entries;
    }
  out << "%%MatrixMarket matrix coordinate real "
      << (symmetry == MmSymmetry::general     ? "general"
          : symmetry == MmSymmetry::symmetric ? "symmetric"
                                              : "skew-symmetric")
      << "\n% written by trnsparse\n"
      << a.rows << ' ' << a.cols << ' ' << entries << '\n';
  out.precision(std::numeric_limits<T>::max_digits10);
  for (std::int64_t r = 0; r < a.rows; ++r)
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k) {
      const std::int64_t c = a.indices[k];
      if (!lower_only || c < r || (c == r && !strict)) out << r + 1 << ' ' << c + 1 << ' ' << a.values[k] << '\n';
    }
  check_stream(out, fn);
}

template <class T, class I>
void write_matrix_market_file(const std::string& path, const Csr<T, I>& a, MmSymmetry symmetry) {
  std::ofstream out(path);
  if (!out)
    throw trncore::IoError("trnsparse::write_matrix_market_file", "cannot open '" + path + "' for writing",
                           "check the directory exists and is writable");
  write_matrix_market(out, a, symmetry);
  out.close();
  check_stream(out, "trnsparse::write_matrix_market_file");
}

template <class T>
void write_matrix_market_array(std::ostream& out, std::int64_t rows, std::int64_t cols, const T* a, std::int64_t ld) {
  constexpr const char* fn = "trnsparse::write_matrix_market_array";
  trncore::detail::check_nonnegative(fn, {{"rows", rows}, {"cols", cols}});
  if (ld < std::max<std::int64_t>(1, cols))
    throw trncore::InvalidArgument(fn, kv("ld", ld) + " < " + kv("cols", cols), "pass ld >= max(1, cols)");
  if (a == nullptr && rows > 0 && cols > 0)
    throw trncore::InvalidArgument(
        fn, "a is null for a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix", "pass the dense data");
  out << "%%MatrixMarket matrix array real general\n" << rows << ' ' << cols << '\n';
  out.precision(std::numeric_limits<T>::max_digits10);
  for (std::int64_t c = 0; c < cols; ++c)
    for (std::int64_t r = 0; r < rows; ++r) out << a[r * ld + c] << '\n';
  check_stream(out, fn);
}

#define TRNSPARSE_INSTANTIATE_MM_WRITE(T, I)                                      \
  template void write_matrix_market(std::ostream&, const Csr<T, I>&, MmSymmetry); \
  template void write_matrix_market_file(const std::string&, const Csr<T, I>&, MmSymmetry);

TRNSPARSE_INSTANTIATE_MM_WRITE(float, std::int32_t)
TRNSPARSE_INSTANTIATE_MM_WRITE(float, std::int64_t)
TRNSPARSE_INSTANTIATE_MM_WRITE(double, std::int32_t)
TRNSPARSE_INSTANTIATE_MM_WRITE(double, std::int64_t)
template void write_matrix_market_array(std::ostream&, std::int64_t, std::int64_t, const float*, std::int64_t);
template void write_matrix_market_array(std::ostream&, std::int64_t, std::int64_t, const double*, std::int64_t);

}  // namespace trnsparse
