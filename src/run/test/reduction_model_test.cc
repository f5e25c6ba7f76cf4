// analysis: reduction: the friction bar example (seed 003 section 4.1: v = 10 fixed-interface
// modes and 12 constraint modes of the free bar leave m = 16 free-free modes) against the full
// model's eigenfrequencies, and the basis file's schema.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>

#include "core/test/test_paths.h"
#include "io/hdf5_file.h"
#include "run/run_model.h"
#include "run/test/read_csv.h"

namespace jointdyn::run {
namespace {

struct ReductionRun {
  std::filesystem::path out;
  nlohmann::json summary;
};

ReductionRun RunReduction(const std::filesystem::path& model, const std::string& name) {
  ReductionRun run{std::filesystem::temp_directory_path() / "jointdyn_reduction" / name, {}};
  std::filesystem::remove_all(run.out);
  const RunOutcome outcome = RunModelFile(model, run.out);
  EXPECT_TRUE(outcome.ok) << outcome.message;
  std::ifstream in(run.out / "summary.json");
  run.summary = nlohmann::json::parse(in);
  return run;
}

const std::filesystem::path kFrictionBar =
    test_paths::SourceDir() / "examples" / "reduction" / "friction_bar_cb.yaml";

TEST(ReductionExample, FrictionBarSixteenFreeFreeModesAboveTheFullModel) {
  const ReductionRun run = RunReduction(kFrictionBar, "friction_bar_cb");
  const nlohmann::json& r = run.summary["reduction"];
  EXPECT_EQ(r["vibration_modes"].get<int>(), 10);
  EXPECT_EQ(r["boundary_dofs"].get<int>(), 12);
  EXPECT_EQ(r["rigid_modes_removed"].get<int>(), 6);
  EXPECT_EQ(r["m"].get<int>(), 16);  // seed 003 sec. 4.1: 10 + 12 - 6
  EXPECT_LT(r["max_rigid_eigenvalue_ratio"].get<double>(), 1e-6);
  const auto reduced = run.summary["frequencies_hz"].get<std::vector<double>>();
  const auto full = run.summary["full"]["frequencies_hz"].get<std::vector<double>>();
  ASSERT_EQ(reduced.size(), 16u);
  ASSERT_EQ(full.size(), 8u);
  // Rayleigh-Ritz: every reduced eigenvalue bounds the full one of the same index from
  // above (to the Lanczos tolerance, 1e-10 relative). Measured errors on this mesh: 4e-4,
  // 3e-4, 4e-5, 1.1e-3 for the first four, 1.3 % for the 8th: the first four within 0.5 %,
  // all eight within 3 %.
  for (size_t k = 0; k < full.size(); ++k) {
    EXPECT_GE(reduced[k], full[k] * (1.0 - 1e-9)) << "mode " << k + 1;
    EXPECT_LT(reduced[k] / full[k] - 1.0, k < 4 ? 5e-3 : 3e-2) << "mode " << k + 1;
  }
  // The free bar's first elastic mode (bending in z of the 225 mm bar with a doubled
  // joint) lies between the free-free Euler-Bernoulli frequencies of a 225 mm bar of one
  // sheet and of a 225 mm bar of two sheets: (4.7300)^2 / (2 pi L^2) sqrt(E h^2 / (12 rho))
  // (Blevins, table 8-1).
  const auto beam = [](double h) {
    const double length = 0.225, beta_l = 4.73004074;
    return beta_l * beta_l / (2.0 * std::numbers::pi * length * length) *
           std::sqrt(210e9 * h * h / (12.0 * 7850.0));
  };
  EXPECT_GT(reduced[0], beam(0.003));
  EXPECT_LT(reduced[0], beam(0.006));
  const testing::CsvTable csv = testing::ReadCsv(run.out / "frequencies_vs_full.csv");
  EXPECT_EQ(csv.rows, 8u);
  EXPECT_TRUE(std::filesystem::exists(run.out / "frequencies.svg"));
  EXPECT_TRUE(std::filesystem::exists(run.out / "mesh.vtu"));

  // basis.h5: V (free DOFs x m) is M-orthonormal: reduced M = I, reduced K = diag((2 pi f)^2).
  const io::Hdf5File file((run.out / "basis.h5").string(), io::Hdf5File::Mode::kRead);
  const MatX v = file.ReadMatrix("basis/V");
  EXPECT_EQ(v.rows(), run.summary["free_dofs"].get<int>());
  EXPECT_EQ(v.cols(), 16);
  const MatX k = file.ReadMatrix("reduced/K"), m = file.ReadMatrix("reduced/M");
  EXPECT_LT((m - MatX::Identity(16, 16)).norm(), 1e-9);
  for (int j = 0; j < 16; ++j) {
    const double omega = 2.0 * std::numbers::pi * reduced[j];
    EXPECT_NEAR(k(j, j) / (omega * omega), 1.0, 1e-9);
  }
  EXPECT_LT((k - MatX(k.diagonal().asDiagonal())).norm(), 1e-9 * k.norm());
  EXPECT_EQ(file.ReadStringAttribute("basis/V", "describe"), r["basis"].get<std::string>());
  EXPECT_EQ(file.ReadStringsAttribute("basis/V", "names").at(0), "free_free_1");
  EXPECT_EQ(file.ReadStringAttribute("basis/V", "unit"), "m (rad) per coordinate");
  EXPECT_EQ(file.ReadStringAttribute("frequencies_hz", "unit"), "Hz");
  EXPECT_EQ(file.ReadAttribute("/", "free_dofs"), run.summary["free_dofs"].get<double>());
  EXPECT_EQ(file.ReadVector("fixed_interface_frequencies_hz").size(), 10);
  EXPECT_EQ(file.ReadIndices("basis/boundary_rows").size(), 12);
  EXPECT_EQ(file.ReadStringsAttribute("basis/boundary_rows", "names").size(), 12u);
  // The joint's pairs: one row per slave node, unit normals, areas summing to the joint.
  const VecX area = file.ReadVector("contact/1/area");
  EXPECT_EQ(area.size(), run.summary["contact"]["pairs"].get<int>());
  EXPECT_NEAR(area.sum(), run.summary["contact"]["area"].get<double>(), 1e-12);
  const MatX frame = file.ReadMatrix("contact/1/frame");
  EXPECT_EQ(frame.cols(), 9);
  EXPECT_NEAR(frame.leftCols(3).rowwise().norm().maxCoeff(), 1.0, 1e-12);
  EXPECT_EQ(file.ReadStringAttribute("contact/1", "name"), "joint");
}

// Without orthogonalization the basis is Craig-Bampton's [Phi Psi] (m = v + b, the rigid
// modes still in it) spanning the same space, hence the same elastic frequencies.
TEST(ReductionModel, WithoutOrthogonalizationKeepsTheCraigBamptonBasis) {
  std::ifstream in(kFrictionBar);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find("orthogonalize: true");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 19, "orthogonalize: false");
  const auto file = std::filesystem::temp_directory_path() / "jointdyn_reduction_cb_only.yaml";
  std::ofstream(file) << text;
  const ReductionRun cb = RunReduction(file, "cb_only");
  const ReductionRun ff = RunReduction(kFrictionBar, "friction_bar_cb_again");
  EXPECT_EQ(cb.summary["reduction"]["m"].get<int>(), 22);
  EXPECT_EQ(cb.summary["reduction"]["rigid_modes_in_basis"].get<int>(), 6);
  EXPECT_EQ(cb.summary["reduction"]["rigid_modes_removed"].get<int>(), 0);
  const auto a = cb.summary["frequencies_hz"].get<std::vector<double>>();
  const auto b = ff.summary["frequencies_hz"].get<std::vector<double>>();
  ASSERT_EQ(a.size(), b.size());
  // The two runs' fixed-interface modes agree to the Lanczos tolerance (1e-10 relative
  // residual; measured differences up to 1e-10 in the frequencies), not to rounding.
  for (size_t j = 0; j < a.size(); ++j) EXPECT_NEAR(a[j] / b[j], 1.0, 1e-8);
  const io::Hdf5File h5((cb.out / "basis.h5").string(), io::Hdf5File::Mode::kRead);
  EXPECT_EQ(h5.ReadMatrix("basis/V").cols(), 22);
  EXPECT_EQ(h5.ReadAttribute("/", "rigid_modes_removed"), 0.0);
  EXPECT_EQ(h5.ReadStringsAttribute("basis/V", "kinds").at(0), "fixed-interface mode");
}

}  // namespace
}  // namespace jointdyn::run
