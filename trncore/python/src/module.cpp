// The trncore Python extension (trncore._trncore): reports, progress, options, number formats.
#include <trnsci_python/bindings.hpp>

#include <trncore/accuracy_report.hpp>
#include <trncore/convert.hpp>
#include <trncore/format.hpp>
#include <trncore/monitor.hpp>
#include <trncore/options.hpp>
#include <trncore/small_float.hpp>
#include <trncore/threads.hpp>
#include <trncore/version.hpp>

#include <pybind11/stl.h>

#include <span>
#include <string>
#include <vector>

namespace py = pybind11;
namespace tp = trnsci_python;

namespace {

/// The encodable formats: name → the SmallFloat type's storage width.
const std::vector<std::string>& format_names() {
  static const std::vector<std::string> names{"bf16", "fp16", "tf32", "fp8_e4m3", "fp8_e5m2"};
  return names;
}

trncore::ConvertOptions convert_options(py::dict kw, const char* function) {
  trncore::ConvertOptions c;
  if (auto v = tp::pop<std::string>(kw, "rounding", function)) c.rounding.mode = trncore::parse_rounding_mode(*v);
  if (auto v = tp::pop<int>(kw, "sr_bits", function)) c.rounding.sr_bits = *v;
  if (auto v = tp::pop<std::string>(kw, "overflow", function)) c.rounding.overflow = trncore::parse_overflow(*v);
  if (auto v = tp::pop<std::uint64_t>(kw, "seed", function)) c.seed = *v;
  if (auto v = tp::pop<std::uint64_t>(kw, "stream", function)) c.stream = *v;
  if (auto v = tp::pop<std::uint64_t>(kw, "offset", function)) c.offset = *v;
  if (auto v = tp::pop<int>(kw, "threads", function)) c.threads = *v;
  tp::reject_unknown(kw, function);
  return c;
}

std::vector<std::int64_t> shape_of(const py::array& a) {
  return std::vector<std::int64_t>(a.shape(), a.shape() + a.ndim());
}

/// x (any shape, float32 or float64) → the bit patterns of format F, same shape.
template <class F, class In>
py::array encode_as(const py::array_t<In, py::array::c_style>& x, const trncore::ConvertOptions& c) {
  using Storage = typename F::storage_type;
  static_assert(sizeof(F) == sizeof(Storage));
  std::vector<F> tmp(static_cast<std::size_t>(x.size()));
  auto out = tp::new_array<Storage>(shape_of(x));
  {
    py::gil_scoped_release release;
    trncore::convert(std::span<const In>(x.data(), tmp.size()), std::span<F>(tmp), c);
    Storage* o = out.mutable_data();
    for (std::size_t i = 0; i < tmp.size(); ++i) o[i] = tmp[i].bits();
  }
  return out;
}

template <class F, class Out>
py::array decode_as(const py::array& bits, const char* function) {
  using Storage = typename F::storage_type;
  if (!py::isinstance<py::array_t<Storage, 0>>(bits)) {
    tp::invalid(
        function,
        "bits has dtype " + py::str(bits.dtype()).cast<std::string>() + " but format " + std::string(F::spec.name) +
            " is stored in " + tp::detail::dtype_name<Storage>(),
        "pass the array encode() returned, or bits.astype(np." + std::string(tp::detail::dtype_name<Storage>()) + ")");
  }
  auto c = py::array_t<Storage, py::array::c_style>::ensure(bits);
  std::vector<F> tmp(static_cast<std::size_t>(c.size()));
  auto out = tp::new_array<Out>(shape_of(c));
  {
    py::gil_scoped_release release;
    const Storage* in = c.data();
    for (std::size_t i = 0; i < tmp.size(); ++i) tmp[i] = F::from_bits(in[i]);
    trncore::convert(std::span<const F>(tmp), std::span<Out>(out.mutable_data(), tmp.size()));
  }
  return out;
}

template <class In>
py::array encode_dispatch(const py::array_t<In, py::array::c_style>& x, const std::string& format,
                          const trncore::ConvertOptions& c, const char* function) {
  if (format == "bf16") return encode_as<trncore::bf16>(x, c);
  if (format == "fp16") return encode_as<trncore::fp16>(x, c);
  if (format == "tf32") return encode_as<trncore::tf32>(x, c);
  if (format == "fp8_e4m3") return encode_as<trncore::fp8_e4m3>(x, c);
  if (format == "fp8_e5m2") return encode_as<trncore::fp8_e5m2>(x, c);
  tp::invalid(function, "unknown format '" + format + "'", "use one of bf16, fp16, tf32, fp8_e4m3, fp8_e5m2");
}

template <class Out>
py::array decode_dispatch(const py::array& bits, const std::string& format, const char* function) {
  if (format == "bf16") return decode_as<trncore::bf16, Out>(bits, function);
  if (format == "fp16") return decode_as<trncore::fp16, Out>(bits, function);
  if (format == "tf32") return decode_as<trncore::tf32, Out>(bits, function);
  if (format == "fp8_e4m3") return decode_as<trncore::fp8_e4m3, Out>(bits, function);
  if (format == "fp8_e5m2") return decode_as<trncore::fp8_e5m2, Out>(bits, function);
  tp::invalid(function, "unknown format '" + format + "'", "use one of bf16, fp16, tf32, fp8_e4m3, fp8_e5m2");
}

py::array encode(py::handle x, const std::string& format, py::kwargs kw) {
  constexpr const char* function = "trncore.encode";
  const auto c = convert_options(kw, function);
  py::array a = tp::as_ndarray(x, function, "x");
  if (tp::kind_of(a, function, "x") == tp::Kind::f32) {
    return encode_dispatch<float>(py::array_t<float, py::array::c_style>::ensure(a), format, c, function);
  }
  auto d = tp::as_dtype<double>(a, function, "x");
  return encode_dispatch<double>(py::array_t<double, py::array::c_style>::ensure(d), format, c, function);
}

py::array decode(py::handle bits, const std::string& format, py::handle dtype) {
  constexpr const char* function = "trncore.decode";
  py::array a = tp::as_ndarray(bits, function, "bits");
  const py::dtype dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
  if (dt.kind() == 'f' && dt.itemsize() == 4) return decode_dispatch<float>(a, format, function);
  if (dt.kind() == 'f' && dt.itemsize() == 8) return decode_dispatch<double>(a, format, function);
  tp::invalid(function, "dtype " + py::str(py::object(dt)).cast<std::string>() + " is not float32 or float64",
              "pass dtype=numpy.float32 or numpy.float64");
}

py::array round_to(py::handle x, const std::string& format, py::kwargs kw) {
  constexpr const char* function = "trncore.round_to";
  py::array a = tp::as_ndarray(x, function, "x");
  const bool single = tp::kind_of(a, function, "x") == tp::Kind::f32;
  py::array bits = encode(a, format, std::move(kw));
  return single ? decode_dispatch<float>(bits, format, function) : decode_dispatch<double>(bits, format, function);
}

}  // namespace

