// Test support, not part of the fsm API: compile FSM text, link it, and record every callback
// (functions, animations, errors) as strings in the order they happen.
#pragma once

#include "keel/core/file.h"
#include "keel/fsm/compiler/compiler.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/functions.h"
#include "keel/fsm/instance.h"
#include "keel/fsm/library.h"
#include "keel/text/document.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::fsm::testing {

inline std::string example_path(std::string_view name) {
  return std::string(KEEL_SOURCE_DIR) + "/keel/fsm/examples/" + std::string(name);
}

// The fighting game's type: animate = 0x1, physics = 0x2, controls = 0x4, dead = 0x8.
inline constexpr u32 kAnimate = 0x1;
inline constexpr u32 kPhysics = 0x2;
inline constexpr u32 kControls = 0x4;
inline constexpr u32 kDead = 0x8;

inline TypeRegistry character_types() {
  TypeRegistry types;
  FsmType& t = types.add("Character");
  EXPECT_TRUE(t.add_behaviors({"animate", "physics", "controls", "dead"}));
  return types;
}

// Compiles `source`; on failure the rendered diagnostics are in `errors`.
inline std::optional<CompiledFsms> compile_text(std::string source, const TypeRegistry& types,
                                                std::string* errors = nullptr,
                                                text::Diagnostics* diag_out = nullptr) {
  text::Diagnostics local;
  text::Diagnostics& diag = diag_out != nullptr ? *diag_out : local;
  std::unique_ptr<text::Document> doc = text::parse(std::move(source), "test.fsm", diag);
  std::optional<CompiledFsms> image;
  if (doc) image = compile(doc->first(), types, diag);
  if (errors != nullptr) *errors = doc ? diag.render(*doc) : diag.render();
  return image;
}

inline std::optional<CompiledFsms> compile_file(const std::string& path, const TypeRegistry& types,
                                                std::string* errors = nullptr) {
  text::Diagnostics diag;
  std::unique_ptr<text::Document> doc = text::parse_file(path, diag);
  std::optional<CompiledFsms> image;
  if (doc) image = compile(doc->first(), types, diag);
  if (errors != nullptr) *errors = doc ? diag.render(*doc) : diag.render();
  return image;
}

// Functions are registered on demand (declare()); everything that happens is logged.
class Recorder {
 public:
  explicit Recorder(u64 seed = 1) : env(functions, seed) {
    env.set_animation_handler([this](FsmInstance& i, const AnimationRequest& r) {
      log.push_back("anim:" + std::string(i.fsm().string(r.alias)));
      last_animation = r;
    });
    env.set_error_handler([this](FsmInstance&, std::string_view message) {
      log.push_back("error:" + std::string(message));
    });
  }

  // Registers functions that log "call:<name>".
  void declare(std::initializer_list<std::string_view> names) {
    for (std::string_view n : names) {
      std::string name(n);
      EXPECT_TRUE(
          functions.declare(name, [this, name](FsmInstance&) { log.push_back("call:" + name); }));
    }
  }
  void declare(std::string_view name, FsmFunction fn) {
    EXPECT_TRUE(functions.declare(name, std::move(fn)));
  }

  std::vector<std::string> take() {
    std::vector<std::string> out;
    out.swap(log);
    return out;
  }

  FunctionRegistry functions;
  Environment env;
  std::vector<std::string> log;
  AnimationRequest last_animation;
};

// Compiles and links sources (each may hold several FSMs); fails the test on any error.
inline std::unique_ptr<FsmLibrary> load(std::initializer_list<std::string> sources,
                                        const TypeRegistry& types) {
  auto library = std::make_unique<FsmLibrary>();
  for (const std::string& s : sources) {
    std::string errors;
    std::optional<CompiledFsms> image = compile_text(s, types, &errors);
    EXPECT_TRUE(image.has_value()) << errors;
    if (!image) return nullptr;
    EXPECT_TRUE(library->add(std::move(*image)));
  }
  const Status linked = library->link();
  EXPECT_TRUE(linked) << (linked ? "" : linked.error().to_string());
  return library;
}

inline std::string read_example(std::string_view name) {
  Result<std::string> text = read_file(example_path(name));
  EXPECT_TRUE(text.has_value());
  return text ? *text : std::string();
}

}  // namespace keel::fsm::testing
