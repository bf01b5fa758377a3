// Bulk conversions: argument checks, dispatch and threading around the element kernels. Work is split
// into ranges of global element indices aligned to 64, so a range's random words never depend on how
// the span was divided, and each range is converted by one target-specific loop.
#include "convert/kernels.hpp"
#include "convert/simd_kernels.hpp"
#include <trncore/detail/cpu_features.hpp>
#include <trncore/detail/enum_names.hpp>
#include <trncore/detail/parallel.hpp>

#include <trncore/convert.hpp>
#include <trncore/error.hpp>

#include <immintrin.h>

#include <algorithm>
#include <string>

namespace trncore {

namespace {

namespace k = detail::convert_kernels;

constexpr detail::EnumNames<Isa, 4> kIsaNames{
    {{{"automatic", Isa::automatic}, {"scalar", Isa::scalar}, {"avx2", Isa::avx2}, {"avx512", Isa::avx512}}}};

Isa resolve_isa(Isa requested, const char* function) {
  if (requested == Isa::automatic) return detected_isa();
  if (to_string(requested) == "invalid")
    throw InvalidArgument(function, "isa value " + std::to_string(static_cast<int>(requested)) + " is not an Isa",
                          "pass one of the Isa enumerators");
  if (!cpu_supports(requested))
    throw NotSupported(function, "this CPU cannot run the " + std::string(to_string(requested)) + " code path",
                       "use Isa::automatic or Isa::scalar");
  return requested;
}

void check_sizes(std::size_t in, std::size_t out, const char* function) {
  if (in != out)
    throw DimensionMismatch(function, "in has " + std::to_string(in) + " elements but out has " + std::to_string(out),
                            "pass spans of equal size");
}

// ---- element-wise paths (any format, any mode) --------------------------------------------------------

template <class T, class In>
[[gnu::always_inline]] inline void encode_range(const In* in, T* out, std::int64_t begin, std::int64_t end,
                                                const ConvertOptions& o) {
  using S = typename T::storage_type;
  if (o.rounding.mode != RoundingMode::stochastic) {
    for (std::int64_t i = begin; i < end; ++i)
      out[i] = T::from_bits(static_cast<S>(encode(T::spec, static_cast<double>(in[i]), o.rounding)));
    return;
  }
  const RandomBits bits{o.seed, o.stream};
  for (std::int64_t i = begin; i < end; ++i)
    out[i] = T::from_bits(static_cast<S>(
        encode(T::spec, static_cast<double>(in[i]), o.rounding, bits(o.offset + static_cast<std::uint64_t>(i)))));
}

// ---- fp32 → bf16 fast paths -------------------------------------------------------------------------

k::Bf16Params bf16_params(const ConvertOptions& o) {
  return {o.rounding.overflow == Overflow::saturate, o.rounding.sr_bits, o.seed, o.stream};
}

template <Isa P>
[[gnu::always_inline]] inline void bf16_nearest_range(const float* in, bf16* out, std::int64_t begin, std::int64_t end,
                                                      const ConvertOptions& o) {
  auto* bits = reinterpret_cast<std::uint16_t*>(out);  // bf16 is standard-layout around its uint16_t encoding
  if constexpr (P == Isa::avx512) return k::bf16_nearest_avx512(in + begin, bits + begin, end - begin, bf16_params(o));
  if constexpr (P == Isa::avx2) return k::bf16_nearest_avx2(in + begin, bits + begin, end - begin, bf16_params(o));
  const bool saturate = o.rounding.overflow == Overflow::saturate;
  for (std::int64_t i = begin; i < end; ++i)
    out[i] = bf16::from_bits(k::bf16_nearest(std::bit_cast<std::uint32_t>(in[i]), saturate));
}

// Whole 64-element blocks (global index a multiple of 64) go to the ISA's fused Philox + rounding kernel;
// a range's partial first and last blocks, and every block on the scalar path, draw their words from
// random_block and round element by element.
template <Isa P>
[[gnu::always_inline]] inline void bf16_stochastic_range(const float* in, bf16* out, std::int64_t begin,
                                                         std::int64_t end, const ConvertOptions& o) {
  const bool saturate = o.rounding.overflow == Overflow::saturate;
  const int r = o.rounding.sr_bits;
  auto* bits = reinterpret_cast<std::uint16_t*>(out);
  alignas(64) std::uint32_t words[k::kBlock];
  std::int64_t i = begin;
  while (i < end) {
    const std::uint64_t global = o.offset + static_cast<std::uint64_t>(i);
    const std::uint64_t t = global / k::kBlock;
    const std::int64_t skip = static_cast<std::int64_t>(global % k::kBlock);
    if constexpr (P != Isa::scalar) {
      const std::int64_t blocks = (end - i) / k::kBlock;
      if (skip == 0 && blocks > 0) {
        if constexpr (P == Isa::avx512)
          k::bf16_stochastic_avx512(in + i, bits + i, blocks, t, bf16_params(o));
        else
          k::bf16_stochastic_avx2(in + i, bits + i, blocks, t, bf16_params(o));
        i += blocks * k::kBlock;
        continue;
      }
    }
    const std::int64_t count = std::min<std::int64_t>(k::kBlock - skip, end - i);
    k::random_block(o.seed, o.stream, t, words);
    for (std::int64_t j = 0; j < count; ++j)
      out[i + j] =
          bf16::from_bits(k::bf16_stochastic(std::bit_cast<std::uint32_t>(in[i + j]), words[skip + j], r, saturate));
    i += count;
  }
}

// ---- back to fp32 -------------------------------------------------------------------------------------

template <class T, class Out>
[[gnu::always_inline]] inline void decode_range(const T* in, Out* out, std::int64_t begin, std::int64_t end) {
  for (std::int64_t i = begin; i < end; ++i) {
    if constexpr (std::is_same_v<T, bf16> && std::is_same_v<Out, float>)
      out[i] = std::bit_cast<float>(static_cast<std::uint32_t>(in[i].bits()) << 16);
    else
      out[i] = static_cast<Out>(decode(T::spec, in[i].bits()));
  }
}

// ---- one wrapper per ISA around the same always-inline loops --------------------------------------------

enum class Job : std::uint8_t { bf16_nearest, bf16_stochastic, fp16_nearest, bf16_to_float };

struct Range {
  const void* in;
  void* out;
  std::int64_t begin, end;
  const ConvertOptions* options;
};

template <Isa P>
[[gnu::always_inline]] inline void run_job(Job job, const Range& r) {
  switch (job) {
    case Job::bf16_nearest:
      bf16_nearest_range<P>(static_cast<const float*>(r.in), static_cast<bf16*>(r.out), r.begin, r.end, *r.options);
      break;
    case Job::bf16_stochastic:
      bf16_stochastic_range<P>(static_cast<const float*>(r.in), static_cast<bf16*>(r.out), r.begin, r.end, *r.options);
      break;
    case Job::bf16_to_float:
      decode_range(static_cast<const bf16*>(r.in), static_cast<float*>(r.out), r.begin, r.end);
      break;
    case Job::fp16_nearest:
      encode_range(static_cast<const float*>(r.in), static_cast<fp16*>(r.out), r.begin, r.end, *r.options);
      break;
  }
}

// fp32 → fp16 nearest-even on F16C, 8 at a time; the tail and the saturating policy use encode().
__attribute__((target("avx2,f16c"))) void fp16_nearest_f16c(const Range& r) {
  const float* in = static_cast<const float*>(r.in);
  fp16* out = static_cast<fp16*>(r.out);
  std::int64_t i = r.begin;
  if (r.options->rounding.overflow == Overflow::standard) {
    for (; i + 8 <= r.end; i += 8) {
      const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      alignas(16) std::uint16_t tmp[8];
      _mm_store_si128(reinterpret_cast<__m128i*>(tmp), h);
      for (int j = 0; j < 8; ++j) out[i + j] = fp16::from_bits(tmp[j]);
    }
  }
  encode_range(in, out, i, r.end, *r.options);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void run_avx512(Job job, const Range& r) {
  if (job == Job::fp16_nearest) return fp16_nearest_f16c(r);
  run_job<Isa::avx512>(job, r);
}
__attribute__((target("avx2"))) void run_avx2(Job job, const Range& r) {
  if (job == Job::fp16_nearest) return fp16_nearest_f16c(r);
  run_job<Isa::avx2>(job, r);
}
void run_scalar(Job job, const Range& r) { run_job<Isa::scalar>(job, r); }

void run_fast(Isa isa, Job job, const void* in, void* out, std::int64_t n, const ConvertOptions& o) {
  detail::for_aligned_ranges(n, o.offset, o.threads, [&](std::int64_t begin, std::int64_t end) {
    const Range range{in, out, begin, end, &o};
    switch (isa) {
      case Isa::avx512: run_avx512(job, range); break;
      case Isa::avx2: run_avx2(job, range); break;
      default: run_scalar(job, range); break;
    }
  });
}

}  // namespace

std::string_view to_string(Isa isa) noexcept { return kIsaNames.name(isa); }

bool cpu_supports(Isa isa) noexcept {
  switch (isa) {
    case Isa::automatic:
    case Isa::scalar: return true;
    case Isa::avx2: return __builtin_cpu_supports("avx2") && detail::cpu_has_f16c();
    case Isa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") && detail::cpu_has_f16c();
  }
  return false;
}

Isa detected_isa() noexcept {
  if (cpu_supports(Isa::avx512)) return Isa::avx512;
  if (cpu_supports(Isa::avx2)) return Isa::avx2;
  return Isa::scalar;
}

template <class T>
void convert(std::span<const float> in, std::span<T> out, const ConvertOptions& o) {
  constexpr const char* function = "trncore::convert";
  check_sizes(in.size(), out.size(), function);
  validate(o.rounding, function);
  const Isa isa = resolve_isa(o.isa, function);
  const auto n = static_cast<std::int64_t>(in.size());
  if constexpr (std::is_same_v<T, bf16>) {
    if (o.rounding.mode == RoundingMode::nearest_even)
      return run_fast(isa, Job::bf16_nearest, in.data(), out.data(), n, o);
    if (o.rounding.mode == RoundingMode::stochastic)
      return run_fast(isa, Job::bf16_stochastic, in.data(), out.data(), n, o);
  }
  if constexpr (std::is_same_v<T, fp16>) {
    if (o.rounding.mode == RoundingMode::nearest_even && isa != Isa::scalar)
      return run_fast(isa, Job::fp16_nearest, in.data(), out.data(), n, o);
  }
  detail::for_aligned_ranges(n, o.offset, o.threads, [&](std::int64_t begin, std::int64_t end) {
    encode_range(in.data(), out.data(), begin, end, o);
  });
}

template <class T>
void convert(std::span<const double> in, std::span<T> out, const ConvertOptions& o) {
  constexpr const char* function = "trncore::convert";
  check_sizes(in.size(), out.size(), function);
  validate(o.rounding, function);
  resolve_isa(o.isa, function);
  detail::for_aligned_ranges(
      static_cast<std::int64_t>(in.size()), o.offset, o.threads,
      [&](std::int64_t begin, std::int64_t end) { encode_range(in.data(), out.data(), begin, end, o); });
}

void convert(std::span<const double> in, std::span<float> out, const ConvertOptions& o) {
  constexpr const char* function = "trncore::convert";
  check_sizes(in.size(), out.size(), function);
  validate(o.rounding, function);
  resolve_isa(o.isa, function);
  const RandomBits bits{o.seed, o.stream};
  const bool stochastic = o.rounding.mode == RoundingMode::stochastic;
  detail::for_aligned_ranges(
      static_cast<std::int64_t>(in.size()), o.offset, o.threads, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
          const std::uint32_t random = stochastic ? bits(o.offset + static_cast<std::uint64_t>(i)) : 0;
          out[i] = std::bit_cast<float>(encode(formats::fp32, in[i], o.rounding, random));
        }
      });
}

