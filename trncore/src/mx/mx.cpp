#include <trncore/detail/enum_names.hpp>

#include <trncore/error.hpp>
#include <trncore/format.hpp>
#include <trncore/mx.hpp>
#include <trncore/philox.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace trncore {

namespace {

constexpr detail::EnumNames<MxFormat, 3> kNames{{{{"mxfp8_e4m3", MxFormat::mxfp8_e4m3},
                                                  {"mxfp8_e5m2", MxFormat::mxfp8_e5m2},
                                                  {"mxfp4_e2m1", MxFormat::mxfp4_e2m1}}}};

const FormatSpec& element_spec(MxFormat format, const char* function) {
  switch (format) {
    case MxFormat::mxfp8_e4m3: return formats::fp8_e4m3;
    case MxFormat::mxfp8_e5m2: return formats::fp8_e5m2;
    case MxFormat::mxfp4_e2m1: return formats::fp4_e2m1;
  }
  throw InvalidArgument(function, "format value " + std::to_string(static_cast<int>(format)) + " is not an MxFormat",
                        "pass one of the MxFormat enumerators");
}

template <class T>
MxBlocks quantize(std::span<const T> x, MxFormat format, const MxOptions& options) {
  constexpr const char* function = "trncore::quantize_mx";
  const FormatSpec& f = element_spec(format, function);
  validate(options.rounding, function);
  const Rounding rounding(options.rounding.mode, Overflow::saturate, options.rounding.sr_bits);
  const RandomBits bits{options.seed, options.stream};
  const auto n = static_cast<std::int64_t>(x.size());

  MxBlocks out;
  out.format = format;
  out.size = n;
  out.scales.resize(static_cast<std::size_t>((n + kMxBlockSize - 1) / kMxBlockSize));
  out.elements.resize(x.size());
  for (std::int64_t b = 0; b * kMxBlockSize < n; ++b) {
    const std::int64_t begin = b * kMxBlockSize, end = std::min(n, begin + kMxBlockSize);
    double max_abs = 0;
    bool special = false;
    for (std::int64_t i = begin; i < end; ++i) {
      const double v = static_cast<double>(x[static_cast<std::size_t>(i)]);
      special |= !std::isfinite(v);
      max_abs = std::max(max_abs, std::fabs(v));
    }
    int e = max_abs == 0 ? -127 : std::ilogb(max_abs) - f.emax();
    if (special || e > 127) {
      out.scales[static_cast<std::size_t>(b)] = e8m0::nan();
      continue;  // elements stay 0: a NaN scale makes every element of the block NaN
    }
    e = std::max(e, -127);
    out.scales[static_cast<std::size_t>(b)] = e8m0::from_exponent(e);
    for (std::int64_t i = begin; i < end; ++i) {
      const double scaled = std::ldexp(static_cast<double>(x[static_cast<std::size_t>(i)]), -e);  // exact
      const std::uint32_t random = rounding.mode == RoundingMode::stochastic ? bits(static_cast<std::uint64_t>(i)) : 0;
      out.elements[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(encode(f, scaled, rounding, random));
    }
  }
  return out;
}

}  // namespace

double e8m0::to_double() const noexcept { return is_nan() ? std::nan("") : std::ldexp(1.0, exponent()); }

std::string_view to_string(MxFormat format) noexcept { return kNames.name(format); }

MxFormat parse_mx_format(std::string_view text) { return kNames.parse(text, "trncore::parse_mx_format", "MX format"); }

MxBlocks quantize_mx(std::span<const float> x, MxFormat format, const MxOptions& options) {
  return quantize(x, format, options);
}

MxBlocks quantize_mx(std::span<const double> x, MxFormat format, const MxOptions& options) {
  return quantize(x, format, options);
}

void dequantize_mx(const MxBlocks& blocks, std::span<float> out) {
  constexpr const char* function = "trncore::dequantize_mx";
  const FormatSpec& f = element_spec(blocks.format, function);
  if (blocks.size < 0 || static_cast<std::int64_t>(blocks.elements.size()) != blocks.size ||
      static_cast<std::int64_t>(blocks.scales.size()) != (blocks.size + kMxBlockSize - 1) / kMxBlockSize)
    throw InvalidArgument(function,
                          "inconsistent blocks: size " + std::to_string(blocks.size) + ", " +
                              std::to_string(blocks.elements.size()) + " elements, " +
                              std::to_string(blocks.scales.size()) + " scales",
                          "pass blocks made by quantize_mx (one scale per 32 elements)");
  if (static_cast<std::int64_t>(out.size()) != blocks.size)
    throw DimensionMismatch(
        function, "blocks hold " + std::to_string(blocks.size) + " elements but out has " + std::to_string(out.size()),
        "pass an output span of the quantized size");
  for (std::int64_t i = 0; i < blocks.size; ++i) {
    const e8m0 scale = blocks.scales[static_cast<std::size_t>(i / kMxBlockSize)];
    const double p = decode(f, blocks.elements[static_cast<std::size_t>(i)]);
    out[static_cast<std::size_t>(i)] =
        scale.is_nan() ? std::nanf("") : static_cast<float>(std::ldexp(p, scale.exponent()));
  }
}

std::vector<std::uint8_t> pack_fp4(const MxBlocks& blocks) {
  if (blocks.format != MxFormat::mxfp4_e2m1)
    throw InvalidArgument("trncore::pack_fp4", "blocks are " + std::string(to_string(blocks.format)),
                          "only mxfp4_e2m1 elements pack two per byte");
  std::vector<std::uint8_t> packed((blocks.elements.size() + 1) / 2, 0);
  for (std::size_t i = 0; i < blocks.elements.size(); ++i)
    packed[i / 2] |= static_cast<std::uint8_t>((blocks.elements[i] & 0xF) << (4 * (i % 2)));
  return packed;
}

}  // namespace trncore
