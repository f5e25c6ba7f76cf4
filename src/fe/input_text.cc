#include "fe/input_text.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "fe/assembly.h"

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

void SetNodes(Mesh& mesh, std::map<long long, int>& index,
              const std::map<long long, Vec3>& coordinates) {
  mesh.nodes.resize(static_cast<Eigen::Index>(index.size()), 3);
  int next = 0;
  for (auto& [label, node] : index) {
    node = next++;
    mesh.nodes.row(node) = coordinates.at(label).transpose();
    mesh.node_tags.push_back(label);
  }
}

void SortNodeSets(Mesh& mesh) {
  for (auto& [name, nodes] : mesh.node_sets) {
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  }
}

void CheckImportedMesh(const Mesh& mesh, const std::function<InputLine(long long)>& line_of) {
  if (const Status status = mesh.Validate(mesh.file); !status.ok)
    throw InputError("", "", status.message);
  if (const auto bad = FindDegenerateElement(mesh)) {
    const ElementBlock& block = mesh.blocks[bad->block];
    FailAt(line_of(block.Tag(bad->element)),
           mesh.ElementName(block, bad->element) + " of block '" + block.name + "'", "",
           bad->reason);
  }
}

}  // namespace jointdyn::fe
