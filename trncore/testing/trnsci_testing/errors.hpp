#pragma once
// Test support for the suite's own tests (not installed for users' programs): what a call throws.
// Every test made with trnsci_add_test can include it.

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <exception>
#include <initializer_list>
#include <string>
#include <string_view>

namespace trnsci_testing {

/// The what() of the trncore::Error that f() throws, or "(no exception)" when it returns normally.
/// Any other exception propagates (and fails the test).
template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const trncore::Error& e) {
    return e.what();
  }
  return "(no exception)";
}

/// Expects f() to throw E (a trncore::Error subclass) from `function`, with a nonempty hint and every one
/// of `fragments` in what(). Adds a GoogleTest failure naming what happened otherwise.
template <class E = trncore::Error, class F>
void expect_error(F&& f, std::string_view function, std::initializer_list<std::string_view> fragments = {}) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one from " << function;
  } catch (const E& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.function(), function) << what;
    EXPECT_FALSE(e.hint().empty()) << what;
    for (const std::string_view fragment : fragments)
      EXPECT_NE(what.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type (expected " << typeid(E).name() << "): " << e.what();
  }
}

}  // namespace trnsci_testing
