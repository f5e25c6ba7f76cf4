// The joint-mode stage (analysis/joint_mode_pipeline.h) and `analysis: reduction` with joint modes
// and a preload mode: the stage's pieces on a coarse friction bar against closed forms, the basis
// file against an independent evaluation of the contact kinematics, and seed 003 fig. 4.12 (the
// preload mode reproduces the full nonlinear contact pressure around PL1).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "analysis/joint_mode_pipeline.h"
#include "core/test/test_paths.h"
#include "io/hdf5_file.h"
#include "model/fe_reader.h"
#include "model/joint_mode_reader.h"
#include "run/run_model.h"
#include "run/test/read_csv.h"

namespace jointdyn::run {
namespace {

constexpr double kEps = 5e13;  // [Pa/m] the penalty of the examples (5e4 N/mm^3)

const char* kCoarseBar = R"(analysis: reduction
mesh:
  generate: {structure: friction_bar, element: hex8, size: 5.0e-3}
materials:
  sheet_1: &steel {E: 210.0e9, nu: 0.3, rho: 7850.0}
  sheet_2: *steel
reference_nodes:
  - {name: clamp, at: clamp}
  - {name: hole_1, at: sheet_1_hole_1}
couplings:
  - {type: rigid, reference: clamp, set: clamp}
contact:
  - {name: joint, slave: sheet_1_joint, master: sheet_2_joint}
joint_modes: {contact: joint, normal_law: {type: linear, eps: 5.0e13}, method: pod_forces,
              ratio: 0.9, deflection: 2.0e-6, block_size: 8}
)";

TEST(JointModeStage, ContactOfTheFrictionBarAgainstClosedForms) {
  const model::ModelNode root = model::ModelNode::LoadString(kCoarseBar, "coarse_bar.yaml");
  const fe::FeModelSpec fe = model::ReadFeModelSpec(root);
  const analysis::JointModeSpec spec = model::ReadJointModeSpec(root.Map("joint_modes"), fe);
  EXPECT_EQ(spec.modes.method, reduction::JointModeMethod::kPodOfForces);
  EXPECT_TRUE(spec.from_ratio);
  EXPECT_EQ(spec.modes.target_ratio, 0.9);
  EXPECT_EQ(spec.tvd.deflection, 2e-6);
  EXPECT_EQ(spec.tvd.block_size, 8);
  const fe::FeModel model = fe::BuildFeModel(fe);
  const analysis::JointContact contact = analysis::BuildJointContact(model, spec);
  const int pairs = contact.num_pairs();
  ASSERT_GT(pairs, 0);
  EXPECT_EQ(contact.normals.rows(), pairs);
  EXPECT_EQ(contact.normals.cols(), model.dofs->num_free_dofs());
  // N is the normal rows 3 p + 2 of R T, exactly.
  const MatX r = MatX(contact.relative.sparse());
  const MatX n = MatX(contact.normals);
  for (int p = 0; p < pairs; ++p) EXPECT_EQ((n.row(p) - r.row(3 * p + 2)).norm(), 0.0) << p;
  // The linear penalty's tangent: c = A eps in penetration, 0 when open.
  for (int p = 0; p < pairs; ++p) {
    EXPECT_NEAR(contact.stiffness(p, -1e-6), contact.mesh.area(p) * kEps,
                1e-15 * contact.mesh.area(p) * kEps);
    EXPECT_EQ(contact.stiffness(p, 1e-6), 0.0);
  }
  // The joint lies in z = 0 with normals along z: the radius about hole 1's axis is the
  // in-plane distance from (60 mm, 0).
  const VecX radii = analysis::PairRadii(model, contact.contact_index, "hole_1");
  ASSERT_EQ(radii.size(), pairs);
  for (int p = 0; p < pairs; ++p) {
    const auto x = model.mesh.nodes.row(model.contacts[0].pairs[p].slave);
    EXPECT_NEAR(radii(p), std::hypot(x(0) - 0.06, x(1)), 1e-12);
  }
  // The pressure error measure: 0 for equal fields, the relative 2-norm otherwise.
  std::vector<joint::PairOutput> a(3), b(3);
  a[0].pressure = 3.0, a[1].pressure = 4.0, b = a;
  b[0].pressure = 0.0;
  EXPECT_EQ(analysis::RelativePressureError(a, a, {0, 1, 2}), 0.0);
  EXPECT_DOUBLE_EQ(analysis::RelativePressureError(b, a, {0, 1, 2}), 0.6);
  EXPECT_DOUBLE_EQ(analysis::RelativePressureError(b, a, {1, 2}), 0.0);
}

struct ExampleRun {
  std::filesystem::path out;
  nlohmann::json summary;
};

ExampleRun RunExample(const std::string& name) {
  ExampleRun run{std::filesystem::temp_directory_path() / "jointdyn_joint_modes" / name, {}};
  std::filesystem::remove_all(run.out);
  const RunOutcome outcome =
      RunModelFile(test_paths::SourceDir() / "examples" / "reduction" / (name + ".yaml"), run.out);
  EXPECT_TRUE(outcome.ok) << outcome.message;
  std::ifstream in(run.out / "summary.json");
  run.summary = nlohmann::json::parse(in);
  return run;
}

// The relative displacements of the pairs evaluated independently of joint/: u = T V from
// the expansion triplets, then z_p = [t1 t2 n]^T (u_S - sum_j w_j u_Mj) from the pairs'
// slave and master nodes, weights and frames in the file.
MatX RelativeDisplacements(const io::Hdf5File& file, const MatX& v) {
  const io::Hdf5File::Indices rows = file.ReadIndices("expansion/rows");
  const io::Hdf5File::Indices cols = file.ReadIndices("expansion/cols");
  const VecX values = file.ReadVector("expansion/values");
  const int mesh_dofs = static_cast<int>(file.ReadAttribute("expansion", "mesh_dofs"));
  MatX u = MatX::Zero(mesh_dofs, v.cols());
  for (Eigen::Index k = 0; k < values.size(); ++k)
    if (rows(k) < mesh_dofs) u.row(rows(k)) += values(k) * v.row(cols(k));
  const io::Hdf5File::Indices slave = file.ReadIndices("contact/1/slave_node");
  const MatX frame = file.ReadMatrix("contact/1/frame");
  const io::Hdf5File::Indices master = file.ReadIndices("contact/1/master_nodes");
  const MatX weights = file.ReadMatrix("contact/1/master_weights");
  MatX z(3 * slave.size(), v.cols());
  for (Eigen::Index p = 0; p < slave.size(); ++p) {
    MatX relative = u.middleRows(3 * Eigen::Index(slave(p)), 3);
    for (Eigen::Index j = 0; j < master.cols() && master(p, j) >= 0; ++j)
      relative -= weights(p, j) * u.middleRows(3 * Eigen::Index(master(p, j)), 3);
    const Vec3 normal = frame.row(p).segment<3>(0), t1 = frame.row(p).segment<3>(3),
               t2 = frame.row(p).segment<3>(6);
    z.row(3 * p) = t1.transpose() * relative;
    z.row(3 * p + 1) = t2.transpose() * relative;
    z.row(3 * p + 2) = normal.transpose() * relative;
  }
  return z;
}

// More joint modes than the TVDs give: the run fails naming the key, its value and the
// number it may have (the wPOD rank of the example, measured 160), and keeps its summary.
TEST(ReductionJointModes, MoreModesThanTheRankAreReportedWithTheKey) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "jointdyn_joint_modes";
  std::filesystem::create_directories(dir);
  std::ifstream example(test_paths::SourceDir() / "examples" / "reduction" /
                        "friction_bar_joint_modes.yaml");
  std::string text{std::istreambuf_iterator<char>(example), {}};
  const std::string key = "    modes: 20 ";
  ASSERT_NE(text.find(key), std::string::npos);
  text.replace(text.find(key), key.size(), "    modes: 900 ");
  const std::filesystem::path model = dir / "too_many_modes.yaml", out = dir / "too_many_modes";
  std::ofstream(model) << text;
  std::filesystem::remove_all(out);
  const RunOutcome outcome = RunModelFile(model, out);
  EXPECT_FALSE(outcome.ok);
  for (const char* part :
       {"reduction.joint_modes.modes = 900: more than the ", " TVDs give", "ask for at most "})
    EXPECT_NE(outcome.message.find(part), std::string::npos) << outcome.message;
  std::ifstream in(out / "summary.json");
  EXPECT_EQ(nlohmann::json::parse(in)["status"], "failed");
}

