#include "fe/msh_lines.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace jointdyn::fe {
namespace {

// Reads the next line (counting it); false at the end of the file.
bool Next(std::istream& in, std::string& line, int& number) {
  if (!std::getline(in, line)) return false;
  ++number;
  return true;
}

// The first integer of `line` (-1 when there is none).
long long FirstInteger(const std::string& line) {
  std::istringstream text(line);
  long long value = -1;
  text >> value;
  return text ? value : -1;
}

// Format 2: a count line, then one entity per line, its tag first.
int FindV2(std::istream& in, int& number, long long tag) {
  std::string line;
  if (!Next(in, line, number)) return 0;
  while (Next(in, line, number) && line.rfind("$End", 0) != 0) {
    if (FirstInteger(line) == tag) return number;
  }
  return 0;
}

// Format 4: a header line, then blocks of "dim entity type-or-parametric count" followed by
// `count` lines that start with the tag (elements) or hold only the tag (nodes, whose
// `count` coordinate lines follow the tags).
int FindV4(std::istream& in, int& number, MshEntity entity, long long tag) {
  std::string line;
  if (!Next(in, line, number)) return 0;
  std::istringstream header(line);
  long long blocks = 0;
  header >> blocks;
  for (long long b = 0; b < blocks; ++b) {
    if (!Next(in, line, number)) return 0;
    std::istringstream block(line);
    long long dim = 0, entity_tag = 0, kind = 0, count = 0;
    block >> dim >> entity_tag >> kind >> count;
    for (long long k = 0; k < count; ++k) {
      if (!Next(in, line, number)) return 0;
      if (FirstInteger(line) == tag) return number;
    }
    if (entity == MshEntity::kNode) {
      for (long long k = 0; k < count; ++k)
        if (!Next(in, line, number)) return 0;
    }
  }
  return 0;
}

}  // namespace

int MshLine(const std::string& path, MshEntity entity, long long tag) {
  std::ifstream in(path);
  if (!in) return 0;
  std::string line;
  int number = 0;
  double version = 0.0;
  const std::string section = entity == MshEntity::kNode ? "$Nodes" : "$Elements";
  while (Next(in, line, number)) {
    if (line.rfind("$MeshFormat", 0) == 0) {
      if (!Next(in, line, number)) return 0;
      std::istringstream format(line);
      int binary = 0;
      format >> version >> binary;
      if (binary != 0) return 0;
    } else if (line.rfind(section, 0) == 0 &&
               (line.size() == section.size() || std::isspace(line[section.size()]))) {
      return version >= 4.0 ? FindV4(in, number, entity, tag) : FindV2(in, number, tag);
    }
  }
  return 0;
}

int MeshFileLine(const Mesh& mesh, MshEntity entity, long long tag) {
  if (mesh.file.empty() || std::filesystem::path(mesh.file).extension() != ".msh") return 0;
  return MshLine(mesh.file, entity, tag);
}

}  // namespace jointdyn::fe
