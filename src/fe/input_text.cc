#include "fe/input_text.h"

#include <cctype>

#include "core/error.h"

namespace jointdyn::fe {

void FailAt(const InputLine& at, const std::string& key, const std::string& value,
            const std::string& rule) {
  throw InputError(key, value, rule).Located(at.file, at.number, "");
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string Trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace jointdyn::fe