// The free friction bar: 16 free-free modes, 2 m^2 = 512 TVDs, g = 20 joint modes by wPOD,
// the extended basis orthogonalized again (reduced M = I, K diagonal).
TEST(ReductionJointModes, FrictionBarBasisFile) {
  const ExampleRun run = RunExample("friction_bar_joint_modes");
  const nlohmann::json& j = run.summary["joint_modes"];
  EXPECT_EQ(j["m"].get<int>(), 16);
  EXPECT_EQ(j["k"].get<int>(), 2 * 16 * 16);
  EXPECT_EQ(j["solves"].get<int>(), 2 * 16 * 16);
  EXPECT_EQ(j["g"].get<int>(), 20);
  EXPECT_EQ(j["dropped"].get<int>(), 0);
  EXPECT_EQ(j["pairs"].get<int>(), run.summary["contact"]["pairs"].get<int>());
  const double ratio = j["ratio"].get<double>();
  EXPECT_GT(ratio, 0.0);
  EXPECT_LE(ratio, 1.0 + 1e-12);
  // Craig-Bampton's 22 vectors + 20 joint modes, the free bar's 6 rigid-body modes removed
  // again. None of the elastic modes is near-rigid (extending the free-free modes instead
  // gave 4.3 and 7.1 Hz): Rayleigh-Ritz bounds the lowest four from below by the full
  // model's (to the Lanczos tolerance) and, the span being larger, from above by those of
  // the 16 free-free modes alone (friction_bar_cb.yaml: 322.58, 389.91, 602.13, 1108.34 Hz).
  EXPECT_EQ(j["final_rigid_modes_removed"].get<int>(), 6);
  const int m = run.summary["reduction"]["m"].get<int>();
  EXPECT_EQ(m, 36);
  const auto f = run.summary["frequencies_hz"].get<std::vector<double>>();
  const auto full = run.summary["full"]["frequencies_hz"].get<std::vector<double>>();
  const std::vector<double> cms = {322.59, 389.92, 602.14, 1108.35};
  ASSERT_EQ(full.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_GE(f[i], full[i] * (1.0 - 1e-9)) << i;
    EXPECT_LE(f[i], cms[i]) << i;
  }

  const io::Hdf5File file((run.out / "basis.h5").string(), io::Hdf5File::Mode::kRead);
  const MatX v = file.ReadMatrix("basis/V");
  ASSERT_EQ(v.cols(), m);
  const MatX k = file.ReadMatrix("reduced/K"), mass = file.ReadMatrix("reduced/M");
  // M-orthonormal to the rounding of the orthogonalization at this basis' conditioning:
  // measured 1.6e-8 (below 1e-9 on a mesh that differed at rounding, when the second
  // sheet's Gmsh session inherited the first one's state).
  EXPECT_LT((mass - MatX::Identity(m, m)).norm(), 1e-7);
  EXPECT_LT((k - MatX(k.diagonal().asDiagonal())).norm(), 1e-9 * k.norm());
  const MatX extended = file.ReadMatrix("basis/extended");
  EXPECT_EQ(extended.cols(), 42);
  const std::vector<std::string> kinds = file.ReadStringsAttribute("basis/extended", "kinds");
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "joint mode"), 42 - 22);  // CB: 10 + 12
  // V = V_extended Y.
  const MatX y = file.ReadMatrix("basis/transform");
  EXPECT_LT((extended * y - v).norm(), 1e-10 * v.norm());
  // w(g) as summarized, non-decreasing to 1.
  const VecX w = file.ReadVector("joint_modes/ratio");
  EXPECT_EQ(w.size(), 2 * 16 * 16);
  EXPECT_DOUBLE_EQ(w(19), ratio);
  for (Eigen::Index i = 1; i < w.size(); ++i) EXPECT_GE(w(i), w(i - 1) - 1e-14);
  EXPECT_NEAR(w(w.size() - 1), 1.0, 1e-12);
  // R V as written equals the relative displacements of the expanded basis.
  const MatX rv = file.ReadMatrix("joint/RV");
  const MatX z = RelativeDisplacements(file, v);
  ASSERT_EQ(rv.rows(), z.rows());
  EXPECT_LT((rv - z).norm(), 1e-12 * z.norm());
  EXPECT_EQ(file.ReadStringAttribute("joint/RV", "pairs"), "contact/1");
  EXPECT_EQ(testing::ReadCsv(run.out / "joint_modes.csv").rows, 512u);
  EXPECT_TRUE(std::filesystem::exists(run.out / "joint_modes.svg"));
}

