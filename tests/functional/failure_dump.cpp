#include "tests/functional/failure_dump.h"

#include <cstdio>
#include <fstream>
#include <set>

namespace stcsim::functional::testing {

std::string dump_failure(const std::string& test_name, const std::string& header,
                         const std::vector<DumpMatrix>& matrices) {
  static std::set<std::string> written;  // files already started by this run
  const std::string file = "failure_" + test_name + ".txt";
  const bool first = written.insert(file).second;
  std::ofstream out(file, first ? std::ios::trunc : std::ios::app);
  out << "=== " << test_name << ": " << header << "\n";
  char buf[16];
  for (const DumpMatrix& m : matrices) {
    out << m.name << " (" << m.rows << "x" << m.cols << ", hex bit patterns)\n";
    for (int r = 0; r < m.rows; ++r) {
      for (int c = 0; c < m.cols; ++c) {
        std::snprintf(buf, sizeof buf, "%08x", unsigned(m.values[std::size_t(r) * m.cols + c]));
        out << (c ? " " : "  ") << buf;
      }
      out << "\n";
    }
  }
  return file;
}

}  // namespace stcsim::functional::testing
