#include "run/static_report.h"

#include <utility>

#include "io/svg_plot.h"
#include "io/vtu.h"
#include "laws/tangential_law.h"
#include "run/fe_report.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

using analysis::StaticStep;

std::string SupportName(size_t s) { return "supports[" + std::to_string(s) + "]"; }

nlohmann::json Vector(const Vec3& v) { return {v(0), v(1), v(2)}; }

nlohmann::json StepSummary(const analysis::StaticOptions& options, const StaticStep& step) {
  nlohmann::json reactions = nlohmann::json::array();
  for (size_t s = 0; s < step.reactions.size(); ++s)
    reactions.push_back({{"support", SupportName(s)},
                         {"set", options.fe.supports[s].set},
                         {"force_n", Vector(step.reactions[s].force)},
                         {"moment_nm", Vector(step.reactions[s].moment)},
                         {"about_m", Vector(step.reactions[s].point)}});
  nlohmann::json summary = {{"step", step.index}, {"t", step.t}, {"reactions", reactions}};
  summary.update(StaticStateSummary(step.bolt_forces, step.joints, step.solve));
  return summary;
}

// Per prescribed support and translation component it holds: the reaction force against
// the prescribed value (a load-displacement curve; under cyclic loading with friction, a
// hysteresis loop).
void WriteReactionPlots(const analysis::StaticOptions& options,
                        const analysis::StaticResult& result, OutputFolder& folder) {
  if (result.steps.empty()) return;
  const int dim = result.model.mesh.dim;
  static const char* const kAxes = "xyz";
  for (const analysis::PrescribedMotion& motion : options.prescribed) {
    const fe::Support& support = options.fe.supports[motion.support];
    std::vector<int> components = support.components;
    if (components.empty())
      for (int c = 0; c < dim; ++c) components.push_back(c);
    std::vector<double> values = {0.0};
    for (const StaticStep& step : result.steps)
      values.push_back(motion.value.At(step.t, options.steps));
    io::PlotSpec plot{
        "Reaction of supports[" + std::to_string(motion.support) + "] (" + support.set + ")",
        "prescribed value [m or rad]",
        "reaction force [N]",
        false,
        false,
        {}};
    for (int c : components) {
      if (c >= 3) continue;
      std::vector<double> force = {0.0};
      for (const StaticStep& step : result.steps)
        force.push_back(step.reactions[motion.support].force(c));
      plot.series.push_back({std::string("F") + kAxes[c], values, force});
    }
    if (!plot.series.empty())
      io::WriteSvgPlot(plot, folder.File("reaction_" + std::to_string(motion.support) + ".svg"));
  }
}

}  // namespace

void StaticReport::ModelBuilt(const fe::FeModel& model) {
  model_ = &model;
  reactions_ = std::make_unique<io::CsvWriter>(
      folder_.File("reactions.csv"),
      std::vector<std::string>{"support", "set", "step", "t", "fx_n", "fy_n", "fz_n", "mx_nm",
                               "my_nm", "mz_nm", "about_x_m", "about_y_m", "about_z_m"});
  if (options_.joints.empty()) return;
  pairs_ = std::make_unique<io::CsvWriter>(
      folder_.File("pairs.csv"),
      std::vector<std::string>{"joint", "status", "step", "t", "pair", "x_m", "y_m", "z_m", "gap_m",
                               "pressure_pa", "s1_m", "s2_m", "tau1_pa", "tau2_pa"});
  std::vector<std::string> contacts;
  for (const analysis::JointSpec& joint : options_.joints) contacts.push_back(joint.contact);
  fields_ = std::make_unique<ContactFieldSeries>(model, std::move(contacts), folder_);
}

void StaticReport::Step(const StaticStep& step, std::span<const joint::JointOperator> joints,
                        const VecX& mesh_displacement) {
  for (size_t s = 0; s < step.reactions.size(); ++s) {
    const analysis::Reaction& r = step.reactions[s];
    reactions_->Row({SupportName(s), options_.fe.supports[s].set},
                    {double(step.index), step.t, r.force(0), r.force(1), r.force(2), r.moment(0),
                     r.moment(1), r.moment(2), r.point(0), r.point(1), r.point(2)});
  }
  if (!pairs_) return;
  for (size_t j = 0; j < joints.size(); ++j) {
    const int contact = model_->ContactIndex(options_.joints[j].contact, "joints");
    const MatX positions = SlavePositions(model_->mesh, model_->contacts[contact]);
    for (int p = 0; p < joints[j].num_pairs(); ++p) {
      const joint::PairOutput o = joints[j].Output(p);
      pairs_->Row({options_.joints[j].contact, std::string(laws::ToString(o.state))},
                  {double(step.index), step.t, double(p), positions(p, 0), positions(p, 1),
                   positions(p, 2), o.gap, o.pressure, o.s1, o.s2, o.tau1, o.tau2});
    }
  }
  fields_->Write("", step.index, step.t, joints, mesh_displacement);
}

RunOutcome StaticReport::Finish(const analysis::StaticResult& result) {
  if (pairs_) pairs_->Close();
  if (reactions_) reactions_->Close();
  io::WriteVtu(folder_.File("mesh.vtu"),
               DisplacementGrid(result.model.mesh, {result.displacement}, {"displacement"}));
  WriteReactionPlots(options_, result, folder_);
  nlohmann::json summary =
      FeRunSummary(analysis_, model_file_, options_.title, options_.fe, result.model);
  summary["joints"] = JointsSummary(options_.joints, result.joint_pairs);
  summary["held_dofs"] = result.held_dofs;
  if (options_.reduction)
    summary["reduced"] = {{"basis", result.basis}, {"coordinates", result.coordinates}};
  nlohmann::json preloads = nlohmann::json::array();
  for (const analysis::BoltPreload& preload : options_.preloads) {
    const fe::BeamSpec& beam = options_.fe.beams[preload.beam];
    preloads.push_back({{"beam", {beam.a, beam.b}}, {"force_n", preload.force}});
  }
  summary["preload"] = preloads;
  summary["steps_requested"] = options_.steps;
  nlohmann::json steps = nlohmann::json::array();
  int iterations = 0, factorizations = 0;
  double solve_seconds = 0.0;
  for (const StaticStep& step : result.steps) {
    steps.push_back(StepSummary(options_, step));
    iterations += step.solve.iterations;
    factorizations += step.solve.factorizations;
    solve_seconds += step.solve.seconds;
  }
  summary["steps"] = steps;
  summary["newton_iterations"] = iterations;
  summary["factorizations"] = factorizations;
  summary["times_s"] = {
      {"mesh", result.model.times.mesh},       {"assembly", result.model.times.assembly},
      {"pairing", result.model.times.pairing}, {"reduced_basis", result.basis_seconds},
      {"static_solution", solve_seconds},      {"total", result.wall_seconds}};
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
