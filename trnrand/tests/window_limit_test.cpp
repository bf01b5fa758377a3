// The window samplers (randint, randperm, gamma, beta, chi_squared, student_t, poisson, binomial,
// truncated_normal) give sample i the stream's words i·2^32 … (i + 1)·2^32 − 1 of its 2^64: a call with more than
// 2^32 samples would make sample i + 2^32 repeat sample i. Such a call must throw InvalidArgument naming the
// function and the limit before touching `out` (no silently repeated values). The arrays are 2^32 + 1 elements
// of address space reserved without backing (MAP_NORESERVE, never written: the call must not touch them), so
// the test needs no memory; where the kernel refuses the reservation it is skipped and says so.
#include <trncore/error.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/stream.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <span>

namespace {

constexpr std::uint64_t kTooMany = (std::uint64_t{1} << 32) + 1;

// kTooMany elements of T in reserved, untouched address space.
template <class T>
class Reserved {
 public:
  Reserved() {
    void* p = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<T*>(p);
  }
  ~Reserved() {
    if (data_ != nullptr) munmap(data_, bytes());
  }
  Reserved(const Reserved&) = delete;
  Reserved& operator=(const Reserved&) = delete;
  bool ok() const { return data_ != nullptr; }
  std::span<T> span() const { return {data_, static_cast<std::size_t>(kTooMany)}; }

 private:
  static std::size_t bytes() { return static_cast<std::size_t>(kTooMany) * sizeof(T); }
  T* data_ = nullptr;
};

template <class F>
void expect_refused(F&& call, const char* function) {
  trnsci_testing::expect_error<trncore::InvalidArgument>(call, function, {"4294967297 samples", "2^32", "repeat"});
}

}  // namespace

TEST(WindowSamplers, MoreThanTwoToThe32SamplesAreRefusedNotRepeated) {
  Reserved<std::int64_t> i64;
  Reserved<double> f64;
  Reserved<float> f32;
  if (!i64.ok() || !f64.ok() || !f32.ok()) GTEST_SKIP() << "the kernel refused to reserve 32 GiB of address space";
  const auto s = trnrand::make_stream(7);
  expect_refused([&] { trnrand::randint(s, i64.span(), 0, 9); }, "trnrand::randint");
  expect_refused([&] { trnrand::randperm(s, i64.span()); }, "trnrand::randperm");
  expect_refused([&] { trnrand::poisson(s, i64.span(), 3.0); }, "trnrand::poisson");
  expect_refused([&] { trnrand::binomial(s, i64.span(), 10, 0.5); }, "trnrand::binomial");
  expect_refused([&] { trnrand::gamma(s, f64.span(), 2.0, 1.0); }, "trnrand::gamma");
  expect_refused([&] { trnrand::gamma(s, f32.span(), 2.0f, 1.0f); }, "trnrand::gamma");
  expect_refused([&] { trnrand::beta(s, f64.span(), 2.0, 3.0); }, "trnrand::beta");
  expect_refused([&] { trnrand::chi_squared(s, f32.span(), 3.0f); }, "trnrand::chi_squared");
  expect_refused([&] { trnrand::student_t(s, f64.span(), 5.0); }, "trnrand::student_t");
  expect_refused([&] { trnrand::truncated_normal(s, f64.span(), 0.0, 1.0, -1.0, 1.0); }, "trnrand::truncated_normal");
  // Constant cases too (their stream advance would wrap as well).
  expect_refused([&] { trnrand::truncated_normal(s, f32.span(), 0.0f, 1.0f, 0.5f, 0.5f); },
                 "trnrand::truncated_normal");
}
