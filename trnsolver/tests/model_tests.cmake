# Tests of trnsolver: the modelled scale-out (scaling_model.hpp).
trnsci_add_test(trnsolver_scaling_model_test SOURCES scaling_model_test.cpp LIBRARIES trnsci::trnsolver)
