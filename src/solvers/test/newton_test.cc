#include "solvers/newton.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <vector>

#include "solvers/line_search.h"

namespace jointdyn::solvers {
namespace {

// A ResidualModel from a residual function and a dense Jacobian function.
class FunctionModel final : public ResidualModel {
 public:
  using Residual = std::function<Status(const VecX&, VecX&)>;
  using Jacobian = std::function<MatX(const VecX&)>;
  FunctionModel(int n, Residual residual, Jacobian jacobian)
      : n_(n), residual_(std::move(residual)), jacobian_(std::move(jacobian)) {}

  int size() const override { return n_; }
  Status Evaluate(const VecX& x, VecX& residual, Matrix* jacobian) override {
    residual.resize(n_);
    if (Status status = residual_(x, residual); !status) return status;
    if (jacobian) *jacobian = jacobian_(x);
    return Status::Ok();
  }

 private:
  int n_;
  Residual residual_;
  Jacobian jacobian_;
};

// F = [x0^2 + x1^2 - 4, exp(x0) + x1 - 1]: a circle and an exponential.
FunctionModel CircleExp() {
  return FunctionModel(
      2,
      [](const VecX& x, VecX& f) {
        f << x(0) * x(0) + x(1) * x(1) - 4.0, std::exp(x(0)) + x(1) - 1.0;
        return Status::Ok();
      },
      [](const VecX& x) {
        MatX j(2, 2);
        j << 2.0 * x(0), 2.0 * x(1), std::exp(x(0)), 1.0;
        return j;
      });
}

TEST(Newton, ConvergesQuadratically) {
  FunctionModel model = CircleExp();
  NewtonOptions options;
  options.residual_tolerance = 1e-14;
  NewtonSolver newton(options);
  VecX x(2);
  x << 1.0, -1.0;
  const NewtonResult result = newton.Solve(model, x);
  ASSERT_TRUE(result.status) << result.status.message;
  VecX f(2);
  ASSERT_TRUE(model.Evaluate(x, f, nullptr));
  EXPECT_LE(f.lpNorm<Eigen::Infinity>(), 1e-14);
  // Full Newton: a factorization at the start and after each update whose residual is
  // above the tolerance (not after the last one).
  ASSERT_EQ(result.residual_history.size(), static_cast<std::size_t>(result.iterations + 1));
  int expected_factorizations = 1;
  for (int k = 1; k < result.iterations; ++k) {
    if (result.residual_history[k] > options.residual_tolerance) ++expected_factorizations;
  }
  EXPECT_EQ(result.factorizations, expected_factorizations);
  // Observed order log(r_k+1 / r_k) / log(r_k / r_k-1) over the iterates where the
  // residual is well above rounding (> 1e-12) and below 0.1 (asymptotic range).
  const auto& r = result.residual_history;
  int checked = 0;
  for (std::size_t k = 1; k + 1 < r.size(); ++k) {
    if (r[k - 1] > 0.1 || r[k + 1] < 1e-12) continue;
    const double order = std::log(r[k + 1] / r[k]) / std::log(r[k] / r[k - 1]);
    std::printf("Newton observed order %.3f (r = %.2e -> %.2e -> %.2e)\n", order, r[k - 1], r[k],
                r[k + 1]);
    EXPECT_NEAR(order, 2.0, 0.15);
    ++checked;
  }
  EXPECT_GE(checked, 1);
}

// atan(x) = 0 from x = 3: full Newton steps overshoot with growing amplitude.
FunctionModel Atan() {
  return FunctionModel(
      1,
      [](const VecX& x, VecX& f) {
        f(0) = std::atan(x(0));
        return Status::Ok();
      },
      [](const VecX& x) { return MatX::Constant(1, 1, 1.0 / (1.0 + x(0) * x(0))); });
}

TEST(Newton, LineSearchRescuesDivergingFullSteps) {
  FunctionModel model = Atan();
  NewtonOptions options;
  options.line_search = LineSearch::kNone;
  VecX x = VecX::Constant(1, 3.0);
  const NewtonResult diverged = NewtonSolver(options).Solve(model, x);
  EXPECT_FALSE(diverged.status);
  EXPECT_GT(diverged.residual_history.at(1), diverged.residual_history.at(0));  // grows

  options.line_search = LineSearch::kResidualNorm;
  x = VecX::Constant(1, 3.0);
  const NewtonResult rescued = NewtonSolver(options).Solve(model, x);
  ASSERT_TRUE(rescued.status) << rescued.status.message;
  EXPECT_LE(std::abs(x(0)), 1e-10);
  // The line search costs extra residual evaluations: more than one per iteration.
  EXPECT_GT(rescued.residual_evaluations, rescued.iterations + 1);
}

// F = x (x >= 0.999), x + 5 (0.001 < x < 0.999), 3 (x + 0.5) (x <= 0.001): from x = 1 the
// full step (to 0, F = 1.5) and every halving (into the bump) raise |F|, so the search
// fails; the watchdog takes the full step anyway and the next one reaches the root -0.5.
TEST(Newton, WatchdogTakesTheFullStepAfterAFailedSearch) {
  const auto piece = [](double x) { return x >= 0.999 ? 0 : x > 0.001 ? 1 : 2; };
  FunctionModel model(
      1,
      [&](const VecX& x, VecX& f) {
        const double v = x(0);
        f(0) = std::array<double, 3>{v, v + 5.0, 3.0 * (v + 0.5)}[piece(v)];
        return Status::Ok();
      },
      [&](const VecX& x) { return MatX::Constant(1, 1, piece(x(0)) == 2 ? 3.0 : 1.0); });
  NewtonOptions options;
  VecX x = VecX::Constant(1, 1.0);
  const NewtonResult failed = NewtonSolver(options).Solve(model, x);
  EXPECT_FALSE(failed.status);
  EXPECT_NE(failed.status.message.find("line search failed"), std::string::npos);
  options.watchdog = true;
  x = VecX::Constant(1, 1.0);
  const NewtonResult solved = NewtonSolver(options).Solve(model, x);
  ASSERT_TRUE(solved.status) << solved.status.message;
  EXPECT_NEAR(x(0), -0.5, 1e-14);
  EXPECT_LE(solved.iterations, 3);
}

TEST(Newton, FailedEvaluationBacktracks) {
  // log(x) + 1 = 0 from x = 3: the full step lands at x < 0, where log fails.
  int failures = 0;
  FunctionModel model(
      1,
      [&failures](const VecX& x, VecX& f) {
        if (x(0) <= 0.0) {
          ++failures;
          return Status::Failure("log of a non-positive number");
        }
        f(0) = std::log(x(0)) + 1.0;
        return Status::Ok();
      },
      [](const VecX& x) { return MatX::Constant(1, 1, 1.0 / x(0)); });
  VecX x = VecX::Constant(1, 3.0);
  const NewtonResult result = NewtonSolver(NewtonOptions{}).Solve(model, x);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_NEAR(x(0), std::exp(-1.0), 1e-12);
  EXPECT_GE(failures, 1);
}

// F_i = x_i + 0.1 x_i^3 + (x_i - x_i+1) - b_i: a weakly nonlinear chain.
FunctionModel Chain(int n, const VecX* b) {
  return FunctionModel(
      n,
      [n, b](const VecX& x, VecX& f) {
        for (int i = 0; i < n; ++i) {
          const double next = i + 1 < n ? x(i + 1) : 0.0;
          f(i) = x(i) + 0.1 * std::pow(x(i), 3) + (x(i) - next) - (*b)(i);
        }
        return Status::Ok();
      },
      [n](const VecX& x) {
        MatX j = MatX::Zero(n, n);
        for (int i = 0; i < n; ++i) {
          j(i, i) = 2.0 + 0.3 * x(i) * x(i);
          if (i + 1 < n) j(i, i + 1) = -1.0;
        }
        return j;
      });
}

TEST(Newton, JacobianReuseSavesFactorizations) {
  const int n = 10;
  VecX b = VecX::LinSpaced(n, 0.5, 2.0);
  FunctionModel model = Chain(n, &b);
  NewtonOptions full_options;
  NewtonOptions reuse_options;
  reuse_options.reuse_contraction = 0.25;
  NewtonSolver full(full_options);
  NewtonSolver reuse(reuse_options);

  VecX x_full = VecX::Zero(n);
  VecX x_reuse = VecX::Zero(n);
  const NewtonResult r_full = full.Solve(model, x_full);
  const NewtonResult r_reuse = reuse.Solve(model, x_reuse);
  ASSERT_TRUE(r_full.status) << r_full.status.message;
  ASSERT_TRUE(r_reuse.status) << r_reuse.status.message;
  std::printf(
      "full Newton: %d iterations, %d factorizations; modified: %d iterations, %d "
      "factorizations\n",
      r_full.iterations, r_full.factorizations, r_reuse.iterations, r_reuse.factorizations);
  EXPECT_LT(r_reuse.factorizations, r_full.factorizations);
  // Same solution to the convergence tolerances (the chain Jacobian is well conditioned).
  EXPECT_LE((x_full - x_reuse).lpNorm<Eigen::Infinity>(), 1e-9);

  // Across Solve() calls: a nearby right-hand side converges on the kept factorization.
  b *= 1.01;
  const NewtonResult again = reuse.Solve(model, x_reuse);
  ASSERT_TRUE(again.status) << again.status.message;
  EXPECT_EQ(again.factorizations, 0);
  EXPECT_EQ(again.jacobian_evaluations, 0);
  reuse.InvalidateJacobian();
  b *= 1.01;
  const NewtonResult after_invalidate = reuse.Solve(model, x_reuse);
  ASSERT_TRUE(after_invalidate.status);
  EXPECT_GE(after_invalidate.factorizations, 1);

  // A kept factorization of another size is not used.
  VecX b_small = VecX::Ones(3);
  FunctionModel small = Chain(3, &b_small);
  VecX x_small = VecX::Zero(3);
  const NewtonResult small_result = reuse.Solve(small, x_small);
  ASSERT_TRUE(small_result.status);
  EXPECT_GE(small_result.factorizations, 1);
}

TEST(Newton, SingularJacobianFails) {
  // x0 + x1 = 1 and 2 x0 + 2 x1 = 3: inconsistent, the Jacobian is singular everywhere.
  FunctionModel model(
      2,
      [](const VecX& x, VecX& f) {
        f << x(0) + x(1) - 1.0, 2.0 * x(0) + 2.0 * x(1) - 3.0;
        return Status::Ok();
      },
      [](const VecX&) {
        MatX j(2, 2);
        j << 1.0, 1.0, 2.0, 2.0;
        return j;
      });
  for (auto kind : {LinearSolverKind::kDenseLU, LinearSolverKind::kSparseLU}) {
    NewtonOptions options;
    options.linear_solver = kind;
    VecX x = VecX::Zero(2);
    const NewtonResult result = NewtonSolver(options).Solve(model, x);
    EXPECT_FALSE(result.status);
    EXPECT_NE(result.status.message.find("iteration 0"), std::string::npos)
        << result.status.message;
    EXPECT_NE(result.status.message.find("singular"), std::string::npos) << result.status.message;
  }
}

TEST(Newton, DenseAndSparseGiveTheSameSolution) {
  const int n = 40;
  VecX b = VecX::LinSpaced(n, -1.0, 3.0);
  FunctionModel model = Chain(n, &b);
  VecX x_dense = VecX::Zero(n);
  VecX x_sparse = VecX::Zero(n);
  NewtonOptions options;
  options.linear_solver = LinearSolverKind::kDenseLU;
  const NewtonResult dense = NewtonSolver(options).Solve(model, x_dense);
  options.linear_solver = LinearSolverKind::kSparseLU;
  const NewtonResult sparse = NewtonSolver(options).Solve(model, x_sparse);
  ASSERT_TRUE(dense.status);
  ASSERT_TRUE(sparse.status);
  EXPECT_EQ(dense.iterations, sparse.iterations);
  EXPECT_LE((x_dense - x_sparse).lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(Newton, NoConvergenceNamesIterationAndNorms) {
  FunctionModel model = CircleExp();
  NewtonOptions options;
  options.max_iterations = 2;
  VecX x(2);
  x << 1.0, -1.0;
  const NewtonResult result = NewtonSolver(options).Solve(model, x);
  EXPECT_FALSE(result.status);
  EXPECT_EQ(result.status.message.rfind("Newton iteration 2: no convergence", 0), 0u)
      << result.status.message;
}

TEST(Newton, ScaledTolerances) {
  // F = 1e6 (x - 1): with ResidualScale 1e6 the scaled residual is x - 1.
  class Scaled final : public ResidualModel {
   public:
    int size() const override { return 1; }
    Status Evaluate(const VecX& x, VecX& f, Matrix* j) override {
      f = VecX::Constant(1, 1e6 * (x(0) - 1.0) + 1e-3 * std::pow(x(0) - 1.0, 3));
      if (j) *j = MatX::Constant(1, 1, 1e6 + 3e-3 * std::pow(x(0) - 1.0, 2));
      return Status::Ok();
    }
    VecX ResidualScale() const override { return VecX::Constant(1, 1e6); }
  } model;
  VecX x = VecX::Constant(1, 3.0);
  const NewtonResult result = NewtonSolver(NewtonOptions{}).Solve(model, x);
  ASSERT_TRUE(result.status);
  EXPECT_NEAR(result.residual_history.front(), 2.0 + 8e-9, 1e-12);
}

TEST(Newton, AcceptsAnIncrementStalledAtTheResidualsRounding) {
  // F = x - 1 + e_k, e_k = +-4e-10 alternating between evaluations: the residual's noise
  // floor (rounding of large terms) meets the residual tolerance 1e-8, but the increments
  // stay at 8e-10 above the increment tolerance 1e-10. Newton accepts once the residual has
  // been met twice and the increment stops shrinking, within the noise of the root.
  int evaluations = 0;
  FunctionModel model(
      1,
      [&](const VecX& x, VecX& f) {
        const double noise = (++evaluations % 2 == 0 ? 4e-10 : -4e-10);
        f << x(0) - 1.0 + noise;
        return Status::Ok();
      },
      [](const VecX&) { return MatX::Identity(1, 1); });
  VecX x = VecX::Constant(1, 3.0);
  const NewtonResult result = NewtonSolver(NewtonOptions{}).Solve(model, x);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_GT(result.increment_norm, NewtonOptions{}.increment_tolerance);
  EXPECT_LE(result.iterations, 4);
  EXPECT_NEAR(x(0), 1.0, 1e-9);
  // Full Newton evaluates no Jacobian with the trials once the residual is met (only the
  // increment test is left): one unused, with the trial that first met it.
  EXPECT_GE(result.iterations, 3);
  EXPECT_EQ(result.jacobian_evaluations, result.factorizations + 1);
  // Without the noise the increment test decides as before: the exact root.
  FunctionModel exact(
      1,
      [](const VecX& y, VecX& f) {
        f << y(0) - 1.0 + 1e-3 * std::pow(y(0) - 1.0, 3);
        return Status::Ok();
      },
      [](const VecX& y) { return MatX::Constant(1, 1, 1.0 + 3e-3 * std::pow(y(0) - 1.0, 2)); });
  x = VecX::Constant(1, 3.0);
  const NewtonResult converged = NewtonSolver(NewtonOptions{}).Solve(exact, x);
  ASSERT_TRUE(converged.status) << converged.status.message;
  EXPECT_LE(converged.increment_norm, NewtonOptions{}.increment_tolerance);
  EXPECT_NEAR(x(0), 1.0, 1e-15);
}

TEST(Newton, OptionsValidate) {
  EXPECT_TRUE(NewtonOptions{}.Validate());
  NewtonOptions options;
  options.max_iterations = 0;
  EXPECT_EQ(options.Validate().message, "newton.max_iterations = 0: must be >= 1");
  options = {};
  options.reuse_contraction = 1.0;
  EXPECT_EQ(options.Validate().message, "newton.reuse_contraction = 1: must be in [0, 1)");
  options = {};
  options.residual_tolerance = -1e-8;
  EXPECT_EQ(options.Validate().message, "newton.residual_tolerance = -1e-08: must be > 0");
  options = {};
  options.max_backtracks = -1;
  EXPECT_EQ(options.Validate().message, "newton.max_backtracks = -1: must be >= 0");
}

}  // namespace
}  // namespace jointdyn::solvers

namespace jointdyn::solvers {
namespace {

// r(x) = x - 1 + k max(x - 1/2, 0): the gradient of a soft spring with a stiff penalty
// wall at x = 1/2; the minimum is at x* = (1 + k/2) / (1 + k).
constexpr double kWall = 1e6;
double WallResidual(double x) { return x - 1.0 + kWall * std::max(x - 0.5, 0.0); }
const double kWallSolution = (1.0 + 0.5 * kWall) / (1.0 + kWall);

TEST(DirectionalLineSearch, StopsAtThePenaltyWallAlongTheSoftStep) {
  // From x = 0 the soft branch's Newton step dx = 1 runs deep into the wall.
  const VecX dx = VecX::Constant(1, 1.0);
  VecX r(1);
  double x = 0.0;
  const DirectionalSearchResult search = DirectionalLineSearch(
      WallResidual(0.0), dx,
      [&](double alpha, VecX& residual) {
        x = alpha;
        residual(0) = WallResidual(x);
        return Status::Ok();
      },
      r);
  ASSERT_TRUE(search.status);
  EXPECT_EQ(x, search.alpha);  // the last evaluation is at the returned step
  EXPECT_LE(std::abs(r(0)), 0.25 * std::abs(WallResidual(0.0)));
  EXPECT_NEAR(x, kWallSolution, 0.25 / kWall);
  EXPECT_GT(search.evaluations, 1);
  EXPECT_LE(search.evaluations, 31);
}

TEST(DirectionalLineSearch, TakesTheFullStepWhenItIsNoDescentDirection) {
  VecX r(1);
  const DirectionalSearchResult search = DirectionalLineSearch(
      1.0, VecX::Constant(1, 1.0),
      [](double, VecX& residual) {
        residual(0) = 5.0;
        return Status::Ok();
      },
      r);
  EXPECT_EQ(search.alpha, 1.0);
  EXPECT_EQ(search.evaluations, 1);
}

TEST(Newton, DirectionalLineSearchSolvesAStiffObstacleChain) {
  // n masses on springs k = 1 in a chain (fixed ends), pulled down by unit loads onto a
  // stiff penalty obstacle at -0.1 under every other mass: a piecewise-linear, convex
  // problem whose contact set Newton must find. Check: residual zero, and the contact
  // set's forces balance the load.
  const int n = 12;
  const double penalty = 1e8;
  auto residual = [&](const VecX& x, VecX& f) {
    for (int i = 0; i < n; ++i) {
      const double left = i > 0 ? x(i - 1) : 0.0, right = i + 1 < n ? x(i + 1) : 0.0;
      f(i) = 2.0 * x(i) - left - right + 1.0;
      if (i % 2 == 0) f(i) += penalty * std::min(x(i) + 0.1, 0.0);
    }
    return Status::Ok();
  };
  auto jacobian = [&](const VecX& x) {
    MatX j = MatX::Zero(n, n);
    for (int i = 0; i < n; ++i) {
      j(i, i) = 2.0 + (i % 2 == 0 && x(i) + 0.1 < 0.0 ? penalty : 0.0);
      if (i > 0) j(i, i - 1) = -1.0;
      if (i + 1 < n) j(i, i + 1) = -1.0;
    }
    return j;
  };
  FunctionModel model(n, residual, jacobian);
  NewtonOptions options;
  options.line_search = LineSearch::kDirectional;
  options.residual_tolerance = 1e-8;  // the rounding of x (1e-17) times the penalty is 1e-9
  options.increment_tolerance = 1e-12;
  VecX x = VecX::Zero(n);
  const NewtonResult result = NewtonSolver(options).Solve(model, x);
  ASSERT_TRUE(result.status) << result.status.message;
  VecX f(n);
  ASSERT_TRUE(residual(x, f));
  EXPECT_LE(f.lpNorm<Eigen::Infinity>(), 1e-8);
  // Without the obstacle the chain would sag to -i (n + 1 - i) / 2, far below -0.1: the
  // obstacle carries every mass above it, within a few load / penalty = 1e-8 of it.
  for (int i = 0; i < n; i += 2) EXPECT_NEAR(x(i), -0.1, 1e-7);
}

}  // namespace
}  // namespace jointdyn::solvers
