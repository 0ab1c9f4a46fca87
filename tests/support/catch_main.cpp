// Catch2's main for every test binary (it takes precedence over libsystemc's main;
// tests that need a simulation run one in a child process).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// libsystemc.so's own main() refers to sc_main; Catch's main() is the one that runs.
extern "C" int sc_main(int, char*[]) { return 0; }
