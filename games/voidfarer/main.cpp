// voidfarer: the Citizen blog's 2-D space shooter on Keel (app.h has the whole program).
//
//   voidfarer --data voidfarer.kpk --settings voidfarer.cfg               # a window: play
//   voidfarer --data voidfarer.kpk --headless --frames 1800 --screenshot-every 300 --out shots
//             --trace trace.json                                         # the autopilot plays
//   voidfarer --data ... --headless --frames 600 --record run.vfr        # then --replay run.vfr
//   voidfarer --data ... --headless --frames 600 --save-at 300 --save q.sav   # then --load q.sav
//
// See games/voidfarer/README.md for keys, settings and files.
#include "app.h"

int main(int argc, char** argv) { return keel::voidfarer::run_app(argc, argv); }
