# keel-asset on the sample meshes that keel_build_sample_full built (data/meshes.kcmd).
if(KEEL_BUILD_TESTS)
  set(keel_asset_sample_pack ${CMAKE_BINARY_DIR}/tools/keel-build/sample/image/PC/main.kpk)
  add_test(NAME keel_asset_lists_meshes COMMAND keel-asset list ${keel_asset_sample_pack})
  set_tests_properties(keel_asset_lists_meshes PROPERTIES LABELS integration
    FIXTURES_REQUIRED keel_build_sample_built
    PASS_REGULAR_EXPRESSION "knot.*Mesh|Mesh.*knot")
  add_test(NAME keel_asset_shows_mesh
           COMMAND keel-asset show ${keel_asset_sample_pack} knot -o ${CMAKE_CURRENT_BINARY_DIR}/knot.png)
  set_tests_properties(keel_asset_shows_mesh PROPERTIES LABELS integration
    FIXTURES_REQUIRED keel_build_sample_built
    PASS_REGULAR_EXPRESSION "Mesh 'knot' -> .*knot\\.png \\([0-9]+x[0-9]+\\)")
endif()