template <class T>
void convert(std::span<const T> in, std::span<float> out, const ConvertOptions& o) {
  constexpr const char* function = "trncore::convert";
  check_sizes(in.size(), out.size(), function);
  const Isa isa = resolve_isa(o.isa, function);
  const auto n = static_cast<std::int64_t>(in.size());
  if constexpr (std::is_same_v<T, bf16>) return run_fast(isa, Job::bf16_to_float, in.data(), out.data(), n, o);
  detail::for_aligned_ranges(n, o.offset, o.threads, [&](std::int64_t begin, std::int64_t end) {
    decode_range(in.data(), out.data(), begin, end);
  });
}

template <class T>
void convert(std::span<const T> in, std::span<double> out, const ConvertOptions& o) {
  constexpr const char* function = "trncore::convert";
  check_sizes(in.size(), out.size(), function);
  resolve_isa(o.isa, function);
  detail::for_aligned_ranges(
      static_cast<std::int64_t>(in.size()), o.offset, o.threads,
      [&](std::int64_t begin, std::int64_t end) { decode_range(in.data(), out.data(), begin, end); });
}

#define TRNCORE_INSTANTIATE_CONVERT(T)                                                    \
  template void convert<T>(std::span<const float>, std::span<T>, const ConvertOptions&);  \
  template void convert<T>(std::span<const double>, std::span<T>, const ConvertOptions&); \
  template void convert<T>(std::span<const T>, std::span<float>, const ConvertOptions&);  \
  template void convert<T>(std::span<const T>, std::span<double>, const ConvertOptions&);
TRNCORE_INSTANTIATE_CONVERT(bf16)
TRNCORE_INSTANTIATE_CONVERT(fp16)
TRNCORE_INSTANTIATE_CONVERT(tf32)
TRNCORE_INSTANTIATE_CONVERT(fp8_e4m3)
TRNCORE_INSTANTIATE_CONVERT(fp8_e5m2)
#undef TRNCORE_INSTANTIATE_CONVERT

}  // namespace trncore
