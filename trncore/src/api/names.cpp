// Names of the cross-suite enums: one table each serves to_string and parse.
#include <trncore/detail/enum_names.hpp>

#include <trncore/backend.hpp>
#include <trncore/math_mode.hpp>
#include <trncore/view.hpp>

namespace trncore {

namespace {
constexpr auto kBackends = detail::EnumNames<Backend, 2>{{{{"host", Backend::host}, {"sim", Backend::sim}}}};
constexpr auto kModes = detail::EnumNames<MathMode, 11>{{{{"automatic", MathMode::automatic},
                                                          {"fp64", MathMode::fp64},
                                                          {"fp32", MathMode::fp32},
                                                          {"tf32", MathMode::tf32},
                                                          {"bf16", MathMode::bf16},
                                                          {"fp16", MathMode::fp16},
                                                          {"fp8_e4m3", MathMode::fp8_e4m3},
                                                          {"fp8_e5m2", MathMode::fp8_e5m2},
                                                          {"sr", MathMode::sr},
                                                          {"compensated", MathMode::compensated},
                                                          {"ozaki", MathMode::ozaki}}}};
constexpr auto kLayouts =
    detail::EnumNames<Layout, 2>{{{{"row_major", Layout::row_major}, {"col_major", Layout::col_major}}}};
}  // namespace

std::string_view to_string(Backend backend) noexcept { return kBackends.name(backend); }
Backend parse_backend(std::string_view text) { return kBackends.parse(text, "trncore::parse_backend", "backend"); }

std::string_view to_string(MathMode mode) noexcept { return kModes.name(mode); }
MathMode parse_math_mode(std::string_view text) { return kModes.parse(text, "trncore::parse_math_mode", "math mode"); }

std::string_view to_string(Layout layout) noexcept { return kLayouts.name(layout); }
Layout parse_layout(std::string_view text) { return kLayouts.parse(text, "trncore::parse_layout", "layout"); }

std::optional<FormatSpec> input_format(MathMode mode) noexcept {
  switch (mode) {
    case MathMode::fp32: return formats::fp32;
    case MathMode::tf32: return formats::tf32;
    case MathMode::bf16:
    case MathMode::sr: return formats::bf16;
    case MathMode::fp16: return formats::fp16;
    case MathMode::fp8_e4m3: return formats::fp8_e4m3;
    case MathMode::fp8_e5m2: return formats::fp8_e5m2;
    default: return std::nullopt;
  }
}

}  // namespace trncore
