#include "core/error.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace jointdyn {

InputError::InputError(std::string key, std::string value, std::string rule)
    : std::runtime_error(""),
      key_(std::move(key)),
      value_(std::move(value)),
      rule_(std::move(rule)) {
  Compose();
}

InputError InputError::Located(const std::string& file, int line, const std::string& prefix) const {
  InputError located = *this;
  if (located.file_.empty()) {
    located.file_ = file;
    located.line_ = line;
  }
  if (!prefix.empty()) located.key_ = key_.empty() ? prefix : prefix + "." + key_;
  located.Compose();
  return located;
}

InputError InputError::At(const std::string& path) const {
  InputError moved = *this;
  moved.where_ = path;
  return moved;
}

void InputError::Compose() {
  std::ostringstream out;
  if (!file_.empty()) {
    out << file_;
    if (line_ > 0) out << ":" << line_;
    out << ": ";
  }
  if (!key_.empty()) {
    out << key_;
    if (!value_.empty()) out << " = " << value_;
    out << ": ";
  }
  out << rule_;
  message_ = out.str();
}

IoError::IoError(const std::string& action, const std::string& path, int error_number)
    : std::runtime_error("cannot " + action + " " + path + ": " +
                         (error_number ? std::strerror(error_number) : "unknown reason")) {}

void FailCheck(const char* condition, const char* file, int line, const std::string& message) {
  std::ostringstream out;
  out << "internal error at " << file << ":" << line << ": check (" << condition
      << ") failed: " << message;
  throw InternalError(out.str());
}

std::string FormatValue(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  // Shorten when a shorter form round-trips (prefer "0.3" to "0.29999999999999999").
  for (int digits = 6; digits < 17; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, value);
    if (std::strtod(shorter, nullptr) == value) return shorter;
  }
  return buffer;
}

}  // namespace jointdyn