// Seed 003 fig. 4.12: under the preload alone, the reduced static solution with the CMS
// basis and the preload mode reproduces the full nonlinear contact pressure around PL1 (the
// preload mode is the full solution, K-normalized: Galerkin with the solution in the span
// returns it, up to the Newton tolerances of both solves, 1e-10 on the residual), while the
// CMS basis alone is far off (it cannot form the local clamping).
TEST(ReductionPreload, PreloadModeReproducesTheFullContactPressure) {
  const ExampleRun run = RunExample("friction_bar_preload");
  const nlohmann::json& j = run.summary["joint_modes"];
  EXPECT_EQ(j["m"].get<int>(), 17);  // 10 + 6 + the preload mode
  EXPECT_EQ(j["k"].get<int>(), 2 * (1 + 2 * 16));
  const nlohmann::json& p = run.summary["preload"];
  EXPECT_GT(p["compared_pairs"].get<int>(), 20);
  EXPECT_GT(p["full"]["pairs_in_contact"].get<int>(), 0);
  std::map<std::string, double> error;
  for (const auto& c : p["reduced"]) error[c["name"]] = c["pressure_error"].get<double>();
  std::cerr << "pressure errors around PL1: CMS only " << error["cms"] << ", CMS + PLM "
            << error["cms_plm"] << ", final " << error["final"] << "\n";
  EXPECT_LT(error["cms_plm"], 1e-8);  // measured 1.5e-11
  EXPECT_LT(error["final"], 1e-8);    // measured 5.6e-12
  EXPECT_GT(error["cms"], 0.1);       // measured 0.80
  const testing::CsvTable csv = testing::ReadCsv(run.out / "preload_pressure.csv");
  EXPECT_EQ(csv.rows, p["compared_pairs"].get<size_t>());
  EXPECT_TRUE(std::filesystem::exists(run.out / "preload_pressure.svg"));
  const io::Hdf5File file((run.out / "basis.h5").string(), io::Hdf5File::Mode::kRead);
  EXPECT_EQ(file.ReadMatrix("preload/pressure").cols(), 4);
  EXPECT_EQ(file.ReadVector("preload/x").size(), run.summary["free_dofs"].get<int>());
}