PYBIND11_MODULE(_trncore, m) {
  m.doc() = "trncore: number formats, rounding, options and accuracy reports of the trnsci suite";
  tp::register_error_translator();

  m.def(
      "version", [] { return std::string(trncore::version()); }, "The trncore library's version, e.g. '0.7.0'.");
  m.def("default_threads", &trncore::default_threads,
        "Threads a routine uses when threads=0: TRNSCI_NUM_THREADS, else the CPUs this process may use.");
  m.def("available_cpus", &trncore::available_cpus, "CPUs this process may run on (affinity and cgroup quota).");
  m.attr("formats") = py::cast(format_names());

  py::class_<trncore::sim::CostReport>(m, "CostReport",
                                       "Modelled NeuronCore cost of a sim run (engine counters, seconds bounds).")
      .def_property_readonly(
          "generation",
          [](const trncore::sim::CostReport& c) { return std::string(trncore::sim::to_string(c.generation)); })
      .def_readonly("lower_bound_seconds", &trncore::sim::CostReport::lower_bound_seconds)
      .def_readonly("upper_bound_seconds", &trncore::sim::CostReport::upper_bound_seconds)
      .def("__repr__", &trncore::sim::CostReport::to_string);

  py::class_<trncore::AccuracyReport>(
      m, "AccuracyReport",
      "What a routine certifies about its result (trncore::AccuracyReport): the target, the a-priori bound, "
      "whether it is certified and met, and why not. Returned by routines called with report=True.")
      .def(py::init<>())
      .def_readonly("target", &trncore::AccuracyReport::target, "The requested target_forward_error, or None.")
      .def_readonly("a_priori_bound", &trncore::AccuracyReport::a_priori_bound,
                    "Normwise forward error bound proven for this result.")
      .def_readonly("a_posteriori_estimate", &trncore::AccuracyReport::a_posteriori_estimate,
                    "A computed estimate of the error (residual-based), or None.")
      .def_readonly("certified", &trncore::AccuracyReport::certified, "Whether a_priori_bound is a proven bound.")
      .def_readonly("uncertified_reason", &trncore::AccuracyReport::uncertified_reason,
                    "Why the result is not certified ('' when it is).")
      .def_readonly("met", &trncore::AccuracyReport::met, "Certified and within the target.")
      .def_property_readonly(
          "trajectory",
          [](const trncore::AccuracyReport& r) {
            std::vector<std::string> steps;
            for (const auto& s : r.trajectory) steps.push_back(s.description);
            return steps;
          },
          "The steps the routine took (mode escalations, refinement sweeps), as text.")
      .def_readonly("iterations", &trncore::AccuracyReport::iterations, "Refinement or iteration count.")
      .def_readonly("references", &trncore::AccuracyReport::references, "Papers the bound comes from.")
      .def_readonly("stopped_by_monitor", &trncore::AccuracyReport::stopped_by_monitor,
                    "True when a monitor (or Ctrl-C) stopped the routine early.")
      .def_readonly("cost", &trncore::AccuracyReport::cost, "Modelled NeuronCore cost (sim backend), or None.")
      .def("__repr__", &trncore::AccuracyReport::to_string);

  py::class_<trncore::Progress>(m, "Progress", "What a long-running routine tells its monitor at each iteration.")
      .def_property_readonly("routine", [](const trncore::Progress& p) { return std::string(p.routine); })
      .def_readonly("iteration", &trncore::Progress::iteration)
      .def_readonly("residual", &trncore::Progress::residual)
      .def_readonly("elapsed_seconds", &trncore::Progress::elapsed_seconds)
      .def("__repr__", [](const trncore::Progress& p) {
        return "Progress(routine='" + std::string(p.routine) + "', iteration=" + std::to_string(p.iteration) +
               ", residual=" + std::to_string(p.residual) + ", elapsed_seconds=" + std::to_string(p.elapsed_seconds) +
               ")";
      });

  py::class_<trncore::Options>(
      m, "Options",
      "The suite's options (trncore::Options) as one reusable object: Options(backend='sim', mode='ozaki', "
      "target_forward_error=1e-12, threads=2, seed=7, ...). Pass it as options= to any routine; keywords given "
      "beside it override its fields.")
      .def(py::init([](py::kwargs kw) { return tp::options_from<trncore::Options>(kw, "trncore.Options"); }))
      .def_property_readonly("backend",
                             [](const trncore::Options& o) { return std::string(trncore::to_string(o.backend)); })
      .def_property_readonly("mode",
                             [](const trncore::Options& o) { return std::string(trncore::to_string(o.math_mode)); })
      .def_readonly("target_forward_error", &trncore::Options::target_forward_error)
      .def_readonly("threads", &trncore::Options::threads)
      .def_readonly("seed", &trncore::Options::seed)
      .def_readonly("stream", &trncore::Options::stream)
      .def_property_readonly(
          "generation", [](const trncore::Options& o) { return std::string(trncore::sim::to_string(o.generation)); })
      .def("__repr__", [](const trncore::Options& o) { return trncore::to_string(o); });

  m.def("encode", &encode, py::arg("x"), py::arg("format") = "bf16",
        "Rounds x (float32 or float64, any shape) to a small format and returns the bit patterns: uint16 for "
        "bf16/fp16, uint32 for tf32, uint8 for fp8_e4m3/fp8_e5m2. Keywords: rounding ('nearest_even', "
        "'stochastic', 'toward_zero', 'up', 'down', 'to_odd'), sr_bits, overflow, seed, stream, offset, threads. "
        "Stochastic rounding is seeded and bitwise identical for any thread count (trncore::convert). "
        "Raises trncore.InvalidArgument for an unknown format or a non-numeric dtype.");
  m.def("decode", &decode, py::arg("bits"), py::arg("format") = "bf16", py::arg("dtype") = py::dtype::of<float>(),
        "Exact values of bit patterns produced by encode (float32 or float64). Raises trncore.InvalidArgument "
        "when bits' dtype is not the format's storage type.");
  m.def("round_to", &round_to, py::arg("x"), py::arg("format") = "bf16",
        "x rounded to the format and returned in x's dtype (encode then decode); keywords as encode.");
}
