#include "sim/slices.hpp"

#include <trncore/convert.hpp>
#include <trncore/small_float.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <span>

namespace trnblas::detail {

namespace {

constexpr int kZeroLine = INT_MIN / 4;  // far below any exponent, yet two of them plus offsets cannot overflow int

std::size_t line_of(std::int64_t i, std::int64_t j, Lines lines) {
  return static_cast<std::size_t>(lines == Lines::rows ? i : j);
}

}  // namespace

std::vector<int> line_exponents(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, Lines lines) {
  std::vector<double> max_abs(static_cast<std::size_t>(lines == Lines::rows ? rows : cols), 0.0);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const double v = std::abs(x[static_cast<std::size_t>(i * cols + j)]);
      if (std::isfinite(v)) max_abs[line_of(i, j, lines)] = std::max(max_abs[line_of(i, j, lines)], v);
    }
  std::vector<int> e(max_abs.size());
  for (std::size_t l = 0; l < e.size(); ++l) {
    if (max_abs[l] == 0.0) {
      e[l] = kZeroLine;
      continue;
    }
    int exp2 = 0;
    std::frexp(max_abs[l], &exp2);  // max = f · 2^exp2 with f in [0.5, 1): max < 2^exp2
    e[l] = exp2;
  }
  return e;
}

namespace {

// out = round(in) through trncore's vectorised bulk conversion, when the format has one (bf16, fp16):
// in → T (nearest-even) → float, both exact steps of the same rounding encode() performs.
template <class T>
void bulk_round(const std::vector<float>& in, std::vector<float>& out) {
  std::vector<T> narrow(in.size());
  trncore::convert(std::span<const float>(in), std::span<T>(narrow));
  trncore::convert(std::span<const T>(narrow), std::span<float>(out));
}

}  // namespace

Sliced round_to_format(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, Lines lines,
                       const trncore::FormatSpec& format) {
  const bool narrow_range = format.emax() < trncore::formats::fp32.emax();
  const int top = narrow_range ? format.emax() : 0;
  Sliced out;
  out.exponents = line_exponents(x, rows, cols, lines);
  std::vector<double> scale(out.exponents.size());
  for (std::size_t l = 0; l < scale.size(); ++l)
    scale[l] = out.exponents[l] == kZeroLine ? 1.0 : std::ldexp(1.0, top - out.exponents[l]);
  // Values below this lose the relative rounding bound: the format's normal range, and 2^-63 so that the
  // fp32 product of two such values (|values| < 1 after scaling) stays normal.
  const double min_normal = std::max(std::ldexp(1.0, format.emin()), 0x1p-63);
  // Scale (exact in double: a power of two well inside double's range) and count the values whose
  // relative bound is void; keep the scaled values as floats when every one is exactly a float.
  std::vector<float> scaled(x.size());
  bool floats_exact = true;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const std::size_t at = static_cast<std::size_t>(i * cols + j);
      const double v = x[at] * scale[line_of(i, j, lines)];
      if (v != 0.0 && std::abs(v) < min_normal) ++out.underflows;
      scaled[at] = static_cast<float>(v);
      floats_exact = floats_exact && (static_cast<double>(scaled[at]) == v || std::isnan(v));
    }
  std::vector<float> part(x.size());
  const bool bulk = floats_exact && (format.name == trncore::formats::bf16.name || format.name == trncore::formats::fp16.name);
  if (bulk && format.name == trncore::formats::bf16.name) bulk_round<trncore::bf16>(scaled, part);
  else if (bulk) bulk_round<trncore::fp16>(scaled, part);
  for (std::size_t at = 0; at < x.size(); ++at) {
    double r = part[at];
    if (!bulk) {
      const auto i = static_cast<std::int64_t>(at) / cols, j = static_cast<std::int64_t>(at) % cols;
      const double v = x[at] * scale[line_of(i, j, lines)];
      r = trncore::decode(format, trncore::encode(format, v, trncore::Rounding{}));
      part[at] = static_cast<float>(r);  // exact: every format here is a subset of fp32
    }
    if (!std::isfinite(r)) ++out.nonfinite;
  }
  // Line l of x ≈ 2^(e_l − top) · part; store that exponent.
  for (int& e : out.exponents)
    if (e != kZeroLine) e -= top;
  out.parts.push_back(std::move(part));
  return out;
}

Sliced split_floating(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, Lines lines, int count,
                      int bits) {
  // `bits` significant bits = a format with bits − 1 mantissa bits and fp32's exponent range.
  const trncore::FormatSpec slice_format{"slice", 8, bits - 1, 127, trncore::NanEncoding::ieee};
  Sliced out;
  out.exponents = line_exponents(x, rows, cols, lines);
  std::vector<double> rest(x.size());
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const std::size_t at = static_cast<std::size_t>(i * cols + j);
      const int e = out.exponents[line_of(i, j, lines)];
      rest[at] = e == kZeroLine ? x[at] : std::ldexp(x[at], -e);  // exact, below 1 in magnitude
    }
  // Below 2^-63 the fp32 product of two slices (both < 1) could be subnormal, voiding its relative bound.
  const double min_normal = 0x1p-63;
  for (int s = 0; s < count; ++s) {
    std::vector<float> part(x.size());
    for (std::size_t at = 0; at < x.size(); ++at) {
      const double r = trncore::decode(slice_format, trncore::encode(slice_format, rest[at], trncore::Rounding{}));
      if (!std::isfinite(r)) {
        if (s == 0) ++out.nonfinite;
      } else if (rest[at] != 0.0 && std::abs(rest[at]) < min_normal) {
        ++out.underflows;
      }
      part[at] = static_cast<float>(r);
      rest[at] = std::isfinite(r) ? rest[at] - r : 0.0;  // exact: r is rest rounded to fewer bits
    }
    out.parts.push_back(std::move(part));
  }
  return out;
}

Sliced split_fixed(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, Lines lines, int count,
                   int bits) {
  Sliced out;
  out.exponents = line_exponents(x, rows, cols, lines);
  out.parts.assign(static_cast<std::size_t>(count), std::vector<float>(x.size()));
  const double radix = std::ldexp(1.0, bits);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const std::size_t at = static_cast<std::size_t>(i * cols + j);
      const int e = out.exponents[line_of(i, j, lines)];
      if (!std::isfinite(x[at])) {
        ++out.nonfinite;
        continue;
      }
      if (e == kZeroLine) continue;
      // r = x / 2^e in (−1, 1); each step moves the next `bits` bits above the binary point. r·2^bits and
      // r − d are exact in double (a power-of-two scaling, and a subtraction of r's own leading bits).
      double r = std::ldexp(x[at], -e);
      for (int s = 0; s < count; ++s) {
        r *= radix;
        const double d = std::trunc(r);
        out.parts[static_cast<std::size_t>(s)][at] = static_cast<float>(d);
        r -= d;
      }
    }
  return out;
}

}  // namespace trnblas::detail
