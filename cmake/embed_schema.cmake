# Writes schema.sql into a C++ source file as a raw string literal.
file(READ ${INPUT} SCHEMA)
string(FIND "${SCHEMA}" ")idemlab_schema\"" CLASH)
if(NOT CLASH EQUAL -1)
  message(FATAL_ERROR "schema.sql contains the raw string delimiter")
endif()
file(WRITE ${OUTPUT} "// Generated from schema.sql by cmake/embed_schema.cmake. Do not edit.\n"
  "namespace idemlab {\nextern const char* const kSchemaSql;\n"
  "const char* const kSchemaSql = R\"idemlab_schema(${SCHEMA})idemlab_schema\";\n}\n")
