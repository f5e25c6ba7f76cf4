// analysis: modal: the figures of the FE examples (mass, contact pairs, frequencies against
// closed forms), the VTU files ParaView reads, and the eigenvalue shift convention.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <numbers>
#include <regex>

#include "analysis/modal.h"
#include "core/test/test_paths.h"
#include "fe/beam.h"
#include "fe/gmsh_structures.h"
#include "fe/structured_mesh.h"
#include "io/vtu.h"
#include "run/mesh_grid.h"
#include "run/run_model.h"
#include "run/test/read_csv.h"
#include "run/test/vtu_reader.h"

namespace jointdyn::run {
namespace {

std::filesystem::path OutDir(const std::string& name) {
  const auto out = std::filesystem::temp_directory_path() / "jointdyn_modal" / name;
  std::filesystem::remove_all(out);
  return out;
}

nlohmann::json ReadSummary(const std::filesystem::path& out) {
  std::ifstream in(out / "summary.json");
  return nlohmann::json::parse(in);
}

nlohmann::json RunFeExample(const std::string& name, std::filesystem::path* out_dir = nullptr) {
  const auto out = OutDir(name);
  const RunOutcome outcome =
      RunModelFile(test_paths::SourceDir() / "examples" / "fe" / (name + ".yaml"), out);
  EXPECT_TRUE(outcome.ok) << outcome.message;
  if (out_dir) *out_dir = out;
  return ReadSummary(out);
}

// Runs a modal model given as text (written as <name>/model.yaml); its summary.
nlohmann::json RunModalText(const std::string& name, const std::string& text) {
  const auto out = OutDir(name);
  std::filesystem::create_directories(out);
  std::ofstream(out / "model.yaml") << text;
  const RunOutcome outcome = RunModelFile(out / "model.yaml", out);
  EXPECT_TRUE(outcome.ok) << outcome.message;
  return ReadSummary(out);
}

// The first clamped-free bending frequency of an Euler-Bernoulli beam [Hz]:
// (beta_1 L)^2 / (2 pi L^2) sqrt(E I / (rho A)), beta_1 L = 1.8751 (e.g. Blevins, Formulas
// for natural frequency and mode shape, table 8-1); for a rectangle of height h in the
// bending plane E I / (rho A) = E h^2 / (12 rho).
double CantileverFrequency(double length, double height, double e, double rho) {
  const double beta_l = 1.87510407;
  return beta_l * beta_l / (2.0 * std::numbers::pi * length * length) *
         std::sqrt(e * height * height / (12.0 * rho));
}

TEST(ModalExample, FrictionBarMassPairsAndJointArea) {
  std::filesystem::path out;
  const nlohmann::json s = RunFeExample("friction_bar_modal", &out);
  // Seed 003 section 4.1: m_FB = 0.185 kg, sheets and bolt beams (the sheets less their four
  // bores 0.1847 kg, the two beams 0.9 g).
  EXPECT_NEAR(s["mass_total"].get<double>(), 0.185, 0.001);
  EXPECT_EQ(s["beams"].get<int>(), 2);
  const double beams = 2.0 * 7850.0 * std::numbers::pi * 0.0025 * 0.0025 * 0.003;
  EXPECT_NEAR(s["mass_total"].get<double>() - s["mass_blocks"]["sheet_1"].get<double>() -
                  s["mass_blocks"]["sheet_2"].get<double>(),
              beams, 1e-3 * beams);
  EXPECT_NEAR(s["mass_blocks"]["sheet_1"].get<double>(), s["mass_blocks"]["sheet_2"].get<double>(),
              1e-5);
  // Every node of the joint face of sheet 1 (the same mesh as the example's) is paired, and
  // the flat touching sheets have zero gaps.
  fe::FrictionBarOptions options;
  options.mesh = {.mesh_size = 3e-3,
                  .order = fe::ElementOrder::kQuadratic,
                  .shape = fe::CellShape::kTet,
                  .non_matching = true};
  const fe::Mesh mesh = fe::BuildFrictionBar(options);
  const nlohmann::json& c = s["contact"];
  EXPECT_EQ(c["pairs"].get<size_t>(), mesh.FaceSetNodes("sheet_1_joint").size());
  EXPECT_EQ(c["pairs"].get<int>(), c["node_to_node"].get<int>() + c["node_to_segment"].get<int>());
  EXPECT_GT(c["node_to_segment"].get<int>(), c["node_to_node"].get<int>());  // non-matching
  EXPECT_LT(std::abs(c["min_gap"].get<double>()), 1e-12);
  EXPECT_LT(std::abs(c["max_gap"].get<double>()), 1e-12);
  // The joint 175 x 20 mm less the four bores of 5 mm: the consistent nodal areas sum to
  // the area of the quadratic faces (bores interpolated to about 1e-5 relative).
  const double joint = 0.175 * 0.02 - 4.0 * std::numbers::pi * 0.0025 * 0.0025;
  EXPECT_NEAR(c["area"].get<double>() / joint, 1.0, 1e-4);
  const testing::CsvTable pairs = testing::ReadCsv(out / "contact_pairs_1.csv");
  EXPECT_EQ(pairs.rows, c["pairs"].get<size_t>());
  // The clamped bar is longer (225 mm) than one sheet and doubled in the joint: its first
  // bending frequency lies between those of a 225 mm cantilever of one sheet and of a
  // 200 mm one.
  const double f1 = s["frequencies_hz"][0].get<double>();
  EXPECT_GT(f1, CantileverFrequency(0.225, 0.003, 210e9, 7850.0) * 0.8);
  EXPECT_LT(f1, CantileverFrequency(0.2, 0.003, 210e9, 7850.0));
}

TEST(ModalExample, MultilayerSheetMassAndNodeToNodePairs) {
  const nlohmann::json s = RunFeExample("multilayer_sheet_modal");
  // 7850 kg/m^3 x (2 x 300 + 400) x 20 x 1 mm^3 = 0.157 kg (no holes: exact).
  EXPECT_NEAR(s["mass_total"].get<double>(), 0.157, 1e-12);
  EXPECT_NEAR(s["mass_blocks"]["central"].get<double>(), 0.0628, 1e-12);
  for (const auto& surface : s["contact"]["surfaces"]) {
    EXPECT_EQ(surface["node_to_segment"].get<int>(), 0);  // conforming meshes
    EXPECT_NEAR(surface["area"].get<double>(), 0.3 * 0.02, 1e-15);
  }
  // The central sheet (400 x 20 x 1 mm, clamped, free of the riveted outer ones without
  // contact stiffness) gives the first mode: Euler-Bernoulli 5.22 Hz; the wide sheet
  // (b / h = 20) is a plate strip, stiffer by at most 1 / sqrt(1 - nu^2) = 1.048.
  const double f1 = s["frequencies_hz"][0].get<double>();
  const double beam = CantileverFrequency(0.4, 0.001, 210e9, 7850.0);
  EXPECT_GT(f1, beam);
  EXPECT_LT(f1, beam / std::sqrt(1.0 - 0.09));
}

// The connecting rod of seed 003 section 4.2 from the model file (the generated mesh's
// geometry is checked in src/fe/test/gmsh_structures_test.cc): rod and cap 1.0286 kg (the
// geometry's analytic volume 1.31035e-4 m^3 of steel; the seed's 1.03 kg) plus the two bolt
// beams (9 mm, 30 mm from the head's seat at y = -22 mm to the thread's bore centroid at
// y = 8 mm), the joint's split face (7.568e-4 m^2 analytic), the six rigid-body modes of
// the free rod at 0 Hz and no soft mode above them.
TEST(ModalExample, ConnectingRodMassJointAndRigidModes) {
  const nlohmann::json s = RunFeExample("connecting_rod_modal");
  const double beams = 2.0 * 7850.0 * std::numbers::pi * 0.0045 * 0.0045 * 0.030;
  const double body = 7850.0 * 1.31035e-4;
  EXPECT_NEAR(s["mass_blocks"]["rod"].get<double>() + s["mass_blocks"]["cap"].get<double>(), body,
              1e-3 * body);  // tet10: the bores' chord error (0.003 %)
  EXPECT_NEAR(s["mass_total"].get<double>() - body, beams, 2e-3 * body);
  const auto& joint = s["contact"]["surfaces"][0];
  EXPECT_EQ(joint["shared_nodes"].get<int>(), 0);  // rod and cap meshed apart
  EXPECT_NEAR(joint["area"].get<double>(), 7.568e-4, 0.01 * 7.568e-4);
  EXPECT_LT(std::abs(joint["min_gap"].get<double>()), 1e-12);  // both sides on y = 0
  const auto& f = s["frequencies_hz"];
  for (int i = 0; i < 6; ++i) EXPECT_LT(std::abs(f[i].get<double>()), 0.01) << i;
  EXPECT_GT(f[6].get<double>(), 1000.0);  // the first elastic mode: 1427 Hz
}

TEST(ModalExample, ImportedCantileverAgainstEulerBernoulli) {
  const nlohmann::json s = RunFeExample("matrix_market_modal");
  EXPECT_EQ(s["mesh"], "matrix_market");
  EXPECT_NEAR(s["mass_total"].get<double>(), 7850.0 * 0.2 * 0.01 * 0.01, 1e-12);
  // 20 x 1 quad8, L / h = 20: shear and rotary inertia lower the frequency by about
  // 0.3 %, the clamp's Poisson restraint raises it; 0.5 % covers both.
  const double beam = CantileverFrequency(0.2, 0.01, 210e9, 7850.0);
  EXPECT_NEAR(s["frequencies_hz"][0].get<double>() / beam, 1.0, 5e-3);
}

// A hex20 box cantilever 200 x 10 x 10 mm: the two first bending modes (y and z, equal for
// the square section) converge to Euler-Bernoulli; < 1 % at 40 x 2 x 2 elements.
TEST(ModalModel, BoxCantileverAgainstEulerBernoulli) {
  const nlohmann::json s = RunModalText("box_cantilever", R"(
analysis: modal
mesh:
  generate: {structure: box, element: hex20, dimensions: [0.2, 0.01, 0.01], size: 0.005}
materials:
  box: {E: 210.0e9, nu: 0.3, rho: 7850.0}
supports:
  - {set: xmin}
modes: {count: 2, shift: 0}
)");
  EXPECT_EQ(s["elements"]["hex20"].get<int>(), 40 * 2 * 2);
  const double beam = CantileverFrequency(0.2, 0.01, 210e9, 7850.0);
  for (int k = 0; k < 2; ++k)
    EXPECT_NEAR(s["frequencies_hz"][k].get<double>() / beam, 1.0, 1e-2) << "mode " << k + 1;
  EXPECT_EQ(s["contact"]["pairs"].get<int>(), 0);
}

// A beam between two reference nodes (the mesh is held everywhere): the cantilever's first
// frequency from the beam element's own 12 x 12 matrices with end a clamped, and the
// beam's mass in mass_total.
TEST(ModalModel, BeamBetweenReferenceNodes) {
  const nlohmann::json s = RunModalText("beam_cantilever", R"(
analysis: modal
mesh:
  generate: {structure: box, element: hex8, dimensions: [0.01, 0.01, 0.01], size: 0.01}
materials:
  box: &steel {E: 210.0e9, nu: 0.3, rho: 7850.0}
reference_nodes:
  - {name: a, position: [0.0, 0.0, 0.1]}
  - {name: b, position: [0.12, 0.16, 0.1]}
supports:
  - {set: xmin}
  - {set: xmax}
  - {set: a}
beams:
  - {nodes: [a, b], diameter: 0.01, material: *steel}
modes: {count: 1, shift: 0}
)");
  EXPECT_EQ(s["beams"].get<int>(), 1);
  EXPECT_EQ(s["free_dofs"].get<int>(), 6);

  const fe::ElasticMaterial steel{210e9, 0.3, 7850.0, 1.0};
  const fe::BeamSection section = fe::BeamSection::Circular(0.01, 0.3);
  const fe::BeamMatrices beam =
      fe::BeamElement(Vec3(0.0, 0.0, 0.1), Vec3(0.12, 0.16, 0.1), section, steel);
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(
      MatX(beam.stiffness.bottomRightCorner<6, 6>()), MatX(beam.mass.bottomRightCorner<6, 6>()));
  const double expected = std::sqrt(eigen.eigenvalues()(0)) / (2.0 * std::numbers::pi);
  EXPECT_NEAR(s["frequencies_hz"][0].get<double>() / expected, 1.0, 1e-9);
  // One element of the slender cantilever (L = 0.2 m): near Euler-Bernoulli's 1.8751^2.
  const double euler = 1.8751 * 1.8751 / (2.0 * std::numbers::pi * 0.04) *
                       std::sqrt(210e9 * section.inertia / (7850.0 * section.area));
  EXPECT_NEAR(expected / euler, 1.0, 0.01);
  const double box_mass = 7850.0 * 1e-6;
  EXPECT_NEAR(s["mass_total"].get<double>(), box_mass + 7850.0 * section.area * 0.2, 1e-12);
}

// mesh.file: a Gmsh .msh file next to the model file (two hex8 cells of a 2 x 1 x 1 m box,
// physical volume "part", physical surface "xmin").
TEST(ModalModel, ReadsAGmshFileRelativeToTheModelFile) {
  const auto out = OutDir("msh_file");
  const auto dir = out / "model";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "part.msh") << R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
2
2 1 "xmin"
3 2 "part"
$EndPhysicalNames
$Nodes
12
1 0 0 0
2 1 0 0
3 2 0 0
4 0 1 0
5 1 1 0
6 2 1 0
7 0 0 1
8 1 0 1
9 2 0 1
10 0 1 1
11 1 1 1
12 2 1 1
$EndNodes
$Elements
3
1 3 2 1 1 1 4 10 7
2 5 2 2 1 1 2 5 4 7 8 11 10
3 5 2 2 1 2 3 6 5 8 9 12 11
$EndElements
)";
  std::ofstream(dir / "model.yaml") << R"(analysis: modal
mesh: {file: part.msh}
materials:
  part: {E: 210.0e9, nu: 0.3, rho: 7850.0}
supports:
  - {set: xmin}
modes: {count: 3}
)";
  const RunOutcome outcome = RunModelFile(dir / "model.yaml", out / "results");
  ASSERT_TRUE(outcome.ok) << outcome.message;
  const nlohmann::json s = ReadSummary(out / "results");
  EXPECT_EQ(s["mesh"], "file");
  EXPECT_EQ(s["nodes"].get<int>(), 12);
  EXPECT_EQ(s["elements"]["hex8"].get<int>(), 2);
  EXPECT_EQ(s["free_dofs"].get<int>(), 3 * (12 - 4));
  EXPECT_NEAR(s["mass_total"].get<double>(), 7850.0 * 2.0, 1e-9);
  EXPECT_EQ(s["frequencies_hz"].size(), 3u);
}

