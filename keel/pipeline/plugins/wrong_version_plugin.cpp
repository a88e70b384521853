// Test fixture: a plug-in built against another interface version (refused, unloaded).
#include "keel/pipeline/handler.h"

extern "C" __attribute__((visibility("default"))) keel::u32 keel_pipeline_register(
    keel::pipeline::Registrar*, keel::u32) {
  return keel::pipeline::kPluginApiVersion + 1;
}
