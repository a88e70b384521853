// Test fixture: what a plug-in built against interface version 2 (before
// OutputFile::add_file_chunk) answers; the host refuses it, naming both versions.
#include "keel/pipeline/handler.h"

extern "C" __attribute__((visibility("default"))) keel::u32 keel_pipeline_register(
    keel::pipeline::Registrar*, keel::u32) {
  return 2;
}
