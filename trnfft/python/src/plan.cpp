// trnfft's plans (plan.hpp) as one Python class, Plan, and FFTW wisdom (wisdom.hpp).
#include "bind.hpp"

#include <trnfft/plan.hpp>
#include <trnfft/wisdom.hpp>

#include <pybind11/stl.h>

#include <span>
#include <type_traits>
#include <variant>

namespace trnfft_python {

namespace {

using Vec = std::vector<std::int64_t>;

constexpr const char* kExecute = "trnfft.Plan.execute";

/// FFTW's SIMD alignment in bytes (fftw_alignment_of's modulus: 16, 32 or 64 by the build's SIMD
/// extensions), found once per precision: a length-2 host plan on 64-byte aligned arrays accepts new
/// arrays offset by a multiple of it and rejects others (InvalidArgument). Arrays a plan was made on are
/// 64-byte aligned, so a caller's array is usable without a copy exactly when it is aligned to this.
template <class T>
int fftw_alignment() {
  static const int bytes = [] {
    using C = std::complex<T>;
    alignas(64) static C in[16];
    alignas(64) static C out[16];
    auto p = trnfft::plan_dft_1d<T>(2, in, out, trnfft::Direction::forward);
    for (int a : {16, 32}) {
      if (a % static_cast<int>(sizeof(C)) != 0) continue;
      try {
        p.execute(in + a / static_cast<int>(sizeof(C)), out + a / static_cast<int>(sizeof(C)));
        return a;
      } catch (const trncore::InvalidArgument&) {}
    }
    return 64;
  }();
  return bytes;
}

/// A plan over C-ordered NumPy arrays: the logical shape, the transformed axes (the last one halved for
/// r2c/c2r), the others a batch. Always executed through new-array execute on the caller's arrays.
class PyPlan {
 public:
  // direction= as text; anything else is InvalidArgument (not pybind11's bare cast error).
  static std::string direction_text(const py::object& v, const char* fn) {
    if (!py::isinstance<py::str>(v)) {
      tp::invalid(fn, "direction=" + py::repr(v).cast<std::string>() + " is not a string",
                  "pass 'forward' or 'backward' (or None)");
    }
    return v.cast<std::string>();
  }

