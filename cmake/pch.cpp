// An empty file: the target that builds the libraries' shared precompiled headers
// (CMakeLists.txt) needs one source to compile them for.
