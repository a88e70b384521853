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
