#include <trncore/error.hpp>
#include <trncore/philox.hpp>
#include <trncore/random_words.hpp>
#include <trncore/detail/parallel.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/stream.hpp>
#include <trnrand/threefry.hpp>

#include "generators/arguments.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace trnrand {

namespace {

std::uint32_t threefry_word(const Stream& s, std::uint64_t n) noexcept {
  const std::uint64_t block = n / 4;
  return threefry4x32_20({static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                          static_cast<std::uint32_t>(s.subsequence), static_cast<std::uint32_t>(s.subsequence >> 32)},
                         {static_cast<std::uint32_t>(s.seed), static_cast<std::uint32_t>(s.seed >> 32), 0u, 0u})[n % 4];
}

// Threefry has no vector kernel: the words are keyed by their global index, so any split gives the same.
void fill_threefry(const Stream& s, std::span<std::uint32_t> out, int threads) {
  trncore::detail::for_aligned_ranges(
      static_cast<std::int64_t>(out.size()), s.offset, threads, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t j = begin; j < end; ++j)
          out[static_cast<std::size_t>(j)] = threefry_word(s, s.offset + static_cast<std::uint64_t>(j));
      });
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

void check_call(std::string_view function, const trncore::Options& options, const Stream& s) {
  trncore::validate(options, function);
  check_generator(function, s);
}

void check_generator(std::string_view function, const Stream& s) {
  if (to_string(s.generator) == "invalid")
    throw trncore::InvalidArgument(
        function, "stream.generator = " + std::to_string(static_cast<int>(s.generator)) + " is not a Generator",
        "pass Generator::philox4x32_10 or Generator::threefry4x32_20");
}

void check_interval(std::string_view function, Interval interval) {
  if (interval != Interval::open_closed && interval != Interval::closed_open)
    throw trncore::InvalidArgument(function,
                                   "interval = " + std::to_string(static_cast<int>(interval)) + " is not an Interval",
                                   "pass Interval::open_closed or Interval::closed_open");
}

bool on_sim(std::string_view function, const trncore::Options& options, std::string_view why) {
  if (options.backend != trncore::Backend::sim) return false;
  if (why.empty()) return true;
  throw trncore::NotSupported(function, "Backend::sim has no kernel for this call: " + std::string(why),
                              "use Backend::host (the default); the sim backend has fill_uint32, fill_uint64, "
                              "fill_uniform(float), normal(float) and normal_engine_order");
}

void fill_words(const Stream& s, std::span<std::uint32_t> out, int threads) {
  if (s.generator == Generator::threefry4x32_20)
    fill_threefry(s, out, threads);
  else
    trncore::fill_random_words(trncore::RandomBits{s.seed, s.subsequence}, s.offset, out, threads);
}

trncore::sim::NeuronCore core_for(const trncore::Options& options) {
  return trncore::sim::NeuronCore(options.generation, options.product);
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

// The words of fill_uint32 on the chosen backend, after the caller's checks.
Stream words_on(std::string_view function, const Stream& s, std::span<std::uint32_t> out,
                const trncore::Options& options) {
  if (detail::on_sim(function, options)) {
    auto core = detail::core_for(options);
    return sim::fill_uint32(s, out, core);
  }
  detail::fill_words(s, out, options.threads);
  return skip_ahead(s, out.size());
}

}  // namespace

Stream fill_uint32(Stream s, std::span<std::uint32_t> out, const trncore::Options& options) {
  detail::check_call("trnrand::fill_uint32", options, s);
  return words_on("trnrand::fill_uint32", s, out, options);
}

Stream fill_uint64(Stream s, std::span<std::uint64_t> out, const trncore::Options& options) {
  detail::check_call("trnrand::fill_uint64", options, s);
  std::vector<std::uint32_t> words(2 * out.size());
  const Stream next = words_on("trnrand::fill_uint64", s, words, options);
  for (std::size_t j = 0; j < out.size(); ++j)
    out[j] = static_cast<std::uint64_t>(words[2 * j]) | (static_cast<std::uint64_t>(words[2 * j + 1]) << 32);
  return next;
}

Stream fill_uniform(Stream s, std::span<float> out, Interval interval, const trncore::Options& options) {
  detail::check_call("trnrand::fill_uniform", options, s);
  detail::check_interval("trnrand::fill_uniform", interval);
  if (detail::on_sim("trnrand::fill_uniform", options)) {
    auto core = detail::core_for(options);
    return sim::fill_uniform(s, out, interval, core);
  }
  std::vector<std::uint32_t> words(out.size());
  const Stream next = words_on("trnrand::fill_uniform", s, words, options);
  const std::uint32_t add = interval == Interval::open_closed ? 1u : 0u;
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = static_cast<float>((words[j] >> 8) + add) * 0x1p-24f;
  return next;
}

Stream fill_uniform(Stream s, std::span<double> out, Interval interval, const trncore::Options& options) {
  detail::check_call("trnrand::fill_uniform", options, s);
  detail::check_interval("trnrand::fill_uniform", interval);
  detail::on_sim("trnrand::fill_uniform", options, "double uniforms need fp64, which the engines lack");
  std::vector<std::uint32_t> words(2 * out.size());
  const Stream next = words_on("trnrand::fill_uniform", s, words, options);
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
