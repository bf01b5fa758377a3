#pragma once
// Checks every host operation makes on its options and dense operands.

#include <trncore/detail/checks.hpp>

#include <trnblas/types.hpp>
#include <trncore/error.hpp>
#include <trncore/options.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace trnsparse::detail {

/// Validates options and refuses the sim backend (host-only call) and math modes other than
/// automatic/full precision of T.
template <class T>
void require_host(const trncore::Options& options, const char* fn) {
  trncore::validate(options, fn);
  if (options.backend != trncore::Backend::host)
    throw trncore::NotSupported(fn,
                                "backend " + std::string(trncore::to_string(options.backend)) + " is not offered here",
                                "use Backend::host, or on sim a BSR matrix: spmm(op, alpha, to_bsr(a, 128, 128), ...)");
  const bool full = options.math_mode == trncore::MathMode::automatic ||
                    options.math_mode == (sizeof(T) == 8 ? trncore::MathMode::fp64 : trncore::MathMode::fp32);
  if (!full)
    throw trncore::NotSupported(fn, "math_mode " + std::string(trncore::to_string(options.math_mode)) + " on the host",
                                "host sparse products run in the value type's precision (automatic)");
}

/// Throws InvalidArgument for an op that is not a trnblas::Op value (e.g. static_cast<Op>(7), which used
/// to run as trans).
inline void require_op(trnblas::Op op, const char* fn) {
  if (op != trnblas::Op::no_trans && op != trnblas::Op::trans && op != trnblas::Op::conj_trans)
    throw trncore::InvalidArgument(fn, "op = " + std::to_string(static_cast<int>(op)) + " is not a trnblas::Op",
                                   "pass Op::no_trans, Op::trans or Op::conj_trans");
}

/// Throws InvalidArgument when the output span shares memory with an input span: the kernels read x (B)
/// while they write y (C), so an aliased call would silently compute from half-updated values.
template <class T>
void require_disjoint(std::span<const T> read, const char* read_name, std::span<const T> written,
                      const char* written_name, const char* fn) {
  if (read.empty() || written.empty()) return;
  const std::less<const T*> before;
  const bool apart =
      !before(read.data(), written.data() + written.size()) || !before(written.data(), read.data() + read.size());
  if (!apart)
    throw trncore::InvalidArgument(fn, std::string(written_name) + " overlaps " + read_name + " in memory",
                                   std::string("pass a separate output array (copy ") + read_name + " first)");
}

/// Throws DimensionMismatch when a vector has the wrong length.
inline void require_length(std::size_t have, std::int64_t need, const char* name, const char* fn) {
  if (static_cast<std::int64_t>(have) != need)
    throw trncore::DimensionMismatch(
        fn, std::string(name) + " has " + std::to_string(have) + " entries, op(A) needs " + std::to_string(need),
        "pass vectors of op(A)'s column (x) and row (y) counts");
}

/// Checks a dense row-major rows×n operand with leading dimension ld held in a span of `have` entries.
inline void require_dense(std::int64_t rows, std::int64_t n, std::int64_t ld, std::size_t have, const char* name,
                          const char* fn) {
  if (ld < std::max<std::int64_t>(1, n))
    throw trncore::InvalidArgument(
        fn, std::string("ld") + name + " = " + std::to_string(ld) + " < max(1, n = " + std::to_string(n) + ")",
        "pass a leading dimension >= n (row-major)");
  const std::int64_t need =
      rows == 0 || n == 0 ? 0 : trncore::detail::checked_product(fn, {{"rows - 1", rows - 1}, {"ld", ld}}) + n;
  if (static_cast<std::int64_t>(have) < need)
    throw trncore::DimensionMismatch(fn,
                                     std::string(name) + " has " + std::to_string(have) + " entries, a " +
                                         std::to_string(rows) + "x" + std::to_string(n) + " matrix with ld " +
                                         std::to_string(ld) + " needs " + std::to_string(need),
                                     "pass the whole matrix");
}

}  // namespace trnsparse::detail
