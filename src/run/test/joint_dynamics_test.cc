// `analysis: joint_dynamics` (analysis/joint_dynamics.h) under a haversine step:
//   - a small lap joint (two hex8 blocks, 9 pairs) for 2 ms: the full FE run and reduced
//     runs with g = 0, 4, 8 wPOD joint modes; the reduced runs approach the full one as g
//     grows, and every result file is written (histories, errors, plots, HDF5, contact
//     fields as PVD); without the full run the largest g is the reference;
//   - the same model with a Newton that cannot converge: every run fails, each one is
//     reported with where it failed, the results up to there are kept (exit code 3);
//   - the lap joint with a preloaded beam bolt and no dynamic load: it stays at rest; the
//     same joint struck after the preload (examples/dynamics/bolted_lap_joint_preload.yaml);
//   - the README main example (examples/dynamics/friction_bar_step.yaml, reduced only) and
//     the seed's dynamic study (examples/dynamics/friction_bar_dynamic_study.yaml): ctest
//     label `long` (suites named ...Long, see CMakeLists.txt).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "core/test/test_paths.h"
#include "io/hdf5_file.h"
#include "run/run_model.h"
#include "run/test/lap_joint_model.h"
#include "run/test/vtu_reader.h"

namespace jointdyn::run {
namespace {

// The lap joint (run/test/lap_joint_model.h) whose `tip` carries a haversine step to 2 kN
// along z in 1 ms. A small model whose full transient converges quickly.
std::string LapJoint(const std::string& study, const std::string& integrator) {
  return "analysis: joint_dynamics\n" + testing::LapJointKeys() +
         R"(dynamic_loads:
  - loads: [{node: tip, force: [0.0, 0.0, 1.0]}]
    function: {type: force0, f0: 2000.0, period: 0.002}
reduction:
  boundary: [tip]
  vibration_modes: 4
  joint_modes: {contact: joint}
study:
)" + study +
         R"(
  measure: {node: tip, component: uz}
integrator:
  scheme: hht
  alpha: -0.3
  dt: 1.0e-5
  t_end: 2.0e-3
)" + integrator +
         R"(
output:
  interval: 1.0e-5
  dofs: [{node: tip, component: uz}, {node: bolt, component: uz}]
  contact_fields: {runs: [full, wpod_tvd_8], interval: 1.0e-4}
)";
}

struct StudyRun {
  RunOutcome outcome;
  nlohmann::json summary;
  std::filesystem::path out;
};

