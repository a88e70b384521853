#include "keel/save/save_file.h"

#include "keel/core/file.h"
#include "keel/save/detail/session.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace keel::save {

using Mode = SaveFile::Impl::Mode;
using Phase = SaveFile::Impl::Phase;

namespace {

constexpr u8 kDataSection = 'D';

Error usage(std::string message) { return Error(ErrorCode::kInvalidArgument, std::move(message)); }

}  // namespace

Status SaveObject::pre_save(SaveFile& file) { return file.pre_save_template(*this); }
Status SaveObject::save(SaveFile& file) { return file.save_template(*this); }
Status SaveObject::pre_load(SaveFile& file) { return file.pre_load_template(*this); }
Status SaveObject::load(SaveFile& file) { return file.load_template(*this); }

SaveFile::SaveFile(const SaveSystem& system) : impl_(std::make_unique<Impl>()) {
  impl_->system = &system;
  impl_->active = &system.impl();
}

SaveFile::~SaveFile() {
  if (impl_ != nullptr) {
    detail::release_marks(*impl_);
    detail::give_buffers(*impl_);
  }
}

void detail::delete_buffers(SessionBuffers* buffers) { delete buffers; }

void detail::take_buffers(SaveFile::Impl& s, bool body) {
  std::unique_ptr<SessionBuffers, void (*)(SessionBuffers*)> spare{nullptr, &delete_buffers};
  s.buffers_from = s.active;
  {
    std::lock_guard lock(s.active->spare_mutex);
    spare = std::move(s.active->spare);
  }
  if (spare == nullptr) return;
  s.objects = std::move(spare->objects);
  s.info = std::move(spare->info);
  s.links = std::move(spare->links);
  s.blocks = std::move(spare->blocks);
  s.object_block = std::move(spare->object_block);
  s.object_index = std::move(spare->object_index);
  s.targets = std::move(spare->targets);
  s.created_raw = std::move(spare->created_raw);
  s.file = std::move(spare->file);
  if (body) s.body = std::move(spare->body);
}

void detail::give_buffers(SaveFile::Impl& s) {
  const SaveSystem::Impl* owner = std::exchange(s.buffers_from, nullptr);
  if (owner == nullptr) return;
  std::unique_ptr<SessionBuffers, void (*)(SessionBuffers*)> spare{new SessionBuffers,
                                                                   &delete_buffers};
  spare->objects = std::move(s.objects);
  spare->info = std::move(s.info);
  spare->links = std::move(s.links);
  spare->blocks = std::move(s.blocks);
  spare->object_block = std::move(s.object_block);
  spare->object_index = std::move(s.object_index);
  spare->targets = std::move(s.targets);
  spare->created_raw = std::move(s.created_raw);
  spare->body = std::move(s.body);
  spare->file = std::move(s.file);
  spare->objects.clear();
  spare->info.clear();
  spare->links.clear();
  spare->blocks.clear();
  spare->object_block.clear();
  if (!spare->object_index.empty()) spare->object_index.clear();
  spare->targets.clear();
  spare->created_raw.clear();
  spare->body.clear();
  spare->file.clear();
  std::lock_guard lock(owner->spare_mutex);
  owner->spare = std::move(spare);  // the last session's: the next one is most like it
}

Status SaveFile::begin_save(const std::filesystem::path& path, SaveOptions options) {
  Impl& s = *impl_;
  if (s.mode == Mode::kSaving || s.mode == Mode::kLoading) {
    return s.fail(usage("begin_save() while a session is open; call end() first"));
  }
  const SaveSystem* system = s.system;
  detail::release_marks(s);
  detail::give_buffers(s);
  *impl_ = Impl{};
  s.system = system;
  s.active = &system->impl();
  detail::take_buffers(s, true);
  s.marks = detail::claim_marks();
  s.check_marks = s.marks && detail::marks_may_be_stale();
  s.mode = Mode::kSaving;
  s.path = path;
  s.options = options;
  const auto& hint = s.active->last_save;
  const auto objects = static_cast<usize>(hint.objects.load(std::memory_order_relaxed));
  s.objects.reserve(objects);
  s.info.reserve(objects);
  if (!s.marks) s.object_index.reserve(objects);  // the address hash is the fallback
  s.blocks.reserve(objects);                      // each object's own block, plus the caller's few
  s.object_block.reserve(objects);
  s.links.reserve(static_cast<usize>(hint.links.load(std::memory_order_relaxed)));
  s.body.reserve(static_cast<usize>(hint.body.load(std::memory_order_relaxed)));
  if (options.compression == Compression::kNone) {
    s.body_at = static_cast<usize>(hint.prefix.load(std::memory_order_relaxed));
    s.body.resize(s.body_at);
  }
  detail::Writer w(s.body);
  w.blob(s.active->schema);
  return {};
}

