#pragma once
// The geometry checks of plan creation (geometry.cpp): strides, overlaps and extents of a plan's arrays,
// and the advanced (plan_many_*) and basic (plan_dft*) interfaces' addressing in guru form. Every function
// throws trncore errors naming `function`.

#include "executor.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace trnfft::detail {

/// "[n=8 is=1 os=1, n=3 is=8 os=8]".
std::string dims_text(const std::vector<IoDim>& dims);

/// a·b and a + b (signed strides included). @throws InvalidArgument naming `what` on int64 overflow.
std::int64_t checked_mul(const char* function, std::int64_t a, std::int64_t b, const std::string& what);
std::int64_t checked_add(const char* function, std::int64_t a, std::int64_t b, const std::string& what);

/// The extent (1 + largest offset) of one array of a plan, after checking that its strides are positive
/// and that no two of its elements share an offset. Dimensions are checked nested: sorted by stride, each
/// stride must reach past everything the smaller strides span. `halve_last`: this is the complex side of an
/// r2c/c2r plan, whose last transform dimension holds n/2 + 1 points. @throws InvalidArgument.
std::int64_t array_extent(const char* function, const char* name, const std::vector<IoDim>& dims,
                          const std::vector<IoDim>& batch, bool input, bool halve_last);

/// Whether the byte ranges [a, a + a_bytes) and [b, b + b_bytes) intersect (inline: new-array execute
/// checks it on every call).
inline bool ranges_intersect(const void* a, std::int64_t a_bytes, const void* b, std::int64_t b_bytes) {
  const auto pa = reinterpret_cast<std::uintptr_t>(a);
  const auto pb = reinterpret_cast<std::uintptr_t>(b);
  return pa < pb + static_cast<std::uintptr_t>(b_bytes) && pb < pa + static_cast<std::uintptr_t>(a_bytes);
}

/// plan_many_* geometry: FFTW's advanced-interface addressing (n, embeddings, strides) as guru dimensions.
/// @throws InvalidArgument (rank 0, n < 1), DimensionMismatch (an embedding of another rank or smaller
/// than the transform).
std::vector<IoDim> many_dims(const char* function, const std::vector<std::int64_t>& n,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride,
                             const std::vector<std::int64_t>& onembed, std::int64_t ostride, Kind kind);

/// plan_many_*'s batch as one guru batch dimension. @throws InvalidArgument for howmany < 1.
std::vector<IoDim> many_batch(const char* function, std::int64_t howmany, std::int64_t idist, std::int64_t odist);

/// The real side's embedding of the basic r2c/c2r interface: rows padded to 2(n/2 + 1) reals in place,
/// dense (empty) otherwise. @throws InvalidArgument for n < 1.
std::vector<std::int64_t> padded_real_embed(const char* function, const std::vector<std::int64_t>& n, bool in_place);

}  // namespace trnfft::detail
