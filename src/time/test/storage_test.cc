// A system integrates to the same trajectory whether its matrices and tangents are stored
// sparse or dense (solvers::Matrix): the Newton matrix, the bordered matrix of constraints
// and the linear solver follow the storage, the equations do not change.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "time/integrator.h"
#include "time/test/test_systems.h"

namespace jointdyn::time {
namespace {

using testing::DenseStorage;

struct Run {
  TransientResult result;
  std::vector<VecX> q;  // per observed step
};

Run Simulate(SecondOrderSystem& system, const IntegratorOptions& options, const VecX& q0,
             const VecX& v0) {
  Run run;
  run.result = Integrate(system, options, q0, v0,
                         [&](const StepRecord& record) { run.q.push_back(*record.q); });
  return run;
}

// Both runs succeed with the same steps and Newton iterations and positions equal to
// rounding (dense and sparse products sum in different orders).
void ExpectSameRuns(SecondOrderSystem& sparse, const IntegratorOptions& options, const VecX& q0,
                    const VecX& v0) {
  ASSERT_FALSE(sparse.mass().is_dense());
  DenseStorage dense(sparse);
  ASSERT_TRUE(dense.mass().is_dense());
  const Run a = Simulate(sparse, options, q0, v0);
  // The wrapped system's history restarts with the initial state of the second run.
  const Run b = Simulate(dense, options, q0, v0);
  ASSERT_TRUE(a.result.status) << a.result.status.message;
  ASSERT_TRUE(b.result.status) << b.result.status.message;
  EXPECT_EQ(a.result.accepted_steps, b.result.accepted_steps);
  EXPECT_EQ(a.result.newton_iterations, b.result.newton_iterations);
  ASSERT_EQ(a.q.size(), b.q.size());
  double scale = 0.0, difference = 0.0;
  for (std::size_t i = 0; i < a.q.size(); ++i) {
    scale = std::max(scale, a.q[i].lpNorm<Eigen::Infinity>());
    difference = std::max(difference, (a.q[i] - b.q[i]).lpNorm<Eigen::Infinity>());
  }
  EXPECT_LE(difference, 1e-12 * scale);
}

IntegratorOptions Hht(double dt, double t_end) {
  IntegratorOptions options;
  options.scheme = Scheme::kHht;
  options.alpha = -0.1;
  options.dt = dt;
  options.t_end = t_end;
  return options;
}

TEST(Storage, DenseAndSparseGiveTheSameTrajectory) {
  MatX m(2, 2), c(2, 2), k(2, 2);
  m << 2.0, 0.0, 0.0, 1.0;
  c << 0.3, -0.1, -0.1, 0.1;
  k << 300.0, -100.0, -100.0, 100.0;
  testing::LinearSystem linear(m, c, k, [](double t) { return VecX::Constant(2, std::sin(t)); });
  ExpectSameRuns(linear, Hht(1e-3, 0.5), VecX::Zero(2), VecX::Ones(2));

  testing::QuarticChain chain(3, 100.0, 1e5);  // nonlinear stiffness
  ExpectSameRuns(chain, Hht(2e-3, 0.5), Eigen::Vector3d(0.05, -0.03, 0.08), VecX::Zero(3));
}

TEST(Storage, DenseAndSparseGiveTheSameTrajectoryWithConstraints) {
  testing::Pendulum pendulum(2.0, 9.81, 0.8);  // the bordered Jacobian
  ExpectSameRuns(pendulum, Hht(1e-3, 0.5), Eigen::Vector2d(0.8, 0.0), VecX::Zero(2));
}

}  // namespace
}  // namespace jointdyn::time
