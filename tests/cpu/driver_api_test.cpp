// Driver functions are found at run time, so a missing driver or function is an error that names
// the function, never a failure to start. Runs with or without a driver.

#include "handoff/driver_api.hpp"

#include <gtest/gtest.h>

#include <string>

#include "handoff/cuda_check.hpp"

namespace handoff {
namespace {

TEST(DriverApi, AFunctionTheDriverLacksIsANamedError) {
  try {
    driver_entry_point("cuNoSuchFunctionInAnyDriver");
    FAIL() << "an entry point that does not exist was found";
  } catch (const cuda_error& error) {
    EXPECT_NE(std::string(error.what()).find("cuNoSuchFunctionInAnyDriver"), std::string::npos)
        << error.what();
  }
}

TEST(DriverApi, ARealFunctionResolvesOrNamesWhyNot) {
  try {
    const auto get_version = HANDOFF_DRIVER_FUNCTION(cuDriverGetVersion);
    ASSERT_NE(get_version, nullptr);
    int version = 0;
    ASSERT_EQ(get_version(&version), CUDA_SUCCESS);
    EXPECT_GT(version, 0);
    // Resolved once: asking again gives the same entry point.
    EXPECT_EQ(driver_entry_point("cuDriverGetVersion"), reinterpret_cast<void*>(get_version));
  } catch (const cuda_error& error) {
    // No driver on this machine: the error must say which function and suggest why.
    EXPECT_NE(std::string(error.what()).find("cuDriverGetVersion"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace handoff
