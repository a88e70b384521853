// The handlers built into the build tool (target keel::pipeline_handlers, the only part of the
// pipeline that links keel::script, keel::fsm and keel::hashing). A tool registers them with
// register_builtin_handlers(registry), like a plug-in that is linked in. Command-file forms
// (names, strings and numbers as in the shared text syntax; sources are looked up in the include
// paths):
//
//   Blob("logo", "logo.bin");                     // a file as one chunk (source defaults to
//   Blob("logo") { Alignment(16); BlockType(2); } //   the name); options in a block
//   Script("ai", "ai.script");                    // every SCRIPT(...) of a file, compiled
//   SCRIPT("patrol") { PAUSE(5); ... }            // one script written in the command file
//   FSM("guard", "guard.fsm");                    // every FSM of a file, compiled
//   FSM("guard", "guard.fsm", "fsm_types.txt");   //   with a type description (keel::fsm)
//   FSM("door", "Door") { ... }                   // one FSM written in the command file
//   StringTable("ui", "keys.txt")                 // a localized string table
//   {
//       Language("english", "english.txt");
//       Language("french", "french.txt");
//   }
//
// Every one writes one asset of its type ("Blob", "Script", "FSM", "StringTable") whose primary
// chunk is in block kBlockGeneral: the raw bytes, script::Library::to_bytes(),
// fsm::CompiledFsms::to_bytes(), or the string_table_asset.h format.
#pragma once

#include "keel/pipeline/handler.h"

#include <string_view>

namespace keel::pipeline {

inline constexpr std::string_view kBlobType = "Blob";
inline constexpr std::string_view kScriptType = "Script";
inline constexpr std::string_view kFsmType = "FSM";
inline constexpr std::string_view kStringTableType = "StringTable";

bool build_blob(BuildContext& context);
bool build_script(BuildContext& context);
bool build_fsm(BuildContext& context);
bool build_string_table(BuildContext& context);

// Registers the four for the common platform.
void register_builtin_handlers(Registrar& registrar);

}  // namespace keel::pipeline
