// encode() against MPFR: every format, every deterministic rounding mode and SR(r), fp32 and fp64
// inputs, on random bit patterns, values spread over each format's range, and edge sets (ties and their
// neighbours, subnormal boundaries, overflow thresholds, ±0, ±inf, NaN).
//
// The oracle emulates each format in MPFR the standard way: precision M+1, exponent range cut at the
// smallest subnormal, mpfr_subnormalize for gradual underflow. Rounding happens in an unbounded
// exponent range above, and the overflow policy (rounding.hpp) is applied to MPFR's finite result, as
// IEEE 754 §7.4 defines overflow. Round-to-odd comes from MPFR's round-toward-zero plus its inexact flag.
// SR(r) comes from MPFR's exact discarded fraction: up iff floor(f·2^r) + top_r(random) ≥ 2^r.
#include <trncore/format.hpp>
#include <trncore/philox.hpp>
#include <trncore/rounding.hpp>

#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using trncore::FormatSpec;
using trncore::Overflow;
using trncore::Rounding;
using trncore::RoundingMode;

double pow2(int e) { return std::ldexp(1.0, e); }

double max_finite(const FormatSpec& f) { return trncore::decode(f, f.max_finite_magnitude()); }

// The policy of rounding.hpp, applied to a finite rounded value v (or to an infinite input).
double apply_overflow(const FormatSpec& f, double v, const Rounding& r) {
  const double mx = max_finite(f);
  if (std::fabs(v) <= mx) return v;
  const bool negative = std::signbit(v);
  bool to_max = r.overflow == Overflow::saturate || f.nan == trncore::NanEncoding::none;
  if (!to_max) {
    if (r.mode == RoundingMode::toward_zero || r.mode == RoundingMode::to_odd) to_max = true;
    if (r.mode == RoundingMode::up) to_max = negative;
    if (r.mode == RoundingMode::down) to_max = !negative;
  }
  if (to_max) return negative ? -mx : mx;
  if (f.has_infinity()) return negative ? -INFINITY : INFINITY;
  return std::copysign(NAN, v);
}

class Mpfr {
 public:
  Mpfr() {
    mpfr_init2(exact_, 2100);
    mpfr_init2(tmp_, 2100);
  }
  ~Mpfr() {
    mpfr_clear(exact_);
    mpfr_clear(tmp_);
  }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;

  // x rounded to format f (finite x) in mode (not stochastic); returns the value before overflow policy
  // and reports whether the rounding was inexact.
  double round(const FormatSpec& f, double x, mpfr_rnd_t rnd, bool* inexact) {
    const mpfr_exp_t old_emin = mpfr_get_emin();
    // MPFR writes x = m·2^e with 1/2 ≤ m < 1: the smallest subnormal 2^(emin − M) has e = emin − M + 1.
    mpfr_set_emin(f.emin() - f.mantissa_bits + 1);
    mpfr_t y;
    mpfr_init2(y, f.mantissa_bits + 1);
    int t = mpfr_set_d(y, x, rnd);
    t = mpfr_subnormalize(y, t, rnd);
    *inexact = t != 0;
    const double v = mpfr_get_d(y, MPFR_RNDN);  // exact: y fits in a double
    mpfr_clear(y);
    mpfr_set_emin(old_emin);
    return v;
  }

  // The discarded fraction of |x| above |truncated| in units of quantum q, scaled by 2^r and floored.
  std::uint64_t fraction_bits(double x, double truncated, double q, int r) {
    mpfr_set_d(exact_, std::fabs(x), MPFR_RNDN);
    mpfr_set_d(tmp_, std::fabs(truncated), MPFR_RNDN);
    mpfr_sub(exact_, exact_, tmp_, MPFR_RNDN);  // exact at 2100 bits
    mpfr_div_d(exact_, exact_, q, MPFR_RNDN);   // q is a power of two: exact
    mpfr_mul_2si(exact_, exact_, r, MPFR_RNDN);
    mpfr_floor(exact_, exact_);
    return mpfr_get_uj(exact_, MPFR_RNDN);
  }

 private:
  mpfr_t exact_, tmp_;
};

// The target's quantum at the magnitude of v (v a value of format f, or 0).
double quantum(const FormatSpec& f, double v) {
  int e = f.emin();
  if (v != 0.0) e = std::max(e, std::ilogb(v));
  return pow2(e - f.mantissa_bits);
}

