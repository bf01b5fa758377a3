# Tests of trnsolver: Dense factorizations and drivers.
