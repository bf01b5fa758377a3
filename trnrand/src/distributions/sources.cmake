# Distributions. Included by trnrand/CMakeLists.txt after the library target exists.
