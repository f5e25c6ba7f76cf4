// The files of a nonlinear mode's backbones (analysis/backbone.h): backbone.csv (one row per
// point of every method: method, modal amplitude [sqrt(kg) m], amp_<dof> [m] per output DOF,
// frequency [Hz], damping ratio [-]), backbone_frequency.svg and backbone_damping.svg (over
// the amplitude of the first output DOF, log scale, one series per method) and the figures
// in summary["nonlinear_mode"].
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/backbone.h"
#include "run/output_folder.h"

namespace jointdyn::run {

void WriteBackbones(const std::vector<analysis::Backbone>& backbones, int mode,
                    double linear_frequency_hz, const std::vector<std::string>& outputs,
                    const std::string& title, OutputFolder& folder, nlohmann::json& summary);

}  // namespace jointdyn::run
