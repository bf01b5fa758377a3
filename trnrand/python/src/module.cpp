// The trnrand Python extension (trnrand._trnrand): streams and fills, distributions, quasi-random sequences.
#include "bind.hpp"

#include <trnrand/version.hpp>

#include <string>

PYBIND11_MODULE(_trnrand, m) {
  m.doc() = "trnrand: counter-based random streams, distributions and quasi-random sequences (docs/python.md)";
  trnsci_python::init_module(m);
  m.def(
      "version", [] { return std::string(trnrand::version()); }, "The trnrand library's version.");
  trnrand_python::bind_stream(m);
  trnrand_python::bind_distributions(m);
  trnrand_python::bind_qmc(m);
}
