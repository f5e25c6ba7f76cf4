// One evaluation point of a tangential law with its committed and trial history:
// the unit that hysteresis drivers, contact pairs and tests step along a path.
#pragma once

#include <vector>

#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct PostNewtonOptions {
  double tolerance = 1e-9;  // switching error accepted [traction units]
  int max_iterations = 20;  // post-Newton passes per step
};

class LawPoint {
 public:
  explicit LawPoint(const TangentialLaw& law);

  // Trial response at `in` from the committed history (the committed history is kept).
  Status Trial(const TangentialInput& in, TangentialResponse& out);
  // Makes the last trial history the committed one.
  void Commit();
  // Trial followed by post-Newton passes until the law's switching error is below the
  // tolerance, then commit. Fails (without committing) when the passes run out.
  Status Step(const TangentialInput& in, TangentialResponse& out,
              const PostNewtonOptions& options = {});

  const TangentialLaw& law() const { return law_; }
  const std::vector<double>& committed() const { return committed_; }
  const std::vector<double>& trial() const { return trial_; }

 private:
  const TangentialLaw& law_;
  std::vector<double> committed_;
  std::vector<double> trial_;
};

}  // namespace jointdyn::laws
