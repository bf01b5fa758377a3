#include <trncore/error.hpp>
#include <trncore/philox.hpp>
#include <trncore/random_words.hpp>
#include <trnrand/stream.hpp>
#include <trnrand/threefry.hpp>

#include "generators/arguments.hpp"

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace trnrand {

namespace {

std::uint32_t threefry_word(const Stream& s, std::uint64_t n) noexcept {
  const std::uint64_t block = n / 4;
  return threefry4x32_20({static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                          static_cast<std::uint32_t>(s.subsequence), static_cast<std::uint32_t>(s.subsequence >> 32)},
                         {static_cast<std::uint32_t>(s.seed), static_cast<std::uint32_t>(s.seed >> 32), 0u, 0u})[n % 4];
}

// Threefry has no vector kernel: threads split the range at multiples of 4 (one generator call).
void fill_threefry(const Stream& s, std::span<std::uint32_t> out, int threads) {
  const std::size_t n = out.size();
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers =
      std::min<std::size_t>(threads > 0 ? static_cast<std::size_t>(threads) : hw, std::max<std::size_t>(1, n >> 16));
  const auto run = [&](std::size_t begin, std::size_t end) {
    for (std::size_t j = begin; j < end; ++j) out[j] = threefry_word(s, s.offset + j);
  };
  if (workers <= 1) return run(0, n);
  std::vector<std::thread> pool;
  const std::size_t chunk = (n / workers + 3) / 4 * 4;
  for (std::size_t w = 0; w < workers; ++w) {
    const std::size_t begin = std::min(n, w * chunk), end = w + 1 == workers ? n : std::min(n, begin + chunk);
    pool.emplace_back(run, begin, end);
  }
  for (auto& t : pool) t.join();
}

}  // namespace

std::string_view to_string(Generator generator) noexcept {
  switch (generator) {
    case Generator::philox4x32_10: return "philox4x32_10";
    case Generator::threefry4x32_20: return "threefry4x32_20";
  }
  return "invalid";
}

Generator parse_generator(std::string_view text) {
  if (text == "philox4x32_10") return Generator::philox4x32_10;
  if (text == "threefry4x32_20") return Generator::threefry4x32_20;
  throw trncore::ParseError("trnrand::parse_generator", "unknown generator '" + std::string(text) + "'",
                            "use philox4x32_10 or threefry4x32_20", 1, 1);
}

namespace detail {

void check_threads(const char* function, int threads) {
  if (threads < 0)
    throw trncore::InvalidArgument(function, "threads = " + std::to_string(threads) + " is negative",
                                   "pass 0 (hardware concurrency) or a positive thread count");
}

void check_generator(const char* function, const Stream& s) {
  if (to_string(s.generator) == "invalid")
    throw trncore::InvalidArgument(
        function, "stream.generator = " + std::to_string(static_cast<int>(s.generator)) + " is not a Generator",
        "pass Generator::philox4x32_10 or Generator::threefry4x32_20");
}

void check_interval(const char* function, Interval interval) {
  if (interval != Interval::open_closed && interval != Interval::closed_open)
    throw trncore::InvalidArgument(function,
                                   "interval = " + std::to_string(static_cast<int>(interval)) + " is not an Interval",
                                   "pass Interval::open_closed or Interval::closed_open");
}

}  // namespace detail

std::uint32_t word(const Stream& s, std::uint64_t i) {
  const std::uint64_t n = s.offset + i;
  switch (s.generator) {
    case Generator::philox4x32_10: return trncore::RandomBits{s.seed, s.subsequence}(n);
    case Generator::threefry4x32_20: return threefry_word(s, n);
  }
  detail::check_generator("trnrand::word", s);  // throws: not a Generator value
  return 0;
}

Engine::Engine(Stream s) : stream_(s) { detail::check_generator("trnrand::Engine", s); }

namespace {

// fill_uint32 after its arguments were checked (by it or by a caller that names itself in errors).
void fill_words(const Stream& s, std::span<std::uint32_t> out, int threads) {
  if (s.generator == Generator::threefry4x32_20)
    fill_threefry(s, out, threads);
  else
    trncore::fill_random_words(trncore::RandomBits{s.seed, s.subsequence}, s.offset, out, threads);
}

}  // namespace

Stream fill_uint32(Stream s, std::span<std::uint32_t> out, int threads) {
  detail::check_generator("trnrand::fill_uint32", s);
  detail::check_threads("trnrand::fill_uint32", threads);
  fill_words(s, out, threads);
  return skip_ahead(s, out.size());
}

Stream fill_uint64(Stream s, std::span<std::uint64_t> out, int threads) {
  detail::check_generator("trnrand::fill_uint64", s);
  detail::check_threads("trnrand::fill_uint64", threads);
  std::vector<std::uint32_t> words(2 * out.size());
  fill_uint32(s, words, threads);
  for (std::size_t j = 0; j < out.size(); ++j)
    out[j] = static_cast<std::uint64_t>(words[2 * j]) | (static_cast<std::uint64_t>(words[2 * j + 1]) << 32);
  return skip_ahead(s, words.size());
}

Stream fill_uniform(Stream s, std::span<float> out, Interval interval, int threads) {
  detail::check_generator("trnrand::fill_uniform", s);
  detail::check_interval("trnrand::fill_uniform", interval);
  detail::check_threads("trnrand::fill_uniform", threads);
  std::vector<std::uint32_t> words(out.size());
  const Stream next = fill_uint32(s, words, threads);
  const std::uint32_t add = interval == Interval::open_closed ? 1u : 0u;
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = static_cast<float>((words[j] >> 8) + add) * 0x1p-24f;
  return next;
}

Stream fill_uniform(Stream s, std::span<double> out, Interval interval, int threads) {
  detail::check_generator("trnrand::fill_uniform", s);
  detail::check_interval("trnrand::fill_uniform", interval);
  detail::check_threads("trnrand::fill_uniform", threads);
  std::vector<std::uint32_t> words(2 * out.size());
  const Stream next = fill_uint32(s, words, threads);
  const std::uint64_t add = interval == Interval::open_closed ? 1u : 0u;
  for (std::size_t j = 0; j < out.size(); ++j) {
    const std::uint64_t bits53 = ((static_cast<std::uint64_t>(words[2 * j]) << 32) | words[2 * j + 1]) >> 11;
    out[j] = static_cast<double>(bits53 + add) * 0x1p-53;
  }
  return next;
}

Slice partition(std::uint64_t total, std::int64_t workers, std::int64_t rank) {
  if (workers < 1)
    throw trncore::InvalidArgument("trnrand::partition", "workers = " + std::to_string(workers) + " is less than 1",
                                   "pass at least one worker");
  if (rank < 0 || rank >= workers)
    throw trncore::InvalidArgument(
        "trnrand::partition", "rank = " + std::to_string(rank) + " is outside [0, " + std::to_string(workers) + ")",
        "pass 0 <= rank < workers");
  const auto p = static_cast<std::uint64_t>(workers), r = static_cast<std::uint64_t>(rank);
  const std::uint64_t base = total / p, extra = total % p;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

}  // namespace trnrand