  PyPlan(py::object shape_obj, py::object dtype_obj, const std::string& kind_text, py::object direction_obj,
         py::object axes_obj, py::kwargs kwargs) {
    constexpr const char* fn = "trnfft.Plan";
    py::dict kw = kwargs;
    py::object axes_v = alias(kw, "dim", py::reinterpret_borrow<py::object>(axes_obj), "axes", fn);
    tp::pop_options(options_, kw, fn);
    if (auto v = tp::pop<std::string>(kw, "rigor", fn)) options_.rigor = trnfft::parse_rigor(*v);
    if (auto v = tp::pop<bool>(kw, "preserve_input", fn)) options_.preserve_input = *v;
    if (auto v = tp::pop<bool>(kw, "unaligned", fn)) options_.unaligned = *v;
    if (auto v = tp::pop<bool>(kw, "refine", fn)) options_.refine = *v;
    tp::reject_unknown(kw, fn);

    shape_ = int_list(shape_obj, fn, "shape");
    if (shape_.empty()) tp::invalid(fn, "shape is empty", "pass the array shape, e.g. (1024,) or (8, 256)");
    kind_ = trnfft::parse_kind(kind_text);
    const py::dtype dt = dtype_obj.is_none() ? py::dtype::of<std::complex<double>>()
                                             : py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype_obj));
    if ((dt.kind() == 'f' || dt.kind() == 'c') && (dt.itemsize() == 4 || dt.itemsize() == 8 || dt.itemsize() == 16)) {
      single_ = dt.itemsize() == 4 || (dt.kind() == 'c' && dt.itemsize() == 8);
    } else {
      tp::invalid(fn, "dtype " + py::str(py::object(dt)).cast<std::string>() + " is not a floating or complex type",
                  "pass float32/complex64 (single precision) or float64/complex128 (double)");
    }
    if (kind_ == trnfft::Kind::c2c) {
      direction_ = direction_obj.is_none() ? trnfft::Direction::forward
                                           : trnfft::parse_direction(direction_text(direction_obj, fn));
    } else {
      direction_ = kind_ == trnfft::Kind::r2c ? trnfft::Direction::forward : trnfft::Direction::backward;
      if (!direction_obj.is_none() && trnfft::parse_direction(direction_text(direction_obj, fn)) != direction_) {
        tp::invalid(fn, "direction='" + direction_text(direction_obj, fn) + "' contradicts kind='" + kind_text + "'",
                    "r2c plans are forward and c2r plans backward: omit direction");
      }
    }
    const auto rank = static_cast<std::int64_t>(shape_.size());
    Vec axes = int_list(axes_v, fn, "axes");
    if (axes.empty()) {
      for (std::int64_t d = 0; d < rank; ++d) axes.push_back(d);
    }
    std::vector<bool> used(static_cast<std::size_t>(rank), false);
    for (auto& a : axes) {
      if (a < -rank || a >= rank) {
        tp::invalid(fn, "axis " + std::to_string(a) + " is out of range for shape of rank " + std::to_string(rank),
                    "pass axes in -rank ... rank - 1");
      }
      if (a < 0) a += rank;
      if (used[static_cast<std::size_t>(a)]) {
        tp::invalid(fn, "axis " + std::to_string(a) + " is repeated", "list each transformed axis once");
      }
      used[static_cast<std::size_t>(a)] = true;
    }
    axes_ = axes;
    // The complex side's shape: the last transformed axis halved for r2c/c2r.
    Vec half = shape_;
    if (kind_ != trnfft::Kind::c2c)
      half[static_cast<std::size_t>(axes_.back())] = shape_[static_cast<std::size_t>(axes_.back())] / 2 + 1;
    in_shape_ = kind_ == trnfft::Kind::c2r ? half : shape_;
    out_shape_ = kind_ == trnfft::Kind::r2c ? half : shape_;
    auto strides = [](const Vec& s) {
      Vec st(s.size(), 1);
      for (std::size_t k = s.size(); k-- > 1;) st[k - 1] = st[k] * std::max<std::int64_t>(s[k], 1);
      return st;
    };
    const Vec is = strides(in_shape_), os = strides(out_shape_);
    std::vector<trnfft::IoDim> dims, batch;
    for (auto a : axes_) {
      const auto k = static_cast<std::size_t>(a);
      dims.push_back({shape_[k], is[k], os[k]});
    }
    for (std::int64_t d = 0; d < rank; ++d) {
      const auto k = static_cast<std::size_t>(d);
      if (!used[k]) batch.push_back({shape_[k], is[k], os[k]});
    }
    if (single_) {
      make<float>(dims, batch);
      if (needs_alignment()) fftw_alignment_ = fftw_alignment<float>();
    } else {
      make<double>(dims, batch);
      if (needs_alignment()) fftw_alignment_ = fftw_alignment<double>();
    }
  }

  py::object execute(py::object x, py::object out, bool report) const {
    if (single_) return run<float>(x, out, report);
    return run<double>(x, out, report);
  }

  trncore::AccuracyReport accuracy() const {
    return std::visit([](const auto& p) { return p.accuracy(); }, plan_);
  }

  std::string description() const {
    return std::visit([](const auto& p) { return p.description(); }, plan_);
  }
  std::string algorithm() const {
    return std::visit([](const auto& p) { return p.algorithm(); }, plan_);
  }
  std::int64_t transform_size() const {
    return std::visit([](const auto& p) { return p.transform_size(); }, plan_);
  }
  std::int64_t batch_count() const {
    return std::visit([](const auto& p) { return p.batch_count(); }, plan_);
  }
  int threads() const {
    return std::visit([](const auto& p) { return p.threads(); }, plan_);
  }
  std::string kind() const { return std::string(trnfft::to_string(kind_)); }
  std::string direction() const { return std::string(trnfft::to_string(direction_)); }
  py::tuple shape() const { return py::cast(shape_); }
  py::tuple axes() const { return py::cast(axes_); }
  py::tuple input_shape() const { return py::cast(in_shape_); }
  py::tuple output_shape() const { return py::cast(out_shape_); }
  py::dtype input_dtype() const { return dtype_of(kind_ != trnfft::Kind::r2c); }
  py::dtype output_dtype() const { return dtype_of(kind_ != trnfft::Kind::c2r); }
  std::string backend() const { return std::string(trncore::to_string(options_.backend)); }
  std::string repr() const { return "trnfft.Plan(" + description() + ", backend " + backend() + ")"; }

 private:
  py::dtype dtype_of(bool complex) const {
    if (single_) return complex ? py::dtype::of<std::complex<float>>() : py::dtype::of<float>();
    return complex ? py::dtype::of<std::complex<double>>() : py::dtype::of<double>();
  }

