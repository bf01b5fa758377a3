// einsum, contraction plans (and their cache), multi_einsum, estimate_flops, parse_subscripts, backends.
#include "bind.hpp"

#include <trntensor/einsum.hpp>
#include <trntensor/plan.hpp>
#include <trntensor/subscripts.hpp>

#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace trntensor_python {

namespace {

std::atomic<int> g_default_backend{static_cast<int>(trncore::Backend::host)};

trntensor::PathAlgorithm parse_algorithm(const std::string& text, std::string_view function) {
  for (auto a : {trntensor::PathAlgorithm::automatic, trntensor::PathAlgorithm::optimal,
                 trntensor::PathAlgorithm::greedy, trntensor::PathAlgorithm::left_to_right}) {
    if (text == trntensor::to_string(a)) return a;
  }
  tp::invalid(function, "algorithm='" + text + "' is not a path search",
              "use 'automatic', 'optimal', 'greedy' or 'left_to_right'");
}

// ---------------------------------------------------------------------------------------------------------
// The plan cache: plans keyed by what they depend on (subscripts, shapes, backend, default mode, planner
// fields). Upstream trntensor caches plans by (subscripts, shapes); here the options that change a plan are
// part of the key too, so a cached plan is the very plan the C++ einsum would make (einsum = plan + execute).

class PlanCache {
 public:
  static constexpr std::size_t kMaxSize = 512;

  std::shared_ptr<const trntensor::ContractionPlan> get(const std::string& subscripts,
                                                        const std::vector<trncore::Shape>& shapes,
                                                        const trntensor::PlanOptions& o) {
    const std::string key = make_key(subscripts, shapes, o);
    {
      std::lock_guard lock(mutex_);
      if (auto it = plans_.find(key); it != plans_.end()) {
        ++hits_;
        return it->second;
      }
    }
    // Planning (parse, path search) runs without the GIL; another thread may plan the same key meanwhile.
    auto plan = tp::released([&] { return std::make_shared<const trntensor::ContractionPlan>(subscripts, shapes, o); });
    std::lock_guard lock(mutex_);
    ++misses_;
    if (plans_.emplace(key, plan).second) {
      order_.push_back(key);
      while (order_.size() > kMaxSize) {
        plans_.erase(order_.front());
        order_.pop_front();
      }
    }
    return plan;
  }

  void clear() {
    std::lock_guard lock(mutex_);
    plans_.clear();
    order_.clear();
    hits_ = misses_ = 0;
  }

  py::dict info() {
    std::lock_guard lock(mutex_);
    py::dict d;
    d["size"] = plans_.size();
    d["hits"] = hits_;
    d["misses"] = misses_;
    d["maxsize"] = kMaxSize;
    return d;
  }

