// `stcsim stats`: every stat a run writes to stats.json, from the declarations
// (sim/core/stat.h), so the listing cannot drift from what is written.
#include <algorithm>
#include <iostream>

#include "models/kernels/op_result.h"
#include "sim/cli/commands.h"

namespace stcsim {

Command add_stats_command(CLI::App& app) {
  app.add_subcommand(
      "stats",
      "List every stat of stats.json (each op and the total) with its unit, how it totals, "
      "its producer and description");
  return [] {
    std::vector<const StatInfo*> infos;
    for (const OpStat* s : StatRegistry<OpResult>::all()) infos.push_back(&s->info());
    std::sort(infos.begin(), infos.end(),
              [](const StatInfo* a, const StatInfo* b) { return a->name < b->name; });
    std::cout << "Stats of each op (ops[i]) and of the run (total) in stats.json:\n\n";
    for (const StatInfo* s : infos)
      std::cout << s->name << "  [" << s->unit << "]  total: " << to_string(s->total) << "  ("
                << s->producer << ")\n    " << s->description << "\n";
    return 0;
  };
}

}  // namespace stcsim
