// InputError: a problem with what the user gave us (a config, a trace, a flag).
// The command line turns it into a message on stderr and exit status 2.
#pragma once
#include <stdexcept>
#include <string>

namespace stcsim {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace stcsim
