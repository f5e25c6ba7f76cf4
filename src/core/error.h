// Errors: InputError for bad user input (names file, line, key, value and rule), IoError
// for files that cannot be written (with the operating system's reason), JD_CHECK for
// internal invariants (always on, also in release builds).
#pragma once

#include <stdexcept>
#include <string>

namespace jointdyn {

// Bad user input. Laws and options throw it with key, value and rule; the io layer
// adds the file, the line and the key path ("law.c1") before it reaches the user.
class InputError : public std::runtime_error {
 public:
  InputError(std::string key, std::string value, std::string rule);

  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 1-based; 0 when unknown
  const std::string& key() const { return key_; }
  const std::string& value() const { return value_; }
  const std::string& rule() const { return rule_; }

  // Returns a copy located in `file` at `line`, with `prefix` prepended to the key
  // ("law" + "c1" -> "law.c1"). Keeps an existing file and line when set.
  InputError Located(const std::string& file, int line, const std::string& prefix) const;

  // Where the error is in the model, as a key path ("mesh", "contact[1].slave"), for
  // errors found after reading (building an FE model, running an analysis): the model-file
  // layer locates them at that key's line. Empty: key() says where.
  const std::string& where() const { return where_.empty() ? key_ : where_; }
  // A copy whose where() is `path` (the key stays as it is, e.g. a mesh file's own term).
  InputError At(const std::string& path) const;

 private:
  void Compose();

  std::string file_;
  int line_ = 0;
  std::string key_;
  std::string where_;
  std::string value_;
  std::string rule_;
  std::string message_;

 public:
  const char* what() const noexcept override { return message_.c_str(); }
};

// A file that cannot be written, renamed or created (disk full, no permission, a folder
// removed under the run): names the path and gives the operating system's reason. Not the
// user's input (exit code 5 on the command line, not 2).
class IoError : public std::runtime_error {
 public:
  // `action`: "write", "create", "rename ... to"; `error_number`: errno after the failure.
  IoError(const std::string& action, const std::string& path, int error_number);
};

// Violated internal invariant: a bug in jointdyn, not in the input.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] void FailCheck(const char* condition, const char* file, int line,
                            const std::string& message);

// Formats a double for messages with enough digits to round-trip.
std::string FormatValue(double value);

}  // namespace jointdyn

#define JD_CHECK(condition, message)                                                    \
  do {                                                                                  \
    if (!(condition)) ::jointdyn::FailCheck(#condition, __FILE__, __LINE__, (message)); \
  } while (false)
