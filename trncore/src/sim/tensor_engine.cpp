// TensorEngine ops: matmul into PSUM through matmul_psum (the one implementation of DESIGN.md §4.3), and
// transpose as an exact copy. NKI (nki.isa.nc_transpose) documents the TensorEngine transpose as a matmul
// against an identity (nc_matmul with is_transpose=True) that is bit-accurate from NeuronCore-v3 on; a
// plain identity matmul under §4.3 would not be (−0 + +0 gives +0, inf·0 in another row gives NaN, and
// the bf16 product model would round fp32 inputs), so the pass-through is modelled as what it is
// documented to return: the input bits. On NeuronCore-v2 NKI says the result is not bit-accurate for
// NaN/Inf inputs; that deviation is unspecified and not modelled.
#include "sim/core_access.hpp"

#include <trncore/sim/matmul.hpp>

namespace trncore::sim {

void NeuronCore::matmul(Tile& psum_tile, const Tile& stationary, const Tile& moving, bool accumulate) {
  const char* function = "trncore::sim::NeuronCore::matmul";
  auto& out = detail::state(psum_tile, function, "psum");
  const auto& st = detail::state(stationary, function, "stationary");
  const auto& mv = detail::state(moving, function, "moving");
  if (out.memory != Memory::psum)
    throw InvalidArgument(function, "output tile " + detail::describe(out) + " is not in PSUM",
                          "matmul writes a PSUM tile");
  for (const auto* in : {&st, &mv}) {
    if (in->memory != Memory::sbuf)
      throw InvalidArgument(function, "input tile " + detail::describe(*in) + " is not in SBUF",
                            "DMA or copy the operand into SBUF first");
    detail::require_float(function, *in);
  }
  if (st.type != mv.type)
    throw InvalidArgument(
        function,
        "stationary " + detail::describe(st) + " and moving " + detail::describe(mv) + " have different types",
        "convert both operands to one input format");
  const std::int64_t k = st.partitions, m = st.free_size, n = mv.free_size;
  if (mv.partitions != k)
    throw DimensionMismatch(
        function,
        "stationary has K = " + std::to_string(k) + " partitions but moving has " + std::to_string(mv.partitions),
        "both operands share the contraction (partition) dimension");
  if (m > spec_->max_m || n > spec_->max_n)
    throw ResourceExhausted(function,
                            "M = " + std::to_string(m) + ", N = " + std::to_string(n) +
                                " exceed the TensorEngine's M <= " + std::to_string(spec_->max_m) +
                                ", N <= " + std::to_string(spec_->max_n),
                            "tile the product");
  if (out.partitions != m || out.free_size != n)
    throw DimensionMismatch(
        function, "output " + detail::describe(out) + " is not M x N = " + std::to_string(m) + "x" + std::to_string(n),
        "allocate the PSUM tile as M partitions x N");
  // stationaryᵀ as a row-major M×K matrix.
  std::vector<float> a(static_cast<std::size_t>(m * k));
  for (std::int64_t p = 0; p < k; ++p)
    for (std::int64_t i = 0; i < m; ++i)
      a[static_cast<std::size_t>(i * k + p)] = st.values[static_cast<std::size_t>(p * m + i)];
  MatmulOptions o;
  o.product = product_;
  o.accumulate = accumulate;
  o.threads = 1;  // one instruction's worth of work; threads never change the result anyway
  matmul_psum(m, n, k, a.data(), k, mv.values.data(), n, out.values.data(), n, o);
  count(Engine::tensor, m * n * k, (st.size() + mv.size()) * bytes_of(st.type) + m * n * 4,
        static_cast<double>(m * n * k) / tensor_macs_per_cycle(*spec_, format_of(st.type)));
}

void NeuronCore::transpose(Tile& out_tile, const Tile& in_tile) {
  const char* function = "trncore::sim::NeuronCore::transpose";
  auto& out = detail::state(out_tile, function, "out");
  const auto& in = detail::state(in_tile, function, "in");
  if (out.memory != Memory::psum || in.memory != Memory::sbuf)
    throw InvalidArgument(
        function,
        "transpose reads SBUF and writes PSUM; got in " + detail::describe(in) + ", out " + detail::describe(out),
        "pass an SBUF input and a PSUM output");
  detail::require_float(function, in);
  if (in.partitions > spec_->max_k || in.free_size > spec_->max_m)
    throw ResourceExhausted(function, "input " + detail::describe(in) + " exceeds 128 x 128",
                            "transpose 128 x 128 blocks");
  if (out.partitions != in.free_size || out.free_size != in.partitions)
    throw DimensionMismatch(function,
                            "out " + detail::describe(out) + " is not the transpose shape of " + detail::describe(in),
                            "allocate out as in.free_size x in.partitions");
  for (std::int64_t p = 0; p < in.partitions; ++p)
    for (std::int64_t f = 0; f < in.free_size; ++f)
      out.values[static_cast<std::size_t>(f * out.free_size + p)] =
          in.values[static_cast<std::size_t>(p * in.free_size + f)];
  count(Engine::tensor, in.size() * in.partitions, in.size() * bytes_of(in.type) + in.size() * 4,
        static_cast<double>(in.size() * in.partitions) / tensor_macs_per_cycle(*spec_, format_of(in.type)));
}

}  // namespace trncore::sim
