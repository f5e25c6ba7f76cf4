#include "run/run_model.h"

#include "model/belt_drive_reader.h"
#include "model/harmonic_reader.h"
#include "model/hysteresis_reader.h"
#include "model/joint_dynamics_reader.h"
#include "model/joint_harmonic_reader.h"
#include "model/joint_mode_study_reader.h"
#include "model/modal_reader.h"
#include "model/model_node.h"
#include "model/multibody_reader.h"
#include "model/reduction_reader.h"
#include "model/static_reader.h"
#include "model/transient_reader.h"
#include "run/belt_drive_report.h"
#include "run/harmonic_report.h"
#include "run/hysteresis_report.h"
#include "run/joint_dynamics_report.h"
#include "run/joint_harmonic_report.h"
#include "run/joint_mode_study_report.h"
#include "run/modal_report.h"
#include "run/multibody_report.h"
#include "run/reduction_report.h"
#include "run/static_report.h"
#include "run/summaries.h"
#include "run/transient_report.h"

namespace jointdyn::run {
namespace {

using model::ModelNode;
// Runs analysis `name` of the model file `root` into `folder`.
using Runner = RunOutcome (*)(const std::string& name, const ModelNode& root, OutputFolder& folder);

// Reads the options (or a model file's options and its report settings), runs the analysis
// with the report as its observer, writes the report.
template <class Report, class File, class Run>
RunOutcome Execute(const std::string& name, const ModelNode& root, OutputFolder& folder,
                   File (*read)(const ModelNode&), Run run) {
  const File file = read(root);
  WriteRunningSummary(folder, name, root.file());
  Report report(name, file, root.file(), folder);
  return report.Finish(run(file, report));
}

struct Entry {
  AnalysisEntry info;
  Runner run;
};

const std::vector<Entry>& Entries() {
  static const std::vector<Entry> entries = {
      {{"hysteresis",
        "one contact point of an interface law along a slip path: loops, dissipation"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<HysteresisReport>(n, r, f, model::ReadHysteresis, analysis::RunHysteresis);
       }},
      {{"transient", "time integration of a lumped-parameter model with interface laws"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<TransientReport>(
             n, r, f, model::ReadTransient,
             [](const model::TransientFile& file, TransientReport& report) {
               return analysis::RunTransient(file.options, report);
             });
       }},
      {{"harmonic", "harmonic balance of a lumped model: frequency or level response curves"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<HarmonicReport>(n, r, f, model::ReadHarmonic, analysis::RunHarmonic);
       }},
      {{"modal", "FE model: mesh, assembly, contact pairs, eigenfrequencies and mode shapes"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<ModalReport>(n, r, f, model::ReadModal, analysis::RunModal);
       }},
      {{"static", "FE model with joints: nonlinear static solution, reactions, contact state"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<StaticReport>(n, r, f, model::ReadStatic, analysis::RunStatic);
       }},
      {{"reduction", "FE model reduced by Craig-Bampton, joint modes and a preload mode"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<ReductionReport>(n, r, f, model::ReadReduction, analysis::RunReduction);
       }},
      {{"joint_mode_study", "static convergence of reduced jointed FE models against the full one"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<JointModeStudyReport>(n, r, f, model::ReadJointModeStudy,
                                              analysis::RunJointModeStudy);
       }},
      {{"joint_dynamics", "transients of jointed FE models with friction, full and reduced"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<JointDynamicsReport>(n, r, f, model::ReadJointDynamics,
                                             analysis::RunJointDynamics);
       }},
      {{"joint_harmonic",
        "harmonic balance of jointed FE models, reduced or full: frequency response curves"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<JointHarmonicReport>(n, r, f, model::ReadJointHarmonic,
                                             analysis::RunJointHarmonic);
       }},
      {{"multibody", "planar multibody systems: rigid bodies, joints, springs, drivers"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<MultibodyReport>(
             n, r, f, model::ReadMultibody,
             [](const model::MultibodyFile& file, MultibodyReport& report) {
               return analysis::RunMultibody(file.options, report);
             });
       }},
      {{"belt_drive", "ANCF belts and cables on pulleys with contact and bristle friction"},
       [](const std::string& n, const ModelNode& r, OutputFolder& f) {
         return Execute<BeltDriveReport>(
             n, r, f, model::ReadBeltDrive,
             [](const model::BeltDriveFile& file, BeltDriveReport& report) {
               return analysis::RunBeltDrive(file.options, report);
             });
       }},
  };
  return entries;
}

}  // namespace

const std::vector<AnalysisEntry>& Analyses() {
  static const std::vector<AnalysisEntry> analyses = [] {
    std::vector<AnalysisEntry> list;
    for (const Entry& entry : Entries()) list.push_back(entry.info);
    return list;
  }();
  return analyses;
}

RunOutcome RunModelFile(const std::filesystem::path& model, const std::filesystem::path& out_dir) {
  return RunModel(ModelNode::LoadFile(model.string()), out_dir);
}

RunOutcome RunModel(const ModelNode& root, const std::filesystem::path& out_dir) {
  std::vector<std::pair<std::string, const Entry*>> choices;
  for (const Entry& entry : Entries()) choices.emplace_back(entry.info.name, &entry);
  const Entry* entry = root.Enum<const Entry*>("analysis", choices);
  OutputFolder folder(out_dir);
  folder.CheckWritable();
  folder.Lock();
  try {
    return entry->run(entry->info.name, root, folder);
  } catch (const InputError& error) {  // found while building: located at its key's line
    folder.Abandon();
    throw root.Locate(error);
  } catch (const std::exception& error) {  // a write failed, an internal error
    WriteFailedSummary(folder, error.what());
    throw;
  }
}

}  // namespace jointdyn::run
