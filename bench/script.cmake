# The script VM against Lua 5.4 and LuaJIT 2.1 coroutines (benchmark-only peers; liblua5.4-dev and
# libluajit-5.1-dev from setup.sh). Lua 5.4 is linked; LuaJIT is opened with dlopen at run time
# (both define the lua_* names), from the library directory pkg-config reports.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LUA REQUIRED IMPORTED_TARGET lua5.4)
pkg_check_modules(LUAJIT REQUIRED luajit)
pkg_get_variable(LUAJIT_LIBDIR luajit libdir)
keel_add_bench(script SOURCES ${src} LIBS keel::script_compiler PkgConfig::LUA ${CMAKE_DL_LIBS})
target_compile_definitions(keel_bench_script PRIVATE
  KEEL_LUAJIT_LIBRARY="${LUAJIT_LIBDIR}/libluajit-5.1.so.2")
