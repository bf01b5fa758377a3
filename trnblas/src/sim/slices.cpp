#include "sim/slices.hpp"

#include "sim/row_blocks.hpp"

#include <trncore/convert.hpp>
#include <trncore/small_float.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>

namespace trnblas::detail {

namespace {

std::size_t line_of(std::int64_t i, std::int64_t j, Lines lines) {
  return static_cast<std::size_t>(lines == Lines::rows ? i : j);
}

// The exponent that scales line l by 2^-e (a zero line keeps its zeros with any factor: use 2^0).
int unscale(int e) { return e == kZeroLineExponent ? 0 : -e; }

std::int64_t sum(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); }

}  // namespace

template <class E>
std::vector<int> line_exponents(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines, int threads) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::int64_t blocks = row_block_count(rows, cols, threads);
  // Row lines: each block owns its rows' maxima. Column lines: each block keeps partial maxima of its rows,
  // combined afterwards (max is exact, so the order does not matter).
  const std::size_t lines_n = static_cast<std::size_t>(lines == Lines::rows ? rows : cols);
  std::vector<std::vector<double>> partial(lines == Lines::rows ? 1 : static_cast<std::size_t>(blocks));
  std::vector<double> max_abs(lines_n, 0.0);
  for_row_blocks(rows, blocks, threads, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    if (lines == Lines::cols) partial[static_cast<std::size_t>(b)].assign(lines_n, 0.0);
    for (std::int64_t i = begin; i < end; ++i) {
      const E* row = x.data() + i * cols;
      if (lines == Lines::rows) {
        double top = 0.0;
        for (std::int64_t j = 0; j < cols; ++j) {
          const double v = std::abs(static_cast<double>(row[j]));
          if (v < inf) top = std::max(top, v);  // skips inf and NaN
        }
        max_abs[static_cast<std::size_t>(i)] = top;
      } else {
        double* top = partial[static_cast<std::size_t>(b)].data();
        for (std::int64_t j = 0; j < cols; ++j) {
          const double v = std::abs(static_cast<double>(row[j]));
          if (v < inf) top[j] = std::max(top[j], v);
        }
      }
    }
  });
  if (lines == Lines::cols)
    for (const auto& p : partial)
      for (std::size_t l = 0; l < p.size(); ++l) max_abs[l] = std::max(max_abs[l], p[l]);
  std::vector<int> e(max_abs.size());
  for (std::size_t l = 0; l < e.size(); ++l) {
    if (max_abs[l] == 0.0) {
      e[l] = kZeroLineExponent;
      continue;
    }
    int exp2 = 0;
    std::frexp(max_abs[l], &exp2);  // max = f · 2^exp2 with f in [0.5, 1): max < 2^exp2
    e[l] = exp2;
  }
  return e;
}

namespace {

// part = round(part) in place through trncore's vectorised bulk conversion (bf16, fp16): float → T
// (nearest-even) → float, both exact steps of the same rounding encode() performs.
template <class T>
void bulk_round(Buffer<float>& part, int threads) {
  std::vector<T> narrow(part.size());
  trncore::ConvertOptions o;
  o.threads = threads;
  trncore::convert(std::span<const float>(part), std::span<T>(narrow), o);
  trncore::convert(std::span<const T>(narrow), std::span<float>(part), o);
}

}  // namespace

