# keel-asset smoke tests for textures: pictures of the sample data's textures (built by the
# keel_build_sample_full test), and a located error for a name the pack lacks.
if(KEEL_BUILD_TESTS)
  set(keel_asset_texture_pack ${CMAKE_BINARY_DIR}/tools/keel-build/sample/image/PC/main.kpk)
  add_test(NAME keel_asset_show_texture
           COMMAND keel-asset show ${keel_asset_texture_pack} Example1
                   -o ${CMAKE_CURRENT_BINARY_DIR}/texture_example1.png)
  set_tests_properties(keel_asset_show_texture PROPERTIES LABELS integration
    FIXTURES_REQUIRED keel_build_sample_built
    PASS_REGULAR_EXPRESSION "Texture 'Example1' -> .*texture_example1\\.png \\(388x283\\)")
  add_test(NAME keel_asset_show_compressed_texture
           COMMAND keel-asset show ${keel_asset_texture_pack} Example3
                   -o ${CMAKE_CURRENT_BINARY_DIR}/texture_example3.png)
  set_tests_properties(keel_asset_show_compressed_texture PROPERTIES LABELS integration
    FIXTURES_REQUIRED keel_build_sample_built
    PASS_REGULAR_EXPRESSION "Texture 'Example3' -> .*texture_example3\\.png \\(196x146\\)")
  add_test(NAME keel_asset_show_missing_texture
           COMMAND keel-asset show ${keel_asset_texture_pack} NoSuchTexture
                   -o ${CMAKE_CURRENT_BINARY_DIR}/texture_missing.png)
  set_tests_properties(keel_asset_show_missing_texture PROPERTIES LABELS integration
    FIXTURES_REQUIRED keel_build_sample_built PASS_REGULAR_EXPRESSION "no asset named 'NoSuchTexture'")
endif()

# keel-build reports Texture mistakes at their place in the command file.
if(KEEL_BUILD_TESTS)
  set(keel_asset_texture_errors ${CMAKE_CURRENT_SOURCE_DIR}/texture_testdata)
  add_test(NAME keel_build_reports_texture_errors
           COMMAND keel-build -p ${keel_asset_texture_errors}/texture_errors.kproj --no-progress -j1
                   --intermediate-path ${CMAKE_CURRENT_BINARY_DIR}/texture_errors/obj
                   --image-path ${CMAKE_CURRENT_BINARY_DIR}/texture_errors/image)
  set_tests_properties(keel_build_reports_texture_errors PROPERTIES LABELS integration
    PASS_REGULAR_EXPRESSION "texture_errors\\.kcmd:1:29: error: image `missing.png` not found.*texture_errors\\.kcmd:2:57: error: channel specifier \"maxr\".*texture_errors\\.kcmd:3:35: error: unknown texture format \"PVRTC\"")
endif()