// The value the oracle says encode(f, x, r, random) must decode to.
double expected(Mpfr& mpfr, const FormatSpec& f, double x, const Rounding& r, std::uint32_t random) {
  if (std::isinf(x)) return apply_overflow(f, x, r);
  bool inexact = false;
  switch (r.mode) {
    case RoundingMode::nearest_even: return apply_overflow(f, mpfr.round(f, x, MPFR_RNDN, &inexact), r);
    case RoundingMode::toward_zero: return apply_overflow(f, mpfr.round(f, x, MPFR_RNDZ, &inexact), r);
    case RoundingMode::up: return apply_overflow(f, mpfr.round(f, x, MPFR_RNDU, &inexact), r);
    case RoundingMode::down: return apply_overflow(f, mpfr.round(f, x, MPFR_RNDD, &inexact), r);
    case RoundingMode::to_odd: {
      double v = mpfr.round(f, x, MPFR_RNDZ, &inexact);
      const double q = quantum(f, v);
      if (inexact && std::fmod(std::fabs(v) / q, 2.0) == 0.0) v += std::copysign(q, x);
      return apply_overflow(f, v, r);
    }
    case RoundingMode::stochastic: {
      const double v = mpfr.round(f, x, MPFR_RNDZ, &inexact);
      if (!inexact) return apply_overflow(f, v, r);
      const double q = quantum(f, v);
      const std::uint64_t frac = mpfr.fraction_bits(x, v, q, r.sr_bits);
      const std::uint64_t u = std::uint64_t{random} >> (32 - r.sr_bits);
      const bool up = frac + u >= (std::uint64_t{1} << r.sr_bits);
      return apply_overflow(f, up ? v + std::copysign(q, x) : v, r);
    }
  }
  return NAN;
}

const FormatSpec* const kFormats[] = {&trncore::formats::bf16,     &trncore::formats::fp16,
                                      &trncore::formats::tf32,     &trncore::formats::fp8_e4m3,
                                      &trncore::formats::fp8_e5m2, &trncore::formats::fp32};

std::vector<Rounding> all_roundings() {
  std::vector<Rounding> out;
  for (Overflow o : {Overflow::standard, Overflow::saturate}) {
    for (RoundingMode m : {RoundingMode::nearest_even, RoundingMode::toward_zero, RoundingMode::up, RoundingMode::down,
                           RoundingMode::to_odd})
      out.emplace_back(m, o);
    for (int r : {32, 11, 3, 1}) out.emplace_back(RoundingMode::stochastic, o, r);
  }
  return out;
}

// Inputs for format f: random bit patterns, values spread over f's range (and a little beyond), ties at
// random binades with their fp32/fp64 neighbours, and fixed edges.
std::vector<double> inputs_for(const FormatSpec& f, bool from_double, std::uint64_t seed, int random_count) {
  std::mt19937_64 rng(seed);
  std::vector<double> xs;
  const auto input = [&](double v) {  // fp32 inputs must be fp32 values
    xs.push_back(from_double ? v : static_cast<double>(static_cast<float>(v)));
  };
  for (int i = 0; i < random_count; ++i) {
    if (from_double)
      xs.push_back(std::bit_cast<double>(rng()));
    else
      xs.push_back(static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(rng()))));
  }
  const int lo = f.emin() - f.mantissa_bits - 3, hi = f.emax() + 3;
  std::uniform_int_distribution<int> exponent(lo, hi);
  for (int i = 0; i < random_count; ++i) {
    const double mantissa = 1.0 + static_cast<double>(rng() >> 11) * 0x1p-53;
    input(std::ldexp((rng() & 1) ? -mantissa : mantissa, exponent(rng)));
  }
  for (int e = lo; e <= hi; ++e) {
    const double q = pow2(std::max(e, f.emin()) - f.mantissa_bits);
    const double k = static_cast<double>(rng() % (std::uint64_t{1} << f.mantissa_bits)) +
                     (e >= f.emin() ? pow2(f.mantissa_bits) : 0.0);
    const double tie = (k + 0.5) * q;
    for (double v : {tie, std::nextafter(tie, 0.0), std::nextafter(tie, INFINITY),
                     static_cast<double>(std::nextafter(static_cast<float>(tie), 0.0f)),
                     static_cast<double>(std::nextafter(static_cast<float>(tie), INFINITY)), (k + 0.25) * q,
                     (k + 0.75) * q, k * q})
      for (double s : {1.0, -1.0}) input(s * v);
  }
  const double mx = max_finite(f), q_top = pow2(f.emax() - f.mantissa_bits);
  const double denorm_min = pow2(f.emin() - f.mantissa_bits);
  for (double v : {0.0,
                   mx,
                   mx + q_top / 2,
                   mx + q_top / 4,
                   mx + q_top,
                   mx * 2,
                   pow2(f.emin()),
                   pow2(f.emin()) - denorm_min,
                   denorm_min,
                   denorm_min / 2,
                   denorm_min * 0.75,
                   denorm_min * 0.25,
                   denorm_min * 1.5,
                   1e-300,
                   1e300,
                   3.4028234663852886e38,
                   1.0,
                   464.0,
                   65520.0,
                   57344.0 + 4096.0,
                   448.0 + 16.0 - 1e-9,
                   static_cast<double>(INFINITY)})
    for (double s : {1.0, -1.0}) input(s * v);
  return xs;
}