  template <class T>
  void make(const std::vector<trnfft::IoDim>& dims, const std::vector<trnfft::IoDim>& batch) {
    using C = std::complex<T>;
    constexpr const char* fn = "trnfft.Plan";
    for (auto n : shape_) {
      if (n < 1) {
        tp::invalid(fn, "shape has an entry " + std::to_string(n) + " < 1",
                    "plans need every length >= 1 (the free functions accept empty batch axes)");
      }
    }
    // The creation arrays: C-ordered and 64-byte aligned, as every array execute() allocates. Kept alive.
    if (kind_ == trnfft::Kind::c2c) {
      auto in = aligned_array<C>(in_shape_);
      auto out = aligned_array<C>(out_shape_);
      in0_ = in;
      out0_ = out;
      C* pi = in.mutable_data();
      C* po = out.mutable_data();
      plan_ = tp::run(options_, [&] { return trnfft::plan_guru_dft<T>(dims, batch, pi, po, direction_, options_); });
    } else if (kind_ == trnfft::Kind::r2c) {
      auto in = aligned_array<T>(in_shape_);
      auto out = aligned_array<C>(out_shape_);
      in0_ = in;
      out0_ = out;
      T* pi = in.mutable_data();
      C* po = out.mutable_data();
      plan_ = tp::run(options_, [&] { return trnfft::plan_guru_dft_r2c<T>(dims, batch, pi, po, options_); });
    } else {
      auto in = aligned_array<C>(in_shape_);
      auto out = aligned_array<T>(out_shape_);
      in0_ = in;
      out0_ = out;
      C* pi = in.mutable_data();
      T* po = out.mutable_data();
      plan_ = tp::run(options_, [&] { return trnfft::plan_guru_dft_c2r<T>(dims, batch, pi, po, options_); });
    }
  }

  bool needs_alignment() const { return options_.backend == trncore::Backend::host && !options_.unaligned; }
  /// Whether p has the SIMD alignment of the creation arrays (64-byte aligned): p % FFTW's ALIGNMENT == 0.
  bool aligned(const void* p) const {
    return reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(fftw_alignment_) == 0;
  }

  template <class E>
  void check_shape(const py::array& a, const Vec& want, const char* name) const {
    const Vec got(a.shape(), a.shape() + a.ndim());
    if (got != want) {
      auto text = [](const Vec& v) {
        std::string s = "(";
        for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
        return s + (v.size() == 1 ? ",)" : ")");
      };
      tp::mismatch(
          kExecute,
          std::string(name) + " has shape " + text(got) + " but the plan's " + name + " shape is " + text(want),
          "pass an array of plan." + std::string(name == std::string("x") ? "input_shape" : "output_shape") +
              ", or make another plan");
    }
  }

  /// x as the plan's input: the caller's array when it has the dtype, C order and (host plans without
  /// unaligned) FFTW's SIMD alignment and the plan does not overwrite its input; else a converted copy.
  template <class E>
  py::array_t<E> input(py::handle x) const {
    py::array a = tp::as_ndarray(x, kExecute, "x");
    if (a.ndim() == 0) tp::mismatch(kExecute, "x is 0-D", "pass an array of plan.input_shape");
    tp::kind_of(a, kExecute, "x");
    py::array_t<E> typed = tp::as_dtype<E>(a, kExecute, "x");
    check_shape<E>(typed, in_shape_, "x");
    const bool c_order = (typed.flags() & py::array::c_style) != 0;
    // Host c2r overwrites its input unless preserve_input (1-D only): always work on a copy then.
    const bool clobbers = kind_ == trnfft::Kind::c2r && options_.backend == trncore::Backend::host &&
                          !(options_.preserve_input && axes_.size() == 1);
    if (c_order && !clobbers && (!needs_alignment() || aligned(typed.data()))) return typed;
    auto copy = aligned_array<E>(in_shape_);
    py::module_::import("numpy").attr("copyto")(copy, typed);
    return copy;
  }