TEST(ModalModel, ShiftAndSignedFrequency) {
  EXPECT_DOUBLE_EQ(analysis::ShiftEigenvalue(-1.0), -4.0 * std::numbers::pi * std::numbers::pi);
  EXPECT_DOUBLE_EQ(analysis::ShiftEigenvalue(0.0), 0.0);
  EXPECT_DOUBLE_EQ(analysis::SignedFrequency(analysis::ShiftEigenvalue(50.0)), 50.0);
  EXPECT_DOUBLE_EQ(analysis::SignedFrequency(analysis::ShiftEigenvalue(-0.5)), -0.5);
}

// --- VTU files ---

TEST(Vtu, NodeOrderOfQuadraticCellsIsVtks) {
  // VTK's vtkQuadraticTetra / vtkQuadraticHexahedron node order (vtk.org file formats):
  // tet10 mid-edge nodes on edges 01 12 20 03 13 23 (Gmsh: ... 03 23 13); hex20 on
  // 01 12 23 30 45 56 67 74 04 15 26 37 (Gmsh: 01 03 04 12 15 23 26 37 45 47 56 67).
  EXPECT_EQ(VtkNodeOrder(fe::ElementType::kTet10),
            (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 9, 8}));
  EXPECT_EQ(
      VtkNodeOrder(fe::ElementType::kHex20),
      (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 9, 16, 18, 19, 17, 10, 12, 14, 15}));
  EXPECT_EQ(VtkNodeOrder(fe::ElementType::kQuad8), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(VtkNodeOrder(fe::ElementType::kHex8).size(), 8u);
}

