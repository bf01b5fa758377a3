// Dispatch of the normal kernel (trnrand/detail/normal_kernel.hpp) to its SLEEF variants.
#include "distributions/box_muller_kernel.hpp"

#include <trncore/error.hpp>
#include <trnrand/detail/normal_kernel.hpp>

#include <string>

namespace trnrand::detail {

namespace {

struct Variant {
  void (*normals)(const std::uint32_t*, std::size_t, int, double*);
  void (*log)(const double*, std::size_t, double*);
  void (*cospi)(const double*, std::size_t, double*);
};

bool is_kernel(NormalKernel kernel) { return to_string(kernel) != "invalid"; }

// The variant `kernel` names, after the checks every entry point makes.
Variant variant(std::string_view function, NormalKernel kernel) {
  if (!is_kernel(kernel))
    throw trncore::InvalidArgument(function,
                                   "kernel = " + std::to_string(static_cast<int>(kernel)) + " is not a NormalKernel",
                                   "pass NormalKernel::automatic, scalar, sse2, avx or avx512");
  if (!normal_kernel_supported(kernel))
    throw trncore::NotSupported(function, "this CPU cannot run the " + std::string(to_string(kernel)) + " kernel",
                                "pass NormalKernel::automatic (normal_kernel_detected() names what it runs)");
  if (kernel == NormalKernel::automatic) kernel = normal_kernel_detected();
  switch (kernel) {
#if defined(__x86_64__)
    case NormalKernel::sse2: return {box_muller_normals_sse2, box_muller_log_sse2, box_muller_cospi_sse2};
    case NormalKernel::avx: return {box_muller_normals_avx, box_muller_log_avx, box_muller_cospi_avx};
    case NormalKernel::avx512: return {box_muller_normals_avx512, box_muller_log_avx512, box_muller_cospi_avx512};
#endif
    default: return {box_muller_normals_scalar, box_muller_log_scalar, box_muller_cospi_scalar};
  }
}

void check_sizes(std::string_view function, std::span<const double> x, std::span<double> y) {
  if (x.size() != y.size())
    throw trncore::DimensionMismatch(function,
                                     "x has " + std::to_string(x.size()) + " values and y " + std::to_string(y.size()),
                                     "pass spans of the same size");
}

}  // namespace

std::string_view to_string(NormalKernel kernel) noexcept {
  switch (kernel) {
    case NormalKernel::automatic: return "automatic";
    case NormalKernel::scalar: return "scalar";
    case NormalKernel::sse2: return "sse2";
    case NormalKernel::avx: return "avx";
    case NormalKernel::avx512: return "avx512";
  }
  return "invalid";
}

bool normal_kernel_supported(NormalKernel kernel) noexcept {
  switch (kernel) {
    case NormalKernel::automatic:
    case NormalKernel::scalar: return true;
#if defined(__x86_64__)
    case NormalKernel::sse2: return true;
    case NormalKernel::avx: return __builtin_cpu_supports("avx");
    case NormalKernel::avx512: return __builtin_cpu_supports("avx512f");
#endif
    default: return false;
  }
}

NormalKernel normal_kernel_detected() noexcept {
  static const NormalKernel detected = [] {
    for (NormalKernel k : {NormalKernel::avx512, NormalKernel::avx, NormalKernel::sse2})
      if (normal_kernel_supported(k)) return k;
    return NormalKernel::scalar;
  }();
  return detected;
}

void box_muller_standard_normals(const std::uint32_t* words, std::size_t n, int words_per_uniform, double* z) {
  static const Variant fast = variant("trnrand::normal", NormalKernel::automatic);
  fast.normals(words, n, words_per_uniform, z);
}

void standard_normals(NormalKernel kernel, std::span<const std::uint32_t> words, int words_per_uniform,
                      std::span<double> z) {
  constexpr std::string_view function = "trnrand::detail::standard_normals";
  const Variant v = variant(function, kernel);
  if (words_per_uniform != 1 && words_per_uniform != 2)
    throw trncore::InvalidArgument(function,
                                   "words_per_uniform = " + std::to_string(words_per_uniform) + " is not 1 or 2",
                                   "pass 1 (24-bit uniforms) or 2 (53-bit uniforms)");
  const std::size_t need = 2 * static_cast<std::size_t>(words_per_uniform) * z.size();
  if (words.size() < need)
    throw trncore::InvalidArgument(function,
                                   "words has " + std::to_string(words.size()) + " words; " + std::to_string(z.size()) +
                                       " values need " + std::to_string(need),
                                   "pass 2·words_per_uniform words per value");
  v.normals(words.data(), z.size(), words_per_uniform, z.data());
}

void normal_kernel_log(NormalKernel kernel, std::span<const double> x, std::span<double> y) {
  constexpr std::string_view function = "trnrand::detail::normal_kernel_log";
  const Variant v = variant(function, kernel);
  check_sizes(function, x, y);
  v.log(x.data(), x.size(), y.data());
}

void normal_kernel_cospi(NormalKernel kernel, std::span<const double> x, std::span<double> y) {
  constexpr std::string_view function = "trnrand::detail::normal_kernel_cospi";
  const Variant v = variant(function, kernel);
  check_sizes(function, x, y);
  v.cospi(x.data(), x.size(), y.data());
}

}  // namespace trnrand::detail
