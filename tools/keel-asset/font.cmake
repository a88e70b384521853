# keel-asset on the sample data's fonts (data/fonts.kcmd), built by keel-build's sample test.
if(KEEL_BUILD_TESTS)
  set(_font_pack ${CMAKE_BINARY_DIR}/tools/keel-build/sample/image/PC/main.kpk)
  set(_font_out ${CMAKE_CURRENT_BINARY_DIR}/font_out)
  file(MAKE_DIRECTORY ${_font_out})
  add_test(NAME keel_asset_show_font
    COMMAND keel-asset show ${_font_pack} sans -o ${_font_out}/sans.png)
  set_tests_properties(keel_asset_show_font PROPERTIES LABELS integration
    FIXTURES_REQUIRED keel_build_sample_built
    PASS_REGULAR_EXPRESSION "Font 'sans' -> .*sans\\.png \\(512x512\\)")
  add_test(NAME keel_asset_list_fonts COMMAND keel-asset list ${_font_pack})
  set_tests_properties(keel_asset_list_fonts PROPERTIES LABELS integration
    FIXTURES_REQUIRED keel_build_sample_built
    PASS_REGULAR_EXPRESSION "Font +sans\n.*Texture +sans_atlas\n|Texture +sans_atlas\n.*Font +sans\n")
endif()
