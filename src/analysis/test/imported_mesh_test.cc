// Imported meshes run through an analysis like any other: a distorted hex20 box written as
// an Abaqus .inp and as Nastran bulk data (nodes relabelled, the C3D20 and CHEXA node orders
// derived here from each format's edge list, not from the readers' tables) has the
// eigenfrequencies of the same box generated in memory; a hex20 lap joint written as a
// Gmsh, an Abaqus and a Nastran file has one static solution with contact; bonded, it
// tends to the merged (conforming) lap joint as 1 / eps.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>

#include "analysis/modal.h"
#include "analysis/static.h"
#include "fe/structured_mesh.h"
#include "fe/test/mesh_file_test.h"
#include "laws/normal_laws.h"
#include "laws/viscoelastic.h"

namespace jointdyn::analysis {
namespace {

using Edges = std::vector<std::pair<int, int>>;
using fe::test_files::kAbaqusHexEdges;
using fe::test_files::kGmshHexEdges;
using fe::test_files::kNastranHexEdges;

// The Gmsh-ordered node of each node of a 20-node hexahedron whose mid-edge nodes lie on
// `edges`.
std::vector<int> GmshOf(const Edges& edges) {
  std::vector<int> order = {0, 1, 2, 3, 4, 5, 6, 7};
  for (const auto& [a, b] : edges)
    for (int g = 0; g < 12; ++g)
      if (std::minmax(a, b) == std::minmax(kGmshHexEdges[g].first, kGmshHexEdges[g].second))
        order.push_back(8 + g);
  return order;
}

// `mesh` (hex20 blocks) as an Abaqus input file in `unit` metres (1e-3: millimetres), node
// labels first_node.., element labels 1.., an element set per block with a section, and
// the node sets.
std::filesystem::path WriteInp(const fe::Mesh& mesh, const std::string& name, double unit,
                               int first_node) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / (name + ".inp");
  std::ofstream out(path);
  out.precision(17);
  out << "*Heading\n*Node\n";
  for (int n = 0; n < mesh.num_nodes(); ++n)
    out << first_node + n << ", " << mesh.nodes(n, 0) / unit << ", " << mesh.nodes(n, 1) / unit
        << ", " << mesh.nodes(n, 2) / unit << "\n";
  const std::vector<int> order = GmshOf(kAbaqusHexEdges);
  int label = 1;
  for (const fe::ElementBlock& block : mesh.blocks) {
    out << "*Element, type=C3D20R, elset=" << block.name << "\n";
    for (int e = 0; e < block.size(); ++e, ++label) {
      out << label;
      for (size_t i = 0; i < order.size(); ++i)
        out << (i == 15 ? ",\n" : ", ") << first_node + block.element(e)[order[i]];
      out << "\n";
    }
    out << "*Solid Section, elset=" << block.name << ", material=steel\n,\n";
  }
  for (const auto& [set, nodes] : mesh.node_sets) {
    out << "*Nset, nset=" << set << "\n";
    for (int n : nodes) out << first_node + n << "\n";
  }
  out << "*Material, name=steel\n";
  return path;
}

// `mesh` as Nastran bulk data (free field), GRID IDs first_node.., CHEXA IDs 1.., PID k + 1
// for block k (blocks pid_1, ..), the node sets as SET1 1, 2, .. in their (name) order, and
// the cards `extra`.
std::filesystem::path WriteBdf(const fe::Mesh& mesh, const std::string& name, int first_node,
                               const std::string& extra = "") {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / (name + ".bdf");
  std::ofstream out(path);
  out.precision(17);
  out << "SOL 103\nCEND\nBEGIN BULK\n";
  for (int n = 0; n < mesh.num_nodes(); ++n)
    out << "GRID," << first_node + n << ",," << mesh.nodes(n, 0) << "," << mesh.nodes(n, 1) << ","
        << mesh.nodes(n, 2) << "\n";
  const std::vector<int> order = GmshOf(kNastranHexEdges);
  int id = 1;
  for (size_t b = 0; b < mesh.blocks.size(); ++b) {
    const fe::ElementBlock& block = mesh.blocks[b];
    for (int e = 0; e < block.size(); ++e, ++id) {
      out << "CHEXA," << id << "," << b + 1;
      for (size_t i = 0; i < order.size(); ++i)
        out << ((i == 6 || i == 14) ? ",+\n+," : ",") << first_node + block.element(e)[order[i]];
      out << "\n";
    }
    out << "PSOLID," << b + 1 << ",1\n";
  }
  int sid = 1;
  for (const auto& [set, nodes] : mesh.node_sets) {
    out << "SET1," << sid++;
    for (int n : nodes) out << "\n," << first_node + n;  // one ID per continuation
    out << "\n";
  }
  out << extra << "ENDDATA\n";
  return path;
}

// The modal options of the box, meshed in memory.
ModalOptions BoxModal(const fe::BoxMeshOptions& box) {
  ModalOptions options;
  options.fe.source = fe::MeshSource::kBox;
  options.fe.box = box;
  options.fe.materials = {
      {"box", {.youngs_modulus = 210e9, .poisson_ratio = 0.3, .density = 7850}}};
  options.fe.supports = {{.set = "xmin"}};
  options.mode_count = 6;
  return options;
}

TEST(ModalAnalysis, ImportedMeshesGiveTheFrequenciesOfTheSameMesh) {
  ASSERT_EQ(GmshOf(kAbaqusHexEdges).size(), 20u);
  ASSERT_EQ(GmshOf(kNastranHexEdges).size(), 20u);
  fe::BoxMeshOptions box;
  box.size = Vec3(0.2, 0.03, 0.02);
  box.divisions = {6, 2, 1};
  box.type = fe::ElementType::kHex20;
  box.distortion = 0.2;
  fe::Mesh mesh = fe::MakeBoxMesh(box);
  mesh.node_sets = {{"xmin", mesh.node_sets.at("xmin")}};  // the one the files carry
  Observer quiet;
  const ModalResult generated = RunModal(BoxModal(box), quiet);
  ASSERT_TRUE(generated.status) << generated.status.message;
  ASSERT_EQ(generated.frequencies_hz.size(), 6u);
  for (const auto& [file, block] : {std::pair(WriteInp(mesh, "jointdyn_box", 1e-3, 1001), "box"),
                                    std::pair(WriteBdf(mesh, "jointdyn_box", 501), "pid_1")}) {
    ModalOptions read = BoxModal(box);
    read.fe.source = fe::MeshSource::kMshFile;
    read.fe.msh_file = file;
    read.fe.materials = {{block, read.fe.materials.at("box")}};
    if (file.extension() == ".bdf") read.fe.supports = {{.set = "set_1"}};  // xmin only
    if (file.extension() == ".inp") read.fe.mesh_scale = 1e-3;              // written in mm
    const ModalResult imported = RunModal(read, quiet);
    ASSERT_TRUE(imported.status) << file << ": " << imported.status.message;
    EXPECT_EQ(imported.model.mesh.NodeTag(0), file.extension() == ".bdf" ? 501 : 1001);
    EXPECT_EQ(
        imported.model.ignored_keywords.count(file.extension() == ".bdf" ? "PSOLID" : "*MATERIAL"),
        1u);
    ASSERT_EQ(imported.frequencies_hz.size(), 6u);
    for (int i = 0; i < 6; ++i)
      EXPECT_NEAR(imported.frequencies_hz[i] / generated.frequencies_hz[i], 1.0, 1e-10)
          << file << ", mode " << i + 1;
  }
}

// `mesh` (hex20 blocks, quad8 face sets) as a Gmsh 2.2 file, node tags first_node..: a
// physical volume per block and a physical surface per face set (whose nodes are also a
// node set on reading).
std::filesystem::path WriteMsh(const fe::Mesh& mesh, const std::string& name, int first_node) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / (name + ".msh");
  std::ofstream out(path);
  out.precision(17);
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n"
      << mesh.blocks.size() + mesh.face_sets.size() << "\n";
  int tag = 1;
  for (const fe::ElementBlock& block : mesh.blocks)
    out << "3 " << tag++ << " \"" << block.name << "\"\n";
  for (const auto& [set, faces] : mesh.face_sets) out << "2 " << tag++ << " \"" << set << "\"\n";
  out << "$EndPhysicalNames\n$Nodes\n" << mesh.num_nodes() << "\n";
  for (int n = 0; n < mesh.num_nodes(); ++n)
    out << first_node + n << " " << mesh.nodes(n, 0) << " " << mesh.nodes(n, 1) << " "
        << mesh.nodes(n, 2) << "\n";
  int count = 0;
  for (const fe::ElementBlock& block : mesh.blocks) count += block.size();
  for (const auto& [set, faces] : mesh.face_sets) count += faces.size();
  out << "$EndNodes\n$Elements\n" << count << "\n";
  int id = 1;
  tag = 1;
  const auto write = [&](int type, int nodes, const int* element) {
    out << id++ << " " << type << " 2 " << tag << " " << tag;
    for (int a = 0; a < nodes; ++a) out << " " << first_node + element[a];
    out << "\n";
  };
  for (const fe::ElementBlock& block : mesh.blocks) {
    for (int e = 0; e < block.size(); ++e) write(17, 20, block.element(e));  // hex20
    ++tag;
  }
  for (const auto& [set, faces] : mesh.face_sets) {
    for (int f = 0; f < faces.size(); ++f) write(16, 8, faces.face(f));  // quad8
    ++tag;
  }
  out << "$EndElements\n";
  return path;
}

