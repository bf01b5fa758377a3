// The trntensor Python extension (trntensor._trntensor): einsum, plans, decompositions, chemistry, shards.
#include "bind.hpp"

#include <trntensor/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trntensor, m) {
  m.doc() = "trntensor: einsum, contraction plans, decompositions, DF-MP2 and sharded einsum (docs/python.md)";
  tp::init_module(m);
  m.def(
      "version", [] { return std::string(trntensor::version()); }, "The trntensor library's version.");
  trntensor_python::bind_einsum(m);
  trntensor_python::bind_sharded(m);
  trntensor_python::bind_decompositions(m);
  trntensor_python::bind_chemistry(m);
}