Status SaveFile::begin_load(const std::filesystem::path& path, LoadLimits limits) {
  Impl& s = *impl_;
  if (s.mode == Mode::kSaving || s.mode == Mode::kLoading) {
    return s.fail(usage("begin_load() while a session is open; call end() first"));
  }
  auto text = read_file(path);
  if (!text) {
    s.mode = Mode::kLoading;
    return s.fail(text.error());
  }
  auto st = begin_load_from(as_bytes(*text), limits, false);  // (`text` ends here: a copy)
  if (!st && s.error) {
    SourceLocation where = s.error->where();
    where.file = path.string();
    s.error = Error(s.error->code(), s.error->message(), where);
    return Unexpected(*s.error);
  }
  return st;
}

Status SaveFile::begin_load_bytes(ByteSpan file, LoadLimits limits) {
  return begin_load_from(file, limits, false);
}

Status SaveFile::begin_load_in_place(ByteSpan file, LoadLimits limits) {
  return begin_load_from(file, limits, true);
}

Status SaveFile::begin_load_from(ByteSpan file, LoadLimits limits, bool view) {
  Impl& s = *impl_;
  if (s.mode == Mode::kSaving || s.mode == Mode::kLoading) {
    return s.fail(usage("begin_load() while a session is open; call end() first"));
  }
  const SaveSystem* system = s.system;
  detail::release_marks(s);
  detail::give_buffers(s);
  *impl_ = Impl{};
  s.system = system;
  s.active = &system->impl();
  detail::take_buffers(s, true);  // a compressed or copied body is decoded into its buffer
  s.mode = Mode::kLoading;
  ByteSpan body;
  auto decoded = decode_file_into(file, s.body, body, view, limits);
  if (!decoded) return s.fail(decoded.error());
  s.header = std::move(decoded->client);
  const u64 version = decoded->version;
  if (version != s.active->version) {
    const SaveSystem::Impl::Migration* found = nullptr;
    for (const auto& m : s.active->migrations) {
      if (m.previous->version() == version) found = &m;
    }
    if (found == nullptr) {
      return s.fail(Error(ErrorCode::kUnsupported,
                          fmt::format("save made with another save format (version {:016x}; "
                                      "this build reads {:016x}): the save templates changed",
                                      version, s.active->version)));
    }
    s.active = &found->previous->impl();
    s.upgrade = found->upgrade ? &found->upgrade : nullptr;
  }
  s.reader = detail::Reader(body);
  u32 schema_size = 0;
  if (!s.reader.value(schema_size) || !s.reader.skip(schema_size)) {
    return s.fail(Error(ErrorCode::kCorrupt, "save body ends inside its schema"));
  }
  return {};
}

Status SaveFile::end(Status result) {
  Impl& s = *impl_;
  if (s.mode != Mode::kSaving && s.mode != Mode::kLoading) {
    if (!result) return result;
    return s.fail(usage("end() without begin_save()/begin_load()"));
  }
  const Mode mode = s.mode;
  detail::release_marks(s);
  if (mode == Mode::kSaving && result && !s.error) {
    s.active->last_save.body.store(s.body.size(), std::memory_order_relaxed);
  }
  s.mode = Mode::kDone;
  s.phase = Phase::kNone;
  s.blocks.clear();
  s.object_block.clear();
  s.objects.clear();
  s.info.clear();
  s.links.clear();
  s.targets.clear();
  if (!s.object_index.empty()) s.object_index.clear();  // clear() rewrites the whole table
  if (!result) s.error.reset();
  if (!result || s.error) {
    s.created.clear();
    s.created_raw.clear();
    s.loaded.clear();
    s.file.clear();
    return result ? Status(Unexpected(*s.error)) : result;
  }
  if (mode == Mode::kLoading) {
    // Unread client data after the last set is allowed (the book's "loaded or skipped").
    if (s.loaded.empty()) {
      s.loaded = std::move(s.created);
    } else {
      for (auto& object : s.created) s.loaded.push_back(std::move(object));
    }
    s.created.clear();
    s.created_raw.clear();
    return {};
  }
  FileHeader header;
  header.compression = s.options.compression;
  header.version = s.active->version;
  header.client = s.header;
  if (header.compression == Compression::kNone) {
    auto prefix = uncompressed_prefix_size(header, s.body.size() - s.body_at);
    if (!prefix) return s.fail(prefix.error());
    s.active->last_save.prefix.store(*prefix, std::memory_order_relaxed);
    if (*prefix == s.body_at) {  // the room before the body fits: no copy
      if (auto st = encode_file_in_place(header, s.body, s.body_at); !st) return s.fail(st.error());
      std::swap(s.file, s.body);
      s.body_in_file = true;
    }
  }
  if (!s.body_in_file) {
    const ByteSpan body = ByteSpan(s.body).subspan(s.body_at);
    if (auto st = encode_file_into(header, body, s.options.level, s.file); !st) {
      s.file.clear();
      return s.fail(st.error());
    }
  }
  if (!s.path.empty()) {
    auto st = write_file_atomic(s.path, ByteSpan(s.file));
    if (!st) return s.fail(st.error());
  }
  return {};
}

void SaveFile::set_header(ClientHeader header) { impl_->header = std::move(header); }
const ClientHeader& SaveFile::header() const { return impl_->header; }

