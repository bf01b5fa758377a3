# Mixed-precision solve (LU-IR, GMRES-IR) with target_forward_error and its SolveReport. Included by
# trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE)