// The box's tip face tied to a spider's centre by an RBE2 (the grid 9000 off the elements)
// has the frequencies of the box whose tip face is rigidly coupled to a reference node there
// in the model file.
TEST(ModalAnalysis, Rbe2FromBulkDataIsTheModelFilesRigidCoupling) {
  fe::BoxMeshOptions box;
  box.size = Vec3(0.2, 0.03, 0.02);
  box.divisions = {6, 2, 1};
  box.type = fe::ElementType::kHex20;
  fe::Mesh mesh = fe::MakeBoxMesh(box);
  const Vec3 tip(0.2, 0.015, 0.01);
  std::ostringstream rbe2;
  rbe2.precision(17);
  rbe2 << "GRID,9000,," << tip(0) << "," << tip(1) << "," << tip(2) << "\nRBE2,1,9000,123456";
  for (int n : mesh.node_sets.at("xmax")) rbe2 << "\n," << 1 + n;  // one GM per continuation
  rbe2 << "\n";
  mesh.node_sets = {{"xmin", mesh.node_sets.at("xmin")}};
  ModalOptions coupled = BoxModal(box);
  coupled.fe.reference_nodes = {{"tip", tip, ""}};
  coupled.fe.couplings = {{fe::CouplingKind::kRigid, "tip", "xmax"}};
  ModalOptions read = BoxModal(box);
  read.fe.source = fe::MeshSource::kMshFile;
  read.fe.msh_file = WriteBdf(mesh, "jointdyn_box_rbe2", 1, rbe2.str());
  read.fe.materials = {{"pid_1", read.fe.materials.at("box")}};
  read.fe.supports = {{.set = "set_1"}};
  Observer quiet;
  const ModalResult expected = RunModal(coupled, quiet), imported = RunModal(read, quiet);
  ASSERT_TRUE(expected.status) << expected.status.message;
  ASSERT_TRUE(imported.status) << imported.status.message;
  EXPECT_EQ(imported.model.reference_nodes.at(0).name, "grid_9000");
  ASSERT_EQ(imported.frequencies_hz.size(), 6u);
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(imported.frequencies_hz[i] / expected.frequencies_hz[i], 1.0, 1e-10) << i;
  EXPECT_GT(expected.frequencies_hz[0], 0.0);
}

