// The one narrow interface between the build tool and a data handler (Golden Rules ch. 5: the
// book's IProject, IOutputFile and IRegister), shared by built-in handlers and plug-ins.
//
// A handler turns one asset command of a command file into one intermediate file:
//
//   bool build_blob(keel::pipeline::BuildContext& ctx) {
//     const keel::text::Token& cmd = ctx.command();               // Blob("logo", "logo.bin");
//     if (!ctx.check(cmd, {text::kString, text::kString}, {.min_params = 1})) return false;
//     keel::Result<std::string> source = ctx.find_source(cmd.param(1)->text);  // recorded
//     if (!source) return ctx.error(*cmd.param(1), source.error().message()), false;
//     if (!ctx.set_output(cmd.param(0)->text)) return false;      // the intermediate's name
//     if (ctx.up_to_date()) return true;                          // nothing changed: done
//     keel::pipeline::OutputFile* out = ctx.create_output();
//     const u32 chunk = out->add_file_chunk(name, kBlockGeneral, *source);  // copied at close()
//     out->add_item(name, "Blob", chunk);
//     return out->close();
//   }
//
// The host calls handlers concurrently (one context per call, `-j N`): a handler must not keep
// state between calls. Everything a handler needs goes through the context, so a plug-in links no
// part of the build tool; it includes this header (and may use keel::text tokens' fields).
//
// A plug-in is a shared library exporting one C function, written with KEEL_PIPELINE_PLUGIN:
//
//   void register_handlers(keel::pipeline::Registrar& r) {
//     r.add({.platform = "common", .type = "TileMap", .fn = build_tile_map, .version = 1,
//            .description = "tile maps drawn as text"});
//   }
//   KEEL_PIPELINE_PLUGIN(register_handlers)
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/log.h"
#include "keel/core/types.h"
#include "keel/text/diagnostics.h"
#include "keel/text/signature.h"
#include "keel/text/token.h"

#include <initializer_list>
#include <string>
#include <string_view>

namespace keel::text {
class Document;
}  // namespace keel::text

namespace keel::pipeline {

// Bumped whenever a class below changes shape; a plug-in built against another version is refused.
// 2: find_source and read_file return Results, log() takes keel::log::Level.
// 3: OutputFile::add_file_chunk (a chunk copied from a file in pieces, not held in memory).
inline constexpr u32 kPluginApiVersion = 3;

// The platform and asset-type name that stand for "any" in include paths and registrations.
inline constexpr std::string_view kCommon = "common";

// Block types used by the built-in handlers (the book's memory kinds; the pack's block id).
inline constexpr u16 kBlockGeneral = 0;  // metadata and data loaded into general memory

// One intermediate file being written (the book's IOutputFile). Owned by the host.
class OutputFile {
 public:
  // Copies `data` into the file and returns its locator id: block id = `block_type` in the low 16
  // bits, the chunk number (1, 2, 3, ... in this file) in the high 16 bits. `name` is the asset
  // the chunk belongs to (the name half of the chunk's 64-bit key). 0 after close() or on error.
  virtual u32 add_chunk(std::string_view name, u16 block_type, ByteSpan data,
                        u32 alignment = 4) = 0;
  // Like add_chunk with the whole file at `path` (usually a path find_source returned) as the
  // chunk's bytes, but nothing is read now: close() copies the file into the intermediate in
  // pieces, so memory does not grow with the file (Blob uses it for large sources). The file must
  // keep its size until close(); one that cannot be read, or changes size, fails close() with
  // the reason.
  virtual u32 add_file_chunk(std::string_view name, u16 block_type, std::string_view path,
                             u32 alignment = 4) = 0;
  // Adds the master-index entry of an asset: its name, type name and primary chunk.
  virtual void add_item(std::string_view name, std::string_view type, u32 primary_chunk) = 0;
  // Writes the file. Afterwards the object is closed: add_chunk/add_item report an error.
  virtual bool close() = 0;

