// Subcommands of the `stcsim` command line. Each registers its options on the app
// and returns the function that runs it (exit status 0, or throws InputError -> 2).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace stcsim {

using Command = std::function<int()>;

Command add_run_command(CLI::App& app);
Command add_presets_command(CLI::App& app);
Command add_components_command(CLI::App& app);
Command add_stats_command(CLI::App& app);
Command add_models_command(CLI::App& app);
Command add_trace_command(CLI::App& app);
Command add_validate_command(CLI::App& app);
Command add_calibrate_command(CLI::App& app);
Command add_sweep_command(CLI::App& app);
Command add_sweep_merge_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_crossover_command(CLI::App& app);
Command add_ubench_command(CLI::App& app);

}  // namespace stcsim
