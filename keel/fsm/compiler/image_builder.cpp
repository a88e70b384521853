#include "keel/fsm/compiler/detail/image_builder.h"

#include <algorithm>

namespace keel::fsm {

namespace {

class Layout {
 public:
  CompiledFsms build(const std::vector<BuiltFsm>& fsms) {
    words_.assign(kHeaderWords, 0);
    words_[0] = kFileMagic;
    words_[1] = kFileVersion;
    words_[3] = static_cast<u32>(fsms.size());
    words_[4] = reserve(static_cast<u32>(fsms.size()));
    for (usize i = 0; i < fsms.size(); ++i) words_[words_[4] + i] = fsm(fsms[i]);
    // Streams, then the string pool.
    for (const Patch& p : stream_patches_) words_[p.at] = stream_offsets_[p.index];
    words_[5] = static_cast<u32>(words_.size());
    std::vector<u32> pool_words((pool_.size() + 3) / 4, 0);
    for (usize i = 0; i < pool_.size(); ++i) {
      pool_words[i / 4] |= static_cast<u32>(static_cast<u8>(pool_[i])) << (8 * (i % 4));
    }
    words_.insert(words_.end(), pool_words.begin(), pool_words.end());
    words_[6] = static_cast<u32>(pool_words.size() * 4);
    words_[2] = static_cast<u32>(words_.size());
    return CompiledFsms::adopt(std::move(words_));
  }

 private:
  struct Patch {
    u32 at;
    u32 index;
  };

  u32 reserve(u32 count) {
    const u32 at = static_cast<u32>(words_.size());
    words_.resize(words_.size() + count, 0);
    return at;
  }

  u32 string(const std::string& text) {
    auto [it, fresh] = strings_.try_emplace(text, static_cast<u32>(pool_.size()));
    if (fresh) {
      pool_ += text;
      pool_ += '\0';
    }
    return it->second;
  }

  // Streams are laid out after all records; identical streams share one copy.
  u32 stream(const std::vector<u32>& words) {
    auto [it, fresh] = stream_index_.try_emplace(words, static_cast<u32>(stream_offsets_.size()));
    if (fresh) {
      stream_offsets_.push_back(0);
      pending_streams_.push_back(&it->first);
    }
    return it->second;
  }

  u32 fsm(const BuiltFsm& f) {
    const u32 rec = reserve(kFsmRecordWords);
    words_[rec + 0] = string_hash(f.name);
    words_[rec + 1] = string_hash(f.type);
    words_[rec + 2] = f.parent ? string_hash(*f.parent) : 0;
    words_[rec + 3] = string_hash(f.initial_state);
    words_[rec + 4] = string_hash(f.run_event);
    words_[rec + 5] = string(f.name);
    words_[rec + 6] = string(f.type);
    words_[rec + 7] = f.parent ? string(*f.parent) : kNoString;
    words_[rec + 8] = string(f.initial_state);

    std::vector<const BuiltState*> states;
    for (const BuiltState& s : f.states) states.push_back(&s);
    std::sort(states.begin(), states.end(), [](const BuiltState* a, const BuiltState* b) {
      return string_hash(a->name) < string_hash(b->name);
    });
    words_[rec + 9] = static_cast<u32>(states.size());
    const u32 state_table = reserve(static_cast<u32>(states.size() * 2));
    words_[rec + 10] = state_table;

    words_[rec + 11] = static_cast<u32>(f.dictionary.size());
    const u32 dict = reserve(static_cast<u32>(f.dictionary.size() * 2));
    words_[rec + 12] = dict;
    u32 i = 0;
    for (const auto& [hash, text] : f.dictionary) {
      words_[dict + 2 * i] = hash;
      words_[dict + 2 * i + 1] = string(text);
      ++i;
    }

    std::vector<Hash> functions = f.functions;
    std::sort(functions.begin(), functions.end());
    functions.erase(std::unique(functions.begin(), functions.end()), functions.end());
    words_[rec + 13] = static_cast<u32>(functions.size());
    const u32 funcs = reserve(static_cast<u32>(functions.size()));
    words_[rec + 14] = funcs;
    std::copy(functions.begin(), functions.end(), words_.begin() + funcs);

    words_[rec + 15] = static_cast<u32>(f.behaviors.size());
    const u32 behaviors = reserve(static_cast<u32>(f.behaviors.size()));
    words_[rec + 16] = behaviors;
    for (usize b = 0; b < f.behaviors.size(); ++b) words_[behaviors + b] = string(f.behaviors[b]);

    for (usize s = 0; s < states.size(); ++s) {
      words_[state_table + 2 * s] = string_hash(states[s]->name);
      words_[state_table + 2 * s + 1] = state(*states[s]);
    }
    flush_streams();
    return rec;
  }

  u32 state(const BuiltState& s) {
    const u32 rec = reserve(kStateRecordWords);
    words_[rec + 0] = string_hash(s.name);
    words_[rec + 1] = s.behaviors;
    words_[rec + 2] = string(s.name);
    words_[rec + 3] = s.orphan ? kStateOrphan : 0;
    words_[rec + 4] = static_cast<u32>(s.flags.size());
    const u32 flags = reserve(static_cast<u32>(s.flags.size()));
    words_[rec + 5] = flags;
    for (usize f = 0; f < s.flags.size(); ++f) words_[flags + f] = string(s.flags[f]);
    words_[rec + 6] = static_cast<u32>(s.handlers.size());
    const u32 events = reserve(static_cast<u32>(s.handlers.size() * 2));
    words_[rec + 7] = events;
    u32 e = 0;
    for (const auto& [hash, words] : s.handlers) {  // std::map: sorted by hash
      words_[events + 2 * e] = hash;
      stream_patches_.push_back(Patch{events + 2 * e + 1, stream(words)});
      ++e;
    }
    return rec;
  }

  // Appends the streams gathered so far (after each FSM's records).
  void flush_streams() {
    for (const std::vector<u32>* s : pending_streams_) {
      const u32 index = stream_index_.at(*s);
      stream_offsets_[index] = static_cast<u32>(words_.size());
      words_.insert(words_.end(), s->begin(), s->end());
    }
    pending_streams_.clear();
  }

  std::vector<u32> words_;
  std::string pool_;
  std::map<std::string, u32> strings_;
  std::map<std::vector<u32>, u32> stream_index_;
  std::vector<u32> stream_offsets_;
  std::vector<const std::vector<u32>*> pending_streams_;
  std::vector<Patch> stream_patches_;
};

}  // namespace

CompiledFsms build_image(const std::vector<BuiltFsm>& fsms) { return Layout().build(fsms); }

}  // namespace keel::fsm
