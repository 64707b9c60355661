// The error checks need no GPU: they only format and throw.

#include <gtest/gtest.h>

#include "handoff/cuda_check.hpp"

namespace handoff {
namespace {

std::string message_of(auto&& throwing) {
  try {
    throwing();
  } catch (const cuda_error& error) {
    return error.what();
  }
  ADD_FAILURE() << "no cuda_error was thrown";
  return {};
}

TEST(CudaCheck, ThrowsWithFileLineCallAndErrorName) {
  const int line = __LINE__ + 1;
  const auto message = message_of([] { HANDOFF_CUDA_CHECK(cudaErrorInvalidValue); });
  EXPECT_NE(message.find("cuda_check_test.cpp:" + std::to_string(line)), std::string::npos)
      << message;
  EXPECT_NE(message.find("cudaErrorInvalidValue"), std::string::npos) << message;
  EXPECT_NE(message.find("failed"), std::string::npos) << message;
}

TEST(CudaCheck, NamesTheCallAsWritten) {
  const auto fails = [] { return cudaErrorMemoryAllocation; };
  const auto message = message_of([&] { HANDOFF_CUDA_CHECK(fails()); });
  EXPECT_NE(message.find("fails()"), std::string::npos) << message;
  EXPECT_NE(message.find("cudaErrorMemoryAllocation"), std::string::npos) << message;
}

TEST(CudaCheck, CarriesTheErrorCode) {
  try {
    HANDOFF_CUDA_CHECK(cudaErrorInvalidDevice);
    FAIL() << "no throw";
  } catch (const cuda_error& error) {
    EXPECT_EQ(error.code(), static_cast<int>(cudaErrorInvalidDevice));
  }
}

TEST(CudaCheck, SuccessDoesNotThrow) {
  EXPECT_NO_THROW(HANDOFF_CUDA_CHECK(cudaSuccess));
}

TEST(CudaCheckNoexcept, ReportsOnStderrWithoutThrowing) {
  ::testing::internal::CaptureStderr();
  HANDOFF_CUDA_CHECK_NOEXCEPT(cudaErrorInvalidValue);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(printed.find("cudaErrorInvalidValue"), std::string::npos) << printed;
  EXPECT_NE(printed.find("cuda_check_test.cpp"), std::string::npos) << printed;
  static_assert(noexcept(report_cuda_error_noexcept(cudaSuccess, "", "", 0)));
}

TEST(DriverCheck, ThrowsWithCallAndCode) {
  const auto message = message_of([] { HANDOFF_CU_CHECK(CUDA_ERROR_INVALID_VALUE); });
  EXPECT_NE(message.find("CUDA_ERROR_INVALID_VALUE"), std::string::npos) << message;
  EXPECT_NE(message.find("code 1"), std::string::npos) << message;
  EXPECT_NO_THROW(HANDOFF_CU_CHECK(CUDA_SUCCESS));
}

}  // namespace
}  // namespace handoff