 private:
  static std::string make_key(const std::string& subscripts, const std::vector<trncore::Shape>& shapes,
                              const trntensor::PlanOptions& o) {
    std::string k = subscripts;
    k += '\x01';
    for (const auto& s : shapes) {
      for (auto e : s) k += std::to_string(e) + ',';
      k += ';';
    }
    k += '\x01' + std::to_string(static_cast<int>(o.backend)) + '/' + std::to_string(static_cast<int>(o.math_mode)) +
         '/' + std::to_string(static_cast<int>(o.algorithm)) + '/' + std::to_string(o.optimal_limit) + '/' +
         (o.memory_limit ? std::to_string(*o.memory_limit) : std::string("-"));
    return k;
  }

  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const trntensor::ContractionPlan>> plans_;
  std::deque<std::string> order_;
  std::uint64_t hits_ = 0, misses_ = 0;
};

PlanCache& cache() {
  static auto* c = new PlanCache();  // never destroyed: plans may outlive interpreter teardown order
  return *c;
}

// ---------------------------------------------------------------------------------------------------------
// Upstream's precision= and dtype= keywords.

/// How upstream's precision= maps: "fast" computes in the operands' dtype; "kahan" (upstream: promote to
/// fp64, cast back) computes in float64 and returns the operands' dtype; "dd" (upstream: NotImplementedError)
/// raises trncore.NotSupported.
bool parse_precision(const std::string& p, std::string_view function) {
  if (p == "fast") return false;
  if (p == "kahan") return true;
  if (p == "dd") {
    throw trncore::NotSupported(function, "precision='dd' (double-double accumulation) is not implemented",
                                "use precision='kahan' (float64 compute), or backend='sim' with mode='ozaki' "
                                "for fp64-level products and a certified bound");
  }
  tp::invalid(function, "precision='" + p + "' is not a precision", "use 'fast', 'kahan' or 'dd'");
}

struct DtypeRequest {
  std::optional<Real> real;
  std::optional<trncore::MathMode> mode;
  std::string text;
};

/// dtype= (upstream: cast the operands, compute and return in that dtype): float32/float64 (names, NumPy
/// dtypes or types); "bf16"/"bfloat16" and "fp16"/"float16" compute in float32 with math mode bf16 / fp16
/// (operands rounded to the format, fp32 accumulation; NumPy has no bfloat16, so the result is float32).
DtypeRequest parse_dtype(py::handle dtype, std::string_view function) {
  DtypeRequest r;
  if (dtype.is_none()) return r;
  std::string text;
  if (py::isinstance<py::str>(dtype)) {
    text = dtype.cast<std::string>();
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.text = text;
    if (text == "bf16" || text == "bfloat16") {
      r.real = Real::f32;
      r.mode = trncore::MathMode::bf16;
      return r;
    }
    if (text == "f32") text = "float32";
    if (text == "f64") text = "float64";
    if (text == "fp16") text = "float16";
  }
  py::dtype dt;
  try {
    dt = text.empty() ? py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype)) : py::dtype(text);
  } catch (py::error_already_set&) {
    tp::invalid(function, "dtype=" + py::repr(dtype).cast<std::string>() + " is not a dtype",
                "use float32, float64, 'bf16' or 'fp16'");
  }
  r.text = py::str(dt).cast<std::string>();
  if (dt.kind() == 'f' && dt.itemsize() == 4)
    r.real = Real::f32;
  else if (dt.kind() == 'f' && dt.itemsize() == 8)
    r.real = Real::f64;
  else if (dt.kind() == 'f' && dt.itemsize() == 2) {
    r.real = Real::f32;
    r.mode = trncore::MathMode::fp16;
  } else {
    tp::invalid(function, "dtype=" + r.text + " is not a dtype trntensor computes in",
                "use float32, float64, 'bf16' or 'fp16' (no complex or integer computation)");
  }
  return r;
}

/// The computing type of the operands (promoted like NumPy; integers → float64; complex refused).
Real operands_kind(const std::vector<py::array>& arrays, std::string_view function) {
  std::optional<Real> k;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const Real r = real_kind(arrays[i], function, "operand " + std::to_string(i));
    k = k ? promote(*k, r) : r;
  }
  return k.value_or(Real::f64);
}

std::vector<py::array> as_arrays(const py::sequence& operands, std::string_view function) {
  std::vector<py::array> arrays;
  arrays.reserve(py::len(operands));
  std::size_t i = 0;
  for (auto op : operands) arrays.push_back(tp::as_ndarray(op, function, "operand " + std::to_string(i++)));
  return arrays;
}

// ---------------------------------------------------------------------------------------------------------
// Running a plan: out = alpha·einsum + beta·out in T, optionally stored back into a float32 out.

template <class T, class O>
py::object run_plan(const trntensor::ContractionPlan& plan, const std::vector<py::array>& arrays, double alpha,
                    double beta, py::object out, O& options, bool want_report, Real result_kind,
                    std::string_view function) {
  auto in = in_tensors<T>(arrays, function);
  const bool cast_back = std::is_same_v<T, double> && result_kind == Real::f32;
  py::array_t<T> target;
  trncore::TensorView<T> view;
  if (out.is_none()) {
    if (beta != 0.0) {
      tp::invalid(function, "beta = " + std::to_string(beta) + " but no out= array was given",
                  "pass out= (the array beta scales and the result is written to), or beta=0");
    }
    target = tp::new_array<T>(plan.output_shape());
    view = trncore::TensorView<T>(target.mutable_data(), plan.output_shape());
  } else if (!cast_back) {
    auto o = out_tensor<T>(out, function, "out");
    target = o.array;
    view = o.view;
  } else {
    (void)out_tensor<float>(out, function, "out");  // out must be a writable float32 array
    target = py::array_t<T, py::array::c_style>(out.attr("astype")(py::dtype::of<T>()));
    trncore::Shape shape(target.shape(), target.shape() + target.ndim());
    view = trncore::TensorView<T>(target.mutable_data(), shape);
  }
  trncore::AccuracyReport report;
  const auto views = std::move(in.views);
  const std::span<const trncore::TensorView<const T>> ops(views);
  tp::run(options, [&] {
    if (want_report)
      plan.template execute<T>(ops, static_cast<T>(alpha), static_cast<T>(beta), view, options, report);
    else
      plan.template execute<T>(ops, static_cast<T>(alpha), static_cast<T>(beta), view, options);
  });
  py::object result = out.is_none() ? py::object(target) : out;
  if (cast_back) {
    if (out.is_none())
      result = target.attr("astype")(py::dtype::of<float>());
    else
      py::module_::import("numpy").attr("copyto")(out, target, py::arg("casting") = "same_kind");
  }
  return tp::with_report(result, report, want_report);
}