  template <class E>
  py::array_t<E> output(py::handle out) const {
    if (out.is_none()) return aligned_array<E>(out_shape_);
    py::array a = tp::as_ndarray(out, kExecute, "out");
    if (!out.is(a)) tp::invalid(kExecute, "out is written in place but is not a NumPy array", "pass a numpy.ndarray");
    if (!py::isinstance<py::array_t<E, 0>>(a)) {
      tp::invalid(kExecute,
                  "out has dtype " + py::str(a.dtype()).cast<std::string>() + " but the plan writes " +
                      tp::detail::dtype_name<E>(),
                  "pass an array of plan.output_dtype (in-place outputs are never converted)");
    }
    check_shape<E>(a, out_shape_, "out");
    if (!a.writeable()) tp::invalid(kExecute, "out is read-only", "pass a writable array");
    if ((a.flags() & py::array::c_style) == 0) {
      tp::invalid(kExecute, "out is not C-contiguous", "pass a C-ordered array (numpy.empty(plan.output_shape, ...))");
    }
    if (needs_alignment() && !aligned(a.data())) {
      tp::invalid(kExecute,
                  "out is not " + std::to_string(fftw_alignment_) +
                      "-byte aligned (FFTW's SIMD alignment, that of the plan's arrays) and the plan was made "
                      "without unaligned=True",
                  "let execute allocate out (out=None), or make the plan with unaligned=True");
    }
    return py::reinterpret_borrow<py::array_t<E>>(a);
  }

  template <class T>
  py::object run(py::handle x, py::handle out_obj, bool report) const {
    using C = std::complex<T>;
    trncore::AccuracyReport rep;
    auto o = options_;
    auto go = [&](auto in, auto out, auto&& exec) {
      const auto* pi = in.data();
      auto* po = out.mutable_data();
      const auto ni = static_cast<std::size_t>(in.size());
      const auto no = static_cast<std::size_t>(out.size());
      tp::run(o, [&] { exec(pi, ni, po, no); });
      return tp::with_report(out, rep, report);
    };
    if (kind_ == trnfft::Kind::c2c) {
      const auto& p = std::get<trnfft::C2CPlan<T>>(plan_);
      auto in = input<C>(x);
      auto out = output<C>(out_obj);
      return go(in, out, [&](const C* pi, std::size_t ni, C* po, std::size_t no) {
        if (report)
          p.execute(std::span<const C>(pi, ni), std::span<C>(po, no), rep);
        else
          p.execute(std::span<const C>(pi, ni), std::span<C>(po, no));
      });
    }
    if (kind_ == trnfft::Kind::r2c) {
      const auto& p = std::get<trnfft::R2CPlan<T>>(plan_);
      auto in = input<T>(x);
      auto out = output<C>(out_obj);
      return go(in, out, [&](const T* pi, std::size_t ni, C* po, std::size_t no) {
        if (report)
          p.execute(std::span<const T>(pi, ni), std::span<C>(po, no), rep);
        else
          p.execute(std::span<const T>(pi, ni), std::span<C>(po, no));
      });
    }
    const auto& p = std::get<trnfft::C2RPlan<T>>(plan_);
    auto in = input<C>(x);
    auto out = output<T>(out_obj);
    // C2RPlan's execute takes a writable input: it is the caller's array only when the plan cannot write it
    // (sim, or host with preserve_input in 1-D); otherwise input() made a private copy.
    return go(in, out, [&](const C* pi, std::size_t ni, T* po, std::size_t no) {
      auto* w = const_cast<C*>(pi);
      if (report)
        p.execute(std::span<C>(w, ni), std::span<T>(po, no), rep);
      else
        p.execute(std::span<C>(w, ni), std::span<T>(po, no));
    });
  }

  trnfft::PlanOptions options_;
  trnfft::Kind kind_{};
  trnfft::Direction direction_{};
  bool single_ = false;
  int fftw_alignment_ = 64;
  Vec shape_, axes_, in_shape_, out_shape_;
  py::object in0_, out0_;
  std::variant<trnfft::C2CPlan<float>, trnfft::R2CPlan<float>, trnfft::C2RPlan<float>, trnfft::C2CPlan<double>,
               trnfft::R2CPlan<double>, trnfft::C2RPlan<double>>
      plan_;
};

/// Precision of the wisdom functions: float32/complex64 → float, float64/complex128 → double.
bool wisdom_single(py::handle dtype_obj, const char* fn) {
  const py::dtype dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype_obj));
  if (dt.kind() == 'f' && dt.itemsize() == 4) return true;
  if (dt.kind() == 'c' && dt.itemsize() == 8) return true;
  if (dt.kind() == 'f' && dt.itemsize() == 8) return false;
  if (dt.kind() == 'c' && dt.itemsize() == 16) return false;
  tp::invalid(fn, "dtype " + py::str(py::object(dt)).cast<std::string>() + " has no FFTW precision",
              "pass numpy.float32 (fftw3f) or numpy.float64 (fftw3)");
}