TEST(Vtu, MeshFileRoundTripsAndMidEdgeNodesLieOnTheirEdges) {
  for (const auto type : {fe::ElementType::kTet10, fe::ElementType::kHex20}) {
    fe::BoxMeshOptions options;
    options.divisions = {2, 1, 1};
    options.type = type;
    const fe::Mesh mesh = fe::MakeBoxMesh(options);
    io::VtuGrid grid = MeshGrid(mesh);
    io::VtuArray u{"u", 3, {}};
    for (int n = 0; n < mesh.num_nodes(); ++n)
      for (int c = 0; c < 3; ++c) u.values.push_back(n + 0.25 * c);
    grid.point_data.push_back(u);
    const auto path = OutDir("vtu") / "mesh.vtu";
    std::filesystem::create_directories(path.parent_path());
    WriteVtu(path, grid);
    const testing::DecodedVtu vtu = testing::DecodeVtu(path);
    ASSERT_EQ(vtu.points, mesh.num_nodes());
    ASSERT_EQ(vtu.cells, mesh.num_elements());
    EXPECT_EQ(vtu.floats.at("u"), u.values);
    EXPECT_EQ(vtu.floats.at("block"), std::vector<double>(mesh.num_elements(), 0.0));
    const std::vector<double>& x = vtu.floats.at("");
    EXPECT_EQ(x.size(), 3u * mesh.num_nodes());
    EXPECT_EQ(vtu.types, std::vector<uint8_t>(mesh.num_elements(), VtkCellType(type)));
    // In VTK's order, mid-edge node 4 + k of a tet10 (8 + k of a hex20) lies halfway on
    // the k-th edge of VTK's list, read from the file.
    const std::vector<std::pair<int, int>> edges =
        type == fe::ElementType::kTet10
            ? std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}}
            : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                               {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    const int per = fe::NodesPerElement(type), corners = per - static_cast<int>(edges.size());
    for (int e = 0; e < vtu.cells; ++e) {
      ASSERT_EQ(vtu.offsets[e], (e + 1) * per);
      const int64_t* cell = vtu.connectivity.data() + e * per;
      for (size_t k = 0; k < edges.size(); ++k)
        for (int c = 0; c < 3; ++c)
          EXPECT_NEAR(x[3 * cell[corners + k] + c],
                      0.5 * (x[3 * cell[edges[k].first] + c] + x[3 * cell[edges[k].second] + c]),
                      1e-15);
    }
  }
}

