# OCP MX block formats (mx.hpp). Included by trncore/CMakeLists.txt.
