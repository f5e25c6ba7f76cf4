// Three-parameter Coulomb-type friction (seed 003, eq. 2.113, fig. 2.4): a stick spring
// c1 in series with a Coulomb slider of limit R_G = mu p, in parallel with a spring c2.
// Elastic predictor / plastic corrector (return mapping); in 2D the slip direction
// follows the trial traction of the slider branch (isotropic).
//
// History: the slider position s_G (2 doubles). When the contact is open (p <= 0) the
// traction is zero and the slider follows the slip, so re-contact starts in stick.
#pragma once

#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct CoulombParams {
  double c1 = 0.0;  // stick stiffness of the slider branch [Pa/m], > 0
  double c2 = 0.0;  // parallel (slip) stiffness [Pa/m], >= 0
  double mu = 0.0;  // friction coefficient, R_G = mu p [-], >= 0
};

class CoulombLaw final : public TangentialLaw {
 public:
  CoulombLaw(const CoulombParams& params, int dim);

  std::string_view type() const override { return "coulomb"; }
  int dim() const override { return dim_; }
  int state_size() const override { return 2; }
  bool rate_independent() const override { return true; }
  Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                  std::span<double> trial, TangentialResponse& out) const override;

  const CoulombParams& params() const { return params_; }

 private:
  CoulombParams params_;
  int dim_;
};

}  // namespace jointdyn::laws
