# Cross-suite types: Backend, MathMode, Options, AccuracyReport (and the header-only views).
# Included by trncore/CMakeLists.txt after the library target exists.
