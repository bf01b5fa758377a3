# Tests of trnsolver: Mixed-precision solve with target_forward_error.
