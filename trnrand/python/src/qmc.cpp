// Quasi-random sequences (qmc.hpp): Sobol and Halton objects, halton(), latin_hypercube().
#include "bind.hpp"

#include <trnrand/qmc.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace trnrand_python {

namespace {

/// A sequence object and the lock that keeps two Python threads (the GIL is released while it runs) from
/// using it at once: the C++ object is not safe for concurrent use.
template <class Seq>
struct Locked {
  Seq seq;
  std::mutex mutex;
  template <class O>
  Locked(std::int64_t dims, const O& o) : seq(dims, o) {}
};

using PySobol = Locked<trnrand::Sobol>;
using PyHalton = Locked<trnrand::Halton>;

/// The numpy dtype's kind: 'd' float64, 'f' float32, 'u' uint32; anything else is InvalidArgument.
char dtype_code(py::handle dtype, const char* fn, bool allow_float32, bool allow_uint32) {
  const py::dtype dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
  if (dt.kind() == 'f' && dt.itemsize() == 8) return 'd';
  if (allow_float32 && dt.kind() == 'f' && dt.itemsize() == 4) return 'f';
  if (allow_uint32 && dt.kind() == 'u' && dt.itemsize() == 4) return 'u';
  const std::string allowed =
      std::string("float64") + (allow_float32 ? ", float32" : "") + (allow_uint32 ? ", uint32" : "");
  tp::invalid(fn, "dtype " + py::str(py::object(dt)).cast<std::string>() + " is not supported",
              "pass dtype=" + allowed);
}

trnrand::SobolOptions sobol_options(py::dict kw, const char* fn) {
  trnrand::SobolOptions o;
  tp::pop_options(o, kw, fn);
  if (kw.contains("scramble")) {
    py::object v = kw["scramble"];
    PyDict_DelItemString(kw.ptr(), "scramble");
    if (!py::isinstance<py::str>(v)) {
      tp::invalid(fn, "scramble has type " + py::str(py::type::of(v).attr("__name__")).cast<std::string>(),
                  "pass 'none', 'linear_matrix_digital_shift' (or 'lms') or 'owen'");
    }
    o.scramble = trnrand::parse_sobol_scramble(v.cast<std::string>());
  }
  if (kw.contains("skip")) {
    py::object v = kw["skip"];
    PyDict_DelItemString(kw.ptr(), "skip");
    o.skip = to_i64(v, fn, "skip");
  }
  tp::reject_unknown(kw, fn);
  return o;
}

trnrand::HaltonOptions halton_options(py::dict kw, const char* fn) {
  trnrand::HaltonOptions o;
  tp::pop_options(o, kw, fn);
  if (kw.contains("scramble")) {
    py::object v = kw["scramble"];
    PyDict_DelItemString(kw.ptr(), "scramble");
    if (!py::isinstance<py::str>(v)) {
      tp::invalid(fn, "scramble has type " + py::str(py::type::of(v).attr("__name__")).cast<std::string>(),
                  "pass 'none' or 'random_permutation'");
    }
    o.scramble = trnrand::parse_halton_scramble(v.cast<std::string>());
  }
  if (kw.contains("skip")) {
    py::object v = kw["skip"];
    PyDict_DelItemString(kw.ptr(), "skip");
    o.skip = to_i64(v, fn, "skip");
  }
  tp::reject_unknown(kw, fn);
  return o;
}

constexpr const char* kSequenceKeywords =
    " Keywords: scramble, seed (selects the randomisation; ignored for 'none'), skip (index of the first point), "
    "backend ('sim' raises trncore.NotSupported: no engine kernel). threads and stream are not used (the walk is "
    "sequential: split a sequence over workers with skip).";

}  // namespace

