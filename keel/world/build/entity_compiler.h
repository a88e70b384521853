// The Entity statement of a command file, compiled to an EntityDef (keel/world/defs.h):
//
//   Entity("fighter" [, "schema file"]) {
//     Body(radius, 12, mass, 3);              // component(name, value, name, value, ...)
//     Vehicle(max_speed, 220, mode, "delicate", offset, 0, 240);
//     Sprite("ships/fighter", size, 32, 32);  // a leading value is the parameter `name`
//     Script("fighter_ai");                   // or Fsm("Fighter")
//   }
//
// A value is a number, a string, or two numbers (a vector). Every mistake is reported at its
// token: unknown components and parameters (with the known ones listed), values of the wrong
// kind or out of range, repeated components or parameters, missing required parameters.
#pragma once

#include "keel/text/diagnostics.h"
#include "keel/text/token.h"
#include "keel/world/build/entity_schema.h"
#include "keel/world/defs.h"

#include <optional>

namespace keel::world {

// `cmd` is the Entity statement (its block holds the components). nullopt after reporting.
std::optional<EntityDef> compile_entity(const text::Token& cmd, const EntitySchema& schema,
                                        text::Diagnostics& diagnostics);

}  // namespace keel::world
