#pragma once
// The argument checks every trnblas routine runs before calling a backend (DESIGN.md §5.3: always on).
// One copy, so every routine words the same problem the same way:
// "<function>: <what is wrong, with the values>: <what to do>".

#include <trnblas/types.hpp>
#include <trncore/detail/checks.hpp>
#include <trncore/options.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace trnblas::detail {

/// A size or leading dimension with the name the caller knows it by ("m", "lda", "incx").
using trncore::detail::Named;

/// An enum argument with the name the caller knows it by ("transa", "layout"): built by enum_arg, checked
/// by check_enums.
struct EnumArg {
  const char* name;
  int value;             // the underlying value, for the message
  bool valid;            // one of the enumerators
  const char* accepted;  // "Op::no_trans, Op::trans or Op::conj_trans"
};
EnumArg enum_arg(const char* name, Layout value);
EnumArg enum_arg(const char* name, Op value);
EnumArg enum_arg(const char* name, Uplo value);
EnumArg enum_arg(const char* name, Diag value);
EnumArg enum_arg(const char* name, Side value);

/// Every public entry point's first check: each enum argument is one of its enumerators, so a value made
/// with static_cast (Op(7), Layout(9)) never reaches a backend.
/// @throws InvalidArgument "<name> has the invalid value <v>: pass <accepted>" for the first invalid one.
void check_enums(const char* function, std::initializer_list<EnumArg> args);

/// @throws InvalidArgument listing every size when any is negative.
void check_sizes(const char* function, std::initializer_list<Named> sizes);

/// A vector of n elements at x with increment inc (BLAS storage: x is the lowest address even when inc < 0).
/// @throws InvalidArgument for inc = 0, a null x with n > 0, or an extent (in elements or bytes) beyond int64.
void check_vector(const char* function, const char* name, std::int64_t n, const void* x, std::int64_t inc,
                  std::size_t elem);

/// The operand op(X) is rows×cols, X stored in `layout` with leading dimension ld. `show_op` = false for
/// operands without an op (C, or a square symmetric/triangular matrix) so the message does not invent one.
/// @throws DimensionMismatch when ld is below the stored row (column) length; InvalidArgument for a null
///         X with a nonzero size or an extent beyond int64.
void check_matrix(const char* function, const char* name, Layout layout, Op op, std::int64_t rows, std::int64_t cols,
                  const void* x, std::int64_t ld, std::size_t elem, bool show_op = true);

/// @throws NotSupported when a value exceeds the range of OpenBLAS's integer type (blasint is 32-bit in
///         the Debian/Ubuntu builds), so nothing is silently truncated. Increments are checked by magnitude.
void check_blasint(const char* function, std::initializer_list<Named> values);

/// Everything a host-only routine requires of its options: valid options, Backend::host (the sim backend
/// models gemm only), a math mode that is the type's own precision, and no target_forward_error (only
/// gemm certifies one). `double_precision` says whether T is double or std::complex<double>.
/// @throws InvalidArgument for invalid options; NotSupported for sim, another math mode, or a target.
void check_host_options(const char* function, const trncore::Options& options, bool double_precision);

/// The math-mode part of check_host_options alone (gemm, which also accepts sim and targets).
void check_host_math_mode(const char* function, const trncore::Options& options, bool double_precision,
                          const char* hint);

template <class T>
constexpr bool is_double_precision = std::is_same_v<real_type<T>, double>;

/// The first checks of every host-only routine: its sizes, then its options.
template <class T>
void check_host_call(const char* function, std::initializer_list<Named> sizes, const trncore::Options& options) {
  check_sizes(function, sizes);
  check_host_options(function, options, is_double_precision<T>);
}

/// The bytes an operand occupies: `lines` runs of `line` elements, `ld` elements apart (rows of a
/// row-major matrix, columns of a column-major one, single elements of a strided vector).
struct Region {
  const void* base = nullptr;
  std::int64_t lines = 0, line = 0, ld = 1;
  std::size_t elem = 1;
};

/// The stored matrix behind op(X) (rows×cols).
Region matrix_region(const void* x, Layout layout, Op op, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                     std::size_t elem);
/// The n elements of a strided vector.
Region vector_region(const void* x, std::int64_t n, std::int64_t inc, std::size_t elem);

/// Whether some element of `a` shares a byte with some element of `b`. Exact (element runs, not bounding
/// intervals): disjoint blocks of one matrix, or the even and odd elements of one array, do not overlap.
bool overlaps(const Region& a, const Region& b);

/// @throws InvalidArgument "<written> overlaps <read>" when they share storage: BLAS forbids writing an
///         operand while reading another one that aliases it.
void check_no_overlap(const char* function, const char* written, const Region& w, const char* read, const Region& r);

/// One operand of a batch: entry `index` of the operand called `name` ("A", "B", "C").
struct BatchOperand {
  Region region;
  const char* name;
  std::int64_t index;
  bool written;
};

/// @throws InvalidArgument "<C[i]> overlaps <X[j]>" when a written operand shares storage with any other
///         operand of the batch (reads may share). Sorted sweep over bounding intervals, the exact test
///         only where they meet: O(N log N) for separate allocations.
void check_batch_overlaps(const char* function, std::vector<BatchOperand> operands);

}  // namespace trnblas::detail
