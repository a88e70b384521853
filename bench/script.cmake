# The script VM against Lua 5.4 coroutines (benchmark-only peer; liblua5.4-dev from setup.sh).
find_package(PkgConfig REQUIRED)
pkg_check_modules(LUA REQUIRED IMPORTED_TARGET lua5.4)
keel_add_bench(script SOURCES ${src} LIBS keel::script PkgConfig::LUA)