template <class E>
Sliced round_to_format(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines,
                       const trncore::FormatSpec& format, int threads) {
  const bool narrow_range = format.emax() < trncore::formats::fp32.emax();
  const int top = narrow_range ? format.emax() : 0;
  Sliced out;
  out.exponents = line_exponents(x, rows, cols, lines, threads);
  std::vector<int> shift(out.exponents.size());
  for (std::size_t l = 0; l < shift.size(); ++l)
    shift[l] = out.exponents[l] == kZeroLineExponent ? 0 : top - out.exponents[l];
  // Values below this lose the relative rounding bound: the format's normal range, and 2^-63 so that the
  // fp32 product of two such values (|values| < 1 after scaling) stays normal.
  const double min_normal = std::max(std::ldexp(1.0, format.emin()), 0x1p-63);
  // Scale (exact in double: a power of two well inside double's range) into `part`, counting the values
  // whose relative bound is void; the bulk rounding applies when every scaled value is exactly a float.
  // The factors are built once per line; a shift beyond a normal double's exponent range (only possible
  // for double inputs) takes std::ldexp, element by element.
  std::vector<double> factor(shift.size());
  bool factors_normal = true;
  for (std::size_t l = 0; l < shift.size(); ++l) {
    factors_normal = factors_normal && shift[l] >= -1022 && shift[l] <= 1023;
    factor[l] = scale_pow2(1.0, std::clamp(shift[l], -1022, 1023));
  }
  Buffer<float> part(x.size());
  const std::int64_t blocks = row_block_count(rows, cols, threads);
  std::vector<std::int64_t> inexact(static_cast<std::size_t>(blocks)), underflows(inexact.size());
  for_row_blocks(rows, blocks, threads, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    std::int64_t n_inexact = 0, n_under = 0;
    const auto store = [&](float& p, double v) {  // branch-free so the row loops vectorise
      n_under += (v != 0.0) & (std::abs(v) < min_normal);
      p = static_cast<float>(v);
      n_inexact += (static_cast<double>(p) != v) & (v == v);  // NaN stays NaN in float
    };
    for (std::int64_t i = begin; i < end; ++i) {
      const E* xi = x.data() + i * cols;
      float* pi = part.data() + i * cols;
      if (!factors_normal) {
        for (std::int64_t j = 0; j < cols; ++j)
          store(pi[j], scale_pow2(static_cast<double>(xi[j]), shift[line_of(i, j, lines)]));
      } else if (lines == Lines::rows) {
        const double fi = factor[static_cast<std::size_t>(i)];
        for (std::int64_t j = 0; j < cols; ++j) store(pi[j], static_cast<double>(xi[j]) * fi);
      } else {
        for (std::int64_t j = 0; j < cols; ++j)
          store(pi[j], static_cast<double>(xi[j]) * factor[static_cast<std::size_t>(j)]);
      }
    }
    inexact[static_cast<std::size_t>(b)] = n_inexact;
    underflows[static_cast<std::size_t>(b)] = n_under;
  });
  out.underflows = sum(underflows);
  const bool floats_exact = sum(inexact) == 0;
  const bool bf16 = format.name == trncore::formats::bf16.name, fp16 = format.name == trncore::formats::fp16.name;
  const bool bulk = floats_exact && (bf16 || fp16);
  if (bulk && bf16)
    bulk_round<trncore::bf16>(part, threads);
  else if (bulk)
    bulk_round<trncore::fp16>(part, threads);
  std::vector<std::int64_t> nonfinite(static_cast<std::size_t>(blocks));
  for_row_blocks(rows, blocks, threads, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    std::int64_t count = 0;
    for (std::int64_t i = begin; i < end; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        float& p = part[static_cast<std::size_t>(i * cols + j)];
        if (!bulk) {
          const double v =
              scale_pow2(static_cast<double>(x[static_cast<std::size_t>(i * cols + j)]), shift[line_of(i, j, lines)]);
          // exact in float: every format here is a subset of fp32
          p = static_cast<float>(trncore::decode(format, trncore::encode(format, v, trncore::Rounding{})));
        }
        count += !std::isfinite(p);
      }
    nonfinite[static_cast<std::size_t>(b)] = count;
  });
  out.nonfinite = sum(nonfinite);
  // Line l of x ≈ 2^(e_l − top) · part; store that exponent.
  for (int& e : out.exponents)
    if (e != kZeroLineExponent) e -= top;
  out.parts.push_back(std::move(part));
  return out;
}

template <class E>
Sliced split_floating(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines, int count, int bits,
                      int threads) {
  // `bits` significant bits = a format with bits − 1 mantissa bits and fp32's exponent range.
  const trncore::FormatSpec slice_format{"slice", 8, bits - 1, 127, trncore::NanEncoding::ieee};
  // Below 2^-63 the fp32 product of two slices (both < 1) could be subnormal, voiding its relative bound.
  const double min_normal = 0x1p-63;
  Sliced out;
  out.exponents = line_exponents(x, rows, cols, lines, threads);
  out.parts.resize(static_cast<std::size_t>(count));  // every element of every slice is written below
  for (auto& part : out.parts) part.resize(x.size());
  const std::int64_t blocks = row_block_count(rows, cols, threads);
  std::vector<std::int64_t> nonfinite(static_cast<std::size_t>(blocks)), underflows(nonfinite.size());
  // Entries with an underflowing remainder per line: rows are owned by one block; columns get per-block
  // partial counts, added afterwards (integer sums: the order does not matter).
  const std::size_t lines_n = static_cast<std::size_t>(lines == Lines::rows ? rows : cols);
  out.line_underflows.assign(lines_n, 0);
  std::vector<std::vector<std::int64_t>> partial(lines == Lines::rows ? 0 : static_cast<std::size_t>(blocks));
  for_row_blocks(rows, blocks, threads, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    std::int64_t* per_line = out.line_underflows.data();
    if (lines == Lines::cols) {
      partial[static_cast<std::size_t>(b)].assign(lines_n, 0);
      per_line = partial[static_cast<std::size_t>(b)].data();
    }
    for (std::int64_t i = begin; i < end; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::size_t at = static_cast<std::size_t>(i * cols + j);
        // exact, below 1 in magnitude
        double rest = scale_pow2(static_cast<double>(x[at]), unscale(out.exponents[line_of(i, j, lines)]));
        bool entry_underflows = false;
        for (int s = 0; s < count; ++s) {
          const double r = trncore::decode(slice_format, trncore::encode(slice_format, rest, trncore::Rounding{}));
          if (!std::isfinite(r)) {
            if (s == 0) ++nonfinite[static_cast<std::size_t>(b)];
          } else if (rest != 0.0 && std::abs(rest) < min_normal) {
            ++underflows[static_cast<std::size_t>(b)];
            entry_underflows = true;
          }
          out.parts[static_cast<std::size_t>(s)][at] = static_cast<float>(r);
          rest = std::isfinite(r) ? rest - r : 0.0;  // exact: r is rest rounded to fewer bits
        }
        per_line[line_of(i, j, lines)] += entry_underflows;
      }
  });
  for (const auto& p : partial)
    for (std::size_t l = 0; l < p.size(); ++l) out.line_underflows[l] += p[l];
  out.nonfinite = sum(nonfinite);
  out.underflows = sum(underflows);
  return out;
}

