#include "io/results.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/error.h"

namespace jointdyn::io {

CsvWriter::CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& columns)
    : path_(path), out_(path), columns_(columns.size()) {
  if (!out_) throw std::runtime_error("cannot write " + path.string());
  for (size_t i = 0; i < columns.size(); ++i) out_ << (i ? "," : "") << columns[i];
  out_ << "\n";
  out_.precision(17);
}

void CsvWriter::Row(const std::vector<double>& values) { Write({}, values, ""); }

void CsvWriter::Row(const std::vector<double>& values, const std::string& text) {
  Write({}, values, text);
}

void CsvWriter::Row(const std::vector<std::string>& texts, const std::vector<double>& values) {
  Write(texts, values, "");
}

void CsvWriter::Write(const std::vector<std::string>& texts, const std::vector<double>& values,
                      const std::string& trailing) {
  JD_CHECK(texts.size() + values.size() + (trailing.empty() ? 0 : 1) == columns_,
           "CSV row width does not match the header of " + path_.string());
  const char* separator = "";
  for (const std::string& text : texts) out_ << std::exchange(separator, ",") << text;
  for (double value : values) out_ << std::exchange(separator, ",") << value;
  if (!trailing.empty()) out_ << separator << trailing;
  out_ << "\n";
  out_.flush();
  if (!out_) throw std::runtime_error("cannot write " + path_.string());
}

namespace {

nlohmann::json Sanitized(const nlohmann::json& value) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) return nullptr;
  if (value.is_structured()) {
    nlohmann::json copy = value;
    for (auto& item : copy) item = Sanitized(item);
    return copy;
  }
  return value;
}

}  // namespace

void WriteJson(const std::filesystem::path& path, const nlohmann::json& summary) {
  std::ofstream out(path);
  out << Sanitized(summary).dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void EnsureDirectory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw std::runtime_error("cannot create the output directory " + dir.string() + ": " +
                             ec.message());
}

}  // namespace jointdyn::io
