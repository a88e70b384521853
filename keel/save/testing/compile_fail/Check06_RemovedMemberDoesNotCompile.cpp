// D1 6: a member removed from the class but still named in its template is a compile error.
// Compiles as written; fails with KEEL_EXPECT_FAIL (the member `health` is gone).
#include "keel/save/save_object.h"

struct Obj : keel::save::SaveObject {
  KEEL_SAVABLE(Obj, 1)
  keel::u32 id = 0;
#ifndef KEEL_EXPECT_FAIL
  keel::u32 health = 0;
#endif
};

KEEL_SAVE_TEMPLATE(Obj) = {KEEL_SAVEDEF(Obj), KEEL_SAVEDATA(Obj, id), KEEL_SAVEDATA(Obj, health),
                           KEEL_SAVEEND()};
