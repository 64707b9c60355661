// The multi-GPU workload registry, on CPU: the article's two workloads and the shipped example
// (examples/user_kernel, linked into this program as HANDOFF_USER_KERNELS links it into
// handoff_bench) are registered with their references and tolerances, and each mistake a user can
// make in registering one is refused with a typed error that says what to change. That the
// example's kernel matches its reference on a device is user_workload_test.cpp's.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "handoff/patterns/multi_gpu/partitioned_setup.hpp"
#include "handoff/patterns/multi_gpu/workload_registry.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;

// Never launched here: the registry only keeps the address.
void some_kernel(const float*, float*, unsigned long long, float) {}

float identity_on_cpu(float input, float /*device_value*/) {
  return input;
}

workload valid(std::string name) {
  return {.name = std::move(name),
          .kernel = user_kernel_of(some_kernel),
          .reference = identity_on_cpu,
          .max_ulp = 0};
}

std::vector<std::string> registered_names() {
  std::vector<std::string> names;
  for (const auto* w : registered_workloads())
    names.push_back(w->name);
  return names;
}

// The message of the workload_registration_error registering w throws, or a failure.
std::string refusal_of(workload w) {
  try {
    register_workload(std::move(w));
  } catch (const workload_registration_error& error) {
    return error.what();
  }
  ADD_FAILURE() << "no workload_registration_error thrown";
  return {};
}

TEST(MultiGpuWorkloadRegistry, TheArticlesWorkloadsAndTheExampleAreRegisteredByName) {
  const auto names = registered_names();
  for (const char* expected : {"add_device_value", "scale_by_two", "square_plus_device_value"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(MultiGpuWorkloadRegistry, TheArticlesWorkloadsAreExactWithTheirOwnRows) {
  const auto scale = find_workload("scale_by_two");
  EXPECT_EQ(scale.reference(3.0f, 7.0f), 6.0f);
  EXPECT_EQ(scale.max_ulp, 0u);
  EXPECT_EQ(scale.rows, workload_rows::full_sweep);
  EXPECT_STREQ(scale.kernel.name, "scale_by_two");
  EXPECT_NE(scale.kernel.function, nullptr);

  const auto add = find_workload("add_device_value");
  EXPECT_EQ(add.reference(3.0f, 7.0f), 10.0f);
  EXPECT_EQ(add.max_ulp, 0u);
  EXPECT_EQ(add.rows, workload_rows::placement_check);
}

TEST(MultiGpuWorkloadRegistry, TheExampleCarriesItsReferenceAndTolerance) {
  const auto example = find_workload("square_plus_device_value");
  EXPECT_EQ(example.reference(1.5f, 2.0f), 4.25f);
  EXPECT_EQ(example.reference(-3.0f, 1.0f), 10.0f);
  EXPECT_EQ(example.max_ulp, 1u);
  EXPECT_EQ(example.rows, workload_rows::full_sweep);
  EXPECT_STREQ(example.kernel.name, "square_plus_device_value");  // launch checks name it
  EXPECT_NE(example.kernel.function, nullptr);
  EXPECT_EQ(example.kernel.elements_per_thread, 1u);

  // Against the fused single-rounding result a device gives, over seeded inputs.
  std::vector<float> input(10'000);
  reference::fill_seeded_nonzero(input, 17);
  std::vector<float> fused(input.size());
  std::vector<float> on_cpu(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) {
    fused[i] = std::fma(input[i], input[i], 3.0f);
    on_cpu[i] = example.reference(input[i], 3.0f);
  }
  const auto verdict = reference::verify_elementwise(on_cpu, fused, example.max_ulp);
  EXPECT_TRUE(verdict.passed()) << verdict.describe();
}

TEST(MultiGpuWorkloadRegistry, ARegistrarRegistersWhenConstructed) {
  const workload_registrar registrar(valid("registered_by_a_registrar"));
  EXPECT_EQ(find_workload("registered_by_a_registrar").reference(5.0f, 1.0f), 5.0f);
  EXPECT_STREQ(find_workload("registered_by_a_registrar").kernel.name, "registered_by_a_registrar");
}

TEST(MultiGpuWorkloadRegistry, ADuplicateNameIsRefusedAndTheFirstKept) {
  const auto message = refusal_of(valid("scale_by_two"));
  EXPECT_NE(message.find("'scale_by_two' is registered twice"), std::string::npos) << message;
  EXPECT_NE(message.find("rename one"), std::string::npos) << message;
  EXPECT_EQ(find_workload("scale_by_two").reference(3.0f, 0.0f), 6.0f);
}

TEST(MultiGpuWorkloadRegistry, AnEmptyNameIsRefused) {
  const auto message = refusal_of(valid(""));
  EXPECT_NE(message.find("empty name"), std::string::npos) << message;
}

TEST(MultiGpuWorkloadRegistry, ANameThatWouldBreakBenchmarkNamesIsRefused) {
  for (const std::string name : {"a/b", "a:b", "with space", "star*", "dot.ted"}) {
    const auto message = refusal_of(valid(name));
    EXPECT_NE(message.find("would break its benchmark names"), std::string::npos) << message;
    EXPECT_NE(message.find("letters, digits, '_' and '-' only"), std::string::npos) << message;
  }
  EXPECT_NE(refusal_of(valid("a/b")).find("character '/'"), std::string::npos);
  EXPECT_NO_THROW(register_workload(valid("Letters_digits-0123")));
}

TEST(MultiGpuWorkloadRegistry, AMissingKernelReferenceOrLaunchShapeIsRefused) {
  auto no_kernel = valid("no_kernel");
  no_kernel.kernel.function = nullptr;
  EXPECT_NE(refusal_of(no_kernel).find("no kernel: set .kernel = handoff::user_kernel_of"),
            std::string::npos);

  auto no_reference = valid("no_reference");
  no_reference.reference = nullptr;
  EXPECT_NE(refusal_of(no_reference).find("no CPU reference: set .reference"), std::string::npos);

  auto no_threads = valid("no_threads");
  no_threads.kernel.threads_per_block = 0;
  EXPECT_NE(refusal_of(no_threads).find("at least 1"), std::string::npos);

  const auto names = registered_names();
  for (const char* refused : {"no_kernel", "no_reference", "no_threads"})
    EXPECT_EQ(std::find(names.begin(), names.end(), refused), names.end()) << refused;
}

TEST(MultiGpuWorkloadRegistry, AnUnknownNameIsATypedErrorListingTheRegistered) {
  try {
    find_workload("no_such_workload");
    FAIL() << "an unknown workload was found";
  } catch (const unknown_workload_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'no_such_workload'"), std::string::npos) << message;
    EXPECT_NE(message.find("scale_by_two"), std::string::npos) << message;
    EXPECT_NE(message.find("HANDOFF_USER_KERNELS"), std::string::npos) << message;
  }
  // A setup asks before it touches any device, so this holds without one.
  EXPECT_THROW(shared_setup_for({"no_such_workload", 1, partitioner::even, 16, 0}),
               unknown_workload_error);
}

}  // namespace
}  // namespace handoff::multi_gpu_tests
