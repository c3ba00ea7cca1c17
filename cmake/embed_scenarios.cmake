# Writes every scenarios/*.toml into a C++ source file, so built-in scenarios work anywhere.
file(GLOB FILES ${SOURCE_DIR}/scenarios/*.toml)
list(SORT FILES)
set(BODY "")
foreach(path ${FILES})
  get_filename_component(name ${path} NAME_WE)
  file(READ ${path} TEXT)
  string(APPEND BODY "    {\"${name}\", R\"idemlab_scenario(${TEXT})idemlab_scenario\"},\n")
endforeach()
file(WRITE ${OUTPUT} "// Generated from scenarios/*.toml by cmake/embed_scenarios.cmake. Do not edit.\n"
  "#include \"sim/shared/scenario.h\"\n#include <array>\nnamespace idemlab {\n"
  "std::span<const BuiltinScenario> builtin_scenarios() {\n"
  "  static const BuiltinScenario kScenarios[] = {\n${BODY}  };\n"
  "  return kScenarios;\n}\n}  // namespace idemlab\n")