// A lap joint of two hex20 blocks 0.1 x 0.05 x 0.02 m (4 x 2 x 1 cells), the upper one
// shifted by (0.05, 0, 0.02): they touch on the overlap x in [0.05, 0.1] with separate,
// coincident nodes. Blocks lower, upper; face sets (and node sets of their nodes)
// lower_xmin, lower_xmax, upper_xmin, upper_xmax, lower_joint, upper_joint.
fe::Mesh HexLapJoint() {
  fe::BoxMeshOptions box;
  box.size = Vec3(0.1, 0.05, 0.02);
  box.divisions = {4, 2, 1};
  box.type = fe::ElementType::kHex20;
  const fe::Mesh lower = fe::MakeBoxMesh(box), upper = fe::MakeBoxMesh(box);
  const int offset = lower.num_nodes();
  fe::Mesh mesh;
  mesh.nodes.resize(2 * offset, 3);
  mesh.nodes.topRows(offset) = lower.nodes;
  mesh.nodes.bottomRows(offset) = upper.nodes.rowwise() + Eigen::RowVector3d(0.05, 0.0, 0.02);
  mesh.blocks = {lower.blocks[0], upper.blocks[0]};
  mesh.blocks[0].name = "lower";
  mesh.blocks[1].name = "upper";
  for (int& n : mesh.blocks[1].connectivity) n += offset;
  // The faces of `side` of a block (node offset `shift`) whose nodes all satisfy `keep`.
  const auto faces = [&](const fe::Mesh& block, const std::string& side, int shift,
                         const std::function<bool(double)>& keep) {
    const fe::FaceSet& all = block.face_sets.at(side);
    fe::FaceSet kept{.type = all.type};
    for (int f = 0; f < all.size(); ++f) {
      bool inside = true;
      for (int a = 0; a < 8; ++a) inside = inside && keep(mesh.nodes(all.face(f)[a] + shift, 0));
      for (int a = 0; inside && a < 8; ++a) kept.connectivity.push_back(all.face(f)[a] + shift);
    }
    return kept;
  };
  const auto any = [](double) { return true; };
  mesh.face_sets["lower_xmin"] = faces(lower, "xmin", 0, any);
  mesh.face_sets["upper_xmax"] = faces(upper, "xmax", offset, any);
  mesh.face_sets["lower_xmax"] = faces(lower, "xmax", 0, any);
  mesh.face_sets["upper_xmin"] = faces(upper, "xmin", offset, any);
  mesh.face_sets["lower_joint"] = faces(lower, "zmax", 0, [](double x) { return x > 0.05 - 1e-9; });
  mesh.face_sets["upper_joint"] =
      faces(upper, "zmin", offset, [](double x) { return x < 0.1 + 1e-9; });
  for (const auto& [set, faces] : mesh.face_sets) {
    std::vector<int>& nodes = mesh.node_sets[set];
    nodes.assign(faces.connectivity.begin(), faces.connectivity.end());
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  }
  return mesh;
}