// The same on the connecting rod (seed 003 sec. 4.2.2; examples/reduction/
// connecting_rod_preload_modes.yaml): preloaded beam bolts make the preload mode; with it the
// reduced preload solution is the full one over all 631 pairs, without it 33 % off.
TEST(ReductionPreload, ConnectingRodPreloadModeReproducesTheFullContactPressure) {
  const ExampleRun run = RunExample("connecting_rod_preload_modes");
  const nlohmann::json& j = run.summary["joint_modes"];
  EXPECT_EQ(j["m"].get<int>(), 25);  // 20 + the 4 axial preload DOFs + the preload mode
  EXPECT_EQ(j["k"].get<int>(), 2 * (1 + 2 * 24));
  const nlohmann::json& p = run.summary["preload"];
  EXPECT_EQ(p["compared_pairs"].get<int>(), 631);
  EXPECT_NEAR(p["full"]["normal_force_n"].get<double>(), 33000.0, 1e-9 * 33000.0);
  std::map<std::string, double> error;
  for (const auto& c : p["reduced"]) error[c["name"]] = c["pressure_error"].get<double>();
  EXPECT_LT(error["cms_plm"], 1e-8);  // measured 8.1e-15
  EXPECT_LT(error["final"], 1e-8);    // measured 7.1e-15
  EXPECT_GT(error["cms"], 0.1);       // measured 0.33
}

}  // namespace
}  // namespace jointdyn::run