StudyRun RunText(const std::string& name, const std::string& text) {
  StudyRun run;
  const auto dir = std::filesystem::temp_directory_path() / ("jointdyn_dynamics_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto model = dir / "model.yaml";
  std::ofstream(model) << text;
  run.out = dir / "out";
  run.outcome = RunModelFile(model, run.out);
  std::ifstream in(run.out / "summary.json");
  run.summary = nlohmann::json::parse(in);
  return run;
}

StudyRun RunExample(const std::string& file) {
  StudyRun run;
  run.out = std::filesystem::temp_directory_path() / "jointdyn_examples" / "dynamics" /
            std::filesystem::path(file).stem();
  std::filesystem::remove_all(run.out);
  run.outcome = RunModelFile(test_paths::SourceDir() / "examples" / "dynamics" / file, run.out);
  std::ifstream in(run.out / "summary.json");
  run.summary = nlohmann::json::parse(in);
  return run;
}

const nlohmann::json& RunNamed(const nlohmann::json& summary, const std::string& name) {
  for (const auto& r : summary["runs"])
    if (r["name"] == name) return r;
  throw std::runtime_error("no run " + name);
}

int Lines(const std::filesystem::path& file) {
  std::ifstream in(file);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

TEST(JointDynamics, ReducedRunsApproachTheFullRunAndEveryResultIsWritten) {
  const StudyRun run =
      RunText("lap_joint", LapJoint("  full: true\n  methods: [wpod_tvd]\n  modes: [0, 4, 8]", ""));
  ASSERT_TRUE(run.outcome.ok) << run.outcome.message;
  const nlohmann::json& s = run.summary;
  EXPECT_EQ(s["status"], "ok");
  EXPECT_EQ(s["reference"], "full");
  EXPECT_EQ(s["free_dofs"], 120);
  EXPECT_EQ(s["pairs"], 9);
  EXPECT_EQ(s["cms"]["m"], 10);  // 4 vibration modes + the 6 constraint modes of tip
  EXPECT_EQ(s["tvd"]["count"], 2 * 10 * 10);
  ASSERT_EQ(s["runs"].size(), 4u);  // cms, wpod_tvd_4, wpod_tvd_8, full (last)
  EXPECT_EQ(s["runs"][3]["name"], "full");
  const auto& full = RunNamed(s, "full");
  const auto& cms = RunNamed(s, "cms");
  const auto& g4 = RunNamed(s, "wpod_tvd_4");
  const auto& g8 = RunNamed(s, "wpod_tvd_8");
  EXPECT_EQ(full["coordinates"], 120);
  EXPECT_EQ(cms["coordinates"], 10);
  EXPECT_EQ(g8["coordinates"], 18);
  for (const auto* r : {&full, &cms, &g4, &g8}) {
    EXPECT_EQ((*r)["status"], "ok");
    EXPECT_DOUBLE_EQ((*r)["t_reached"].get<double>(), 2e-3);
    EXPECT_EQ((*r)["samples"], 201);
    EXPECT_GT((*r)["newton_iterations"].get<int>(), 0);
    // The joint dissipates; HHT dissipates numerically (it never creates energy).
    EXPECT_GE((*r)["energy"]["law_dissipation"].get<double>(), 0.0);
    EXPECT_GE((*r)["energy"]["numerical_dissipation"].get<double>(), 0.0);
  }
  // The tip moves (about 0.3 mm); the reduced runs approach the full one as g grows
  // (measured: max e of tip.uz 2.7 %, 1.1 %, 0.44 %; of ||g_N||_2 11 %, 1.3 %, 0.66 %).
  EXPECT_GT(full["max_abs_measure"].get<double>(), 1e-4);
  EXPECT_LT(g4["max_measure_error"].get<double>(), cms["max_measure_error"].get<double>());
  EXPECT_LT(g8["max_measure_error"].get<double>(), g4["max_measure_error"].get<double>());
  EXPECT_LT(g8["max_measure_error"].get<double>(), 0.01);
  EXPECT_LT(g8["max_gap_norm_error"].get<double>(), cms["max_gap_norm_error"].get<double>());
  EXPECT_LT(g8["max_gap_norm_error"].get<double>(), 0.02);
  EXPECT_GT(g8["cpu_ratio_to_full"].get<double>(), 0.0);
  // The full run's edge pairs drop 31 % of its friction dissipation when they open (c2 =
  // 5e11 Pa/m): a warning; the reduced runs drop at most 2 %.
  const double dropped = full["energy"]["law_energy_dropped_at_opening"].get<double>();
  EXPECT_GT(dropped, 0.25 * full["energy"]["law_dissipation"].get<double>());
  EXPECT_GT(full["pair_openings"].get<int>(), 0);
  EXPECT_NE(full.value("warning", "").find("% of the friction dissipation"), std::string::npos);
  EXPECT_FALSE(g8.contains("warning"));
  EXPECT_FALSE(full.contains("cpu_ratio_to_full"));

  // The files.
  for (const char* file :
       {"histories.csv", "errors.csv", "measure.svg", "gap_norm.svg", "normal_force.svg",
        "error_wpod_tvd_measure.svg", "error_wpod_tvd_gap_norm.svg",
        "error_wpod_tvd_normal_force.svg", "histories.h5", "contact_fields/full_joint.pvd",
        "contact_fields/wpod_tvd_8_joint.pvd", "contact_fields/full_joint_000020.vtu"})
    EXPECT_TRUE(std::filesystem::exists(run.out / file)) << file;
  EXPECT_FALSE(std::filesystem::exists(run.out / "contact_fields/wpod_tvd_4_joint.pvd"));
  EXPECT_EQ(full["contact_field_steps"], 21);  // every 0.1 ms from 0 to 2 ms
  EXPECT_EQ(Lines(run.out / "histories.csv"), 1 + 4 * 201);
  EXPECT_EQ(Lines(run.out / "errors.csv"), 1 + 3 * 201);
  const io::Hdf5File h5((run.out / "histories.h5").string(), io::Hdf5File::Mode::kRead);
  EXPECT_EQ(h5.ReadStringsAttribute("/", "dofs"), (std::vector<std::string>{"tip.uz", "bolt.uz"}));
  EXPECT_EQ(h5.ReadStringAttribute("runs/full/time", "unit"), "s");
  EXPECT_EQ(h5.ReadStringAttribute("runs/full/measure", "unit"), "m");
  EXPECT_EQ(h5.ReadStringAttribute("runs/full/normal_force", "unit"), "N");
  const MatX dofs = h5.ReadMatrix("runs/full/dofs");
  EXPECT_EQ(dofs.rows(), 201);
  EXPECT_EQ(dofs.cols(), 2);
  const VecX measure = h5.ReadVector("runs/full/measure");
  ASSERT_EQ(measure.size(), 201);
  EXPECT_DOUBLE_EQ(dofs(200, 0), measure(200));  // the measure is tip.uz
  EXPECT_DOUBLE_EQ(measure.cwiseAbs().maxCoeff(), full["max_abs_measure"].get<double>());
  EXPECT_EQ(h5.ReadVector("runs/wpod_tvd_8/time").size(), 201);
  // The normal force history is the sum of the contact field's A p at the same time.
  const VecX normal_force = h5.ReadVector("runs/full/normal_force");
  ASSERT_EQ(normal_force.size(), 201);
  const std::vector<double> field =
      testing::DecodeVtu(run.out / "contact_fields/full_joint_000020.vtu")
          .floats.at("normal_force");
  const double field_sum = std::accumulate(field.begin(), field.end(), 0.0);
  EXPECT_GT(field_sum, 0.0);
  EXPECT_NEAR(normal_force(200), field_sum, 1e-12 * field_sum);
  EXPECT_DOUBLE_EQ(normal_force.cwiseAbs().maxCoeff(), full["max_normal_force_n"].get<double>());
  // It converges more slowly with g than the tip (measured: 27 %, 13 %, 5.3 %).
  EXPECT_LT(g4["max_normal_force_error"].get<double>(),
            cms["max_normal_force_error"].get<double>());
  EXPECT_LT(g8["max_normal_force_error"].get<double>(), g4["max_normal_force_error"].get<double>());
  EXPECT_LT(g8["max_normal_force_error"].get<double>(), 0.08);
}

// Without the full run, the reference is the reduced run with the largest g.
TEST(JointDynamics, WithoutTheFullRunTheLargestGIsTheReference) {
  std::string text =
      LapJoint("  full: false\n  methods: [pod_forces, wpod_tvd]\n  modes: [4, 8]", "");
  text.replace(text.find("runs: [full, "), 13, "runs: [");
  const StudyRun run = RunText("lap_joint_reduced", text);
  ASSERT_TRUE(run.outcome.ok) << run.outcome.message;
  EXPECT_EQ(run.summary["reference"], "pod_forces_8");  // the first method among equal g
  EXPECT_EQ(run.summary["runs"].size(), 4u);
  EXPECT_TRUE(RunNamed(run.summary, "pod_forces_8")["reference"].get<bool>());
  EXPECT_FALSE(RunNamed(run.summary, "pod_forces_8").contains("max_measure_error"));
  EXPECT_LT(RunNamed(run.summary, "wpod_tvd_8")["max_measure_error"].get<double>(), 0.01);
  EXPECT_EQ(Lines(run.out / "errors.csv"), 1 + 3 * 201);
}

TEST(JointDynamics, FailedRunsAreReportedAndTheirResultsKept) {
  const StudyRun run =
      RunText("lap_joint_failing", LapJoint("  full: true\n  methods: [wpod_tvd]\n  modes: [8]",
                                            "  max_step_cuts: 0\n  newton: {max_iterations: 1}"));
  EXPECT_FALSE(run.outcome.ok);
  const nlohmann::json& s = run.summary;
  EXPECT_EQ(s["status"], "failed");
  EXPECT_EQ(s["message"], run.outcome.message);
  EXPECT_EQ(s["reference"], "none");
  for (const char* name : {"wpod_tvd_8", "full"}) {
    const auto& r = RunNamed(s, name);
    EXPECT_EQ(r["status"], "failed") << name;
    EXPECT_GE(r["samples"].get<int>(), 1) << name;  // the initial state at least
    EXPECT_LT(r["t_reached"].get<double>(), 2e-3) << name;
    EXPECT_NE(run.outcome.message.find(std::string("run ") + name + ": "), std::string::npos)
        << run.outcome.message;
  }
  EXPECT_NE(run.outcome.message.find("t = "), std::string::npos) << run.outcome.message;
  // The joint's linear penalty: the hint names the C1 onset.
  EXPECT_NE(run.outcome.message.find("hint: contact joint has a linear penalty"), std::string::npos)
      << run.outcome.message;
  EXPECT_NE(run.outcome.message.find("quadratic_linear"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(run.out / "histories.h5"));
  EXPECT_GE(Lines(run.out / "histories.csv"), 3);
}

// examples/dynamics/bolted_lap_joint_preload.yaml without its dynamic load (the key may
// then be left out): the summary reports the preload step (bolt force P to 1e-12, the
// Newton figures, pairs slipping) and every run stays at rest from it (the CMS run with one
// more coordinate: the preload mode). Over its 200 steps the full run's pairs at the slip
// limit drift with the transient's Newton tolerance (default 1e-8: peak velocity 7.7e-11
// m/s, 4.4e-7 of |u0| / t_end); with 1e-14 all runs stay below 1e-12 m/s (3.6e-10 of
// |u0| / t_end). The analysis test (analysis/test/fe_analyses_test.cc) checks the start.
TEST(JointDynamics, PreloadedJointWithoutLoadsStaysAtRest) {
  const std::filesystem::path example =
      test_paths::SourceDir() / "examples" / "dynamics" / "bolted_lap_joint_preload.yaml";
  std::ifstream in(example);
  std::string text, line;
  while (std::getline(in, line)) {
    if (line.rfind("dynamic_loads:", 0) == 0) {  // the key and its entry's two lines
      std::getline(in, line);
      std::getline(in, line);
      continue;
    }
    if (line.rfind("integrator:", 0) == 0)  // at rest to 1e-12 m/s over 200 steps (below)
      line.replace(line.rfind('}'), 1, ", newton: {residual_tolerance: 1.0e-14}}");
    if (line.rfind("mesh:", 0) == 0)
      line =
          "mesh: {file: " + (example.parent_path() / "../../tests/models/lap_joint.msh").string() +
          "}";
    text += line + "\n";
  }
  const StudyRun run = RunText("preloaded", text);
  ASSERT_TRUE(run.outcome.ok) << run.outcome.message;
  const nlohmann::json& preload = run.summary["preload"];
  EXPECT_NEAR(preload["bolt_forces_n"][0].get<double>(), 1000.0, 1e-9);
  EXPECT_GT(preload["newton_iterations"].get<int>(), 0);
  EXPECT_GT(preload["slipping_pairs"].get<int>(), 0);
  EXPECT_LT(preload["residual_norm"].get<double>(), 1e-14);
  EXPECT_EQ(RunNamed(run.summary, "cms")["coordinates"], 11);
  for (const nlohmann::json& r : run.summary["runs"]) {
    EXPECT_EQ(r["rejected_steps"], 0) << r["name"];
    EXPECT_LT(r["peak_velocity"].get<double>(), 1e-12) << r["name"];  // [m/s]
  }
}

// examples/dynamics/bolted_lap_joint_preload.yaml: the bolt force is the preload, the
// contact resultant starts there (the runs start preloaded), and 8 wPOD joint modes follow
// the full run to 1 % where the CMS basis alone is off by more than 10 %.
TEST(JointDynamics, BoltedLapJointPreloadExample) {
  const StudyRun run = RunExample("bolted_lap_joint_preload.yaml");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.message;
  const nlohmann::json& s = run.summary;
  EXPECT_NEAR(s["preload"]["bolt_forces_n"][0].get<double>(), 1000.0, 1e-9);
  EXPECT_NEAR(s["preload"]["normal_force_n"].get<double>(), 1000.0, 1e-8);
  std::ifstream histories(run.out / "histories.csv");
  std::string header, first;
  std::getline(histories, header);
  std::getline(histories, first);  // run cms at t = 0: ...,normal_force_n
  EXPECT_NEAR(std::stod(first.substr(first.rfind(',') + 1)), 1000.0, 1e-6) << first;
  EXPECT_EQ(s["reference"], "full");
  EXPECT_LT(RunNamed(s, "wpod_tvd_8")["max_measure_error"].get<double>(), 0.01);
  EXPECT_GT(RunNamed(s, "cms")["max_measure_error"].get<double>(), 0.1);
  EXPECT_TRUE(std::filesystem::exists(run.out / "contact_fields" / "full_joint.pvd"));
}

// The README main example: reduced only, g = 20 wPOD joint modes, T = 0.1 s (about 15 s:
// label long).
TEST(JointDynamicsLong, FrictionBarStepExample) {
  const StudyRun run = RunExample("friction_bar_step.yaml");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.message;
  const nlohmann::json& s = run.summary;
  EXPECT_EQ(s["status"], "ok");
  ASSERT_EQ(s["runs"].size(), 1u);
  const auto& r = s["runs"][0];
  EXPECT_EQ(r["name"], "wpod_tvd_20");
  EXPECT_DOUBLE_EQ(r["t_reached"].get<double>(), s["t_end"].get<double>());
  EXPECT_GT(r["max_abs_measure"].get<double>(), 0.0);
  EXPECT_GE(r["contact_field_steps"].get<int>(), 100);
  EXPECT_TRUE(std::filesystem::exists(run.out / "contact_fields/wpod_tvd_20_joint.pvd"));
  EXPECT_TRUE(std::filesystem::exists(run.out / "histories.h5"));
}

// Seed 003 section 4.1.1, dynamic study: the reduced runs against the full FE run.
TEST(JointDynamicsLong, FrictionBarDynamicStudy) {
  const StudyRun run = RunExample("friction_bar_dynamic_study.yaml");
  const nlohmann::json& s = run.summary;
  // The reduced runs complete whatever the full run does.
  for (const auto& r : s["runs"])
    if (r["name"] != "full") {
      EXPECT_EQ(r["status"], "ok") << r["name"] << ": " << r["message"];
    }
  const auto& full = RunNamed(s, "full");
  ASSERT_EQ(full["status"], "ok") << full["message"];
  EXPECT_TRUE(run.outcome.ok) << run.outcome.message;
  EXPECT_EQ(s["reference"], "full");
  auto error = [&](const char* name, const char* key) {
    return RunNamed(s, name)[key].get<double>();
  };
  // Seed 003 fig. 4.7a: e(20) < 1 % of the tip deflection for wPOD of TVDs (measured
  // 0.60 % over 0.1 s). Fig. 4.8a has the gap norm below 1 % too; measured here 2.5 % (the
  // static study on this mesh has 1.1 % at g = 20), and every method levels off at
  // 1.1-1.2 % with g = 50: the interface shear, which normal-only TVDs miss
  // (docs/reduction.md).
  EXPECT_LT(error("wpod_tvd_20", "max_measure_error"), 0.01);
  EXPECT_LT(error("wpod_tvd_20", "max_gap_norm_error"), 0.03);
  // Joint modes converge: wPOD from g = 5 to 50, and POD of forces is the worst at g = 5
  // (the seed: > 30 % against about 5 %).
  EXPECT_LT(error("wpod_tvd_50", "max_gap_norm_error"), error("wpod_tvd_20", "max_gap_norm_error"));
  EXPECT_LT(error("wpod_tvd_20", "max_gap_norm_error"), error("wpod_tvd_5", "max_gap_norm_error"));
  EXPECT_GT(error("pod_forces_5", "max_gap_norm_error"), error("wpod_tvd_5", "max_gap_norm_error"));
  // The contact resultant sum A p converges later (measured: wPOD g = 20 61 %, g = 50 3.3 %).
  EXPECT_LT(error("wpod_tvd_50", "max_normal_force_error"), 0.05);
  EXPECT_GT(error("wpod_tvd_20", "max_normal_force_error"),
            5.0 * error("wpod_tvd_50", "max_normal_force_error"));
  // CPU time as a fraction of the full run's (measured 0.45 % and 1.5 %: the reduced runs
  // take 2.3-2.6 Newton iterations per step without step cuts).
  EXPECT_LT(error("wpod_tvd_20", "cpu_ratio_to_full"), 0.02);
  EXPECT_LT(error("wpod_tvd_50", "cpu_ratio_to_full"), 0.05);
  EXPECT_EQ(RunNamed(s, "wpod_tvd_50")["rejected_steps"], 0);
}

}  // namespace
}  // namespace jointdyn::run
