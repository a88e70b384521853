// D1 3: a derived class's template cannot name a private member of its base; KEEL_SAVEBASE is
// the supported path. Compiles as written; fails with KEEL_EXPECT_FAIL.
#include "keel/save/save_object.h"

struct Base : keel::save::SaveObject {
  KEEL_SAVABLE(Base, 1)
 private:
  keel::u32 secret = 0;
};

struct Derived : Base {
  KEEL_SAVABLE(Derived, 2)
  keel::u32 own = 0;
};

KEEL_SAVE_TEMPLATE(Base) = {KEEL_SAVEDEF(Base), KEEL_SAVEDATA(Base, secret), KEEL_SAVEEND()};
KEEL_SAVE_TEMPLATE(Derived) = {
    KEEL_SAVEDEF(Derived),
#ifdef KEEL_EXPECT_FAIL
    KEEL_SAVEDATA(Derived, secret),
#else
    KEEL_SAVEBASE(Derived, Base),
#endif
    KEEL_SAVEDATA(Derived, own),
    KEEL_SAVEEND(),
};
