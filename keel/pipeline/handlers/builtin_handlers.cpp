#include "keel/pipeline/handlers/builtin_handlers.h"

namespace keel::pipeline {

void register_builtin_handlers(Registrar& r) {
  r.add({.platform = kCommon,
         .type = kBlobType,
         .fn = build_blob,
         .version = 1,
         .description = "a file as one chunk"});
  r.add({.platform = kCommon,
         .type = kScriptType,
         .fn = build_script,
         .version = 1,
         .description = "compiled scripts (keel::script)"});
  r.add({.platform = kCommon,
         .type = kFsmType,
         .fn = build_fsm,
         .version = 1,
         .description = "compiled state machines (keel::fsm)"});
  r.add({.platform = kCommon,
         .type = kStringTableType,
         .fn = build_string_table,
         .version = 1,
         .description = "a localized string table, every language"});
}

}  // namespace keel::pipeline