void bind_qmc(py::module_& m) {
  m.attr("SOBOL_MAX_DIMS") = trnrand::kSobolMaxDims;
  m.attr("SOBOL_MAX_POINTS") = trnrand::kSobolMaxPoints;
  m.attr("HALTON_MAX_DIMS") = trnrand::kHaltonMaxDims;

  py::class_<PySobol>(m, "Sobol",
                      (std::string("Sobol low-discrepancy sequence (trnrand::Sobol): Joe & Kuo's new-joe-kuo-6.21201 "
                                   "direction numbers (up to 21201 dimensions), Gray-code order (point 0 is the "
                                   "origin; the sequence Joe & Kuo's sobol.cc prints), 2**32 points of 32-bit digits. "
                                   "Sobol(dims, scramble='none'|'linear_matrix_digital_shift'|'owen', seed=0, "
                                   "skip=0). Methods are serialised by a lock (one object is not for concurrent use). "
                                   "Raises trncore.InvalidArgument for dims outside [1, 21201] or skip outside "
                                   "[0, 2**32], trncore.ParseError for an unknown scramble.") +
                       kSequenceKeywords)
                          .c_str())
      .def(py::init([](py::object dims, py::kwargs kw) {
             constexpr const char* fn = "trnrand.Sobol";
             const auto d = to_i64(dims, fn, "dims");
             const auto o = sobol_options(kw, fn);
             return std::make_unique<PySobol>(d, o);
           }),
           py::arg("dims"))
      .def_property_readonly(
          "dims", [](PySobol& s) { return s.seq.dims(); }, "Coordinates per point.")
      .def_property_readonly(
          "index",
          [](PySobol& s) {
            std::lock_guard lock(s.mutex);
            return s.seq.index();
          },
          "Index of the point the next call returns.")
      .def_property_readonly(
          "scramble", [](PySobol& s) { return std::string(trnrand::to_string(s.seq.options().scramble)); },
          "The scramble's name.")
      .def_property_readonly(
          "seed", [](PySobol& s) { return s.seq.options().seed; }, "The scramble's seed.")
      .def(
          "fill",
          [](PySobol& s, py::object n_obj, py::handle dtype) -> py::object {
            constexpr const char* fn = "trnrand.Sobol.fill";
            const auto n = to_i64(n_obj, fn, "n");
            const char code = dtype_code(dtype, fn, true, true);
            if (n < 0) tp::invalid(fn, "n = " + std::to_string(n) + " is negative", "pass n >= 0");
            const auto d = s.seq.dims();
            {
              std::lock_guard lock(s.mutex);
              if (n > trnrand::kSobolMaxPoints - s.seq.index()) {
                throw trncore::ResourceExhausted(fn, "fewer than n = " + std::to_string(n) + " points remain",
                                                 "seek() back, or ask for fewer points");
              }
            }
            auto fill = [&](auto tag) -> py::object {
              using T = decltype(tag);
              py::array_t<T> out(std::vector<py::ssize_t>{n, d});
              T* p = out.mutable_data();
              tp::released([&] {
                std::lock_guard lock(s.mutex);
                if constexpr (std::is_same_v<T, std::uint32_t>) {
                  for (std::int64_t i = 0; i < n; ++i) s.seq.next(std::span<T>(p + i * d, static_cast<std::size_t>(d)));
                } else {
                  s.seq.fill(n, p, d);
                }
              });
              return out;
            };
            if (code == 'd') return fill(double{});
            if (code == 'f') return fill(float{});
            return fill(std::uint32_t{});
          },
          py::arg("n"), py::arg("dtype") = py::dtype::of<double>(),
          "The next n points as an (n, dims) array, and advances: float64 = digits * 2**-32 exactly, float32 = "
          "(digits >> 8) * 2**-24 (truncated, always < 1), uint32 = the digits. Raises trncore.ResourceExhausted "
          "if fewer than n points remain (nothing is produced), trncore.InvalidArgument for n < 0 or another dtype.")
      .def(
          "skip",
          [](PySobol& s, py::object n) {
            const auto k = to_i64(n, "trnrand.Sobol.skip", "n");
            std::lock_guard lock(s.mutex);
            s.seq.skip(k);
          },
          py::arg("n"), "Advances by n points without producing them, in O(dims * 32).")
      .def(
          "seek",
          [](PySobol& s, py::object i) {
            const auto k = to_i64(i, "trnrand.Sobol.seek", "index");
            std::lock_guard lock(s.mutex);
            s.seq.seek(k);
          },
          py::arg("index"), "Positions the sequence at point index in [0, 2**32], in O(dims * 32).")
      .def("__repr__", [](PySobol& s) {
        std::lock_guard lock(s.mutex);
        return "trnrand.Sobol(dims=" + std::to_string(s.seq.dims()) + ", scramble='" +
               std::string(trnrand::to_string(s.seq.options().scramble)) +
               "', seed=" + std::to_string(s.seq.options().seed) + ", index=" + std::to_string(s.seq.index()) + ")";
      });

  py::class_<PyHalton>(m, "Halton",
                       (std::string("Halton sequence (trnrand::Halton): coordinate d of point i is the radical "
                                    "inverse of i in the d-th prime base; point 0 is the origin. Halton(dims, "
                                    "scramble='none'|'random_permutation', seed=0, skip=0); up to 21201 dimensions. "
                                    "Raises trncore.InvalidArgument for dims outside [1, 21201] or a negative skip.") +
                        kSequenceKeywords)
                           .c_str())
      .def(py::init([](py::object dims, py::kwargs kw) {
             constexpr const char* fn = "trnrand.Halton";
             const auto d = to_i64(dims, fn, "dims");
             const auto o = halton_options(kw, fn);
             return std::make_unique<PyHalton>(d, o);
           }),
           py::arg("dims"))
      .def_property_readonly(
          "dims", [](PyHalton& s) { return s.seq.dims(); }, "Coordinates per point.")
      .def_property_readonly(
          "index",
          [](PyHalton& s) {
            std::lock_guard lock(s.mutex);
            return s.seq.index();
          },
          "Index of the point the next call returns.")
      .def_property_readonly(
          "scramble", [](PyHalton& s) { return std::string(trnrand::to_string(s.seq.options().scramble)); },
          "The scramble's name.")
      .def(
          "base", [](PyHalton& s, py::object d) { return s.seq.base(to_i64(d, "trnrand.Halton.base", "d")); },
          py::arg("d"), "The prime base of dimension d (0-based).")
      .def(
          "fill",
          [](PyHalton& s, py::object n_obj) {
            constexpr const char* fn = "trnrand.Halton.fill";
            const auto n = to_i64(n_obj, fn, "n");
            if (n < 0) tp::invalid(fn, "n = " + std::to_string(n) + " is negative", "pass n >= 0");
            const auto d = s.seq.dims();
            py::array_t<double> out(std::vector<py::ssize_t>{n, d});
            double* p = out.mutable_data();
            tp::released([&] {
              std::lock_guard lock(s.mutex);
              s.seq.fill(n, p, d);
            });
            return out;
          },
          py::arg("n"),
          "The next n points as an (n, dims) float64 array (Horner's rule in double: relative error < 2K * 2**-53 "
          "for K digits), and advances.")
      .def(
          "skip",
          [](PyHalton& s, py::object n) {
            const auto k = to_i64(n, "trnrand.Halton.skip", "n");
            std::lock_guard lock(s.mutex);
            s.seq.skip(k);
          },
          py::arg("n"), "Advances by n >= 0 points in O(1).")
      .def(
          "seek",
          [](PyHalton& s, py::object i) {
            const auto k = to_i64(i, "trnrand.Halton.seek", "index");
            std::lock_guard lock(s.mutex);
            s.seq.seek(k);
          },
          py::arg("index"), "Positions the sequence at point index >= 0 in O(1).")
      .def("__repr__", [](PyHalton& s) {
        std::lock_guard lock(s.mutex);
        return "trnrand.Halton(dims=" + std::to_string(s.seq.dims()) + ", scramble='" +
               std::string(trnrand::to_string(s.seq.options().scramble)) + "', index=" + std::to_string(s.seq.index()) +
               ")";
      });

  m.def(
      "_halton",
      [](py::object n_obj, py::object dims_obj, py::kwargs kw) {
        constexpr const char* fn = "trnrand.halton";
        const auto n = to_i64(n_obj, fn, "n_points");
        const auto dims = to_i64(dims_obj, fn, "n_dims");
        const auto o = halton_options(kw, fn);
        if (n < 0) tp::invalid(fn, "n_points = " + std::to_string(n) + " is negative", "pass n_points >= 0");
        if (dims < 1) tp::invalid(fn, "n_dims = " + std::to_string(dims) + " is not positive", "pass n_dims >= 1");
        py::array_t<double> out = tp::allocate<double>({n, dims}, fn);
        std::span<double> sp(out.mutable_data(), static_cast<std::size_t>(n * dims));
        tp::released([&] { trnrand::halton(n, dims, sp, o); });
        return out;
      },
      py::arg("n_points"), py::arg("n_dims"), "trnrand::halton: points skip .. skip + n - 1 as (n, dims) float64.");

  m.def(
      "_latin_hypercube",
      [](py::object n_obj, py::object dims_obj, py::kwargs kw) {
        constexpr const char* fn = "trnrand.latin_hypercube";
        const auto n = to_i64(n_obj, fn, "n_points");
        const auto dims = to_i64(dims_obj, fn, "n_dims");
        trnrand::LatinHypercubeOptions o;
        tp::pop_options(o, kw, fn);
        o.centered = tp::pop_flag(kw, "centered", false, fn);
        tp::reject_unknown(kw, fn);
        if (n < 0) tp::invalid(fn, "n_points = " + std::to_string(n) + " is negative", "pass n_points >= 0");
        if (dims < 1) tp::invalid(fn, "n_dims = " + std::to_string(dims) + " is not positive", "pass n_dims >= 1");
        if (n > (std::int64_t{1} << 32)) {
          tp::invalid(fn, "n_points = " + std::to_string(n) + " exceeds 2**32", "pass n_points <= 2**32");
        }
        py::array_t<double> out = tp::allocate<double>({n, dims}, fn);
        std::span<double> sp(out.mutable_data(), static_cast<std::size_t>(n * dims));
        tp::run(o, [&] { trnrand::latin_hypercube(n, dims, sp, o); });
        return out;
      },
      py::arg("n_points"), py::arg("n_dims"),
      "trnrand::latin_hypercube: n x dims float64, one point per stratum in every dimension.");

  m.def(
      "sobol_direction_numbers_notice", [] { return std::string(trnrand::sobol_direction_numbers_notice()); },
      "The copyright notice and conditions of Joe & Kuo's direction numbers, which the Sobol tables are built from.");
}

}  // namespace trnrand_python
