# The modelled scale-out (scaling_model.hpp): HPL-MxP and kernel rsvd from 1 to 144 chips, from the spec
# table and trncore's link model. No MPI. Included by trnsolver/CMakeLists.txt.
target_sources(trnsolver PRIVATE ${CMAKE_CURRENT_LIST_DIR}/scaling_model.cpp)