// The lap joint read from `file`: clamped at lower_xmin, bolted at the overlap's ends (the
// end faces lower_xmax and upper_xmin rigidly coupled to `bolt`, as analysis/test/
// lap_joint.h), the tip (rigidly coupled to upper_xmax) pushed down 20 um in two steps,
// frictionless penalty contact; `names` maps the block and set names to the file's. (With
// friction the three agree to the Newton tolerance, ~1e-7 in the pressures of the pairs at
// the slip limit, whose stick or slip status then differs: the pairs come in another
// order and their frames from other face nodes, so the iterations round differently.)
StaticOptions LapJointStatic(const std::filesystem::path& file,
                             const std::map<std::string, std::string>& names, double scale) {
  StaticOptions options;
  options.fe.source = fe::MeshSource::kMshFile;
  options.fe.msh_file = file;
  options.fe.mesh_scale = scale;
  const fe::ElasticMaterial steel{.youngs_modulus = 210e9, .poisson_ratio = 0.3};
  options.fe.materials = {{names.at("lower"), steel}, {names.at("upper"), steel}};
  options.fe.reference_nodes = {{"tip", std::nullopt, names.at("upper_xmax")},
                                {"bolt", Vec3(0.075, 0.025, 0.02), ""}};
  options.fe.couplings = {{fe::CouplingKind::kRigid, "tip", names.at("upper_xmax")},
                          {fe::CouplingKind::kRigid, "bolt", names.at("lower_xmax")},
                          {fe::CouplingKind::kRigid, "bolt", names.at("upper_xmin")}};
  options.fe.supports = {{.set = names.at("lower_xmin")}, {.set = "tip", .components = {2}}};
  options.fe.contacts = {
      {"joint",
       names.at("upper_joint"),
       names.at("lower_joint"),
       {.search_distance = 1e-4, .area_weighting = fe::AreaWeighting::kDiagonalScaled}}};
  options.prescribed = {{.support = 1, .value = {.value = -2e-5}}};
  options.joints = {{
      .contact = "joint",
      .normal = std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = 5e13}),
  }};
  options.steps = 2;
  return options;
}

