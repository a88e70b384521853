// Test and fuzz support, not part of the fsm API: loads, links and runs an image that passed
// validation - every function stubbed, every dictionary string sent as an event - so the
// runtime is exercised on whatever a loader accepted. Nothing here may crash.
#pragma once

#include "keel/fsm/compiled.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/functions.h"
#include "keel/fsm/instance.h"
#include "keel/fsm/library.h"

#include <fmt/format.h>

namespace keel::fsm::testing {

inline void exercise(const CompiledFsms& image, u32 rounds = 2) {
  FsmLibrary library;
  if (!library.add(image)) return;
  (void)library.link();
  const std::vector<const FsmDef*> fsms = library.fsms();
  FunctionRegistry functions;  // stubs under the dictionary's names (declare hashes the name)
  for (const FsmDef* f : fsms) {
    for (const Hash h : f->functions()) (void)functions.declare(f->string(h), [](FsmInstance&) {});
  }
  Environment env(functions, 7);
  env.set_error_handler([](FsmInstance&, std::string_view) {});
  env.set_max_depth(24);
  for (const FsmDef* f : fsms) {
    FsmInstance instance;
    FsmInstance partner;
    if (!instance.init(nullptr, *f, env)) continue;
    if (partner.init(nullptr, *f, env)) (void)instance.create_link(partner, "link", kLinkAlways);
    for (u32 round = 0; round < rounds; ++round) {
      for (const FsmDef* d = f; d != nullptr; d = d->parent) {
        for (u32 i = 0; i < d->view.dictionary_size(); ++i) {
          instance.event(d->view.dictionary_hash(i));
          instance.run();
          (void)instance.behavior();
        }
      }
      instance.reset();
    }
  }
}

}  // namespace keel::fsm::testing