template <class E>
Sliced split_fixed(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines, int count, int bits,
                   int threads) {
  Sliced out;
  out.exponents = line_exponents(x, rows, cols, lines, threads);
  out.parts.assign(static_cast<std::size_t>(count), Buffer<float>(x.size(), 0.0f));  // zero lines stay 0
  const double radix = std::ldexp(1.0, bits);
  const std::int64_t blocks = row_block_count(rows, cols, threads);
  std::vector<std::int64_t> nonfinite(static_cast<std::size_t>(blocks));
  for_row_blocks(rows, blocks, threads, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::size_t at = static_cast<std::size_t>(i * cols + j);
        const int e = out.exponents[line_of(i, j, lines)];
        if (!std::isfinite(static_cast<double>(x[at]))) {
          ++nonfinite[static_cast<std::size_t>(b)];
          continue;
        }
        if (e == kZeroLineExponent) continue;
        // r = x / 2^e in (−1, 1); each step moves the next `bits` bits above the binary point. r·2^bits and
        // r − d are exact in double (a power-of-two scaling, and a subtraction of r's own leading bits).
        double r = scale_pow2(static_cast<double>(x[at]), -e);
        for (int s = 0; s < count; ++s) {
          r *= radix;
          const double d = std::trunc(r);
          out.parts[static_cast<std::size_t>(s)][at] = static_cast<float>(d);
          r -= d;
        }
      }
  });
  out.nonfinite = sum(nonfinite);
  return out;
}

template <class E>
ScaledLines scale_lines(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines,
                        const std::vector<int>& exponents, int threads) {
  ScaledLines out;
  out.values.resize(x.size());
  const std::int64_t blocks = row_block_count(rows, cols, threads);
  std::vector<std::int64_t> nonfinite(static_cast<std::size_t>(blocks));
  for_row_blocks(rows, blocks, threads, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::size_t at = static_cast<std::size_t>(i * cols + j);
        const int e = exponents[line_of(i, j, lines)];
        const auto v = static_cast<double>(x[at]);
        const bool finite = std::isfinite(v);
        nonfinite[static_cast<std::size_t>(b)] += !finite;
        out.values[at] = finite && e != kZeroLineExponent ? scale_pow2(v, -e) : 0.0;  // as split_fixed's r
      }
  });
  out.nonfinite = sum(nonfinite);
  return out;
}

#define TRNBLAS_SLICES(E)                                                                                            \
  template std::vector<int> line_exponents(std::span<const E>, std::int64_t, std::int64_t, Lines, int);              \
  template Sliced round_to_format(std::span<const E>, std::int64_t, std::int64_t, Lines, const trncore::FormatSpec&, \
                                  int);                                                                              \
  template Sliced split_floating(std::span<const E>, std::int64_t, std::int64_t, Lines, int, int, int);              \
  template Sliced split_fixed(std::span<const E>, std::int64_t, std::int64_t, Lines, int, int, int);                 \
  template ScaledLines scale_lines(std::span<const E>, std::int64_t, std::int64_t, Lines, const std::vector<int>&, int);
TRNBLAS_SLICES(float)
TRNBLAS_SLICES(double)
#undef TRNBLAS_SLICES

}  // namespace trnblas::detail
