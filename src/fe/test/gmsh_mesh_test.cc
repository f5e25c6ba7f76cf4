#include "fe/gmsh_mesh.h"

#include <gmsh.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "fe/gmsh_session.h"
#include "fe/mesh_faces.h"
#include "fe/msh_lines.h"
#include "fe/test/fe_test_util.h"

namespace jointdyn::fe {
namespace {

constexpr double kLx = 0.2, kLy = 0.1, kLz = 0.05;  // [m] the box

int EntityIn(int dim, double x0, double y0, double z0, double x1, double y1, double z1) {
  gmsh::vectorpair found;
  gmsh::model::getEntitiesInBoundingBox(x0, y0, z0, x1, y1, z1, found, dim);
  EXPECT_EQ(found.size(), 1u);
  return found.at(0).second;
}

// Writes the box meshed with tet4 by Gmsh, with the physical groups solid (volume),
// bottom (face z = 0) and corner (point at the origin) when `groups`; returns the path and
// the number of nodes Gmsh made.
std::pair<std::string, int> WriteBox(const std::string& file, bool groups, double version) {
  const std::string path = (test::ScratchDir("gmsh_" + file) / file).string();
  GmshSession session;
  gmsh::model::occ::addBox(0.0, 0.0, 0.0, kLx, kLy, kLz);
  gmsh::model::occ::synchronize();
  if (groups) {
    const double e = 1e-6;
    gmsh::model::setPhysicalName(3, gmsh::model::addPhysicalGroup(3, {1}), "solid");
    const int bottom = EntityIn(2, -e, -e, -e, kLx + e, kLy + e, e);
    gmsh::model::setPhysicalName(2, gmsh::model::addPhysicalGroup(2, {bottom}), "bottom");
    const int corner = EntityIn(0, -e, -e, -e, e, e, e);
    gmsh::model::setPhysicalName(0, gmsh::model::addPhysicalGroup(0, {corner}), "corner");
  }
  gmsh::option::setNumber("Mesh.MeshSizeMax", 0.03);
  gmsh::option::setNumber("Mesh.Algorithm", 6);
  gmsh::option::setNumber("Mesh.ElementOrder", 1);
  gmsh::option::setNumber("Mesh.MshFileVersion", version);
  gmsh::model::mesh::generate(3);
  std::vector<std::size_t> tags;
  std::vector<double> coords, parametric;
  gmsh::model::mesh::getNodes(tags, coords, parametric);
  gmsh::write(path);
  return {path, static_cast<int>(tags.size())};
}

TEST(ReadMsh, BoxRoundTripInFormats2And4) {
  for (double version : {2.2, 4.1}) {
    SCOPED_TRACE(version);
    const auto [path, gmsh_nodes] = WriteBox("box.msh", true, version);
    const Mesh mesh = ReadMsh(path);
    EXPECT_EQ(mesh.dim, 3);
    EXPECT_EQ(mesh.num_nodes(), gmsh_nodes);  // every node belongs to the solid
    ASSERT_EQ(mesh.blocks.size(), 1u);
    EXPECT_EQ(mesh.blocks[0].name, "solid");
    EXPECT_EQ(mesh.blocks[0].type, ElementType::kTet4);
    // Flat-faced tet4 fill the box exactly (to rounding).
    EXPECT_NEAR(test::BlockVolume(mesh, mesh.blocks[0]), kLx * kLy * kLz, 1e-15);
    EXPECT_GT(test::MinJacobian(mesh), 0.0);
    ASSERT_EQ(mesh.face_sets.size(), 1u);
    const FaceSet& bottom = mesh.face_sets.at("bottom");
    EXPECT_EQ(bottom.type, ElementType::kTri3);
    EXPECT_NEAR(test::FaceSetArea(mesh, bottom), kLx * kLy, 1e-15);
    const double center[2] = {1.0 / 3.0, 1.0 / 3.0};
    for (int f = 0; f < bottom.size(); ++f) {  // oriented outward: -z
      const Vec3 n = FaceNormal(bottom.type, FaceCoordinates(mesh, bottom, f), center);
      ASSERT_NEAR(n.normalized().z(), -1.0, 1e-12) << "face " << f;
    }
    ASSERT_EQ(mesh.node_sets.size(), 3u);
    EXPECT_EQ(static_cast<int>(mesh.node_sets.at("solid").size()), gmsh_nodes);
    ASSERT_EQ(mesh.node_sets.at("corner").size(), 1u);
    EXPECT_EQ(mesh.nodes.row(mesh.node_sets.at("corner")[0]).norm(), 0.0);
    EXPECT_EQ(mesh.node_sets.at("bottom"), mesh.FaceSetNodes("bottom"));
  }
}

// The message of the InputError that `read` throws ("" when none).
template <class F>
std::string ErrorOf(F read) {
  try {
    read();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(ReadMsh, PrismsAreRejectedNamingFileGroupAndType) {
  const std::string path = (test::ScratchDir("gmsh_prisms") / "prisms.msh").string();
  {
    GmshSession session;
    const int p1 = gmsh::model::geo::addPoint(0, 0, 0), p2 = gmsh::model::geo::addPoint(1, 0, 0);
    const int p3 = gmsh::model::geo::addPoint(0, 1, 0);
    const int loop = gmsh::model::geo::addCurveLoop({gmsh::model::geo::addLine(p1, p2),
                                                     gmsh::model::geo::addLine(p2, p3),
                                                     gmsh::model::geo::addLine(p3, p1)});
    const int surface = gmsh::model::geo::addPlaneSurface({loop});
    gmsh::vectorpair out;
    gmsh::model::geo::extrude({{2, surface}}, 0, 0, 0.5, out, {2}, {}, true);
    gmsh::model::geo::synchronize();
    gmsh::model::setPhysicalName(3, gmsh::model::addPhysicalGroup(3, {out[1].second}), "wedges");
    gmsh::option::setNumber("Mesh.MeshSizeMax", 0.5);
    gmsh::model::mesh::generate(3);
    gmsh::write(path);
  }
  const std::string message = ErrorOf([&] { ReadMsh(path); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("physical volume 'wedges'"), std::string::npos) << message;
  EXPECT_NE(message.find("Prism"), std::string::npos) << message;
  EXPECT_NE(message.find("tet4, tet10, hex8, hex20"), std::string::npos) << message;
}

TEST(ReadMsh, MissingGroupsFilesAndExtensionsAreInputErrors) {
  const std::string path = WriteBox("bare.msh", false, 4.1).first;
  std::string message = ErrorOf([&] { ReadMsh(path); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("physical volume"), std::string::npos) << message;
  message = ErrorOf([] { ReadMsh("/nonexistent/part.msh"); });
  EXPECT_NE(message.find("/nonexistent/part.msh"), std::string::npos) << message;
  message = ErrorOf([] { ReadMsh("part.geo"); });
  EXPECT_NE(message.find(".msh"), std::string::npos) << message;
  // A session after the failures still works.
  EXPECT_EQ(ReadMsh(WriteBox("again.msh", true, 4.1).first).blocks.size(), 1u);
}

TEST(ReadMsh, AGeoScriptIsRejectedNotRun) {
  const std::filesystem::path dir = test::ScratchDir("msh_geo_script");
  const std::filesystem::path marker = dir / "ran";
  const std::string path = (dir / "script.msh").string();
  std::ofstream(path) << "System \"touch '" << marker.string() << "'\";\n";
  const std::string message = ErrorOf([&] { ReadMsh(path); });
  EXPECT_NE(message.find(path + ":1: not a Gmsh mesh: the first line must be $MeshFormat"),
            std::string::npos)
      << message;
  EXPECT_FALSE(std::filesystem::exists(marker)) << "Gmsh ran the file as a .geo script";
}

// A bad format line (found by fuzz/: "2.2 5 8" made Gmsh allocate 3.3 GB) is rejected
// before Gmsh reads the file.
TEST(ReadMsh, ABadFormatLineIsRejectedBeforeGmshReadsIt) {
  const std::string path = (test::ScratchDir("msh_format_line") / "format.msh").string();
  for (const char* line : {"2.2 5 8", "3.0 0 8", "2.2 0 4", "x"}) {
    std::ofstream(path) << "$MeshFormat\n" << line << "\n$EndMeshFormat\n";
    const std::string message = ErrorOf([&] { ReadMsh(path); });
    EXPECT_NE(message.find(path + ":2: $MeshFormat = " + line + ": must be 'version file-type"),
              std::string::npos)
        << message;
  }
}

// A truncated element section (found by fuzz/): Gmsh 4.8 reads counts past the end of the
// file, uninitialized, and usually throws std::bad_array_new_length; ReadMsh must turn
// that into an InputError ("Gmsh cannot read it: ...").
TEST(ReadMsh, ATruncatedFileIsAnInputError) {
  const std::string path = (test::ScratchDir("msh_truncated") / "truncated.msh").string();
  std::ofstream(path) << "$MeshFormat\n2 0 8\n$Elements\n5 0\n0";
  EXPECT_THROW(ReadMsh(path), InputError);
}

// A .msh file (format 2.2) of tet4 elements in the physical volume "solid" (and the
// triangles of the physical surface "top", when given), with the nodes and elements given
// as their lines ("tag x y z", "tag n1 n2 n3 n4"). Returns the path.
std::string WriteTets(const std::string& name, const std::vector<std::string>& nodes,
                      const std::vector<std::string>& tets,
                      const std::vector<std::string>& triangles = {}) {
  const std::string path = (test::ScratchDir("msh_" + name) / (name + ".msh")).string();
  std::ofstream out(path);
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n"
      << (triangles.empty() ? 1 : 2) << "\n3 1 \"solid\"\n"
      << (triangles.empty() ? "" : "2 2 \"top\"\n") << "$EndPhysicalNames\n$Nodes\n"
      << nodes.size() << "\n";
  for (const std::string& node : nodes) out << node << "\n";
  out << "$EndNodes\n$Elements\n" << tets.size() + triangles.size() << "\n";
  for (const std::string& tet : tets) {
    const auto space = tet.find(' ');
    out << tet.substr(0, space) << " 4 2 1 1" << tet.substr(space) << "\n";
  }
  for (const std::string& triangle : triangles) {
    const auto space = triangle.find(' ');
    out << triangle.substr(0, space) << " 2 2 2 2" << triangle.substr(space) << "\n";
  }
  out << "$EndElements\n";
  return path;
}

const std::vector<std::string> kTetNodes = {"11 0 0 0", "12 1 0 0", "13 0 1 0",
                                            "14 0 0 1", "15 1 1 1", "16 1 1 1"};

TEST(ReadMsh, KeepsTheFilesTagsForMessages) {
  const std::string path = WriteTets("tags", kTetNodes, {"101 11 12 13 14", "102 12 13 14 15"});
  const Mesh mesh = ReadMsh(path);
  EXPECT_EQ(mesh.file, path);
  ASSERT_EQ(mesh.num_nodes(), 5);  // node 16 is in no element
  for (int n = 0; n < 5; ++n) EXPECT_EQ(mesh.NodeTag(n), 11 + n);
  ASSERT_EQ(mesh.blocks.size(), 1u);
  EXPECT_EQ(mesh.blocks[0].Tag(1), 102);
  EXPECT_EQ(mesh.ElementName(mesh.blocks[0], 1), "element 102 (nodes 12 13 14 15)");
  EXPECT_EQ(MshLine(path, MshEntity::kElement, 102), 20);
  EXPECT_EQ(MshLine(path, MshEntity::kNode, 13), 12);
  EXPECT_EQ(MshLine(path, MshEntity::kElement, 7), 0);  // no such element
}

TEST(ReadMsh, DegenerateElementsAreNamedAtTheirLineWithTheirTags) {
  std::string path = WriteTets("inverted", kTetNodes, {"101 11 12 13 14", "102 13 12 14 15"});
  std::string message = ErrorOf([&] { ReadMsh(path); });
  EXPECT_NE(message.find(path + ":20: element 102 (nodes 13 12 14 15) of physical volume "
                                "'solid': inverted element: det J = -2"),
            std::string::npos)
      << message;
  path = WriteTets("repeated", kTetNodes, {"101 11 12 13 14", "102 12 13 13 15"});
  message = ErrorOf([&] { ReadMsh(path); });
  EXPECT_NE(message.find(":20: element 102 (nodes 12 13 13 15)"), std::string::npos) << message;
  EXPECT_NE(message.find("degenerate element: node 13 appears twice"), std::string::npos)
      << message;
  path = WriteTets("coincident", kTetNodes, {"101 11 12 13 14", "102 12 15 14 16"});
  message = ErrorOf([&] { ReadMsh(path); });
  EXPECT_NE(message.find("nodes 15 and 16 coincide at (1, 1, 1) m"), std::string::npos) << message;
  path = WriteTets("flat", {"11 0 0 0", "12 1 0 0", "13 0 1 0", "14 1 1 0"},
                   {"101 11 12 13 14"});  // four nodes in a plane: zero volume
  message = ErrorOf([&] { ReadMsh(path); });
  EXPECT_NE(message.find(":17: element 101 (nodes 11 12 13 14)"), std::string::npos) << message;
  EXPECT_NE(message.find("degenerate element: det J = "), std::string::npos) << message;
}

TEST(ReadMsh, AStrayFaceIsNamedAtItsLineWithItsTags) {
  const std::string path =
      WriteTets("stray", kTetNodes, {"101 11 12 13 14"}, {"201 11 12 13", "202 12 13 15"});
  const std::string message = ErrorOf([&] { ReadMsh(path); });
  EXPECT_NE(message.find(path + ":22: face set 'top' = face 202 (nodes "), std::string::npos)
      << message;
  EXPECT_NE(message.find("is not a face of any element"), std::string::npos) << message;
}

TEST(MshLine, FindsNodesAndElementsInFormat4) {
  const std::string path = WriteBox("lines.msh", true, 4.1).first;
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const Mesh mesh = ReadMsh(path);
  const ElementBlock& block = mesh.blocks.at(0);
  for (const int e : {0, block.size() - 1}) {
    const int line = MshLine(path, MshEntity::kElement, block.Tag(e));
    ASSERT_GT(line, 0);
    std::istringstream text(lines.at(line - 1));
    long long tag = 0;
    text >> tag;
    EXPECT_EQ(tag, block.Tag(e));
    for (int a = 0; a < 4; ++a) {
      text >> tag;
      EXPECT_EQ(tag, mesh.NodeTag(block.element(e)[a]));
    }
  }
  const int node = mesh.num_nodes() - 1;
  const int line = MshLine(path, MshEntity::kNode, mesh.NodeTag(node));
  ASSERT_GT(line, 0);
  EXPECT_EQ(lines.at(line - 1), std::to_string(mesh.NodeTag(node)));
}

TEST(MshLine, ABinaryFileHasNoLines) {
  const std::string path = (test::ScratchDir("msh_binary") / "binary.msh").string();
  {
    GmshSession session;
    gmsh::model::occ::addBox(0.0, 0.0, 0.0, kLx, kLy, kLz);
    gmsh::model::occ::synchronize();
    gmsh::model::setPhysicalName(3, gmsh::model::addPhysicalGroup(3, {1}), "solid");
    gmsh::option::setNumber("Mesh.MeshSizeMax", 0.05);
    gmsh::option::setNumber("Mesh.MshFileVersion", 4.1);
    gmsh::option::setNumber("Mesh.Binary", 1);
    gmsh::model::mesh::generate(3);
    gmsh::write(path);
    gmsh::option::setNumber("Mesh.Binary", 0);  // options are process-wide
  }
  const Mesh mesh = ReadMsh(path);
  EXPECT_EQ(MshLine(path, MshEntity::kElement, mesh.blocks.at(0).Tag(0)), 0);
  EXPECT_EQ(MshLine(path, MshEntity::kNode, mesh.NodeTag(0)), 0);
  EXPECT_EQ(mesh.blocks.at(0).tags.size(), static_cast<std::size_t>(mesh.blocks.at(0).size()));
}

}  // namespace
}  // namespace jointdyn::fe
