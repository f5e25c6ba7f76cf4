// Reading a VTU file written by io::WriteVtu back (its appended raw arrays), for the tests
// of the VTU writers.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace jointdyn::run::testing {

// The arrays of a VTU file written by WriteVtu, decoded from its appended raw data.
struct DecodedVtu {
  std::map<std::string, std::vector<double>> floats;  // by Name (points: "")
  std::vector<int64_t> connectivity, offsets;
  std::vector<uint8_t> types;
  int points = 0, cells = 0;
};

inline DecodedVtu DecodeVtu(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  DecodedVtu vtu;
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("NumberOfPoints=\"(\\d+)\" NumberOfCells=\"(\\d+)\"")))
    throw std::runtime_error("not a VTU piece: " + path.string());
  vtu.points = std::stoi(m[1]);
  vtu.cells = std::stoi(m[2]);
  const std::string marker = "<AppendedData encoding=\"raw\">\n_";
  const size_t base = text.find(marker) + marker.size();
  const std::regex array(
      "<DataArray type=\"(\\w+)\"(?: Name=\"(\\w*)\")? NumberOfComponents=\"\\d+\" "
      "format=\"appended\" offset=\"(\\d+)\"/>");
  const std::string header = text.substr(0, base);
  for (auto it = std::sregex_iterator(header.begin(), header.end(), array);
       it != std::sregex_iterator(); ++it) {
    const std::string type = (*it)[1], name = (*it)[2];
    const size_t at = base + std::stoul((*it)[3]);
    uint64_t bytes = 0;
    std::memcpy(&bytes, text.data() + at, sizeof bytes);
    const char* data = text.data() + at + sizeof bytes;
    if (type == "Float64") {
      std::vector<double>& v = vtu.floats[name];
      v.resize(bytes / sizeof(double));
      std::memcpy(v.data(), data, bytes);
    } else if (type == "Int64") {
      std::vector<int64_t>& v = name == "connectivity" ? vtu.connectivity : vtu.offsets;
      v.resize(bytes / sizeof(int64_t));
      std::memcpy(v.data(), data, bytes);
    } else {
      vtu.types.assign(data, data + bytes);
    }
  }
  return vtu;
}

}  // namespace jointdyn::run::testing
