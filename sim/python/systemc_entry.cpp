// Debian's libsystemc.so carries SystemC's own main(), which calls the program's
// sc_main; the dynamic loader resolves that reference when Python loads this module
// (Python loads extensions with RTLD_NOW), so the module must define sc_main or the
// import fails with "undefined symbol: sc_main". Nothing calls it: the module never
// runs SystemC's main() nor any simulation (those run in a child `stcsim`,
// stcsim/cli.py), and if anything ever did, it says so instead of simulating.
#include <cstdio>

extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) {
  std::fputs("stcsim Python module: sc_main is not an entry point; simulations run in `stcsim`\n",
             stderr);
  return 2;
}
