#include "keel/save/testing/book_objects.h"

namespace keel::save::testing {

KEEL_SAVE_TEMPLATE(ExObj1) = {
    KEEL_SAVEDEF(ExObj1),          KEEL_SAVEPOBJ(ExObj1, nextObject), KEEL_SAVEDATA(ExObj1, objID),
    KEEL_SAVEPTR(ExObj1, objName), KEEL_SAVEDATA(ExObj1, matrix),     KEEL_SAVEEND(),
};

KEEL_SAVE_TEMPLATE(ExObj2) = {
    KEEL_SAVEDEF(ExObj2),
    KEEL_SAVEBASE(ExObj2, ExObj1),
    KEEL_SAVEDATA(ExObj2, velocity),
    KEEL_SAVEDATA(ExObj2, health),
    KEEL_SAVEDATA(ExObj2, maxHealth),
    KEEL_SAVEDATA(ExObj2, buf),
    KEEL_DONTSAVE(ExObj2, cache),
    KEEL_SAVEEND(),
};

KEEL_SAVE_TEMPLATE(ExObj3) = {
    KEEL_SAVEDEF(ExObj3),
    KEEL_SAVEBASE(ExObj3, ExObj1),
    KEEL_SAVEPTR(ExObj3, watched),
    KEEL_SAVEPTR(ExObj3, inBuf),
    KEEL_SAVEEND(),
};

KEEL_SAVE_TEMPLATE(ExObj4) = {
    KEEL_SAVEDEF(ExObj4),
    KEEL_SAVEBASE(ExObj4, ExObj1),
    KEEL_DONTSAVE(ExObj4, samples),
    KEEL_SAVEEND(),
};

Status ExObj1::load(SaveFile& file) {
  ++load_calls;
  return SaveObject::load(file);
}

Status ExObj2::pre_save(SaveFile& file) {
  if (auto st = ExObj1::pre_save(file); !st) return st;
  file.declare_block(buf, sizeof buf);
  return file.status();
}

Status ExObj2::pre_load(SaveFile& file) {
  if (auto st = ExObj1::pre_load(file); !st) return st;
  file.declare_block(buf, sizeof buf);
  return file.status();
}

Status ExObj4::save(SaveFile& file) {
  if (auto st = ExObj1::save(file); !st) return st;
  if (auto st = file.put_value(static_cast<u32>(samples.size())); !st) return st;
  return file.put(std::as_bytes(std::span(samples)));
}

Status ExObj4::load(SaveFile& file) {
  if (auto st = ExObj1::load(file); !st) return st;
  u32 count = 0;
  if (auto st = file.get_value(count); !st) return st;
  if (count > 1u << 16) return fail(ErrorCode::kCorrupt, "ExObj4: {} samples", count);
  samples.resize(read_one_too_few && count > 0 ? count - 1 : count);
  return file.get(std::as_writable_bytes(std::span(samples)));
}

KEEL_SAVE_TEMPLATE(PlainNode) = {KEEL_SAVEDEF(PlainNode),          KEEL_SAVEDATA(PlainNode, id),
                                 KEEL_SAVEPOBJ(PlainNode, next),   KEEL_SAVEPOBJ(PlainNode, leaf),
                                 KEEL_SAVEPTR(PlainNode, watched), KEEL_SAVEEND()};
KEEL_SAVE_TEMPLATE(PlainLeaf) = {KEEL_SAVEDEF(PlainLeaf), KEEL_SAVEDATA(PlainLeaf, weight),
                                 KEEL_SAVEPOBJ(PlainLeaf, owner), KEEL_SAVEPTR(PlainLeaf, name),
                                 KEEL_SAVEEND()};

SaveSystem plain_system() { return SaveSystem({type<PlainNode>(), type<PlainLeaf>()}); }

Result<ByteBuffer> save_plain_scene(const SaveSystem& system, char* level, SaveOptions options,
                                    ByteBuffer* body) {
  PlainNode nodes[4];
  PlainLeaf leaves[4];
  for (u32 i = 0; i < 4; ++i) {
    nodes[i].id = 40 + i;
    nodes[i].next = &nodes[(i + 1) % 4];
    nodes[i].leaf = &leaves[i];
    nodes[i].watched = &leaves[(i + 1) % 4].weight;
    leaves[i].weight = 50 + i;
    leaves[i].owner = &nodes[i];
    leaves[i].name = level + 2 * i;
  }
  SaveFile file(system);
  Status st = file.begin_save({}, options);
  if (st) st = file.put_value(u32{0xABCD});
  if (st) {
    file.declare_block(level, 64);
    file.declare_object(&nodes[0]);
    st = file.process_objects();
  }
  st = file.end(st);
  if (!st) return Unexpected(st.error());
  if (body != nullptr) body->assign(file.body().begin(), file.body().end());
  return file.bytes();
}

KEEL_SAVE_TEMPLATE(Badge) = {KEEL_SAVEDEF(Badge), KEEL_SAVEDATA(Badge, rank),
                             KEEL_SAVEDATA(Badge, medals), KEEL_SAVEEND()};

SaveSystem book_system() {
  return SaveSystem({type<ExObj1>(), type<ExObj2>(), type<ExObj3>(), type<ExObj4>()});
}

BookScene::BookScene() {
  a.objID = 10;
  b.objID = 20;
  c.objID = 30;
  a.nextObject = &b;
  b.nextObject = &c;
  c.nextObject = &a;
  a.objName = level;
  b.objName = level + 6;
  b.health = 77;
  b.maxHealth = 100;
  b.matrix[3][3] = 1.5f;
  b.velocity[1] = 2.5f;
}

Result<ByteBuffer> save_scene(const SaveSystem& system, BookScene& scene, SaveOptions options) {
  SaveFile file(system);
  Status st = file.begin_save({}, options);
  if (st) st = file.put_value(u32{0xABCD});
  if (st) {
    file.declare_block(scene.level, sizeof scene.level);
    file.declare_object(&scene.a);
    st = file.process_objects();
  }
  st = file.end(st);
  if (!st) return Unexpected(st.error());
  return file.bytes();
}

Result<std::vector<std::unique_ptr<SaveObject>>> round_trip(const SaveSystem& system,
                                                            SaveObject& root) {
  SaveFile out(system);
  Status st = out.begin_save({});
  out.declare_object(&root);
  if (st) st = out.process_objects();
  if (st = out.end(st); !st) return Unexpected(st.error());
  SaveFile in(system);
  st = in.begin_load_bytes(out.bytes());
  if (st) st = in.process_objects();
  if (st = in.end(st); !st) return Unexpected(st.error());
  return in.take_objects();
}

}  // namespace keel::save::testing
