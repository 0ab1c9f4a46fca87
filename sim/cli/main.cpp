// `stcsim`: the command line. SystemC's library provides main() and calls sc_main.
#include <cstdlib>
#include <iostream>
#include <map>
#include <systemc>

#include "sim/cli/commands.h"
#include "sim/core/input_error.h"

// SystemC prints a banner from its static initialisers unless this is set; stcsim's
// output is its report, so set it before any of them run.
__attribute__((constructor(101))) static void quiet_systemc_banner() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
}

int sc_main(int argc, char* argv[]) {
  CLI::App app{"stcsim: cycle-level simulator of dense and sparse tensor-core GPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("stcsim ") + STCSIM_VERSION +
                                        " (configured at commit " + STCSIM_GIT_COMMIT + ")");
  std::map<CLI::App*, stcsim::Command> commands;
  auto add = [&](stcsim::Command (*f)(CLI::App&)) {
    const auto before = app.get_subcommands([](CLI::App*) { return true; }).size();
    stcsim::Command c = f(app);
    auto subs = app.get_subcommands([](CLI::App*) { return true; });
    commands[subs[before]] = c;
  };
  add(stcsim::add_run_command);
  add(stcsim::add_presets_command);
  add(stcsim::add_components_command);
  add(stcsim::add_stats_command);
  add(stcsim::add_models_command);
  add(stcsim::add_trace_command);
  add(stcsim::add_validate_command);
  add(stcsim::add_calibrate_command);
  add(stcsim::add_sweep_command);
  add(stcsim::add_sweep_merge_command);
  add(stcsim::add_report_command);
  add(stcsim::add_crossover_command);
  add(stcsim::add_ubench_command);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  try {
    for (auto& [sub, cmd] : commands)
      if (sub->parsed()) return cmd();
  } catch (const stcsim::InputError& e) {
    std::cerr << "stcsim: error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
