#pragma once
/// @file
/// Counter-based random streams as values (RandBLAS style): a state is (generator, seed, subsequence,
/// offset); every function takes a state and returns the state advanced past what it produced, so the
/// same state always gives the same numbers, on any machine and for any thread count.
///
/// Stream layout (cuRAND's, for Philox4_32_10): word n of (seed, subsequence) is
///   generator(counter = {lo(n/4), hi(n/4), lo(subsequence), hi(subsequence)}, key = seed)[n mod 4],
/// with key {lo(seed), hi(seed)} for Philox4x32-10 and {lo(seed), hi(seed), 0, 0} for Threefry4x32-20.
/// For Philox this is the sequence cuRAND's curand() returns after curand_init(seed, subsequence,
/// offset); it is also trncore::RandomBits{seed, subsequence}.

#include <trncore/options.hpp>

#include <cstdint>
#include <span>
#include <string_view>

namespace trnrand {

/// The counter-based generators.
enum class Generator : std::uint8_t { philox4x32_10, threefry4x32_20 };

/// "philox4x32_10" or "threefry4x32_20". Never throws.
std::string_view to_string(Generator generator) noexcept;
/// Parses to_string's names. @throws trncore::ParseError naming the text.
Generator parse_generator(std::string_view text);

/// A position in a stream: which generator, which stream (seed, subsequence), and how many 32-bit words
/// of it have been used (offset). A plain value: copy it to fork, compare it to check positions.
struct Stream {
  Generator generator = Generator::philox4x32_10;  ///< the bijection that turns counters into words
  std::uint64_t seed = 0;                          ///< the key (the stream's identity, with subsequence)
  std::uint64_t subsequence = 0;                   ///< the high half of the counter: independent streams per seed
  std::uint64_t offset = 0;                        ///< 32-bit words of the stream already used

  /// Whether two states are the same position of the same stream (all four fields equal).
  friend constexpr bool operator==(const Stream&, const Stream&) = default;
};

/// The state curand_init(seed, subsequence, offset) gives (Philox by default).
constexpr Stream make_stream(std::uint64_t seed, std::uint64_t subsequence = 0, std::uint64_t offset = 0,
                             Generator generator = Generator::philox4x32_10) noexcept {
  return {generator, seed, subsequence, offset};
}

/// The state n words further on, in O(1). Offsets wrap modulo 2^64 (a stream holds 2^64 words; cuRAND's
/// 128-bit counter carry into the subsequence is not modelled, and no use of 2^64 words is practical).
constexpr Stream skip_ahead(Stream s, std::uint64_t n) noexcept {
  s.offset += n;
  return s;
}

/// The same position in the subsequence n further on (curand's skipahead_sequence), in O(1).
constexpr Stream skip_ahead_sequence(Stream s, std::uint64_t n) noexcept {
  s.subsequence += n;
  return s;
}

/// Word `offset + i` of the stream, computed directly (one generator call). Pure and thread-safe.
/// @throws trncore::InvalidArgument when s.generator is not a Generator value (e.g. Generator(7)).
std::uint32_t word(const Stream& s, std::uint64_t i);

/// out[j] = word(s, j); returns skip_ahead(s, out.size()). Vectorised (AVX-512 Philox where available)
/// and split over options.threads threads (0 = the process default); the result never depends on either.
/// options.backend = Backend::sim runs trnrand::sim::fill_uint32 on a NeuronCore of options.generation
/// made for the call (same words; the engine statistics are not kept — call trnrand::sim::fill_uint32 on
/// your own core to read them). options.seed and options.stream are not used: the Stream is the source.
/// @throws trncore::InvalidArgument for options trncore::validate refuses (threads < 0, ...) or an
/// s.generator that is not a Generator value (every fill and distribution in trnrand checks these the same
/// way, naming itself); trncore::ResourceExhausted on sim as trnrand::sim::fill_uint32.
Stream fill_uint32(Stream s, std::span<std::uint32_t> out, const trncore::Options& options = {});

/// out[j] = word(s, 2j) | word(s, 2j + 1) << 32; returns skip_ahead(s, 2·out.size()). On Backend::sim the
/// 2·out.size() words come from trnrand::sim::fill_uint32 (each pair of uint32 words in HBM read as one
/// little-endian uint64), so the values are the host's.
/// @throws as fill_uint32.
Stream fill_uint64(Stream s, std::span<std::uint64_t> out, const trncore::Options& options = {});

/// Which end of the unit interval a uniform variate may take.
enum class Interval : std::uint8_t {
  open_closed,  ///< (0, 1] — cuRAND's curand_uniform convention: never 0 (safe for log), may be 1
  closed_open,  ///< [0, 1) — never 1, may be 0
};

/// Uniform floats from one word each: w ↦ ((w >> 8) + 1)·2^-24 for (0, 1], (w >> 8)·2^-24 for [0, 1):
/// the 2^24 equally likely values of that grid, exactly. Returns skip_ahead(s, out.size()). On
/// Backend::sim it runs trnrand::sim::fill_uniform on a core made for the call: every engine step is
/// exact, so the values are bitwise the host's.
/// @throws trncore::InvalidArgument for invalid options, an interval that is not an Interval value, or an
/// invalid s.generator; trncore::ResourceExhausted on sim as trnrand::sim::fill_uniform.
Stream fill_uniform(Stream s, std::span<float> out, Interval interval = Interval::open_closed,
                    const trncore::Options& options = {});

/// Uniform doubles from two words each (53 bits: (w_{2j} · 2^32 + w_{2j+1}) >> 11), mapped like the
/// float version onto the 2^-53 grid. Returns skip_ahead(s, 2·out.size()). Throws as the float version,
/// and trncore::NotSupported for Backend::sim (the engines have no fp64; fill a float span, or use
/// Backend::host).
Stream fill_uniform(Stream s, std::span<double> out, Interval interval = Interval::open_closed,
                    const trncore::Options& options = {});

/// The slice of a global stream of `total` words that worker `rank` of `workers` produces: contiguous,
/// balanced (sizes differ by at most one), in rank order. Worker r fills `count` words starting from
/// skip_ahead(s, begin), so the workers' outputs concatenated equal one fill of `total` words.
struct Slice {
  std::uint64_t begin = 0;  ///< the worker's first word, counted from the global stream's start
  std::uint64_t count = 0;  ///< words the worker produces: total/workers, plus one for the first total%workers ranks
};
/// @throws trncore::InvalidArgument if workers < 1 or rank is outside [0, workers), naming the values.
Slice partition(std::uint64_t total, std::int64_t workers, std::int64_t rank);

/// Convenience object over a Stream for scalar use: each call returns the next word.
class Engine {
 public:
  /// @throws trncore::InvalidArgument when s.generator is not a Generator value.
  explicit Engine(Stream s);
  /// The next 32-bit word.
  std::uint32_t operator()() noexcept {
    const std::uint32_t w = word(stream_, 0);
    stream_ = skip_ahead(stream_, 1);
    return w;
  }
  /// The current position.
  const Stream& stream() const noexcept { return stream_; }

 private:
  Stream stream_;
};

}  // namespace trnrand
