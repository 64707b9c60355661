#include "../../bench/harness/library_build_note.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace handoff::bench {
namespace {

class context_printer : public benchmark::ConsoleReporter {
 public:
  bool ReportContext(const Context&) override {
    GetErrorStream() << "Run on (2 X 2600 MHz CPU s)\n"
                     << "***WARNING*** Library was built as DEBUG. Timings may be affected.\n";
    return true;
  }
};

TEST(LibraryBuildNote, TheDebugWarningBecomesHandoffsNote) {
  context_printer printer;
  std::ostringstream errors;
  printer.SetErrorStream(&errors);
  const benchmark::BenchmarkReporter::Context context;
  EXPECT_TRUE(report_context_explained(printer, [&] { return printer.ReportContext(context); }));
  const std::string text = errors.str();
  EXPECT_EQ(text.find("***WARNING***"), std::string::npos) << text;
  EXPECT_NE(text.find("Run on (2 X 2600 MHz CPU s)\nnote: this Google Benchmark library was "
                      "built without NDEBUG"),
            std::string::npos)
      << text;
  EXPECT_EQ(&printer.GetErrorStream(), &errors);
}

TEST(LibraryBuildNote, TextWithoutTheWarningIsUnchanged) {
  EXPECT_EQ(with_library_build_explained("Run on (2 X 2600 MHz CPU s)\n"),
            "Run on (2 X 2600 MHz CPU s)\n");
}

}  // namespace
}  // namespace handoff::bench
