// Small pieces the text readers of mesh files (Abaqus .inp, Nastran bulk data) share: a
// line with its file and number for messages, number parsing that accepts only the whole
// field, the nodes of a mesh from the labels its elements use, and the final checks.
#pragma once

#include <charconv>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fe/mesh.h"

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

// Sets the nodes of `mesh` (coordinates and tags) to those in `index` (the labels the
// elements use, in label order) with their `coordinates`, and each label's index in `index`.
void SetNodes(Mesh& mesh, std::map<long long, int>& index,
              const std::map<long long, Vec3>& coordinates);

// The nodes `elements` use (each with label, nodes and at, the line of its definition) set
// into `mesh` by SetNodes; returns node label -> mesh node. A node `coordinates` lacks is an
// error at its element's line: "is not defined by <definer>".
template <class Element>
std::map<long long, int> SetUsedNodes(Mesh& mesh, const std::vector<Element>& elements,
                                      const std::map<long long, Vec3>& coordinates,
                                      const std::string& definer) {
  std::map<long long, int> index;
  for (const Element& element : elements)
    for (long long node : element.nodes) {
      if (!coordinates.count(node))
        FailAt(element.at, "element " + std::to_string(element.label),
               "node " + std::to_string(node), "is not defined by " + definer);
      index.emplace(node, 0);
    }
  SetNodes(mesh, index, coordinates);
  return index;
}

// Sorts the node sets of `mesh` and removes repeated nodes (sets gathered from elements).
void SortNodeSets(Mesh& mesh);

// Mesh::Validate, and the first degenerate element (assembly.h) named in the file's
// numbering at the line `line_of(label)` of its definition.
void CheckImportedMesh(const Mesh& mesh, const std::function<InputLine(long long)>& line_of);

}  // namespace jointdyn::fe
