# Steering fleets (keel::world): the grid neighbour search against brute force, in the same run.
keel_add_bench(steering SOURCES ${src} LIBS keel::world)
