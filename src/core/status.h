// Status of a numerical operation that may fail recoverably (a law's local Newton
// did not converge, a step must be cut). Cheap when ok: the message is only built
// on failure.
#pragma once

#include <string>
#include <utility>

namespace jointdyn {

struct Status {
  bool ok = true;
  std::string message;  // what failed and why; empty when ok

  static Status Ok() { return {}; }
  static Status Failure(std::string what) { return {false, std::move(what)}; }
  explicit operator bool() const { return ok; }
};

}  // namespace jointdyn
