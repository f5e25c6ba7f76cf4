// The files of `analysis: joint_dynamics`: histories.csv (run, time and the criteria;
// written while integrating), histories.h5 (per run: time, the criteria and the chosen
// DOFs; rewritten after each run), contact_fields/<run>_<contact>.pvd with one VTU per
// field step (ParaView), errors.csv, <criterion>.svg (all runs over time),
// error_<method>_<criterion>.svg (log scale, one curve per g) and summary.json (provisional
// after each run: a long study that is stopped keeps its finished runs).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/joint_dynamics.h"
#include "io/results.h"
#include "run/contact_field.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class JointDynamicsReport
    : public Report<analysis::JointDynamicsOptions, analysis::JointDynamicsObserver> {
 public:
  using Report::Report;
  void ModelBuilt(const fe::FeModel& model) override;
  void Sample(const analysis::DynamicRun& run, double time,
              const std::array<double, analysis::kCriteria>& criteria, const VecX& dofs) override;
  void ContactField(const analysis::DynamicRun& run, int step, double time,
                    std::span<const joint::JointOperator> joints,
                    const VecX& mesh_displacement) override;
  void RunFinished(const analysis::JointDynamicsResult& result, size_t index) override;
  RunOutcome Finish(const analysis::JointDynamicsResult& result);

 private:
  nlohmann::json Summary(const analysis::JointDynamicsResult& result) const;

  const fe::FeModel* model_ = nullptr;
  std::unique_ptr<io::CsvWriter> histories_;
  std::unique_ptr<ContactFieldSeries> fields_;
};

}  // namespace jointdyn::run
