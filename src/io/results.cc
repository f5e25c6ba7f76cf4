#include "io/results.h"

#include <cerrno>
#include <cmath>
#include <utility>

#include "core/error.h"

namespace jointdyn::io {

CsvWriter::CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& columns)
    : path_(path), file_(path), columns_(columns.size()) {
  std::ostream& out = file_.out();
  for (size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << columns[i];
  out << "\n";
  out.precision(17);
}

CsvWriter::~CsvWriter() {
  if (failed_) return;
  try {
    Close();
  } catch (const IoError&) {  // the .part file is removed
  }
}

void CsvWriter::Close() { file_.Commit(); }

void CsvWriter::Row(const std::vector<double>& values) { Write({}, values, ""); }

void CsvWriter::Row(const std::vector<double>& values, const std::string& text) {
  Write({}, values, text);
}

void CsvWriter::Row(const std::vector<std::string>& texts, const std::vector<double>& values) {
  Write(texts, values, "");
}

void CsvWriter::Write(const std::vector<std::string>& texts, const std::vector<double>& values,
                      const std::string& trailing) {
  JD_CHECK(!file_.committed(), "CSV row after Close() of " + path_.string());
  JD_CHECK(texts.size() + values.size() + (trailing.empty() ? 0 : 1) == columns_,
           "CSV row width does not match the header of " + path_.string());
  std::ostream& out = file_.out();
  const char* separator = "";
  for (const std::string& text : texts) out << std::exchange(separator, ",") << text;
  for (double value : values) out << std::exchange(separator, ",") << value;
  if (!trailing.empty()) out << separator << trailing;
  out << "\n";
  failed_ = true;  // until the flush succeeded
  file_.Flush();
  failed_ = false;
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
  WriteFileAtomically(path, Sanitized(summary).dump(2) + "\n");
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  WriteFileAtomically(path, text);
}

void EnsureDirectory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw IoError("create the folder", dir.string(), ec ? ec.value() : ENOTDIR);
}

}  // namespace jointdyn::io