// The same lap joint as Gmsh, Abaqus (in mm, contact and clamp by node sets) and Nastran
// (blocks by PID, sets by SET1) files: the same static solution to rounding.
TEST(StaticAnalysis, LapJointFromMshInpAndBdfGivesTheSameSolution) {
  const fe::Mesh mesh = HexLapJoint();
  ASSERT_EQ(mesh.face_sets.at("lower_joint").size(), 4);
  ASSERT_EQ(mesh.face_sets.at("upper_joint").size(), 4);
  std::map<std::string, std::string> same = {{"lower", "lower"}, {"upper", "upper"}};
  std::map<std::string, std::string> nastran = {{"lower", "pid_1"}, {"upper", "pid_2"}};
  int sid = 1;  // SET1 IDs in the order of the node sets' names
  for (const auto& [set, nodes] : mesh.node_sets) {
    same[set] = set;
    nastran[set] = "set_" + std::to_string(sid++);
  }
  StaticObserver quiet;
  const StaticResult msh =
      RunStatic(LapJointStatic(WriteMsh(mesh, "jointdyn_lap", 1), same, 1.0), quiet);
  ASSERT_TRUE(msh.status.ok) << msh.status.message;
  ASSERT_EQ(msh.steps.size(), 2u);
  const StaticStep& reference = msh.steps[1];
  EXPECT_GT(reference.joints.slipping_pairs, 0);  // closed (frictionless: slip)
  EXPECT_GT(reference.joints.open_pairs, 0);
  for (const auto& [file, names, scale] :
       {std::tuple(WriteInp(mesh, "jointdyn_lap", 1e-3, 1), same, 1e-3),
        std::tuple(WriteBdf(mesh, "jointdyn_lap", 1), nastran, 1.0)}) {
    const StaticResult read = RunStatic(LapJointStatic(file, names, scale), quiet);
    ASSERT_TRUE(read.status.ok) << file << ": " << read.status.message;
    ASSERT_EQ(read.steps.size(), 2u);
    const StaticStep& step = read.steps[1];
    EXPECT_EQ(read.joint_pairs, msh.joint_pairs) << file;
    EXPECT_EQ(step.joints.open_pairs, reference.joints.open_pairs) << file;
    EXPECT_EQ(step.joints.slipping_pairs, reference.joints.slipping_pairs) << file;
    for (size_t s = 0; s < 2; ++s) {
      const double scale_n = reference.reactions[s].force.norm();
      EXPECT_LT((step.reactions[s].force - reference.reactions[s].force).norm(), 1e-10 * scale_n)
          << file << ", support " << s;
      EXPECT_LT((step.reactions[s].moment - reference.reactions[s].moment).norm(),
                1e-10 * scale_n * 0.1)
          << file << ", support " << s;
    }
    EXPECT_NEAR(step.joints.gap_norm, reference.joints.gap_norm, 1e-10 * reference.joints.gap_norm);
    EXPECT_NEAR(step.joints.max_pressure, reference.joints.max_pressure,
                1e-10 * reference.joints.max_pressure);
    // The displacements node by node (all files number the nodes 1..).
    double largest = 0.0, difference = 0.0;
    for (int n = 0; n < read.model.mesh.num_nodes(); ++n) {
      const int m = static_cast<int>(read.model.mesh.NodeTag(n)) - 1;
      ASSERT_EQ(msh.model.mesh.NodeTag(m), m + 1);
      for (int c = 0; c < 3; ++c) {
        largest = std::max(largest, std::abs(msh.displacement(3 * m + c)));
        difference = std::max(difference,
                              std::abs(read.displacement(3 * n + c) - msh.displacement(3 * m + c)));
      }
    }
    EXPECT_LT(difference, 1e-10 * largest) << file;
  }
}

// `lap` with the upper block's joint nodes merged into the coincident lower ones and
// removed: one conforming body. `kept[n]` is the merged mesh's node of lap node n.
fe::Mesh MergedLapJoint(const fe::Mesh& lap, std::vector<int>& kept) {
  std::vector<int> into(lap.num_nodes());
  for (int n = 0; n < lap.num_nodes(); ++n) into[n] = n;
  for (int u : lap.node_sets.at("upper_joint"))
    for (int l : lap.node_sets.at("lower_joint"))
      if ((lap.nodes.row(u) - lap.nodes.row(l)).norm() < 1e-12) into[u] = l;
  std::vector<int> index(lap.num_nodes(), -1);
  fe::Mesh merged = lap;
  int count = 0;
  for (int n = 0; n < lap.num_nodes(); ++n)
    if (into[n] == n) merged.nodes.row(index[n] = count++) = lap.nodes.row(n);
  merged.nodes.conservativeResize(count, 3);
  kept.resize(lap.num_nodes());
  for (int n = 0; n < lap.num_nodes(); ++n) kept[n] = index[into[n]];
  for (fe::ElementBlock& block : merged.blocks)
    for (int& n : block.connectivity) n = kept[n];
  for (auto& [name, faces] : merged.face_sets)
    for (int& n : faces.connectivity) n = kept[n];
  merged.node_sets.clear();
  return merged;
}

