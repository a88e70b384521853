// A program outside the Keel tree, built against an installed Keel.
#include <keel/core/build_stamp.h>
#include <keel/core/hash.h>

#include <cstdio>

int main() {
  const keel::BuildStamp& stamp = keel::build_stamp();
  std::printf("%s\n", stamp.to_string().c_str());
  const bool ok = keel::filename_hash("Player") == 0xCC3E7678u && stamp.project == "consumer" &&
                  stamp.protocol == 7 && stamp.build_number >= 1;
  return ok ? 0 : 1;
}
