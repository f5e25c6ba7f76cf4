// Result files: CSV tables and the summary.json every run writes next to them.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/atomic_file.h"

namespace jointdyn::io {

// A CSV table written row by row, flushed per row, under "<name>.part" (io/atomic_file.h)
// and renamed to its name when the writer is destroyed: a run that stops (numerical
// failure, interruption) keeps the rows it wrote; a killed run leaves the .part file. A
// failed write throws IoError (the reason: disk full, ...). Numbers are written with 17
// significant digits.
class CsvWriter {
 public:
  CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& columns);
  ~CsvWriter();  // Close() unless a write failed (a destructor cannot throw: errors ignored)
  // Renames the file into place (once; no rows after). Throws IoError.
  void Close();
  void Row(const std::vector<double>& values);
  // A row with a trailing text column (e.g. a contact state).
  void Row(const std::vector<double>& values, const std::string& text);
  // A row with leading text columns (e.g. a load case and a method), then numbers.
  void Row(const std::vector<std::string>& texts, const std::vector<double>& values);

 private:
  // Leading texts, numbers, a trailing text (none when empty), newline.
  void Write(const std::vector<std::string>& texts, const std::vector<double>& values,
             const std::string& trailing);

  std::filesystem::path path_;
  AtomicFile file_;
  size_t columns_;
  bool failed_ = false;
};

// Writes `summary` as indented JSON (atomically). Non-finite numbers are written as null.
void WriteJson(const std::filesystem::path& path, const nlohmann::json& summary);

// Writes `text` as it is (e.g. a Markdown table), atomically.
void WriteText(const std::filesystem::path& path, const std::string& text);

// Creates `dir` (and parents); throws IoError naming it and the reason on failure.
void EnsureDirectory(const std::filesystem::path& dir);

}  // namespace jointdyn::io