void check_format(const FormatSpec& f, bool from_double, int random_count) {
  Mpfr mpfr;
  const trncore::RandomBits bits{7, 1};
  const auto xs = inputs_for(f, from_double, 1234 + f.width(), random_count);
  std::int64_t checked = 0;
  for (const Rounding& r : all_roundings()) {
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double x = xs[i];
      if (std::isnan(x)) continue;  // NaN has its own test
      const std::uint32_t random = bits(i);
      const double want = expected(mpfr, f, x, r, random);
      const double got = trncore::decode(f, trncore::encode(f, x, r, random));
      const bool same = (std::isnan(want) && std::isnan(got) && std::signbit(want) == std::signbit(got)) ||
                        std::bit_cast<std::uint64_t>(want) == std::bit_cast<std::uint64_t>(got);
      ASSERT_TRUE(same) << f.name << (from_double ? " from fp64" : " from fp32") << " mode "
                        << trncore::to_string(r.mode) << " r=" << r.sr_bits << " overflow "
                        << trncore::to_string(r.overflow) << " x=" << std::hexfloat << x << " random=" << random
                        << ": MPFR " << want << ", encode " << got;
      ++checked;
    }
  }
  ::testing::Test::RecordProperty(std::string(f.name) + (from_double ? "_fp64" : "_fp32"), std::to_string(checked));
}

TEST(FormatOracle, Fp32InputsMatchMpfrInEveryModeAndFormat) {
  for (const FormatSpec* f : kFormats)
    if (f != &trncore::formats::fp32) check_format(*f, false, 40000);
}

TEST(FormatOracle, Fp64InputsMatchMpfrInEveryModeAndFormat) {
  for (const FormatSpec* f : kFormats) check_format(*f, true, 40000);
}

// NaN: quiet NaN of the same sign; IEEE-style formats keep the top payload bits and set the quiet bit,
// so a signaling NaN whose payload lies below the kept bits still comes out NaN, never infinity.
TEST(FormatOracle, NanKeepsSignAndTopPayloadBits) {
  for (const FormatSpec* f : kFormats) {
    for (std::uint32_t payload : {0x1u, 0x200000u, 0x3FFFFFu, 0x400000u, 0x7FFFFFu, 0x12345u}) {
      for (std::uint32_t sign : {0u, 0x80000000u}) {
        const float x = std::bit_cast<float>(sign | 0x7F800000u | payload);
        for (Overflow o : {Overflow::standard, Overflow::saturate}) {
          const std::uint32_t e = trncore::encode(*f, x, Rounding(RoundingMode::nearest_even, o));
          const double back = trncore::decode(*f, e);
          ASSERT_TRUE(std::isnan(back)) << f->name << " payload " << payload;
          EXPECT_EQ(std::signbit(back), sign != 0) << f->name;
          if (f->nan == trncore::NanEncoding::ieee) {
            const std::uint32_t kept = (payload >> (23 - f->mantissa_bits)) | (1u << (f->mantissa_bits - 1));
            EXPECT_EQ(e & f->mantissa_mask(), kept) << f->name << " payload " << payload;
          } else {
            EXPECT_EQ(e & f->magnitude_mask(), f->magnitude_mask()) << f->name;  // S.1111.111
          }
        }
      }
    }
  }
}

}  // namespace
