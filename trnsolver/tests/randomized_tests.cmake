# Tests of trnsolver: randomized NLA (sketches, rsvd, trace/diagonal estimation, Nyström, eigh_randomized).
foreach(area sketch rsvd trace symmetric rayleigh_ritz)
  trnsci_add_test(trnsolver_randomized_${area}_test SOURCES randomized_${area}_test.cpp
                  LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE)
endforeach()
trnsci_add_test(trnsolver_randomized_lstsq_test SOURCES randomized_lstsq_test.cpp
                LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE)
