// Ogg Vorbis sources through stb_vorbis (libstb), decoded in a child process.
//
// stb_vorbis 1.22 (Debian's) is not safe on hostile input: damaged setup headers make it write
// out of bounds or free wild pointers (CVE-2023-45675 .. 45682; our fuzz target found them in
// seconds). A source file is external data, so the build decodes it in a forked child that
// streams the samples back through a pipe: a file that crashes the decoder becomes a located
// error of that asset instead of a crash of keel-build. The runtime streams only Vorbis data
// that this decode accepted (Stream(true) chunks).
#include "keel/assets/build/sound_source.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstring>
#include <memory>
#include <string>

// libstb-dev ships stb_vorbis's implementation in libstb: this is the declarations only.
#define STB_VORBIS_HEADER_ONLY
#include <stb/stb_vorbis.h>

namespace keel::assets {
namespace {

constexpr u32 kVorbisMinRate = 1000;
constexpr u32 kVorbisMaxRate = 192000;
constexpr usize kArenaBytes = 4u << 20;  // stb_vorbis allocates only from here

enum class ChildStatus : s32 { kOk = 0, kOpenFailed = 1, kUnsupported = 2 };

struct ChildHeader {
  ChildStatus status = ChildStatus::kOk;
  s32 error = 0;  // stb_vorbis's error code
  u32 rate = 0;
  u32 channels = 0;
};

bool write_all(int fd, const void* data, usize size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<usize>(n);
  }
  return true;
}

usize read_full(int fd, void* data, usize size) {
  char* p = static_cast<char*>(data);
  usize got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, p + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<usize>(n);
  }
  return got;
}

// The child: header, then blocks of interleaved float samples until the stream ends.
[[noreturn]] void decode_in_child(ByteSpan b, int fd) {
  std::unique_ptr<char[]> arena(new (std::nothrow) char[kArenaBytes]);
  ChildHeader header;
  stb_vorbis_alloc alloc{arena.get(), static_cast<int>(kArenaBytes)};
  int error = 0;
  stb_vorbis* v = arena == nullptr
                      ? nullptr
                      : stb_vorbis_open_memory(reinterpret_cast<const unsigned char*>(b.data()),
                                               static_cast<int>(b.size()), &error, &alloc);
  if (v == nullptr) {
    header.status = ChildStatus::kOpenFailed;
    header.error = error;
    write_all(fd, &header, sizeof header);
    ::_exit(0);
  }
  const stb_vorbis_info info = stb_vorbis_get_info(v);
  header.rate = info.sample_rate;
  header.channels = static_cast<u32>(info.channels);
  if (info.channels < 1 || info.channels > 2 || info.sample_rate < kVorbisMinRate ||
      info.sample_rate > kVorbisMaxRate) {
    header.status = ChildStatus::kUnsupported;
  }
  if (!write_all(fd, &header, sizeof header) || header.status != ChildStatus::kOk) ::_exit(0);
  constexpr int kBlockFrames = 4096;
  float block[kBlockFrames * 2];
  for (;;) {
    const int n = stb_vorbis_get_samples_float_interleaved(v, info.channels, block,
                                                           kBlockFrames * info.channels);
    if (n <= 0) break;
    if (!write_all(fd, block, sizeof(float) * static_cast<usize>(n) * header.channels)) break;
  }
  ::_exit(0);
}

Unexpected bad(std::string_view name, ErrorCode code, std::string_view what) {
  return fail_at(SourceLocation::bytes(std::string(name), 0), code, "{}", what);
}

// The parent: reads the child's samples (at most kMaxSourceFrames) and checks how it ended.
Result<DecodedSound> collect(int fd, pid_t child, std::string_view name) {
  DecodedSound out;
  ChildHeader header;
  bool too_long = false;
  const bool have_header = read_full(fd, &header, sizeof header) == sizeof header;
  if (have_header && header.status == ChildStatus::kOk) {
    out.sample_rate = header.rate;
    out.channels = static_cast<u16>(header.channels);
    constexpr usize kChunk = 1u << 16;  // floats per read
    for (;;) {
      const usize old = out.samples.size();
      out.samples.resize(old + kChunk);
      const usize got = read_full(fd, out.samples.data() + old, kChunk * sizeof(float));
      out.samples.resize(old + got / sizeof(float));
      if (got < kChunk * sizeof(float)) break;
      if (out.frames() > kMaxSourceFrames) {
        too_long = true;
        ::kill(child, SIGKILL);
        break;
      }
    }
  }
  ::close(fd);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (too_long) return bad(name, ErrorCode::kUnsupported, "Ogg Vorbis longer than 2^26 frames");
  if (!have_header || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return bad(name, ErrorCode::kCorrupt,
               "damaged Ogg Vorbis data: the decoder (stb_vorbis) failed on it");
  }
  if (header.status == ChildStatus::kOpenFailed) {
    return fail_at(SourceLocation::bytes(std::string(name), 0), ErrorCode::kCorrupt,
                   "not a readable Ogg Vorbis stream (stb_vorbis error {})", header.error);
  }
  if (header.status == ChildStatus::kUnsupported) {
    return bad(name, ErrorCode::kUnsupported,
               "Ogg Vorbis: only mono or stereo at 1 kHz .. 192 kHz is read");
  }
  out.samples.resize(out.samples.size() - out.samples.size() % out.channels);
  if (out.samples.empty())
    return bad(name, ErrorCode::kCorrupt, "Ogg Vorbis stream holds no audio");
  for (float& s : out.samples) s = std::isfinite(s) ? s : 0.0f;
  return out;
}

}  // namespace

Result<DecodedSound> read_ogg_vorbis(ByteSpan b, std::string_view name) {
  if (!is_ogg(b)) return bad(name, ErrorCode::kCorrupt, "not an Ogg file");
  if (b.size() > INT_MAX) return bad(name, ErrorCode::kUnsupported, "Ogg file over 2 GiB");
  int fds[2];
  if (::pipe(fds) != 0) {
    return fail(ErrorCode::kIo, "{}: cannot make a pipe for the decoder: {}", name,
                std::strerror(errno));
  }
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return fail(ErrorCode::kIo, "{}: cannot start the decoder: {}", name, std::strerror(errno));
  }
  if (child == 0) {
    ::close(fds[0]);
    decode_in_child(b, fds[1]);
  }
  ::close(fds[1]);
  return collect(fds[0], child, name);
}

}  // namespace keel::assets
