# The adversarial layer of trnsolver (issue #18, docs/trncore.md "Certificates"): solve() and the dense
# drivers on growth, Kahan, graded, scaled and near-singular matrices against binary128 references. ci/test
# runs the reduced count; ctest -L adversarial the full one.
trnsci_require_adversarial()
trnsci_add_test(trnsolver_adversarial_test SOURCES adversarial_test.cpp
  LIBRARIES trnsci::trnsolver trnsci_test_adversarial LAPACKE::LAPACKE ADVERSARIAL)
