// ShardedTensor (float32/float64) and sharded_einsum over the in-process ThreadTransport.
#include "bind.hpp"

#include <trntensor/sharded.hpp>

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace trntensor_python {

namespace {

/// The Python ShardedTensor: one of trntensor::ShardedTensor<float> / <double>.
struct Sharded {
  std::variant<std::shared_ptr<trntensor::ShardedTensor<float>>, std::shared_ptr<trntensor::ShardedTensor<double>>> t;
};

constexpr const char* kSharded = "trntensor.ShardedTensor";
constexpr const char* kShardedEinsum = "trntensor.sharded_einsum";

template <class T>
Sharded make_sharded(const py::array& a, int axis, int shards) {
  auto in = tp::in_tensor<T>(a, kSharded, "tensor");
  auto s = tp::released([&] { return std::make_shared<trntensor::ShardedTensor<T>>(in.view, axis, shards); });
  return Sharded{s};
}

Sharded sharded_new(py::handle tensor, int axis, int shards) {
  py::array a = tp::as_ndarray(tensor, kSharded, "tensor");
  if (real_kind(a, kSharded, "tensor") == Real::f32) return make_sharded<float>(a, axis, shards);
  return make_sharded<double>(a, axis, shards);
}

template <class T>
py::array copy_out(const trntensor::Tensor<T>& t) {
  return to_numpy<T>(trntensor::Tensor<T>(t));
}

template <class T>
py::object sharded_run(const std::string& subscripts, const trntensor::ShardedTensor<T>& sharded, int position,
                       const std::vector<py::array>& others, trntensor::PlanOptions& o) {
  auto in = in_tensors<T>(others, kShardedEinsum);
  trntensor::ThreadTransport transport(o.threads);
  auto r = tp::run(o, [&] {
    return trntensor::sharded_einsum<T>(subscripts, sharded, position,
                                        std::span<const trntensor::TensorView<const T>>(in.views), transport, o);
  });
  return to_numpy<T>(std::move(r));
}

py::object sharded_einsum(const std::string& subscripts, const Sharded& sharded, int position, py::args others,
                          py::kwargs kwargs) {
  py::dict kw = kwargs;
  trntensor::PlanOptions o = pop_plan_options(kw, kShardedEinsum);
  tp::reject_unknown(kw, kShardedEinsum);
  std::vector<py::array> arrays;
  std::size_t i = 0;
  for (auto op : others) {
    arrays.push_back(tp::as_ndarray(op, kShardedEinsum, "other operand " + std::to_string(i)));
    const Real k = real_kind(arrays.back(), kShardedEinsum, "other operand " + std::to_string(i));
    const bool f32 = std::holds_alternative<std::shared_ptr<trntensor::ShardedTensor<float>>>(sharded.t);
    if (f32 != (k == Real::f32)) {
      tp::invalid(kShardedEinsum,
                  "other operand " + std::to_string(i) + " is " + real_name(k) + " but the sharded tensor is " +
                      (f32 ? "float32" : "float64"),
                  "pass every operand in the sharded tensor's dtype (x.astype(...))");
    }
    ++i;
  }
  return std::visit([&](const auto& s) { return sharded_run(subscripts, *s, position, arrays, o); }, sharded.t);
}

}  // namespace

void bind_sharded(py::module_& m) {
  py::class_<Sharded>(m, "ShardedTensor",
                      "ShardedTensor(tensor, axis, shards): a float32/float64 array split along `axis` into `shards` "
                      "contiguous blocks whose extents differ by at most one, each a dense copy "
                      "(trntensor::ShardedTensor). Single process: the shards are run by sharded_einsum on the "
                      "suite's thread pool. Raises trncore.InvalidArgument for an axis outside [0, ndim) or "
                      "shards < 1.")
      .def(py::init(&sharded_new), py::arg("tensor"), py::arg("axis"), py::arg("shards"))
      .def_property_readonly("axis",
                             [](const Sharded& s) { return std::visit([](const auto& t) { return t->axis(); }, s.t); })
      .def_property_readonly(
          "shards", [](const Sharded& s) { return std::visit([](const auto& t) { return t->shards(); }, s.t); })
      .def_property_readonly("shape",
                             [](const Sharded& s) {
                               return std::visit(
                                   [](const auto& t) {
                                     py::tuple r(t->shape().size());
                                     for (std::size_t i = 0; i < t->shape().size(); ++i) r[i] = t->shape()[i];
                                     return r;
                                   },
                                   s.t);
                             })
      .def_property_readonly(
          "dtype",
          [](const Sharded& s) {
            return py::dtype(std::holds_alternative<std::shared_ptr<trntensor::ShardedTensor<float>>>(s.t) ? "float32"
                                                                                                           : "float64");
          })
      .def(
          "shard",
          [](const Sharded& s, int i) {
            return std::visit(
                [&](const auto& t) -> py::array {
                  if (i < 0 || i >= t->shards()) {
                    tp::invalid("trntensor.ShardedTensor.shard",
                                "shard " + std::to_string(i) + " of " + std::to_string(t->shards()),
                                "use 0 <= s < shards");
                  }
                  return copy_out(t->shard(i));
                },
                s.t);
          },
          py::arg("s"), "A copy of shard s's block.")
      .def(
          "offset",
          [](const Sharded& s, int i) {
            return std::visit(
                [&](const auto& t) {
                  if (i < 0 || i >= t->shards()) {
                    tp::invalid("trntensor.ShardedTensor.offset",
                                "shard " + std::to_string(i) + " of " + std::to_string(t->shards()),
                                "use 0 <= s < shards");
                  }
                  return t->offset(i);
                },
                s.t);
          },
          py::arg("s"), "Where shard s's block starts along the axis.")
      .def(
          "gather",
          [](const Sharded& s) {
            return std::visit(
                [](const auto& t) -> py::array { return to_numpy(tp::released([&] { return t->gather(); })); }, s.t);
          },
          "The whole tensor, reassembled (a new array).")
      .def("__repr__", [](const Sharded& s) {
        return std::visit(
            [](const auto& t) {
              return "ShardedTensor(shape=" + trntensor::detail::shape_string(t->shape()) +
                     ", axis=" + std::to_string(t->axis()) + ", shards=" + std::to_string(t->shards()) + ")";
            },
            s.t);
      });

  m.def("sharded_einsum", &sharded_einsum, py::arg("subscripts"), py::arg("sharded"), py::arg("position"),
        R"(sharded_einsum(subscripts, sharded, position, *others, **options) -> ndarray

einsum with operand `position` given as a ShardedTensor and the other operands (in order, without it) whole
(trntensor::sharded_einsum over a ThreadTransport with threads= threads). Output-parallel when the split
label is in the output (each shard computes its block), reduce-parallel otherwise (partials added in shard
order, so the result does not depend on the thread count). Operands must share the sharded tensor's dtype.
Options as einsum (no alpha/beta/out/report).

Accuracy: output-parallel as einsum (bitwise equal to the unsharded einsum where the per-shard plans have the
same order, e.g. a batch label on the host); reduce-parallel: einsum's bound over K/S terms plus γ_{S−1}.
Raises as einsum, and trncore.InvalidArgument for a position outside the operands.)");
}

}  // namespace trntensor_python