Status SaveFile::put(ByteSpan data) {
  Impl& s = *impl_;
  KEEL_SAVE_TRY(s.check());
  if (s.mode != Mode::kSaving) return s.fail(usage("put() outside a save session"));
  if (s.phase == Phase::kPreSave) {
    return s.fail(Error(ErrorCode::kRefused,
                        "put() during pre-save: writes are disabled until the save pass"));
  }
  if (s.phase == Phase::kSave) {
    detail::Writer w(s.extras);
    if (s.extras_object != s.current) {
      s.extras_object = s.current;
      w.u32v(s.current);
      s.extras_len_at = s.extras.size();
      w.u32v(0);
    }
    w.bytes(data.data(), data.size());
    u32 len = 0;
    std::memcpy(&len, s.extras.data() + s.extras_len_at, 4);
    len += static_cast<u32>(data.size());
    std::memcpy(s.extras.data() + s.extras_len_at, &len, 4);
    return {};
  }
  detail::Writer w(s.body);
  if (s.open_data_at == 0) {
    w.value(kDataSection);
    s.open_data_at = s.body.size();
    w.u64v(0);
  }
  w.bytes(data.data(), data.size());
  u64 len = 0;
  std::memcpy(&len, s.body.data() + s.open_data_at, 8);
  len += data.size();
  std::memcpy(s.body.data() + s.open_data_at, &len, 8);
  return {};
}

Status SaveFile::get(MutableByteSpan data) {
  Impl& s = *impl_;
  KEEL_SAVE_TRY(s.check());
  if (s.mode != Mode::kLoading) return s.fail(usage("get() outside a load session"));
  if (s.phase == Phase::kPreLoad) {
    return s.fail(usage("get() during pre-load: the object data is read in the load pass"));
  }
  if (s.phase == Phase::kLoad) {
    if (!s.extra_reader.bytes(data.data(), data.size())) {
      return s.fail(Error(ErrorCode::kCorrupt,
                          fmt::format("object {} reads {} bytes of custom data past what it "
                                      "saved",
                                      s.current, data.size())));
    }
    return {};
  }
  usize done = 0;
  while (done < data.size()) {
    if (s.data_left == 0) {
      u8 tag = 0;
      u64 len = 0;
      if (!s.reader.value(tag) || tag != kDataSection || !s.reader.value(len) ||
          len > s.reader.remaining()) {
        return s.fail(Error(ErrorCode::kCorrupt,
                            fmt::format("get() of {} bytes reads past the client data at body "
                                        "byte {}",
                                        data.size(), s.reader.pos())));
      }
      s.data_left = len;
    }
    const usize n = static_cast<usize>(std::min<u64>(s.data_left, data.size() - done));
    s.reader.bytes(data.data() + done, n);
    s.data_left -= n;
    done += n;
  }
  return {};
}

u64 SaveFile::readable_bound() const {
  const Impl& s = *impl_;
  if (s.mode != Mode::kLoading) return 0;
  if (s.phase == Phase::kLoad) return s.extra_reader.remaining();
  return s.reader.remaining();
}

u32 SaveFile::declare_block(const void* base, usize length) {
  Impl& s = *impl_;
  if (s.error) return 0;
  if (s.mode != Mode::kSaving && s.mode != Mode::kLoading) {
    s.fail(usage("declare_block() outside a session"));
    return 0;
  }
  if (base == nullptr || length == 0 || length > UINT32_MAX) {
    s.fail(
        usage(fmt::format("declare_block(): a block needs an address and 1..4 GiB of length "
                          "(got {} bytes)",
                          length)));
    return 0;
  }
  s.blocks.push_back(Impl::Block{static_cast<const std::byte*>(base), length});
  s.object_block.push_back(0);
  return static_cast<u32>(s.blocks.size());
}

u32 SaveFile::declare_object(SaveObject* object) {
  Impl& s = *impl_;
  if (s.error) return 0;
  if (s.mode != Mode::kSaving) {
    s.fail(usage(s.mode == Mode::kLoading
                     ? "declare_object() while loading: objects come from the file"
                     : "declare_object() outside a save session"));
    return 0;
  }
  if (object == nullptr) {
    s.fail(usage("declare_object(nullptr)"));
    return 0;
  }
  return detail::add_object(s, object);
}

std::vector<std::unique_ptr<SaveObject>> SaveFile::take_objects() {
  return std::exchange(impl_->loaded, {});
}

std::span<SaveObject* const> SaveFile::loaded() const { return impl_->created_raw; }
const ByteBuffer& SaveFile::bytes() const { return impl_->file; }
ByteSpan SaveFile::body() const {
  const Impl& s = *impl_;
  return ByteSpan(s.body_in_file ? s.file : s.body).subspan(s.body_at);
}
usize SaveFile::object_count() const { return impl_->objects.size(); }
usize SaveFile::block_count() const { return impl_->blocks.size(); }
Status SaveFile::status() const { return impl_->check(); }

}  // namespace keel::save