// ---------------------------------------------------------------------------------------------------------
// einsum

constexpr const char* kEinsum = "trntensor.einsum";

py::object einsum(const std::string& subscripts, py::args operands, py::kwargs kwargs) {
  py::dict kw = kwargs;
  const double alpha = tp::pop<double>(kw, "alpha", kEinsum).value_or(1.0);
  const double beta = tp::pop<double>(kw, "beta", kEinsum).value_or(0.0);
  py::object out = pop_object(kw, "out");
  const DtypeRequest dtype = parse_dtype(pop_object(kw, "dtype"), kEinsum);
  const bool kahan = parse_precision(tp::pop<std::string>(kw, "precision", kEinsum).value_or("fast"), kEinsum);
  const bool want_report = tp::pop_flag(kw, "report", false, kEinsum);
  trntensor::PlanOptions o = pop_plan_options(kw, kEinsum);
  tp::reject_unknown(kw, kEinsum);
  if (dtype.mode) {
    if (o.math_mode != trncore::MathMode::automatic && o.math_mode != *dtype.mode) {
      tp::invalid(kEinsum,
                  "dtype=" + dtype.text + " selects math mode " + std::string(trncore::to_string(*dtype.mode)) +
                      " but mode=" + std::string(trncore::to_string(o.math_mode)) + " was given",
                  "pass one of dtype= and mode=");
    }
    o.math_mode = *dtype.mode;
  }
  // The checks trntensor::einsum makes first (its options, then the operand count), under its name.
  trncore::validate(o, "trntensor::einsum");
  if (operands.empty()) {
    throw trncore::InvalidArgument("trntensor::einsum", "no operands were given", "pass at least one operand");
  }
  const auto arrays = as_arrays(operands, kEinsum);
  const Real kind = dtype.real ? *dtype.real : operands_kind(arrays, kEinsum);
  if (dtype.real) (void)operands_kind(arrays, kEinsum);  // still refuse complex operands
  const Real compute = kahan ? Real::f64 : kind;
  std::vector<trncore::Shape> shapes;
  for (const auto& a : arrays) shapes.emplace_back(a.shape(), a.shape() + a.ndim());
  const auto plan = cache().get(subscripts, shapes, o);
  if (compute == Real::f32) return run_plan<float>(*plan, arrays, alpha, beta, out, o, want_report, kind, kEinsum);
  return run_plan<double>(*plan, arrays, alpha, beta, out, o, want_report, kind, kEinsum);
}

// ---------------------------------------------------------------------------------------------------------
// ContractionPlan (the Python object: a plan of its own, so set_mode never changes a cached one)

struct Plan {
  std::shared_ptr<trntensor::ContractionPlan> plan;
  std::string subscripts;  // as the caller wrote it
  bool kahan = false;
};

constexpr const char* kPlanContraction = "trntensor.plan_contraction";
constexpr const char* kExecute = "trntensor.ContractionPlan.execute";

Plan plan_contraction(const std::string& subscripts, py::args operands, py::kwargs kwargs) {
  py::dict kw = kwargs;
  const bool kahan =
      parse_precision(tp::pop<std::string>(kw, "precision", kPlanContraction).value_or("fast"), kPlanContraction);
  trntensor::PlanOptions o = pop_plan_options(kw, kPlanContraction);
  tp::reject_unknown(kw, kPlanContraction);
  std::vector<trncore::Shape> shapes;
  std::size_t i = 0;
  for (auto op : operands) shapes.push_back(shape_of(op, kPlanContraction, "operand " + std::to_string(i++)));
  const auto cached = cache().get(subscripts, shapes, o);
  return Plan{std::make_shared<trntensor::ContractionPlan>(*cached), subscripts, kahan};
}

