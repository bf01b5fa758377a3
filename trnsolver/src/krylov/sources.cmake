# Krylov solvers and preconditioners. Included by trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE)
