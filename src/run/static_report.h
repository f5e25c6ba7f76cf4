// The files of `analysis: static`: pairs.csv (per step and pair: position, gap, pressure,
// slip, friction stress and status; written as the steps converge), reactions.csv (per
// step and support: force and moment), contact_fields/<contact>.pvd with one VTU per step
// (ParaView), mesh.vtu (the displacement of the last step), reaction_<support>.svg (the
// reaction against the prescribed value of each prescribed support) and summary.json
// (per step: reactions, gap norm, pair counts, maximum pressure, Newton iterations).
#pragma once

#include <memory>

#include "analysis/static.h"
#include "io/results.h"
#include "run/contact_field.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class StaticReport : public Report<analysis::StaticOptions, analysis::StaticObserver> {
 public:
  using Report::Report;
  void ModelBuilt(const fe::FeModel& model) override;
  void Step(const analysis::StaticStep& step, std::span<const joint::JointOperator> joints,
            const VecX& mesh_displacement) override;
  RunOutcome Finish(const analysis::StaticResult& result);

 private:
  const fe::FeModel* model_ = nullptr;
  std::unique_ptr<io::CsvWriter> pairs_, reactions_;
  std::unique_ptr<ContactFieldSeries> fields_;
};

}  // namespace jointdyn::run
