// The quantities the convergence studies compare a reduced jointed model with the full one
// by, in the static (joint_mode_study.h) and the dynamic (joint_dynamics.h) study: the
// measure (one DOF) [m] or [rad], the gap norm ||g_N||_2 over all pairs [m] (seed 003
// section 4.1.1), and the contact resultant sum_i A_i p_i over all pairs [N] (the
// pressure: it converges with g more slowly than the other two).
#pragma once

#include <array>
#include <span>

#include "joint/joint_operator.h"

namespace jointdyn::analysis {

enum Criterion { kMeasure, kGapNorm, kNormalForce, kCriteria };

struct CriterionNames {
  const char* key;     // "<key>_error(s)" columns and summary keys, file names, HDF5 datasets
  const char* column;  // the value's CSV column and summary key
  const char* symbol;  // in plot titles (the measure: its DOF's name instead)
  const char* label;   // the value's axis label (the measure: from its DOF instead)
  const char* title;   // of a plot of the value (the measure: from its DOF instead)
};

inline constexpr std::array<CriterionNames, kCriteria> kCriterionNames = {{
    {"measure", "measure", "", "", ""},
    {"gap_norm", "gap_norm_m", "||g_N||_2", "||g_N||_2 [m]", "Gap norm ||g_N||_2"},
    {"normal_force", "normal_force_n", "sum A p", "sum_i A_i p_i [N]",
     "Contact resultant sum_i A_i p_i"},
}};

// The values for `measure` and the joints' last Evaluate().
std::array<double, kCriteria> CriterionValues(double measure,
                                              std::span<const joint::JointOperator> joints);

}  // namespace jointdyn::analysis
