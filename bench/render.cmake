# The 2-D renderer on SDL's software renderer (dummy video driver, 1280x720): a frame of 2,000
# sprites, 20,000 particles and HUD text through Keel's batched renderer against the same frame
# drawn the plain SDL way (one SDL_RenderCopyEx per sprite, one SDL_RenderFillRectF per particle).
keel_add_bench(render SOURCES ${src} LIBS keel::platform)