TEST(Vtu, ModalRunWritesModeShapesAndContactPoints) {
  std::filesystem::path out;
  const nlohmann::json s = RunFeExample("multilayer_sheet_modal", &out);
  const testing::DecodedVtu mesh = testing::DecodeVtu(out / "mesh.vtu");
  EXPECT_EQ(mesh.points, s["nodes"].get<int>());
  EXPECT_EQ(mesh.floats.count("mode_6"), 1u);
  // Each mode's frequency is field data of the grid (ParaView's Information panel).
  std::ifstream in(out / "mesh.vtu", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string tag =
      "Name=\"mode_6_frequency_hz\" NumberOfComponents=\"1\" "
      "NumberOfTuples=\"1\" format=\"ascii\">";
  const size_t at = text.find(tag);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(std::stod(text.substr(at + tag.size())), s["frequencies_hz"][5].get<double>());
  const testing::DecodedVtu pairs = testing::DecodeVtu(out / "contact_pairs.vtu");
  EXPECT_EQ(pairs.points, s["contact"]["pairs"].get<int>());
  EXPECT_EQ(pairs.types, std::vector<uint8_t>(pairs.points, 1));  // vertex cells
  const std::vector<double>& n = pairs.floats.at("n");
  // The lower sheet's top faces its master from below: n is the master's outward normal,
  // -z, for the first contact; the upper sheet's pairs see +z.
  const std::vector<double>& contact = pairs.floats.at("contact");
  for (int p = 0; p < pairs.points; ++p)
    EXPECT_DOUBLE_EQ(n[3 * p + 2], contact[p] == 1.0 ? -1.0 : 1.0) << "pair " << p;
}

}  // namespace
}  // namespace jointdyn::run