constexpr const char* kPlanDoc =
    R"(Plan(shape, dtype=numpy.complex128, kind='c2c', direction=None, axes=None, **options)

A trnfft plan (trnfft::plan_guru_dft / plan_guru_dft_r2c / plan_guru_dft_c2r): planned once, executed many
times on new arrays. `shape` is the logical (real, for r2c/c2r) shape of the data; `axes` the transformed
axes (default all; the last of them is the halved one for r2c/c2r; dim= is accepted as upstream's name),
the other axes a batch. dtype sets the precision (float32/complex64 -> single, float64/complex128 -> double).
kind: 'c2c', 'r2c' (real input of `shape`, complex output of output_shape) or 'c2r' (the inverse);
direction: 'forward' (default) or 'backward' for c2c. Plans never scale: forward then backward multiplies
by transform_size (FFTW's and cuFFT's convention, unlike the free functions' norm).

Keywords: the suite's options (backend='host'|'sim', mode/math_mode, target_forward_error (sim),
threads, generation, product, options=trncore.Options(...)) and trnfft::PlanOptions' fields: rigor
('estimate' default, 'measure', 'patient', 'exhaustive'; planning overwrites only the plan's own arrays),
preserve_input, unaligned (accept arrays of any alignment), refine (sim bf16 -> bf16_refined).

Upstream trnfft's plan was an internal cache (create_plan(n, inverse)); this class is the C++ plan.
Thread safety (docs/trnfft.md): execute() always runs FFTW's new-array execute on the caller's arrays
with the GIL released, so one plan may be executed from several Python threads at once on distinct
arrays; creating and destroying plans is serialised on trnfft's planner mutex.

Errors: trncore.InvalidArgument for a length < 1, an axis out of range or repeated, a bad dtype,
a direction contradicting kind, refine without sim bf16; trncore.NotSupported for a geometry FFTW cannot
plan, target_forward_error/refine on host; trncore.TargetNotMet when no sim mode certifies the target;
trncore.ParseError for a misspelt kind/direction/rigor/option value; TypeError for an unknown keyword.)";

}  // namespace