 protected:
  virtual ~OutputFile() = default;
};

// What a handler sees of the build (the book's IProject). Valid for the duration of one call.
class BuildContext {
 public:
  // The asset command (PLATFORM already applied), with its parameters and its block.
  virtual const text::Token& command() const = 0;
  virtual std::string_view platform() const = 0;    // the target platform, e.g. "PC"
  virtual std::string_view asset_type() const = 0;  // the command name as registered

  // text::check_command with the errors going to this build's diagnostics.
  virtual bool check(const text::Token& cmd, std::initializer_list<text::ParamKinds> params,
                     const text::CommandRules& rules = {}) = 0;

  // Looks `name` up in the include paths of (platform, type), (platform, common), (common, type),
  // (common, common), in that order, and returns the absolute path of the first hit. A file found
  // is a dependency of this command's output. Not found (kNotFound) is not reported: the handler
  // decides whether the source was optional. A file found but unreadable is reported too.
  virtual Result<std::string> find_source(std::string_view name) = 0;
  // Reads a whole file (usually one find_source returned). A failure is also reported as an
  // error of this asset, so the handler may simply return false.
  virtual Result<std::string> read_file(std::string_view path) = 0;

  // Declares the intermediate this command produces (the book's SetOutputFile): its asset name.
  // A handler that never calls it leaves its asset out of the data file. Once per call.
  virtual bool set_output(std::string_view asset_name) = 0;
  // True when the declared output exists and was made by this handler version from the same
  // command and the same source contents (call after every find_source). Always false with
  // --force-rebuild.
  virtual bool up_to_date() = 0;
  // Starts writing the declared output; nullptr (with an error reported) if none was declared.
  virtual OutputFile* create_output() = 0;

  // A line in the build's output ("file:line:col: warning: message"); kError fails the asset.
  virtual void log(log::Level level, std::string_view message) = 0;
  // A located error ("file:line:col: error: message"); the build of this asset fails.
  virtual void error(const text::Token& at, std::string_view message) = 0;
  // Adds diagnostics the handler collected itself, e.g. from parsing a source file with
  // keel::text; `source` (optional) supplies the source lines shown under each message. Errors
  // among them fail the build of this asset.
  virtual void report(const text::Diagnostics& diagnostics,
                      const text::Document* source = nullptr) = 0;

 protected:
  virtual ~BuildContext() = default;
};

// A handler: true on success (errors are reported through the context).
using HandlerFn = bool (*)(BuildContext& context);

// With designated initializers, name every field (GCC warns about missing ones).
struct HandlerSpec {
  std::string_view platform = kCommon;  // a platform name, or kCommon for every platform
  std::string_view type;                // the command name it handles (case-insensitive)
  HandlerFn fn = nullptr;
  u32 version = 1;  // bump when the output changes: its intermediates are rebuilt
  std::string_view description;
};

// Handed to a plug-in's registration function (the book's IRegister).
class Registrar {
 public:
  virtual void add(const HandlerSpec& spec) = 0;

 protected:
  virtual ~Registrar() = default;
};

// The exported entry point: registers its handlers when `host_api_version` equals the version it
// was built with, and returns that version either way.
using RegisterFn = u32 (*)(Registrar* registrar, u32 host_api_version);
inline constexpr const char* kRegisterSymbol = "keel_pipeline_register";

}  // namespace keel::pipeline

// Defines a plug-in's exported registration function around `register_fn(Registrar&)`.
#define KEEL_PIPELINE_PLUGIN(register_fn)                                                  \
  extern "C" __attribute__((visibility("default"))) ::keel::u32 keel_pipeline_register(    \
      ::keel::pipeline::Registrar* registrar, ::keel::u32 host_api_version) {              \
    if (registrar != nullptr && host_api_version == ::keel::pipeline::kPluginApiVersion) { \
      register_fn(*registrar);                                                             \
    }                                                                                      \
    return ::keel::pipeline::kPluginApiVersion;                                            \
  }
