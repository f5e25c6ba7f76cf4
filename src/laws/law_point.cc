#include "laws/law_point.h"

#include <string>

namespace jointdyn::laws {

LawPoint::LawPoint(const TangentialLaw& law)
    : law_(law), committed_(law.state_size()), trial_(law.state_size()) {
  law_.InitState(committed_);
  trial_ = committed_;
}

Status LawPoint::Trial(const TangentialInput& in, TangentialResponse& out) {
  return law_.Evaluate(in, committed_, trial_, out);
}

void LawPoint::Commit() { committed_ = trial_; }

Status LawPoint::Step(const TangentialInput& in, TangentialResponse& out,
                      const PostNewtonOptions& options) {
  std::vector<double> switching = committed_;
  for (int pass = 0; pass < options.max_iterations; ++pass) {
    Status status = law_.Evaluate(in, switching, trial_, out);
    if (!status) return status;
    if (law_.PostNewtonUpdate(in, trial_, switching) <= options.tolerance) {
      Commit();
      return Status::Ok();
    }
  }
  return Status::Failure("post-Newton switching did not settle within " +
                         std::to_string(options.max_iterations) + " passes");
}

}  // namespace jointdyn::laws