py::object plan_execute(const Plan& p, py::args operands, py::kwargs kwargs) {
  py::dict kw = kwargs;
  const double alpha = tp::pop<double>(kw, "alpha", kExecute).value_or(1.0);
  const double beta = tp::pop<double>(kw, "beta", kExecute).value_or(0.0);
  py::object out = pop_object(kw, "out");
  const bool want_report = tp::pop_flag(kw, "report", false, kExecute);
  trncore::Options o;
  o.backend = p.plan->backend();  // the planned backend unless the caller says otherwise
  pop_options(o, kw, kExecute);
  tp::reject_unknown(kw, kExecute);
  const auto arrays = as_arrays(operands, kExecute);
  const Real kind = operands_kind(arrays, kExecute);
  const Real compute = p.kahan ? Real::f64 : kind;
  if (compute == Real::f32) return run_plan<float>(*p.plan, arrays, alpha, beta, out, o, want_report, kind, kExecute);
  return run_plan<double>(*p.plan, arrays, alpha, beta, out, o, want_report, kind, kExecute);
}

/// The contract steps' order in opt_einsum's linear form: positions in the current operand list, the pair
/// removed and its result appended (what numpy.einsum_path and upstream's contraction_path give).
std::vector<std::pair<int, int>> linear_path(const trntensor::ContractionPlan& plan) {
  std::vector<int> live;
  for (std::size_t i = 0; i < plan.shapes().size(); ++i) live.push_back(static_cast<int>(i));
  std::vector<std::pair<int, int>> path;
  for (const auto& s : plan.steps()) {
    if (s.kind == trntensor::StepKind::reduce) {
      std::replace(live.begin(), live.end(), s.operands[0], s.result);
    } else if (s.kind == trntensor::StepKind::contract) {
      const auto a = static_cast<int>(std::find(live.begin(), live.end(), s.operands[0]) - live.begin());
      const auto b = static_cast<int>(std::find(live.begin(), live.end(), s.operands[1]) - live.begin());
      const int i = std::min(a, b), j = std::max(a, b);
      path.emplace_back(i, j);
      live.erase(live.begin() + j);
      live.erase(live.begin() + i);
      live.push_back(s.result);
    }
  }
  return path;
}

std::string kind_name(trntensor::StepKind k) {
  switch (k) {
    case trntensor::StepKind::reduce: return "reduce";
    case trntensor::StepKind::contract: return "contract";
    case trntensor::StepKind::finish: return "finish";
  }
  return "?";
}

std::string method_name(trntensor::StepMethod m) {
  switch (m) {
    case trntensor::StepMethod::gemm: return "gemm";
    case trntensor::StepMethod::direct: return "direct";
    case trntensor::StepMethod::loop: return "loop";
  }
  return "?";
}

py::tuple shape_tuple(const trncore::Shape& s) {
  py::tuple t(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) t[i] = s[i];
  return t;
}

// ---------------------------------------------------------------------------------------------------------
// multi_einsum, estimate_flops, parse_subscripts

constexpr const char* kMulti = "trntensor.multi_einsum";

template <class T>
py::list run_multi(const std::vector<std::string>& subs, const std::vector<std::vector<py::array>>& ops,
                   trntensor::PlanOptions& o) {
  std::vector<py::array_t<T>> keep;
  std::vector<trntensor::EinsumTask<T>> tasks(subs.size());
  for (std::size_t t = 0; t < subs.size(); ++t) {
    tasks[t].subscripts = subs[t];
    for (std::size_t i = 0; i < ops[t].size(); ++i) {
      auto in = tp::in_tensor<T>(ops[t][i], kMulti, "task " + std::to_string(t) + " operand " + std::to_string(i));
      keep.push_back(in.array);
      tasks[t].operands.push_back(in.view);
    }
  }
  auto results =
      tp::run(o, [&] { return trntensor::multi_einsum<T>(std::span<const trntensor::EinsumTask<T>>(tasks), o); });
  py::list l;
  for (auto& r : results) l.append(to_numpy<T>(std::move(r)));
  return l;
}

