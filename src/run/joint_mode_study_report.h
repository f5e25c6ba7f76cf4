// The files of `analysis: joint_mode_study`: study.csv (one row per load case, method and
// g: the criteria and their errors), study.md (the error tables), pov_ratio.csv/.svg (w(g)
// of the joint-mode methods, seed 003 fig. 4.9a), <case>_<measure>.svg,
// <case>_gap_norm.svg and <case>_normal_force.svg (errors against the full solution over g,
// log scale) and summary.json (the full solutions, the errors, the smallest g that reaches
// 1 % and 5 % per method, the stage times).
#pragma once

#include <string>

#include "analysis/joint_mode_study.h"
#include "run/report.h"
#include "run/run_model.h"

namespace jointdyn::run {

class JointModeStudyReport : public Report<analysis::JointModeStudyOptions> {
 public:
  using Report::Report;
  RunOutcome Finish(const analysis::JointModeStudyResult& result);
};

}  // namespace jointdyn::run
