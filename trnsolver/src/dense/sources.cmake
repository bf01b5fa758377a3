# Dense factorizations and drivers (host: LAPACKE). Included by trnsolver/CMakeLists.txt after the
# library target exists.
target_sources(trnsolver PRIVATE)
