#include "analysis/criteria.h"

#include <cmath>

namespace jointdyn::analysis {

std::array<double, kCriteria> CriterionValues(double measure,
                                              std::span<const joint::JointOperator> joints) {
  double gap2 = 0.0, normal_force = 0.0;
  for (const joint::JointOperator& joint : joints) {
    gap2 += std::pow(joint.GapNorm(), 2);
    normal_force += joint.NormalForce();
  }
  return {measure, std::sqrt(gap2), normal_force};
}

}  // namespace jointdyn::analysis
