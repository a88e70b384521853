// Several build threads render diagnostics that quote one shared Document at once (the pipeline
// does this when two assets of one command file fail together). The line index is built on first
// use; under TSan this test fails if that first build is not synchronised.
#include "keel/text/document.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace keel::text {
namespace {

TEST(DocumentThreads, FirstLineLookupsFromSeveralThreadsAgree) {
  std::string source;
  for (int i = 1; i <= 2000; ++i) source += "Line" + std::to_string(i) + "(1);\n";
  for (int round = 0; round < 20; ++round) {
    const Document doc(source, "shared.kcmd");
    std::vector<std::string> seen(4);
    std::vector<std::thread> threads;
    for (usize t = 0; t < seen.size(); ++t) {
      threads.emplace_back([&doc, &seen, t] {
        const u32 line = static_cast<u32>(500 * t + 7);
        seen[t] = std::string(doc.line_text(line));
      });
    }
    for (std::thread& t : threads) t.join();
    for (usize t = 0; t < seen.size(); ++t) {
      EXPECT_EQ(seen[t], "Line" + std::to_string(500 * t + 7) + "(1);");
    }
  }
}

}  // namespace
}  // namespace keel::text
