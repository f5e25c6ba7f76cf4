// Result files: CSV tables and the summary.json every run writes next to them.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace jointdyn::io {

// A CSV table written row by row (flushed per row, so a run that stops keeps what it
// wrote). Numbers are written with 17 significant digits.
class CsvWriter {
 public:
  CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& columns);
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
  std::ofstream out_;
  size_t columns_;
};

// Writes `summary` as indented JSON. Non-finite numbers are written as null.
void WriteJson(const std::filesystem::path& path, const nlohmann::json& summary);

// Writes `text` as it is (e.g. a Markdown table).
void WriteText(const std::filesystem::path& path, const std::string& text);

// Creates `dir` (and parents); throws std::runtime_error naming it on failure.
void EnsureDirectory(const std::filesystem::path& dir);

}  // namespace jointdyn::io
