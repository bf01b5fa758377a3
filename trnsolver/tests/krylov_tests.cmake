# Tests of trnsolver: Krylov solvers and preconditioners.
