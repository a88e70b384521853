# The font build against its floor: FreeType rendering the same glyphs plainly.
find_package(Freetype REQUIRED)
keel_add_bench(font SOURCES ${src} LIBS keel::assets_build Freetype::Freetype)