py::list multi_einsum(py::args contractions, py::kwargs kwargs) {
  py::dict kw = kwargs;
  trntensor::PlanOptions o = pop_plan_options(kw, kMulti);
  tp::reject_unknown(kw, kMulti);
  std::vector<std::string> subs;
  std::vector<std::vector<py::array>> ops;
  std::optional<Real> kind;
  std::size_t t = 0;
  for (auto c : contractions) {
    if (!py::isinstance<py::tuple>(c) && !py::isinstance<py::list>(c)) {
      tp::invalid(
          kMulti,
          "contraction " + std::to_string(t) + " is a " + py::str(py::type::of(c).attr("__name__")).cast<std::string>(),
          "pass each contraction as a tuple (subscripts, operand, ...)");
    }
    auto seq = py::reinterpret_borrow<py::sequence>(c);
    if (py::len(seq) < 1 || !py::isinstance<py::str>(seq[0])) {
      tp::invalid(kMulti, "contraction " + std::to_string(t) + " does not start with a subscripts string",
                  "pass each contraction as a tuple (subscripts, operand, ...)");
    }
    subs.push_back(seq[0].cast<std::string>());
    std::vector<py::array> arrays;
    for (std::size_t i = 1; i < py::len(seq); ++i) {
      arrays.push_back(
          tp::as_ndarray(seq[i], kMulti, "task " + std::to_string(t) + " operand " + std::to_string(i - 1)));
      const Real r =
          real_kind(arrays.back(), kMulti, "task " + std::to_string(t) + " operand " + std::to_string(i - 1));
      kind = kind ? promote(*kind, r) : r;
    }
    ops.push_back(std::move(arrays));
    ++t;
  }
  if (subs.empty()) return py::list();
  if (kind.value_or(Real::f64) == Real::f32) return run_multi<float>(subs, ops, o);
  return run_multi<double>(subs, ops, o);
}

py::int_ estimate_flops(const std::string& subscripts, py::args operands, py::kwargs kwargs) {
  constexpr const char* fn = "trntensor.estimate_flops";
  py::dict kw = kwargs;
  trntensor::PlanOptions o = pop_plan_options(kw, fn);
  tp::reject_unknown(kw, fn);
  std::vector<trncore::Shape> shapes;
  std::size_t i = 0;
  for (auto op : operands) shapes.push_back(shape_of(op, fn, "operand " + std::to_string(i++)));
  const auto plan = cache().get(subscripts, shapes, o);
  return py::int_(py::float_(plan->total_flops()));
}

py::dict parse_subscripts(const std::string& subscripts, py::args operands) {
  constexpr const char* fn = "trntensor.parse_subscripts";
  std::vector<trncore::Shape> shapes;
  std::size_t i = 0;
  for (auto op : operands) shapes.push_back(shape_of(op, fn, "operand " + std::to_string(i++)));
  const auto s = trntensor::parse_subscripts(subscripts, shapes);
  py::dict d;
  d["inputs"] = s.inputs;
  d["output"] = s.output;
  d["extents"] = s.extents;
  d["names"] = s.names;
  d["explicit_output"] = s.explicit_output;
  d["normal_form"] = s.to_string();
  return d;
}

}  // namespace

trncore::Backend default_backend() { return static_cast<trncore::Backend>(g_default_backend.load()); }

trntensor::PlanOptions pop_plan_options(py::dict& kw, std::string_view function) {
  trntensor::PlanOptions o;
  o.backend = default_backend();
  pop_options(o, kw, function);
  if (auto v = tp::pop<std::string>(kw, "algorithm", function)) o.algorithm = parse_algorithm(*v, function);
  if (auto v = tp::pop<int>(kw, "optimal_limit", function)) o.optimal_limit = *v;
  if (auto v = tp::pop<std::int64_t>(kw, "memory_limit", function)) o.memory_limit = *v;
  return o;
}

