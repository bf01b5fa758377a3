# Quasi-random sequences (Sobol, Halton, Latin hypercube). Included by trnrand/CMakeLists.txt after the library target exists.
