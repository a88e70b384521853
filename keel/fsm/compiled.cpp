// CompiledFsms: byte conversion, views and the accessors. Validation is in validate.cpp.
#include "keel/fsm/compiled.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"
#include "keel/fsm/opcodes.h"

namespace keel::fsm {

Status validate_image(std::span<const u32> words, std::string_view name);  // validate.cpp

namespace {

// Field indices of the records (see compiled.h).
enum FsmField : u32 {
  kFName,
  kFType,
  kFParent,
  kFInitial,
  kFRunEvent,
  kFNameStr,
  kFTypeStr,
  kFParentStr,
  kFInitialStr,
  kFStateCount,
  kFStates,
  kFDictCount,
  kFDict,
  kFFuncCount,
  kFFuncs,
  kFBehaviorCount,
  kFBehaviors,
  kFReserved,
};
enum StateField : u32 {
  kSName,
  kSBehaviors,
  kSNameStr,
  kSOptions,
  kSFlagCount,
  kSFlagNames,
  kSEventCount,
  kSEvents,
};
static_assert(kFReserved + 1 == kFsmRecordWords);
static_assert(kSEvents + 1 == kStateRecordWords);

std::vector<char> extract_pool(std::span<const u32> words) {
  const u32 offset = words[5];
  const u32 size = words[6];
  std::vector<char> pool(size);
  for (u32 i = 0; i < size; ++i) {
    pool[i] = static_cast<char>((words[offset + i / 4] >> (8 * (i % 4))) & 0xFF);
  }
  return pool;
}

}  // namespace

// ---- StateView -------------------------------------------------------------------------------

Hash StateView::name_hash() const { return image_->word(record_ + kSName); }
std::string_view StateView::name() const {
  return image_->string_at(image_->word(record_ + kSNameStr));
}
u32 StateView::behaviors() const { return image_->word(record_ + kSBehaviors); }
bool StateView::orphan() const { return (image_->word(record_ + kSOptions) & kStateOrphan) != 0; }
u32 StateView::flag_count() const { return image_->word(record_ + kSFlagCount); }
std::string_view StateView::flag_name(u32 bit) const {
  if (bit >= flag_count()) return {};
  return image_->string_at(image_->word(image_->word(record_ + kSFlagNames) + bit));
}
u32 StateView::event_count() const { return image_->word(record_ + kSEventCount); }
Hash StateView::event_hash(u32 index) const {
  return image_->word(image_->word(record_ + kSEvents) + 2 * index);
}
u32 StateView::handler_offset(u32 index) const {
  return image_->word(image_->word(record_ + kSEvents) + 2 * index + 1);
}
std::span<const u32> StateView::handler(u32 index) const {
  return image_->words().subspan(handler_offset(index));
}
std::optional<std::span<const u32>> StateView::find_handler(Hash event) const {
  u32 lo = 0;
  u32 hi = event_count();
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2;
    const Hash h = event_hash(mid);
    if (h == event) return handler(mid);
    if (h < event) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

// ---- FsmView ---------------------------------------------------------------------------------

Hash FsmView::name_hash() const { return image_->word(record_ + kFName); }
Hash FsmView::type_hash() const { return image_->word(record_ + kFType); }
Hash FsmView::initial_state_hash() const { return image_->word(record_ + kFInitial); }
Hash FsmView::run_event_hash() const { return image_->word(record_ + kFRunEvent); }
bool FsmView::has_parent() const { return image_->word(record_ + kFParentStr) != kNoString; }
Hash FsmView::parent_hash() const { return image_->word(record_ + kFParent); }
std::string_view FsmView::name() const {
  return image_->string_at(image_->word(record_ + kFNameStr));
}
std::string_view FsmView::type() const {
  return image_->string_at(image_->word(record_ + kFTypeStr));
}
std::string_view FsmView::parent() const {
  return image_->string_at(image_->word(record_ + kFParentStr));
}
std::string_view FsmView::initial_state() const {
  return image_->string_at(image_->word(record_ + kFInitialStr));
}
u32 FsmView::state_count() const { return image_->word(record_ + kFStateCount); }
StateView FsmView::state(u32 index) const {
  KEEL_ASSERT(index < state_count());
  return StateView(*image_, image_->word(image_->word(record_ + kFStates) + 2 * index + 1));
}
std::optional<StateView> FsmView::find_state(Hash name) const {
  const u32 table = image_->word(record_ + kFStates);
  u32 lo = 0;
  u32 hi = state_count();
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2;
    const Hash h = image_->word(table + 2 * mid);
    if (h == name) return StateView(*image_, image_->word(table + 2 * mid + 1));
    if (h < name) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}
u32 FsmView::dictionary_size() const { return image_->word(record_ + kFDictCount); }
Hash FsmView::dictionary_hash(u32 index) const {
  return image_->word(image_->word(record_ + kFDict) + 2 * index);
}
std::string_view FsmView::dictionary_string(u32 index) const {
  return image_->string_at(image_->word(image_->word(record_ + kFDict) + 2 * index + 1));
}
std::optional<std::string_view> FsmView::lookup(Hash hash) const {
  u32 lo = 0;
  u32 hi = dictionary_size();
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2;
    const Hash h = dictionary_hash(mid);
    if (h == hash) return dictionary_string(mid);
    if (h < hash) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}
std::span<const u32> FsmView::functions() const {
  return image_->words().subspan(image_->word(record_ + kFFuncs),
                                 image_->word(record_ + kFFuncCount));
}
u32 FsmView::behavior_count() const { return image_->word(record_ + kFBehaviorCount); }
std::string_view FsmView::behavior_name(u32 bit) const {
  if (bit >= behavior_count()) return {};
  return image_->string_at(image_->word(image_->word(record_ + kFBehaviors) + bit));
}

// ---- CompiledFsms ----------------------------------------------------------------------------

ByteBuffer CompiledFsms::to_bytes() const {
  ByteBuffer bytes(words_.size() * 4);
  for (usize i = 0; i < words_.size(); ++i) {
    for (usize b = 0; b < 4; ++b) {
      bytes[i * 4 + b] = static_cast<std::byte>((words_[i] >> (8 * b)) & 0xFF);
    }
  }
  return bytes;
}

Result<CompiledFsms> CompiledFsms::from_bytes(ByteSpan bytes, std::string_view name) {
  if (bytes.size() % 4 != 0) {
    return fail_at(SourceLocation::bytes(std::string(name), bytes.size()), ErrorCode::kCorrupt,
                   "FSM file size {} is not a multiple of 4", bytes.size());
  }
  std::vector<u32> words(bytes.size() / 4);
  for (usize i = 0; i < words.size(); ++i) {
    u32 w = 0;
    for (usize b = 0; b < 4; ++b) w |= std::to_integer<u32>(bytes[i * 4 + b]) << (8 * b);
    words[i] = w;
  }
  if (Status s = validate_image(words, name); !s) return Unexpected(s.error());
  CompiledFsms out;
  out.pool_ = extract_pool(words);
  out.words_ = std::move(words);
  return out;
}

Result<CompiledFsms> CompiledFsms::load_file(const std::filesystem::path& path) {
  Result<std::string> text = read_file(path);
  if (!text) return Unexpected(text.error());
  return from_bytes(as_bytes(*text), path.string());
}

Status CompiledFsms::save_file(const std::filesystem::path& path) const {
  const ByteBuffer bytes = to_bytes();
  return write_file_atomic(path, bytes);
}

CompiledFsms CompiledFsms::adopt(std::vector<u32> words) {
  [[maybe_unused]] const Status s = validate_image(words, "compiler output");
  KEEL_ASSERT(s.has_value(), "the FSM compiler produced an invalid image: {}",
              s ? std::string() : s.error().to_string());
  CompiledFsms out;
  out.pool_ = extract_pool(words);
  out.words_ = std::move(words);
  return out;
}

u32 CompiledFsms::fsm_count() const { return words_.empty() ? 0 : words_[3]; }

FsmView CompiledFsms::fsm(u32 index) const {
  KEEL_ASSERT(index < fsm_count());
  return FsmView(*this, words_[words_[4] + index]);
}

std::optional<FsmView> CompiledFsms::find(std::string_view name) const {
  return find(string_hash(name));
}

std::optional<FsmView> CompiledFsms::find(Hash name) const {
  for (u32 i = 0; i < fsm_count(); ++i) {
    if (fsm(i).name_hash() == name) return fsm(i);
  }
  return std::nullopt;
}

std::string_view CompiledFsms::string_at(u32 offset) const {
  if (offset == kNoString || offset >= pool_.size()) return {};
  return std::string_view(pool_.data() + offset);
}

u32 handler_length(std::span<const u32> stream) {
  u32 pc = 0;
  while (pc < stream.size()) {
    const u32 header = stream[pc];
    if (header_opcode(header) == static_cast<u8>(Opcode::kEnd)) return pc + 1;
    pc += 1 + header_length(header);
  }
  return static_cast<u32>(stream.size());
}

}  // namespace keel::fsm