void bind_einsum(py::module_& m) {
  m.def("einsum", &einsum, py::arg("subscripts"),
        R"(einsum(subscripts, *operands, alpha=1.0, beta=0.0, out=None, dtype=None, precision="fast", **options)

Einstein summation with NumPy's semantics (trntensor::einsum): out = alpha·einsum(operands) + beta·out.

Subscripts: letters a-z A-Z, ',' between terms, optional '->output', at most one '...' per term (broadcast
axes aligned from the right), a letter repeated in one term takes the diagonal, extent-1 axes broadcast,
implicit output = the letters occurring once in ASCII order (NumPy's rule). Operands: NumPy arrays or
array-likes of float32/float64 (integers convert to float64; complex is refused); an operand whose dtype is
the computing type is used in place, strided views included. The result is float32 when every operand is
float32, else float64.

Keywords:
  alpha, beta   scale factors; beta needs out= (beta = 0 never reads out).
  out           an array of the result's shape and dtype, written in place and returned (upstream returned
                a new tensor and left out unchanged).
  dtype         upstream's compute dtype: float32 / float64 ('f32', 'f64'), or 'bf16' / 'fp16' = float32
                with math mode bf16 / fp16 (operands rounded to the format, fp32 accumulation; sim backend
                only, the host raises trncore.NotSupported); the result is float32 (NumPy has no bfloat16).
  precision     upstream's accumulation precision: 'fast' (the operands' dtype), 'kahan' (compute in
                float64, return the operands' dtype), 'dd' (trncore.NotSupported, a NotImplementedError, as
                upstream's NotImplementedError). trnsci's own control is mode=.
  backend       'host' (OpenBLAS GEMMs through trnblas, default; see set_backend) or 'sim' (the modelled
                NeuronCore TensorEngine).
  mode          math mode of every GEMM step: 'automatic' (default: full precision, or with
                target_forward_error the cheapest mode per step meeting it on sim), 'fp64', 'fp32', 'tf32',
                'bf16', 'fp16', 'fp8_e4m3', 'fp8_e5m2', 'sr', 'compensated', 'ozaki' (reduced modes: sim).
  target_forward_error, threads, seed, generation, product, options=trncore.Options(...): the suite's options.
  algorithm     path search: 'automatic' (optimal up to optimal_limit operands, else greedy), 'optimal',
                'greedy', 'left_to_right'.  optimal_limit (8), memory_limit (largest intermediate, elements).
  report        True: return (result, trncore.AccuracyReport).

Plans are cached by (subscripts, shapes, backend, mode, planner fields): see plan_cache_info().

Accuracy: componentwise |Ŷ − Y| ≤ ε·(|α|·einsum(|A|, |B|, …) + |β|·|Y₀|) with ε = Π_s(1 + ε_s) − 1 over the
plan's steps (host GEMM step over K terms: γ_{K+2}; a summation of r terms: γ_{r−1}; sim: the step's mode).
The report carries ε (a_priori_bound), certified and met.

Raises: trncore.ParseError (with .column, 1-based) for bad subscripts or a term count different from the
operand count; trncore.DimensionMismatch for a term/rank or extent mismatch, or out of the wrong shape;
trncore.InvalidArgument for no operands, complex operands, a bad keyword value, out of another dtype or
read-only or overlapping an operand; trncore.TargetNotMet (without report=True) when the result is not
certified or misses target_forward_error; trncore.NotSupported for a reduced-precision mode on the host;
TypeError for an unknown keyword.)");

  py::class_<trntensor::PlanStep>(m, "PlanStep",
                                  "One step of a ContractionPlan (trntensor::PlanStep): what it does, on which "
                                  "operand ids (inputs 0..n-1, then the steps' results), the label groups of its "
                                  "GEMM batch × (m×k)·(k×n), FLOPs, result size, backend and math mode. Labels "
                                  "are indices into ContractionPlan.label_names.")
      .def_property_readonly(
          "kind", [](const trntensor::PlanStep& s) { return kind_name(s.kind); }, "'reduce', 'contract' or 'finish'.")
      .def_property_readonly(
          "method", [](const trntensor::PlanStep& s) { return method_name(s.method); },
          "'gemm', 'direct' (elementwise products) or 'loop' (reduce/finish).")
      .def_readonly("operands", &trntensor::PlanStep::operands)
      .def_readonly("result", &trntensor::PlanStep::result)
      .def_readonly("result_labels", &trntensor::PlanStep::result_labels)
      .def_readonly("batch", &trntensor::PlanStep::batch)
      .def_readonly("m", &trntensor::PlanStep::m)
      .def_readonly("n", &trntensor::PlanStep::n)
      .def_readonly("k", &trntensor::PlanStep::k)
      .def_readonly("summed", &trntensor::PlanStep::summed)
      .def_readonly("batch_size", &trntensor::PlanStep::batch_size)
      .def_readonly("m_size", &trntensor::PlanStep::m_size)
      .def_readonly("n_size", &trntensor::PlanStep::n_size)
      .def_readonly("k_size", &trntensor::PlanStep::k_size)
      .def_readonly("flops", &trntensor::PlanStep::flops)
      .def_readonly("result_size", &trntensor::PlanStep::result_size)
      .def_property_readonly("backend",
                             [](const trntensor::PlanStep& s) { return std::string(trncore::to_string(s.backend)); })
      .def_property_readonly("mode",
                             [](const trntensor::PlanStep& s) { return std::string(trncore::to_string(s.mode)); })
      .def_readonly("writes_output", &trntensor::PlanStep::writes_output)
      .def("__repr__", [](const trntensor::PlanStep& s) {
        return "PlanStep(kind='" + kind_name(s.kind) + "', method='" + method_name(s.method) +
               "', batch=" + std::to_string(s.batch_size) + ", m=" + std::to_string(s.m_size) +
               ", n=" + std::to_string(s.n_size) + ", k=" + std::to_string(s.k_size) + ", mode='" +
               std::string(trncore::to_string(s.mode)) + "')";
      });

  py::class_<Plan>(m, "ContractionPlan",
                   "A reusable contraction plan (trntensor::ContractionPlan) for one einsum expression and one set "
                   "of operand shapes: plan once with plan_contraction(), execute() on any data of those shapes. "
                   "str(plan) prints the steps (pairwise order, GEMM shapes, method, backend, mode, FLOPs, sizes). "
                   "Upstream's dataclass fields subscripts, backend, estimated_flops and contraction_path exist; "
                   "its strategy/transA/transB do not (every plan here is a sequence of GEMM, direct and loop "
                   "steps).")
      .def_property_readonly(
          "subscripts", [](const Plan& p) { return p.subscripts; }, "The subscripts as given to plan_contraction.")
      .def_property_readonly(
          "normal_form", [](const Plan& p) { return p.plan->subscripts().to_string(); },
          "The parsed expression in normal form (explicit output).")
      .def_property_readonly(
          "label_names", [](const Plan& p) { return p.plan->subscripts().names; },
          "The name of each label (a letter, or '…k' for broadcast axes).")
      .def_property_readonly("shapes",
                             [](const Plan& p) {
                               py::list l;
                               for (const auto& s : p.plan->shapes()) l.append(shape_tuple(s));
                               return l;
                             })
      .def_property_readonly("output_shape", [](const Plan& p) { return shape_tuple(p.plan->output_shape()); })
      .def_property_readonly(
          "steps", [](const Plan& p) { return p.plan->steps(); },
          "Every step: reduce steps, contract steps, one finish step (copies).")
      .def_property_readonly(
          "path", [](const Plan& p) { return p.plan->path(); },
          "The contract steps' operand ids (SSA form: inputs 0..n-1, then results).")
      .def_property_readonly(
          "contraction_path", [](const Plan& p) { return linear_path(*p.plan); },
          "The pairwise order in opt_einsum's / numpy.einsum_path's linear form (upstream's "
          "field): positions in the current list, the pair removed and its result appended.")
      .def_property_readonly(
          "total_flops", [](const Plan& p) { return p.plan->total_flops(); },
          "Σ of the steps' FLOPs (a multiply-add counts 2).")
      .def_property_readonly(
          "estimated_flops", [](const Plan& p) { return py::int_(py::float_(p.plan->total_flops())); },
          "total_flops as an int (upstream's field; upstream counted multiply-add pairs of a "
          "single product of all extents, here the plan's actual steps, a multiply-add = 2).")
      .def_property_readonly("largest_intermediate", [](const Plan& p) { return p.plan->largest_intermediate(); })
      .def_property_readonly("algorithm",
                             [](const Plan& p) { return std::string(trntensor::to_string(p.plan->algorithm())); })
      .def_property_readonly("backend",
                             [](const Plan& p) { return std::string(trncore::to_string(p.plan->backend())); })
      .def_property_readonly("precision", [](const Plan& p) { return std::string(p.kahan ? "kahan" : "fast"); })
      .def(
          "set_mode",
          [](Plan& p, std::size_t step, const std::string& mode) {
            p.plan->set_mode(step, trncore::parse_math_mode(mode));
          },
          py::arg("step"), py::arg("mode"),
          "Sets the math mode of contract step `step` (0-based index into steps). Raises trncore.InvalidArgument "
          "when it is not a contract step, trncore.ParseError for an unknown mode.")
      .def("execute", &plan_execute,
           R"(execute(*operands, alpha=1.0, beta=0.0, out=None, report=False, **options)

out = alpha·einsum(operands) + beta·out with this plan (ContractionPlan::execute). The operands must have
the planned shapes (trncore.DimensionMismatch otherwise); backend defaults to the plan's (another one is
trncore.InvalidArgument); each step runs in its own mode (set_mode), so mode= is ignored. Options, report,
accuracy and errors as einsum(). precision='kahan' plans compute in float64.)")
      .def(
          "to_string", [](const Plan& p) { return p.plan->to_string(); },
          "The plan as text (also str(plan)): expression, algorithm, backend, each step with its labels, GEMM "
          "shape, method, backend, mode, FLOPs and result size, and the totals.")
      .def("__str__", [](const Plan& p) { return p.plan->to_string(); })
      .def("__repr__", [](const Plan& p) { return p.plan->to_string(); });

  m.def("plan_contraction", &plan_contraction, py::arg("subscripts"),
        R"(plan_contraction(subscripts, *operands, precision="fast", **options) -> ContractionPlan

Plans the einsum for the operands' shapes (only .shape is read; arrays, tuples of shapes' owners or
PyTorch tensors work) without running it. Keywords: backend, mode (every step's default mode), algorithm,
optimal_limit, memory_limit, precision ('fast' or 'kahan': how execute computes). The plan comes from the
plan cache (upstream caches by subscripts and shapes) and is a copy: set_mode never changes the cache.
Raises as einsum (ParseError, DimensionMismatch), trncore.ResourceExhausted when no order keeps every
intermediate within memory_limit, trncore.InvalidArgument for optimal_limit outside [1, 16].)");

  m.def("multi_einsum", &multi_einsum,
        R"(multi_einsum(*contractions, **options) -> list

Runs every contraction (subscripts, *operands) and returns the results in order
(trntensor::multi_einsum): contractions with the same subscripts and shapes form one group that runs as
one einsum over stacked operands (one plan, batched GEMMs). Options as einsum (no alpha/beta/out/report);
a batch mixing float32 and float64 computes in float64. Accuracy per task as einsum. Raises as einsum; a
malformed task is named by its index.)");

  m.def("estimate_flops", &estimate_flops, py::arg("subscripts"),
        R"(estimate_flops(subscripts, *operands, **options) -> int

The FLOPs of the contraction as planned (ContractionPlan.total_flops): Σ over steps of 2·batch·m·n·k per
GEMM step, batch·m·n per direct product, input − output size per summation. Differs from upstream, which
returned the product of all extents (multiply-add pairs of an unplanned single loop nest). Planner keywords
as plan_contraction.)");

  m.def(
      "clear_plan_cache", [] { cache().clear(); }, "Discards every cached contraction plan (and the counters).");
  m.def(
      "plan_cache_info", [] { return cache().info(); },
      "The plan cache's statistics: {'size': plans held, 'hits', 'misses', 'maxsize'} (upstream returned "
      "{'size': N}; the other keys are additions).");

  m.def("parse_subscripts", &parse_subscripts, py::arg("subscripts"),
        "parse_subscripts(subscripts, *operands) -> dict: the expression parsed against the operands' shapes "
        "(trntensor::parse_subscripts): inputs (labels per operand axis), output, extents per label, names, "
        "explicit_output, normal_form. Raises trncore.ParseError (with .column) / DimensionMismatch.");

  m.def(
      "set_backend",
      [](const std::string& name) {
        constexpr const char* fn = "trntensor.set_backend";
        if (name == "auto" || name == "pytorch" || name == "host")
          g_default_backend = static_cast<int>(trncore::Backend::host);
        else if (name == "sim")
          g_default_backend = static_cast<int>(trncore::Backend::sim);
        else if (name == "nki") {
          throw trncore::NotSupported(fn, "backend 'nki' needs Neuron hardware, which trnsci does not drive",
                                      "use 'sim' (the modelled NeuronCore) or 'host'");
        } else {
          tp::invalid(fn, "backend '" + name + "' is unknown", "use 'host' (or upstream's 'auto'/'pytorch') or 'sim'");
        }
      },
      py::arg("backend"),
      "Sets the default backend of einsum, plan_contraction, multi_einsum, estimate_flops, sharded_einsum, "
      "ao_to_mo_transform and mp2_energy when no backend= is passed: 'host' (upstream's 'auto' and 'pytorch' "
      "map to it) or 'sim'. Upstream's 'nki' raises trncore.NotSupported. Process-wide.");
  m.def(
      "get_backend", [] { return std::string(trncore::to_string(default_backend())); },
      "The default backend set by set_backend: 'host' or 'sim'.");
}

}  // namespace trntensor_python
