// What the tests of the mesh-file readers (Abaqus .inp, Nastran bulk data) share: files
// written to a temporary folder, the message a malformed one gives, and a distorted
// 20-node hexahedron with the check that its mid-edge nodes are where Gmsh's order puts
// them (mesh.h).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "fe/mesh.h"

namespace jointdyn::fe::test_files {

// Writes `text` as `name` into the temporary folder `folder`.
inline std::filesystem::path Write(const std::string& folder, const std::string& name,
                                   const std::string& text) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / folder;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

// The message of the InputError `read(path)` throws, without the folder ("" when none).
template <class Reader>
std::string ErrorOf(Reader read, const std::filesystem::path& path) {
  try {
    read(path.string());
  } catch (const InputError& error) {
    std::string message = error.what();
    const std::string dir = path.parent_path().string() + "/";
    for (size_t at; (at = message.find(dir)) != std::string::npos;) message.erase(at, dir.size());
    return message;
  }
  return "";
}

// The corners of a distorted hexahedron (counter-clockwise bottom, then top).
constexpr double kHexCorners[8][3] = {{0, 0, 0},   {1.1, 0, 0.1}, {1, 1.2, 0}, {0, 0.9, 0},
                                      {0, 0.1, 1}, {1, 0, 1.3},   {1.2, 1, 1}, {0, 1, 0.8}};

// Gmsh's mid-edge nodes (gmsh.info, "Node ordering"), as the shape functions use them.
const std::vector<std::pair<int, int>> kGmshTetEdges{{0, 1}, {1, 2}, {2, 0},
                                                     {3, 0}, {3, 2}, {3, 1}};
const std::vector<std::pair<int, int>> kGmshHexEdges{
    {0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3}, {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};
// The mid-edge nodes of Abaqus's C3D20 (12 23 34 41 56 67 78 85 15 26 37 48, counted from 1)
// and of Nastran's CHEXA (12 23 34 41 15 26 37 48 56 67 78 85), from their manuals.
const std::vector<std::pair<int, int>> kAbaqusHexEdges{
    {0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
const std::vector<std::pair<int, int>> kNastranHexEdges{
    {0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}, {1, 5}, {2, 6}, {3, 7}, {4, 5}, {5, 6}, {6, 7}, {7, 4}};

// Every mid-edge node of the first element of the first block at the midpoint of its Gmsh
// edge (of `edges`).
inline void ExpectGmshMidpoints(const Mesh& mesh, const std::vector<std::pair<int, int>>& edges) {
  const ElementBlock& block = mesh.blocks.at(0);
  const int corners = NodesPerElement(block.type) - static_cast<int>(edges.size());
  const int* nodes = block.element(0);
  for (size_t e = 0; e < edges.size(); ++e) {
    const Vec3 mid =
        0.5 * (mesh.nodes.row(nodes[edges[e].first]) + mesh.nodes.row(nodes[edges[e].second]))
                  .transpose();
    EXPECT_LT((mesh.nodes.row(nodes[corners + e]).transpose() - mid).norm(), 1e-14)
        << "Gmsh mid-edge node " << corners + e;
  }
}

}  // namespace jointdyn::fe::test_files
