# Tests of trnsolver: Options::monitor in solve, eigh_jacobi, inv_sqrt_spd, rsvd and rsvd_adaptive.
trnsci_add_test(trnsolver_monitor_test SOURCES monitor_test.cpp LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE)
