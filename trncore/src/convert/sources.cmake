# Bulk span conversions with runtime SIMD dispatch (convert.hpp). Included by trncore/CMakeLists.txt.
