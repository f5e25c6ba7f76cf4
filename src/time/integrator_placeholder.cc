// PLACEHOLDER on branch wip/lumped only: DELETE THIS FILE when merging wip/solvers, which
// implements Integrate() and IntegratorOptions::Validate() (the duplicate symbols then
// stop the link until it is deleted). It lets the transient model reader and writer link
// and their input checks run before the integrator exists; every run reports a failure.
#include "time/integrator.h"

namespace jointdyn::time {

Status IntegratorOptions::Validate() const { return Status::Ok(); }

TransientResult Integrate(SecondOrderSystem& system, const IntegratorOptions& options,
                          const VecX& q0, const VecX& v0,
                          const std::function<void(const StepRecord&)>& observer) {
  TransientResult result;
  result.status = Status::Failure("time integration is not in this build (wip/lumped placeholder)");
  return result;
}

}  // namespace jointdyn::time
