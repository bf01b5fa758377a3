// The shared argument checks (checks.hpp).
#include "checks.hpp"

#include <trnblas/detail/view_checks.hpp>

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <openblas_config.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace trnblas::detail {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

__extension__ typedef __int128 Wide;  // byte offsets between unrelated operands cannot overflow this

// Floor division for a possibly negative numerator and a positive denominator.
Wide floor_div(Wide a, Wide b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

Wide address(const void* p) { return static_cast<Wide>(reinterpret_cast<std::uintptr_t>(p)); }

// Byte interval [first, last) that the region's elements lie in.
Wide first_byte(const Region& r) { return address(r.base); }
Wide last_byte(const Region& r) {
  return address(r.base) + (static_cast<Wide>(r.lines - 1) * r.ld + r.line) * static_cast<Wide>(r.elem);
}

// Runs of `c` tested against `a`: each run of c meets at most the one run of a that starts last at or
// before the run's end (runs of a are disjoint and ascending since line ≤ ld), so one division per run.
bool runs_overlap(const Region& a, const Region& c) {
  const Wide stride_a = static_cast<Wide>(a.ld) * static_cast<Wide>(a.elem);
  const Wide run_a = static_cast<Wide>(a.line) * static_cast<Wide>(a.elem);
  const Wide run_c = static_cast<Wide>(c.line) * static_cast<Wide>(c.elem);
  const Wide origin = address(c.base) - address(a.base);
  for (std::int64_t i = 0; i < c.lines; ++i) {
    const Wide x = origin + static_cast<Wide>(i) * static_cast<Wide>(c.ld) * static_cast<Wide>(c.elem);
    Wide j = floor_div(x + run_c - 1, stride_a);
    if (j < 0) continue;
    if (j > a.lines - 1) j = a.lines - 1;
    if (j * stride_a + run_a > x) return true;
  }
  return false;
}

}  // namespace

EnumArg enum_arg(const char* name, Layout v) {
  return {name, static_cast<int>(v), v == Layout::row_major || v == Layout::col_major,
          "Layout::row_major or Layout::col_major"};
}
EnumArg enum_arg(const char* name, Op v) {
  return {name, static_cast<int>(v), v == Op::no_trans || v == Op::trans || v == Op::conj_trans,
          "Op::no_trans, Op::trans or Op::conj_trans"};
}
EnumArg enum_arg(const char* name, Uplo v) {
  return {name, static_cast<int>(v), v == Uplo::upper || v == Uplo::lower, "Uplo::upper or Uplo::lower"};
}
EnumArg enum_arg(const char* name, Diag v) {
  return {name, static_cast<int>(v), v == Diag::non_unit || v == Diag::unit, "Diag::non_unit or Diag::unit"};
}
EnumArg enum_arg(const char* name, Side v) {
  return {name, static_cast<int>(v), v == Side::left || v == Side::right, "Side::left or Side::right"};
}

void check_enums(const char* function, std::initializer_list<EnumArg> args) {
  for (const EnumArg& a : args)
    if (!a.valid)
      throw trncore::InvalidArgument(function, std::string(a.name) + " has the invalid value " + str(a.value),
                                     std::string("pass ") + a.accepted);
}

void check_op(const char* function, const char* name, Op op) { check_enums(function, {enum_arg(name, op)}); }

void check_sizes(const char* function, std::initializer_list<Named> sizes) {
  trncore::detail::check_nonnegative(function, sizes);
}

void check_vector(const char* function, const char* name, std::int64_t n, const void* x, std::int64_t inc,
                  std::size_t elem) {
  trncore::detail::check_vector(function, name, n, x, inc, elem);
}

void check_matrix(const char* function, const char* name, Layout layout, Op op, std::int64_t rows, std::int64_t cols,
                  const void* x, std::int64_t ld, std::size_t elem, bool show_op) {
  const bool t = op != Op::no_trans;
  const std::int64_t stored_rows = t ? cols : rows, stored_cols = t ? rows : cols;
  const std::int64_t need = std::max<std::int64_t>(1, layout == Layout::row_major ? stored_cols : stored_rows);
  // The leading dimension's message names op(X), which the shared check does not know; the rest is shared.
  if (ld < need) {
    std::string context = std::string(trncore::to_string(layout));
    if (show_op) context += std::string(", op(") + name + ") = " + std::string(to_string(op));
    context += std::string(", ") + name + " stored " + str(stored_rows) + "x" + str(stored_cols);
    throw trncore::DimensionMismatch(
        function, std::string("ld") + name + " = " + str(ld) + " is less than " + str(need) + " (" + context + ")",
        std::string("pass ld") + name + " >= " + str(need));
  }
  trncore::detail::check_matrix(function, name, layout, stored_rows, stored_cols, x, ld, elem);
}

void check_blasint(const char* function, std::initializer_list<Named> values) {
  constexpr std::int64_t limit = std::numeric_limits<blasint>::max();
  for (const Named& v : values)
    if (v.value > limit || v.value < -limit)
      throw trncore::NotSupported(function,
                                  std::string(v.name) + " = " + str(v.value) + " exceeds OpenBLAS's " +
                                      std::to_string(8 * sizeof(blasint)) + "-bit integers (limit " + str(limit) + ")",
                                  "split the call into pieces below that size");
}

void check_host_math_mode(const char* function, const trncore::Options& options, bool double_precision,
                          const char* hint) {
  const auto mode = options.math_mode;
  const bool ok = mode == trncore::MathMode::automatic || (mode == trncore::MathMode::fp64 && double_precision) ||
                  (mode == trncore::MathMode::fp32 && !double_precision);
  if (!ok)
    throw trncore::NotSupported(function,
                                "math mode " + std::string(trncore::to_string(mode)) + " is not a host mode for " +
                                    (double_precision ? "double" : "single") + "-precision data",
                                hint);
}

void check_host_options(const char* function, const trncore::Options& options, bool double_precision) {
  trncore::validate(options, function);
  if (options.backend != trncore::Backend::host)
    throw trncore::NotSupported(
        function,
        std::string("the sim backend models gemm (float, double) only; ") + function + " runs on the host backend only",
        "use trncore::Backend::host (the default)");
  check_host_math_mode(function, options, double_precision,
                       "use MathMode::automatic: host routines compute in the precision of their data");
  if (options.target_forward_error) {
    throw trncore::NotSupported(function,
                                "target_forward_error = " + trncore::detail::sci(*options.target_forward_error) +
                                    " is certified by gemm only; this routine has a fixed (documented) bound",
                                "leave target_forward_error unset for this call");
  }
}

Region matrix_region(const void* x, Layout layout, Op op, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                     std::size_t elem) {
  const bool t = op != Op::no_trans;
  const std::int64_t sr = t ? cols : rows, sc = t ? rows : cols;
  const bool rm = layout == Layout::row_major;
  return {x, rm ? sr : sc, rm ? sc : sr, ld, elem};
}

Region vector_region(const void* x, std::int64_t n, std::int64_t inc, std::size_t elem) {
  return {x, n, 1, inc < 0 ? -inc : inc, elem};
}

bool overlaps(const Region& a, const Region& b) {
  if (a.base == nullptr || b.base == nullptr || a.lines <= 0 || a.line <= 0 || b.lines <= 0 || b.line <= 0)
    return false;
  if (last_byte(a) <= first_byte(b) || last_byte(b) <= first_byte(a)) return false;
  // Walk the region with fewer runs: the cost is one division per run.
  return a.lines <= b.lines ? runs_overlap(b, a) : runs_overlap(a, b);
}

void check_no_overlap(const char* function, const char* written, const Region& w, const char* read, const Region& r) {
  if (overlaps(w, r))
    throw trncore::InvalidArgument(function, std::string(written) + " overlaps " + read,
                                   std::string("pass a ") + written + " that shares no storage with " + read +
                                       " (BLAS reads " + read + " while writing " + written + ")");
}

void check_same_size(const char* function, const char* x, std::int64_t nx, const char* y, std::int64_t ny) {
  if (nx != ny)
    throw trncore::DimensionMismatch(function,
                                     std::string(x) + " has " + str(nx) + " elements but " + y + " has " + str(ny),
                                     std::string("pass ") + x + " and " + y + " of one size");
}

void check_batch_overlaps(const char* function, std::vector<BatchOperand> operands) {
  std::erase_if(operands, [](const BatchOperand& o) {
    return o.region.base == nullptr || o.region.lines <= 0 || o.region.line <= 0;
  });
  const auto key = [](const BatchOperand& o) {
    return std::make_tuple(first_byte(o.region), o.region.lines, o.region.line, o.region.ld, o.written);
  };
  std::sort(operands.begin(), operands.end(),
            [&](const BatchOperand& x, const BatchOperand& y) { return key(x) < key(y); });
  // One operand read by many entries (stride 0, or one pointer repeated) is one region to test.
  operands.erase(
      std::unique(operands.begin(), operands.end(),
                  [&](const BatchOperand& x, const BatchOperand& y) { return !x.written && key(x) == key(y); }),
      operands.end());
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const Wide end = last_byte(operands[i].region);
    for (std::size_t j = i + 1; j < operands.size() && first_byte(operands[j].region) < end; ++j) {
      const BatchOperand& x = operands[i];
      const BatchOperand& y = operands[j];
      if ((x.written || y.written) && overlaps(x.region, y.region)) {
        const BatchOperand& w = x.written ? x : y;
        const BatchOperand& r = x.written ? y : x;
        const std::string wn = std::string(w.name) + "[" + str(w.index) + "]";
        const std::string rn = std::string(r.name) + "[" + str(r.index) + "]";
        throw trncore::InvalidArgument(function, wn + " overlaps " + rn,
                                       "pass C entries that share no storage with each other or with any A or B entry");
      }
    }
  }
}

}  // namespace trnblas::detail
