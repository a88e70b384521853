// Test fixture: a shared library without keel_pipeline_register (check 58: refused, unloaded).
extern "C" __attribute__((visibility("default"))) int keel_something_else() { return 42; }
