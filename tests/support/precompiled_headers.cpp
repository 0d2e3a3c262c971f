// The translation unit of target minifloat_test_pch (tests/CMakeLists.txt),
// which builds the precompiled header the test programs reuse. CMake
// compiles the header itself; this file only gives the target a source.
