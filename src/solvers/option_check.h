// Range checks for solver options: a failed check is a Status whose message names the
// option, its value and the rule ("newton.max_iterations = 0: must be >= 1").
#pragma once

#include <string>

#include "core/error.h"
#include "core/status.h"

namespace jointdyn::solvers {

// Ok when `ok`; otherwise a failure "key = value: rule".
inline Status CheckOption(bool ok, const std::string& key, const std::string& value,
                          const std::string& rule) {
  if (ok) return Status::Ok();
  return Status::Failure(InputError(key, value, rule).what());
}
inline Status CheckOption(bool ok, const std::string& key, double value, const std::string& rule) {
  return CheckOption(ok, key, FormatValue(value), rule);
}

}  // namespace jointdyn::solvers
