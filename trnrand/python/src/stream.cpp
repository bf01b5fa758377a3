// trnrand.Stream and the bulk fills of stream.hpp: fill_uint32, fill_uint64, fill_uniform, word, partition.
#include "bind.hpp"

#include <trnrand/stream.hpp>

#include <functional>
#include <string>

namespace trnrand_python {

namespace {

std::string stream_repr(const trnrand::Stream& s) {
  return "trnrand.Stream(seed=" + std::to_string(s.seed) + ", subsequence=" + std::to_string(s.subsequence) +
         ", offset=" + std::to_string(s.offset) + ", generator='" + std::string(trnrand::to_string(s.generator)) + "')";
}

trnrand::Interval parse_interval(const std::string& text, std::string_view function) {
  if (text == "open_closed") return trnrand::Interval::open_closed;
  if (text == "closed_open") return trnrand::Interval::closed_open;
  tp::invalid(function, "interval '" + text + "' is not an interval name",
              "pass 'open_closed' ((0, 1], cuRAND's) or 'closed_open' ([0, 1))");
}

}  // namespace

void bind_stream(py::module_& m) {
  py::class_<trnrand::Stream>(
      m, "Stream",
      "A position in a counter-based random stream (trnrand::Stream): generator, seed, subsequence and offset "
      "(32-bit words already used). An immutable value: every fill takes a Stream and returns the Stream "
      "advanced past what it used, so the same Stream always gives the same numbers, on any machine and for "
      "any thread count. Stream(seed, subsequence=0, offset=0, generator='philox4x32_10') is "
      "curand_init(seed, subsequence, offset) (cuRAND's Philox4_32_10 layout); generator='threefry4x32_20' "
      "selects Threefry4x32-20. Raises trncore.ParseError for an unknown generator name and "
      "trncore.InvalidArgument for a value outside [0, 2**64).")
      .def(py::init([](py::object seed, py::object subsequence, py::object offset, const std::string& generator) {
             constexpr const char* fn = "trnrand.Stream";
             return trnrand::make_stream(to_u64(seed, fn, "seed"), to_u64(subsequence, fn, "subsequence"),
                                         to_u64(offset, fn, "offset"), trnrand::parse_generator(generator));
           }),
           py::arg("seed") = 0, py::arg("subsequence") = 0, py::arg("offset") = 0,
           py::arg("generator") = "philox4x32_10")
      .def_readonly("seed", &trnrand::Stream::seed, "The key (the stream's identity, with subsequence).")
      .def_readonly("subsequence", &trnrand::Stream::subsequence, "The high half of the counter.")
      .def_readonly("offset", &trnrand::Stream::offset, "32-bit words of the stream already used.")
      .def_property_readonly(
          "generator", [](const trnrand::Stream& s) { return std::string(trnrand::to_string(s.generator)); },
          "'philox4x32_10' or 'threefry4x32_20'.")
      .def(
          "skip_ahead",
          [](const trnrand::Stream& s, py::object n) {
            return trnrand::skip_ahead(s, to_u64(n, "trnrand.Stream.skip_ahead", "n"));
          },
          py::arg("n"), "The Stream n words further on, in O(1) (cuRAND's skipahead). The offset wraps modulo 2**64.")
      .def(
          "skip_ahead_sequence",
          [](const trnrand::Stream& s, py::object n) {
            return trnrand::skip_ahead_sequence(s, to_u64(n, "trnrand.Stream.skip_ahead_sequence", "n"));
          },
          py::arg("n"), "The same position in the subsequence n further on (skipahead_sequence), in O(1).")
      .def(
          "word",
          [](const trnrand::Stream& s, py::object i) {
            return trnrand::word(s, to_u64(i, "trnrand.Stream.word", "i"));
          },
          py::arg("i") = 0, "Word offset + i of the stream (one generator call), as an int in [0, 2**32).")
      .def("__eq__", [](const trnrand::Stream& a, const trnrand::Stream& b) { return a == b; })
      .def("__hash__",
           [](const trnrand::Stream& s) {
             return py::hash(py::make_tuple(static_cast<int>(s.generator), s.seed, s.subsequence, s.offset));
           })
      .def("__repr__", &stream_repr)
      .def(py::pickle(
          [](const trnrand::Stream& s) {
            return py::make_tuple(s.seed, s.subsequence, s.offset, std::string(trnrand::to_string(s.generator)));
          },
          [](const py::tuple& t) {
            if (t.size() != 4) tp::invalid("trnrand.Stream", "pickled state has the wrong size", "re-pickle");
            return trnrand::make_stream(t[0].cast<std::uint64_t>(), t[1].cast<std::uint64_t>(),
                                        t[2].cast<std::uint64_t>(), trnrand::parse_generator(t[3].cast<std::string>()));
          }));

  m.def(
      "partition",
      [](py::object total, py::object workers, py::object rank) {
        constexpr const char* fn = "trnrand.partition";
        const auto s =
            trnrand::partition(to_u64(total, fn, "total"), to_i64(workers, fn, "workers"), to_i64(rank, fn, "rank"));
        return py::make_tuple(s.begin, s.count);
      },
      py::arg("total"), py::arg("workers"), py::arg("rank"),
      "(begin, count): the contiguous, balanced slice of `total` values that worker `rank` of `workers` produces "
      "(trnrand::partition). Worker r fills count values from stream.skip_ahead(b * begin), b the word budget "
      "per value, and the workers' outputs concatenated equal one fill of total values. Raises "
      "trncore.InvalidArgument unless workers >= 1 and 0 <= rank < workers.");

  m.def(
      "fill_uint32",
      [](const trnrand::Stream& s, py::handle out, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.fill_uint32";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        auto f = out_flat<std::uint32_t>(out, fn, "out");
        return tp::run(o, [&] { return trnrand::fill_uint32(s, f.span, o); });
      },
      py::arg("stream"), py::arg("out"),
      "Writes out[j] = word j of the stream (out: a contiguous uint32 array, any shape, filled in memory order) "
      "and returns stream.skip_ahead(out.size) (trnrand::fill_uint32; cuRAND's curandGenerate). Keywords: "
      "threads (no value depends on it), backend='sim' with generation= (the GpSimdEngine kernel; the same "
      "words). Raises trncore.InvalidArgument for a wrong dtype, a read-only or non-contiguous out, bad options.");

  m.def(
      "fill_uint64",
      [](const trnrand::Stream& s, py::handle out, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.fill_uint64";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        auto f = out_flat<std::uint64_t>(out, fn, "out");
        return tp::run(o, [&] { return trnrand::fill_uint64(s, f.span, o); });
      },
      py::arg("stream"), py::arg("out"),
      "out[j] = word(2j) | word(2j + 1) << 32 (out: contiguous uint64); returns stream.skip_ahead(2 * out.size) "
      "(trnrand::fill_uint64; curandGenerateLongLong). Keywords and errors as fill_uint32.");

  m.def(
      "fill_uniform",
      [](const trnrand::Stream& s, py::handle out, const std::string& interval, py::kwargs kw) {
        constexpr const char* fn = "trnrand.streams.fill_uniform";
        auto o = tp::options_from<trncore::Options>(kw, fn);
        const auto iv = parse_interval(interval, fn);
        if (!py::isinstance<py::array>(out)) out_flat<float>(out, fn, "out");  // raises: not an ndarray
        py::array a = tp::as_ndarray(out, fn, "out");
        if (py::isinstance<py::array_t<double, 0>>(a)) {
          auto f = out_flat<double>(out, fn, "out");
          return tp::run(o, [&] { return trnrand::fill_uniform(s, f.span, iv, o); });
        }
        auto f = out_flat<float>(out, fn, "out");
        return tp::run(o, [&] { return trnrand::fill_uniform(s, f.span, iv, o); });
      },
      py::arg("stream"), py::arg("out"), py::arg("interval") = "open_closed",
      "Uniform variates in place (trnrand::fill_uniform): float32 from one word each, exactly the 2**24-point grid "
      "((w >> 8) + 1) * 2**-24 for interval='open_closed' ((0, 1], cuRAND's curand_uniform) or (w >> 8) * 2**-24 "
      "for 'closed_open' ([0, 1)); float64 from two words each on the 2**-53 grid. Returns the stream advanced by "
      "out.size (float32) or 2 * out.size (float64). backend='sim' (float32 only) runs the engine kernel: bitwise "
      "the host's values; float64 on sim raises trncore.NotSupported. Raises trncore.InvalidArgument for another "
      "dtype, a read-only or non-contiguous out, an unknown interval, bad options.");
}

}  // namespace trnrand_python
