// Small pieces the text readers of mesh files (Abaqus .inp, Nastran bulk data) share: a
// line with its file and number for messages, and number parsing that accepts only the
// whole field.
#pragma once

#include <charconv>
#include <string>

namespace jointdyn::fe {

// A line of an input file, for messages ("part.inp:12: ...").
struct InputLine {
  std::string file;
  int number = 0;
  std::string text;
};

// Throws InputError(key, value, rule) located at `at`.
[[noreturn]] void FailAt(const InputLine& at, const std::string& key, const std::string& value,
                         const std::string& rule);

std::string Upper(std::string text);
// Without leading and trailing blanks (spaces, tabs, carriage returns).
std::string Trim(const std::string& text);

// The whole of `text` as a number (no blanks, nothing after it); false otherwise.
template <class T>
bool ParseWhole(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

}  // namespace jointdyn::fe