void bind_plan(py::module_& m) {
  py::class_<PyPlan>(m, "Plan", kPlanDoc)
      .def(py::init<py::object, py::object, const std::string&, py::object, py::object, py::kwargs>(), py::arg("shape"),
           py::arg("dtype") = py::none(), py::arg("kind") = "c2c", py::arg("direction") = py::none(),
           py::arg("axes") = py::none())
      .def("execute", &PyPlan::execute, py::arg("x"), py::arg("out") = py::none(), py::arg("report") = false,
           R"(execute(x, out=None, report=False) -> out, or (out, report)

The plan's transform of x (shape plan.input_shape) into out (shape plan.output_shape, dtype
plan.output_dtype; allocated, C-ordered and 64-byte aligned when None, else written in place and returned)
through new-array execute (trnfft::C2CPlan::execute(in, out) and its r2c/c2r forms). x of the plan's dtype,
C-ordered and (host plans without unaligned=True) aligned to FFTW's SIMD alignment (16 bytes on Debian's
FFTW; NumPy's own allocations are) is used without a copy; otherwise it is converted/copied first. out=
must meet the same alignment rule (else InvalidArgument: make the plan with unaligned=True). Host c2r plans overwrite their input, so x is then always copied (unless the plan
is 1-D with preserve_input=True); x is never modified. Unnormalised; a given plan is deterministic (the
same x gives bit-identical results).

report=True (sim plans): returns (out, trncore.AccuracyReport) from the execute overload with a report:
the run's composed bound ||y^ - y||_2 <= a_priori_bound * ||y||_2 per transform, certified, met, the
trajectory (mode, algorithm) and the modelled cost; never raises TargetNotMet. Without report a sim run
that is not met raises trncore.TargetNotMet. Host plans: report=True raises trncore.NotSupported.

Errors: trncore.DimensionMismatch for a wrong shape; trncore.InvalidArgument for a bad dtype, an out that
is read-only, not C-contiguous, misaligned or of another dtype, or overlapping x.)")
      .def("accuracy", &PyPlan::accuracy,
           "The sim plan's a-priori trncore.AccuracyReport fixed at creation (mode, bound for finite inputs in range, "
           "target, met; no cost). Host plans raise trncore.NotSupported (FFTW's bound c*u*log2(N) is documented, "
           "not certified).")
      .def("algorithm", &PyPlan::algorithm, "FFTW's description of the algorithm it chose (fftw_sprint_plan).")
      .def_property_readonly("description", &PyPlan::description, "One line: kind, direction, dims, batch, threads.")
      .def_property_readonly("kind", &PyPlan::kind, "'c2c', 'r2c' or 'c2r'.")
      .def_property_readonly("direction", &PyPlan::direction, "'forward' or 'backward'.")
      .def_property_readonly("backend", &PyPlan::backend, "'host' or 'sim'.")
      .def_property_readonly("shape", &PyPlan::shape, "The logical shape (real shape for r2c/c2r).")
      .def_property_readonly("axes", &PyPlan::axes,
                             "The transformed axes (non-negative); the last is halved for r2c/c2r.")
      .def_property_readonly("input_shape", &PyPlan::input_shape, "Shape execute() expects of x.")
      .def_property_readonly("output_shape", &PyPlan::output_shape, "Shape of execute()'s result.")
      .def_property_readonly("input_dtype", &PyPlan::input_dtype, "dtype of x (others are converted).")
      .def_property_readonly("output_dtype", &PyPlan::output_dtype, "dtype of the result.")
      .def_property_readonly("transform_size", &PyPlan::transform_size,
                             "N, the product of the transformed lengths (a round trip multiplies by N).")
      .def_property_readonly("batch_count", &PyPlan::batch_count, "Number of transforms per execute.")
      .def_property_readonly("threads", &PyPlan::threads, "FFTW threads the plan was made for.")
      .def("__repr__", &PyPlan::repr);

  m.def(
      "export_wisdom",
      [](py::object dtype) {
        const bool s = wisdom_single(dtype, "trnfft.export_wisdom");
        return tp::released([&] { return s ? trnfft::export_wisdom<float>() : trnfft::export_wisdom<double>(); });
      },
      py::arg("dtype") = py::dtype::of<double>(),
      "export_wisdom(dtype=numpy.float64) -> str\n\nFFTW's accumulated wisdom of the precision of dtype "
      "(trnfft::export_wisdom<T>), in FFTW's text format.");
  m.def(
      "import_wisdom",
      [](const std::string& text, py::object dtype) {
        const bool s = wisdom_single(dtype, "trnfft.import_wisdom");
        tp::released([&] { s ? trnfft::import_wisdom<float>(text) : trnfft::import_wisdom<double>(text); });
      },
      py::arg("text"), py::arg("dtype") = py::dtype::of<double>(),
      "import_wisdom(text, dtype=numpy.float64)\n\nMerges wisdom text into the planner (trnfft::import_wisdom<T>). "
      "Raises trncore.ParseError when FFTW rejects the text (the held wisdom is unchanged).");
  m.def(
      "export_wisdom_to_file",
      [](const std::string& path, py::object dtype) {
        const bool s = wisdom_single(dtype, "trnfft.export_wisdom_to_file");
        tp::released(
            [&] { s ? trnfft::export_wisdom_to_file<float>(path) : trnfft::export_wisdom_to_file<double>(path); });
      },
      py::arg("path"), py::arg("dtype") = py::dtype::of<double>(),
      "export_wisdom_to_file(path, dtype=numpy.float64)\n\nWrites export_wisdom() to path. Raises trncore.IoError "
      "(an OSError) naming the path when it cannot be written.");
  m.def(
      "import_wisdom_from_file",
      [](const std::string& path, py::object dtype) {
        const bool s = wisdom_single(dtype, "trnfft.import_wisdom_from_file");
        tp::released(
            [&] { s ? trnfft::import_wisdom_from_file<float>(path) : trnfft::import_wisdom_from_file<double>(path); });
      },
      py::arg("path"), py::arg("dtype") = py::dtype::of<double>(),
      "import_wisdom_from_file(path, dtype=numpy.float64)\n\nReads and merges wisdom. Raises trncore.IoError for an "
      "unreadable file, trncore.ParseError when FFTW rejects its contents.");
  m.def(
      "forget_wisdom",
      [](py::object dtype) {
        const bool s = wisdom_single(dtype, "trnfft.forget_wisdom");
        tp::released([&] { s ? trnfft::forget_wisdom<float>() : trnfft::forget_wisdom<double>(); });
      },
      py::arg("dtype") = py::dtype::of<double>(),
      "forget_wisdom(dtype=numpy.float64)\n\nForgets all wisdom of that precision (existing plans keep working).");
}

}  // namespace trnfft_python