// Linear limit of a bonded joint: the lap joint (no bolt) held only by a bonded interface
// (bilateral normal law, elastic tangential law, both of stiffness eps), its tip pushed
// down 20 um, tends to the linear solution of the merged mesh as O(1 / eps): the error
// drops tenfold per decade of eps, and the Richardson extrapolation of two stiffnesses
// agrees with the merged mesh to O(1 / eps^2).
TEST(StaticAnalysis, BondedJointTendsToTheMergedMesh) {
  const fe::Mesh lap = HexLapJoint();
  std::vector<int> kept;
  const fe::Mesh merged_mesh = MergedLapJoint(lap, kept);
  // The 2 x 2 quad8 faces of the overlap have 5 x 5 - 4 nodes.
  ASSERT_EQ(merged_mesh.num_nodes(), lap.num_nodes() - 21);
  std::map<std::string, std::string> names = {{"lower", "lower"}, {"upper", "upper"}};
  for (const auto& [set, nodes] : lap.node_sets) names[set] = set;
  const auto options = [&](const std::filesystem::path& file, double eps) {
    StaticOptions o = LapJointStatic(file, names, 1.0);
    o.fe.reference_nodes.resize(1);  // tip; no bolt
    o.fe.couplings.resize(1);
    o.steps = 1;
    if (eps == 0.0) {
      o.fe.contacts.clear();
      o.joints.clear();
    } else {
      o.joints[0].normal = std::make_shared<laws::BondedLaw>(laws::BondedParams{.eps = eps});
      o.joints[0].friction = std::make_shared<laws::ElasticLaw>(laws::ElasticParams{.k = eps}, 2);
    }
    return o;
  };
  StaticObserver quiet;
  const StaticResult merged =
      RunStatic(options(WriteMsh(merged_mesh, "jointdyn_merged", 1), 0.0), quiet);
  ASSERT_TRUE(merged.status.ok) << merged.status.message;
  const std::filesystem::path file = WriteMsh(lap, "jointdyn_bonded", 1);
  const double scale = merged.displacement.lpNorm<Eigen::Infinity>();
  const auto error = [&](const VecX& u) {
    double e = 0.0;
    for (int n = 0; n < lap.num_nodes(); ++n)
      e = std::max(e, (u.segment<3>(3 * n) - merged.displacement.segment<3>(3 * kept[n]))
                          .lpNorm<Eigen::Infinity>());
    return e / scale;
  };
  std::vector<double> errors;
  std::vector<VecX> solutions;
  for (const double eps : {1e14, 1e15, 1e16, 1e17, 1e18}) {
    const StaticResult bonded = RunStatic(options(file, eps), quiet);
    ASSERT_TRUE(bonded.status.ok) << bonded.status.message;
    EXPECT_EQ(bonded.steps[0].joints.open_pairs, 0);
    EXPECT_EQ(bonded.steps[0].joints.sticking_pairs, bonded.joint_pairs[0]);
    solutions.push_back(bonded.displacement);
    errors.push_back(error(bonded.displacement));
    std::cout << "eps " << eps << ": max |u - u_merged| / max |u_merged| " << errors.back()
              << ", tip reaction " << bonded.steps[0].reactions[1].force.z() << " N (merged "
              << merged.steps[0].reactions[1].force.z() << " N)\n";
  }
  // Measured: 1.8e-3, 2.0e-4, 2.0e-5, 2.1e-6, 2.1e-7 (ratios 8.8, 9.8, 10.0, 10.0).
  for (size_t i = 0; i + 1 < errors.size(); ++i) {
    EXPECT_GT(errors[i] / errors[i + 1], 8.0) << i;
    EXPECT_LT(errors[i] / errors[i + 1], 10.5) << i;
  }
  EXPECT_LT(errors.back(), 3e-7);
  const double richardson = error((10.0 * solutions[4] - solutions[3]) / 9.0);
  std::cout << "Richardson extrapolation of eps 1e17 and 1e18: " << richardson << "\n";
  EXPECT_LT(richardson, 1e-8);
}

}  // namespace
}  // namespace jointdyn::analysis
