# Writes a schema file (INPUT) into a C++ source file (OUTPUT) as a raw string literal named
# NAME (default kSchemaSql).
if(NOT NAME)
  set(NAME kSchemaSql)
endif()
file(READ ${INPUT} SCHEMA)
string(FIND "${SCHEMA}" ")idemlab_schema\"" CLASH)
if(NOT CLASH EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string delimiter")
endif()
get_filename_component(SOURCE_NAME ${INPUT} NAME)
file(WRITE ${OUTPUT} "// Generated from ${SOURCE_NAME} by cmake/embed_schema.cmake. Do not edit.\n"
  "namespace idemlab {\nextern const char* const ${NAME};\n"
  "const char* const ${NAME} = R\"idemlab_schema(${SCHEMA})idemlab_schema\";\n}\n")
