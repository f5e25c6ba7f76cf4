// Reading a result CSV (numbers only, header row) back by column, for the example tests.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace jointdyn::run::testing {

struct CsvTable {
  std::map<std::string, std::vector<double>> columns;
  size_t rows = 0;
};

inline CsvTable ReadCsv(const std::filesystem::path& path) {
  CsvTable table;
  std::ifstream csv(path);
  std::string line, cell;
  std::getline(csv, line);
  std::vector<std::string> names;
  for (std::istringstream header(line); std::getline(header, cell, ',');) names.push_back(cell);
  while (std::getline(csv, line)) {
    std::istringstream row(line);
    for (const auto& name : names) {
      std::getline(row, cell, ',');
      // strtod, not stod: a subnormal value (a z coordinate decaying to 1e-320) is a value.
      table.columns[name].push_back(std::strtod(cell.c_str(), nullptr));
    }
    ++table.rows;
  }
  return table;
}

}  // namespace jointdyn::run::testing
