#include <trnrand/sobol.hpp>

#include "qmc/checks.hpp"
#include "qmc/direction_numbers.hpp"
#include "qmc/scramble.hpp"

#include <trncore/error.hpp>

#include <bit>
#include <string>

namespace trnrand {

namespace {

constexpr std::uint32_t kDigitBits = 32;

void check_index(std::int64_t index, const char* function, const char* what) {
  if (index < 0 || index > kSobolMaxPoints)
    throw trncore::InvalidArgument(function,
                                   std::string(what) + " = " + std::to_string(index) + " is outside [0, 2^32]",
                                   "a Sobol sequence has 2^32 points (32-bit digits)");
}

}  // namespace

Sobol::Sobol(std::int64_t dims, SobolOptions options) : dims_(dims), options_(options) {
  detail::check_qmc_options("trnrand::Sobol", options);
  detail::check_dims("trnrand::Sobol", dims, kSobolMaxDims,
                     "the Joe-Kuo direction numbers define dimensions 1 to 21201");
  detail::check_scramble("trnrand::Sobol", to_string(options.scramble), static_cast<int>(options.scramble),
                         "SobolScramble", "none, linear_matrix_digital_shift or owen");
  check_index(options.skip, "trnrand::Sobol", "options.skip");

  const auto n = static_cast<std::size_t>(dims);
  directions_.resize(kDigitBits * n);
  shift_.assign(n, 0);
  state_.resize(n);
  scratch_.resize(n);
  if (options.scramble == SobolScramble::owen) owen_top_.resize(detail::kOwenCacheWords * n);

  for (std::size_t d = 0; d < n; ++d) {
    std::uint32_t v[kDigitBits];
    detail::sobol_directions(static_cast<std::int64_t>(d) + 1, v);
    const auto dim = static_cast<std::uint32_t>(d);
    if (options.scramble == SobolScramble::linear_matrix_digital_shift)
      shift_[d] = detail::linear_scramble(options.seed, dim, v);
    if (options.scramble == SobolScramble::owen)
      detail::owen_cache(options.seed, dim,
                         std::span<std::uint32_t, detail::kOwenCacheWords>(&owen_top_[d * detail::kOwenCacheWords],
                                                                           detail::kOwenCacheWords));
    // Bit-major layout: the Gray-code step XORs one direction number into every dimension, contiguously.
    for (std::uint32_t j = 0; j < kDigitBits; ++j) directions_[j * n + d] = v[j];
  }
  seek(options.skip);
}

void Sobol::seek(std::int64_t index) {
  check_index(index, "trnrand::Sobol::seek", "index");
  index_ = index;
  if (index == kSobolMaxPoints) return;  // exhausted: there is no point to hold
  // Point n is ⊕ of v_j over the set bits of gray(n); the Gray-code walk of next() keeps exactly this.
  const auto g = static_cast<std::uint32_t>(index ^ (index >> 1));
  const auto n = static_cast<std::size_t>(dims_);
  for (std::size_t d = 0; d < n; ++d) state_[d] = shift_[d];
  for (std::uint32_t j = 0; j < kDigitBits; ++j) {
    if (((g >> j) & 1u) == 0) continue;
    const std::uint32_t* v = &directions_[j * n];
    for (std::size_t d = 0; d < n; ++d) state_[d] ^= v[d];
  }
}

void Sobol::skip(std::int64_t n) {
  if (n < 0 || n > kSobolMaxPoints - index_)
    throw trncore::InvalidArgument(
        "trnrand::Sobol::skip",
        "n = " + std::to_string(n) + " at index " + std::to_string(index_) + " leaves [0, 2^32]",
        "skip by 0 <= n <= 2^32 - index()");
  seek(index_ + n);
}

// Moves from point n to point n + 1: gray(n + 1) differs from gray(n) in bit ctz(n + 1) only.
void Sobol::advance_one() {
  ++index_;
  if (index_ == kSobolMaxPoints) return;
  const auto j = static_cast<std::size_t>(std::countr_zero(static_cast<std::uint64_t>(index_)));
  const auto n = static_cast<std::size_t>(dims_);
  const std::uint32_t* v = &directions_[j * n];
  for (std::size_t d = 0; d < n; ++d) state_[d] ^= v[d];
}

void Sobol::check_point(std::size_t size, const char* function) const {
  detail::check_point_size(function, size, dims_);
  if (index_ >= kSobolMaxPoints)
    throw trncore::ResourceExhausted(function, "all 2^32 points of the sequence have been produced",
                                     "seek() back or use another scramble seed for more points");
}

// The digits of the current point after the output scramble. Owen scrambling is not linear, so it
// is applied per point; the linear scramble is already folded into the direction numbers and shift.
const std::uint32_t* Sobol::current_digits() {
  if (options_.scramble != SobolScramble::owen) return state_.data();
  for (std::size_t d = 0; d < state_.size(); ++d)
    scratch_[d] = detail::owen_scramble(state_[d], options_.seed, static_cast<std::uint32_t>(d),
                                        std::span<const std::uint32_t, detail::kOwenCacheWords>(
                                            &owen_top_[d * detail::kOwenCacheWords], detail::kOwenCacheWords));
  return scratch_.data();
}

void Sobol::next(std::span<std::uint32_t> point) {
  check_point(point.size(), "trnrand::Sobol::next");
  const std::uint32_t* x = current_digits();
  for (std::size_t d = 0; d < point.size(); ++d) point[d] = x[d];
  advance_one();
}

void Sobol::next(std::span<double> point) {
  check_point(point.size(), "trnrand::Sobol::next");
  write_current(point.data());
  advance_one();
}

void Sobol::next(std::span<float> point) {
  check_point(point.size(), "trnrand::Sobol::next");
  write_current(point.data());
  advance_one();
}

// k · 2^-32 is exact in double (k < 2^32 has at most 32 significant bits).
void Sobol::write_current(double* out) {
  const std::uint32_t* x = current_digits();
  for (std::int64_t d = 0; d < dims_; ++d) out[d] = static_cast<double>(x[d]) * 0x1p-32;
}

// Truncating to 24 bits keeps the value exact in float and below 1.
void Sobol::write_current(float* out) {
  const std::uint32_t* x = current_digits();
  for (std::int64_t d = 0; d < dims_; ++d) out[d] = static_cast<float>(x[d] >> 8) * 0x1p-24f;
}

template <class T>
void Sobol::fill_rows(std::int64_t n, T* out, std::int64_t ld) {
  const char* function = "trnrand::Sobol::fill";
  detail::check_rows(function, n, dims_, "dims()", out, ld);
  if (n == 0) return;
  if (n > kSobolMaxPoints - index_)
    throw trncore::ResourceExhausted(function,
                                     "n = " + std::to_string(n) + " points requested at index " +
                                         std::to_string(index_) + " but the sequence ends at 2^32",
                                     "request at most 2^32 - index() points");
  for (std::int64_t i = 0; i < n; ++i) {
    write_current(out + i * ld);
    advance_one();
  }
}

void Sobol::fill(std::int64_t n, double* out, std::int64_t ld) { fill_rows(n, out, ld); }

void Sobol::fill(std::int64_t n, float* out, std::int64_t ld) { fill_rows(n, out, ld); }

void Sobol::fill(std::span<double> out) {
  detail::check_whole_points("trnrand::Sobol::fill", out.size(), dims_);
  fill_rows(static_cast<std::int64_t>(out.size()) / dims_, out.data(), dims_);
}

std::string_view sobol_direction_numbers_notice() noexcept { return detail::kJoeKuoNotice; }

}  // namespace trnrand
