# Generators, streams and bulk fills. Included by trnrand/CMakeLists.txt after the library target exists.
