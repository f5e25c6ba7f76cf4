// Step cuts and retries, commit on accepted steps only, post-Newton re-solves, observer
// throttling and option validation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "time/integrator.h"
#include "time/test/test_systems.h"

namespace jointdyn::time {
namespace {

using testing::LinearSystem;
using testing::QuarticChain;

constexpr double kPi = 3.14159265358979323846;

// A unit oscillator with period 1 s.
LinearSystem Oscillator() {
  return LinearSystem(MatX::Ones(1, 1), MatX::Constant(1, 1, 0.1),
                      MatX::Constant(1, 1, 4.0 * kPi * kPi));
}

IntegratorOptions FixedSteps(double dt) {
  IntegratorOptions options;
  options.scheme = Scheme::kNewmark;
  options.dt = dt;
  return options;
}

TEST(StepControl, StepsTooLongForTheSystemAreCutAndRetried) {
  // The system fails (as a law's local Newton would) on increments longer than 10 ms
  // (the initial evaluation at t = 0 is no increment).
  LinearSystem system = Oscillator();
  system.fail = [](const StepPoint& point) {
    if (point.t > 0.0 && point.dt > 0.01 * (1.0 + 1e-9)) {
      return Status::Failure("increment " + FormatValue(point.dt) + " s too long");
    }
    return Status::Ok();
  };
  std::vector<double> times;
  const TransientResult cut = Integrate(system, FixedSteps(0.04), VecX::Ones(1), VecX::Zero(1),
                                        [&](const StepRecord& r) { times.push_back(r.t); });
  ASSERT_TRUE(cut.status) << cut.status.message;
  // Every 40 ms grid interval: 40 ms and 20 ms fail, then four 10 ms steps to the grid
  // point, where the nominal step is tried again.
  EXPECT_EQ(cut.accepted_steps, 100);
  EXPECT_EQ(cut.rejected_steps, 2 * 25);
  EXPECT_EQ(cut.t_reached, 1.0);
  EXPECT_EQ(system.commits, cut.accepted_steps + 1);  // history: initial state + accepted
  ASSERT_EQ(times.size(), 101u);
  EXPECT_NEAR(times[4], 0.04, 1e-15);

  // The same 10 ms steps without failures: the same end state.
  LinearSystem reference_system = Oscillator();
  VecX q_cut, q_reference;
  Integrate(system, FixedSteps(0.04), VecX::Ones(1), VecX::Zero(1),
            [&](const StepRecord& r) { q_cut = *r.q; });
  const TransientResult reference =
      Integrate(reference_system, FixedSteps(0.01), VecX::Ones(1), VecX::Zero(1),
                [&](const StepRecord& r) { q_reference = *r.q; });
  ASSERT_TRUE(reference.status);
  EXPECT_NEAR(q_cut(0), q_reference(0), 1e-12);
}

// Many cut steps in a grid interval accumulate rounding in t: the last one must not leave a
// sliver (1e-13 s) to the grid point, whose Newton matrix (mass / dt^2) is singular to
// rounding: the multilayer car pendulum with 60 joint modes failed so at t = 1.7755 s.
TEST(StepControl, CutStepsLeaveNoSliverBeforeTheGridPoint) {
  // A 10 kHz oscillator: its Newton steps resolve the cut steps (omega dt >= 1e-3; a slower
  // one's increments fall below the rounding of q).
  LinearSystem system(MatX::Ones(1, 1), MatX::Zero(1, 1),
                      MatX::Constant(1, 1, std::pow(20000.0 * kPi, 2)));
  const double dt = 1e-4;
  const double t_start = 1000.0;               // where t's rounding (1.1e-13 s) adds up fast
  system.fail = [&](const StepPoint& point) {  // not the initial evaluation
    if (point.t > t_start && point.dt > dt / 2000.0) return Status::Failure("increment too long");
    return Status::Ok();
  };
  IntegratorOptions options = FixedSteps(dt);
  options.t_start = t_start;
  options.t_end = t_start + 4 * dt;
  std::vector<double> times;
  const TransientResult result = Integrate(system, options, VecX::Ones(1), VecX::Zero(1),
                                           [&](const StepRecord& r) { times.push_back(r.t); });
  ASSERT_TRUE(result.status) << result.status.message;
  double shortest = dt;
  for (size_t i = 1; i < times.size(); ++i) shortest = std::min(shortest, times[i] - times[i - 1]);
  std::printf("cut steps: %d accepted, shortest %.3e s (dt / 2048 = %.3e s)\n",
              result.accepted_steps, shortest, dt / 2048.0);
  EXPECT_GT(shortest, 0.4 * dt / 2048.0);  // the last two share the remainder
  EXPECT_EQ(result.t_reached, options.t_end);
}

TEST(StepControl, FailureAfterMaxCutsNamesTimeStepAndCause) {
  LinearSystem system = Oscillator();
  system.fail = [](const StepPoint& point) {
    if (point.t > 0.5 + 1e-9) return Status::Failure("law update diverged");
    return Status::Ok();
  };
  IntegratorOptions options = FixedSteps(0.01);
  options.max_step_cuts = 3;
  double last_observed = -1.0;
  const TransientResult result = Integrate(system, options, VecX::Ones(1), VecX::Zero(1),
                                           [&](const StepRecord& r) { last_observed = r.t; });
  ASSERT_FALSE(result.status);
  std::printf("failure message: %s\n", result.status.message.c_str());
  EXPECT_NE(result.status.message.find("t = 0.5 s, step 51"), std::string::npos);
  EXPECT_NE(result.status.message.find("after 3 cuts"), std::string::npos);
  EXPECT_NE(result.status.message.find("Newton iteration 0: residual evaluation failed: law "
                                       "update diverged"),
            std::string::npos);
  EXPECT_EQ(result.accepted_steps, 50);
  EXPECT_EQ(result.rejected_steps, 4);
  EXPECT_NEAR(result.t_reached, 0.5, 1e-12);
  EXPECT_NEAR(last_observed, 0.5, 1e-12);  // the last accepted state was observed
}

TEST(StepControl, ObserverIsThrottledByTheOutputInterval) {
  LinearSystem system = Oscillator();
  IntegratorOptions options = FixedSteps(0.001);
  options.output_interval = 0.1;
  std::vector<double> times;
  const TransientResult result = Integrate(system, options, VecX::Ones(1), VecX::Zero(1),
                                           [&](const StepRecord& r) { times.push_back(r.t); });
  ASSERT_TRUE(result.status);
  ASSERT_EQ(times.size(), 11u);  // t = 0, 0.1, ..., 1
  for (std::size_t i = 0; i < times.size(); ++i) EXPECT_NEAR(times[i], 0.1 * i, 1e-12);
}

// Reports a switch (error 1 N) at the first post-Newton pass after t = 0.3 s only.
class SwitchOnce final : public LinearSystem {
 public:
  SwitchOnce() : LinearSystem(Oscillator()) {}
  int post_newton_calls = 0;
  double PostNewtonUpdate(const StepPoint& point) override {
    ++post_newton_calls;
    if (point.t > 0.3 && !switched_) {
      switched_ = true;
      return 1.0;
    }
    return 0.0;
  }

 private:
  bool switched_ = false;
};

TEST(StepControl, PostNewtonSwitchResolvesTheStep) {
  SwitchOnce system;
  LinearSystem plain = Oscillator();
  VecX q_switch, q_plain;
  const IntegratorOptions options = FixedSteps(0.01);
  const TransientResult switched = Integrate(system, options, VecX::Ones(1), VecX::Zero(1),
                                             [&](const StepRecord& r) { q_switch = *r.q; });
  const TransientResult reference = Integrate(plain, options, VecX::Ones(1), VecX::Zero(1),
                                              [&](const StepRecord& r) { q_plain = *r.q; });
  ASSERT_TRUE(switched.status) << switched.status.message;
  EXPECT_EQ(switched.post_newton_passes, 1);
  EXPECT_EQ(reference.post_newton_passes, 0);
  // One call per step plus one after the re-solve.
  EXPECT_EQ(system.post_newton_calls, switched.accepted_steps + 1);
  // The re-solve costs Newton iterations (a new Jacobian after the switch).
  EXPECT_GT(switched.newton_iterations, reference.newton_iterations);
  EXPECT_GT(switched.factorizations, reference.factorizations);
  EXPECT_NEAR(q_switch(0), q_plain(0), 1e-12);  // nothing actually changed
}

// Never settles: the step is cut until the cuts run out.
class AlwaysSwitching final : public LinearSystem {
 public:
  AlwaysSwitching() : LinearSystem(Oscillator()) {}
  int rollbacks = 0;
  double PostNewtonUpdate(const StepPoint&) override { return 0.5; }
  void Rollback() override { ++rollbacks; }
};

TEST(StepControl, PostNewtonFailsAfterTheMaximumPasses) {
  AlwaysSwitching system;
  IntegratorOptions options = FixedSteps(0.01);
  options.post_newton_max = 3;
  options.max_step_cuts = 2;
  const TransientResult result = Integrate(system, options, VecX::Ones(1), VecX::Zero(1));
  ASSERT_FALSE(result.status);
  std::printf("failure message: %s\n", result.status.message.c_str());
  EXPECT_NE(result.status.message.find("post-Newton switching error 0.5 N"), std::string::npos);
  EXPECT_NE(result.status.message.find("after 3 re-solves"), std::string::npos);
  EXPECT_EQ(result.post_newton_passes, 3 * 3);  // 3 re-solves in each of the 3 attempts
  EXPECT_EQ(result.rejected_steps, 3);
  EXPECT_EQ(system.rollbacks, 3);
  EXPECT_EQ(result.accepted_steps, 0);
}

// A spring with a kink at q = q_kink: stiffness k1 below and k2 above. The branch is a
// switching variable frozen during Newton (as for stick/slip in seed 002) and updated by
// PostNewtonUpdate, whose error is the force jump between the branches (eq. 29 analog).
class KinkedSpring final : public testing::UnitMassSdof {
 public:
  KinkedSpring(double k1, double k2, double q_kink) : k1_(k1), k2_(k2), q_kink_(q_kink) {}
  Status InternalForce(const StepPoint& point, VecX& f, Matrix* stiffness, Matrix*) override {
    q_ = (*point.q)(0);
    f(0) = Force(q_, upper_);
    if (stiffness) stiffness->sparse().coeffRef(0, 0) = upper_ ? k2_ : k1_;
    return Status::Ok();
  }
  void ExternalForce(double, VecX&) const override {}
  double PostNewtonUpdate(const StepPoint& point) override {
    const double q = (*point.q)(0);
    const bool upper = q > q_kink_;
    if (upper == upper_) return 0.0;
    const double error = std::abs(Force(q, upper) - Force(q, upper_));
    upper_ = upper;
    return error;
  }
  void Commit() override { committed_upper_ = upper_; }
  void Rollback() override { upper_ = committed_upper_; }
  double StoredEnergy() const override { return 0.0; }

  // The committed branch agrees with the committed position.
  bool Consistent(double q) const { return committed_upper_ == (q > q_kink_); }

 private:
  double Force(double q, bool upper) const {
    return upper ? k1_ * q_kink_ + k2_ * (q - q_kink_) : k1_ * q;
  }
  double k1_, k2_, q_kink_;
  double q_ = 0.0;
  bool upper_ = false, committed_upper_ = false;
};

TEST(StepControl, PostNewtonKeepsTheSwitchingStateConsistent) {
  for (int post_newton_max : {10, 0}) {
    KinkedSpring system(100.0, 400.0, 0.5);
    IntegratorOptions options = FixedSteps(0.005);
    options.post_newton_max = post_newton_max;
    int inconsistent = 0;
    const TransientResult result =
        Integrate(system, options, VecX::Zero(1), VecX::Ones(1) * 10.0, [&](const StepRecord& r) {
          if (r.t > 0.0 && !system.Consistent((*r.q)(0))) ++inconsistent;
        });
    ASSERT_TRUE(result.status) << result.status.message;
    std::printf(
        "kinked spring, post_newton_max %d: %d re-solves, %d steps with an "
        "inconsistent branch\n",
        post_newton_max, result.post_newton_passes, inconsistent);
    if (post_newton_max > 0) {
      EXPECT_EQ(inconsistent, 0);
      EXPECT_GE(result.post_newton_passes, 2);  // enters and leaves the upper branch
    } else {
      EXPECT_GT(inconsistent, 0);  // the control: without the passes the branch lags
      EXPECT_EQ(result.post_newton_passes, 0);
    }
  }
}

TEST(StepControl, JacobianReuseAcrossSteps) {
  // Modified Newton keeps the factorization across steps of the same length: one
  // factorization for a whole linear run, and fewer on a nonlinear one, same results.
  IntegratorOptions full = FixedSteps(0.002);
  IntegratorOptions reuse = full;
  reuse.newton.reuse_contraction = 0.5;
  {
    LinearSystem a = Oscillator(), b = Oscillator();
    VecX q_full, q_reuse;
    const TransientResult r_full = Integrate(a, full, VecX::Ones(1), VecX::Zero(1),
                                             [&](const StepRecord& r) { q_full = *r.q; });
    const TransientResult r_reuse = Integrate(b, reuse, VecX::Ones(1), VecX::Zero(1),
                                              [&](const StepRecord& r) { q_reuse = *r.q; });
    ASSERT_TRUE(r_full.status);
    ASSERT_TRUE(r_reuse.status);
    std::printf("linear, 500 steps: full Newton %d factorizations, modified %d\n",
                r_full.factorizations, r_reuse.factorizations);
    EXPECT_EQ(r_full.factorizations, r_full.accepted_steps);
    EXPECT_EQ(r_reuse.factorizations, 1);
    EXPECT_NEAR(q_full(0), q_reuse(0), 1e-10);
  }
  {
    const Eigen::Vector3d q0(0.05, -0.03, 0.08);
    testing::QuarticChain a(3, 100.0, 1e5), b(3, 100.0, 1e5);
    VecX q_full, q_reuse;
    const TransientResult r_full =
        Integrate(a, full, q0, VecX::Zero(3), [&](const StepRecord& r) { q_full = *r.q; });
    const TransientResult r_reuse =
        Integrate(b, reuse, q0, VecX::Zero(3), [&](const StepRecord& r) { q_reuse = *r.q; });
    ASSERT_TRUE(r_full.status);
    ASSERT_TRUE(r_reuse.status) << r_reuse.status.message;
    std::printf(
        "quartic chain, 500 steps: full Newton %d iterations, %d factorizations; "
        "modified %d iterations, %d factorizations\n",
        r_full.newton_iterations, r_full.factorizations, r_reuse.newton_iterations,
        r_reuse.factorizations);
    EXPECT_LT(r_reuse.factorizations, r_full.factorizations / 2);
    // Both converged to the Newton tolerances (increments 1e-10 of the 0.08 m scale per
    // step, accumulated over 500 steps).
    EXPECT_LE((q_full - q_reuse).lpNorm<Eigen::Infinity>(), 1e-8);
  }
}

TEST(StepControl, RestWithoutForcesStaysAtRest) {
  // All force magnitudes are zero: the scales fall back to their floors and the residuals
  // are exactly zero.
  LinearSystem system = Oscillator();
  VecX q_end;
  const TransientResult result = Integrate(system, FixedSteps(0.1), VecX::Zero(1), VecX::Zero(1),
                                           [&](const StepRecord& r) { q_end = *r.q; });
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(q_end(0), 0.0);
  EXPECT_EQ(result.newton_iterations, result.accepted_steps);
}

// A system on scaled coordinates y with q = diag(s) y (as a reduced model's modes, whose
// normalization sets their units): M_y = S M S, f_y = S f(S y), K_y = S K S, external S f.
// With `units` it reports CoordinateUnits() = s.
class ScaledSystem final : public SecondOrderSystem {
 public:
  ScaledSystem(SecondOrderSystem& physical, VecX s, bool units)
      : physical_(physical), s_(std::move(s)), units_(units) {
    const SparseMatrix scale = MatX(s_.asDiagonal()).sparseView();
    m_ = scale * physical_.mass().sparse() * scale;
    c_ = scale * physical_.damping().sparse() * scale;
  }
  int size() const override { return physical_.size(); }
  const Matrix& mass() const override { return m_; }
  const Matrix& damping() const override { return c_; }
  Status InternalForce(const StepPoint& point, VecX& f, Matrix* stiffness,
                       Matrix* damping_tangent) override {
    const VecX q = s_.cwiseProduct(*point.q), v = s_.cwiseProduct(*point.v),
               q_start = s_.cwiseProduct(*point.q_start);
    StepPoint physical_point = point;
    physical_point.q = &q;
    physical_point.v = &v;
    physical_point.q_start = &q_start;
    VecX fp = VecX::Zero(size());
    if (Status status = physical_.InternalForce(physical_point, fp, stiffness, damping_tangent);
        !status)
      return status;
    f = s_.cwiseProduct(fp);
    const SparseMatrix scale = MatX(s_.asDiagonal()).sparseView();
    if (stiffness) *stiffness = scale * stiffness->sparse() * scale;
    return Status::Ok();
  }
  void ExternalForce(double t, VecX& f) const override {
    physical_.ExternalForce(t, f);
    f = s_.cwiseProduct(f);
  }
  void Commit() override { physical_.Commit(); }
  double StoredEnergy() const override { return physical_.StoredEnergy(); }
  VecX CoordinateUnits() const override { return units_ ? s_ : VecX(); }

 private:
  SecondOrderSystem& physical_;
  VecX s_;
  bool units_;
  Matrix m_, c_;
};

// The convergence tests see metres and newtons through CoordinateUnits(): a nonlinear
// chain on coordinates scaled by 1e-4, 1 and 1e3 takes the physical run's Newton
// iterations and path; without the units the same tolerances mean something else per
// coordinate and the run differs.
TEST(StepControl, CoordinateUnitsMakeTheTestsIndependentOfTheScaling) {
  const auto force = [](double t) { return VecX::Constant(3, 50.0 * std::sin(20.0 * t)); };
  IntegratorOptions options = FixedSteps(0.01);
  options.t_end = 0.5;
  options.newton.residual_tolerance = 1e-3;
  options.newton.increment_tolerance = 1e-3;
  options.position_scale = 1e-2;
  auto run = [&](SecondOrderSystem& system, const VecX& s, std::vector<VecX>& path) {
    return Integrate(system, options, VecX::Zero(3), VecX::Zero(3),
                     [&](const StepRecord& r) { path.push_back(s.cwiseProduct(*r.q)); });
  };
  QuarticChain chain(3, 100.0, 1e6, force);
  std::vector<VecX> physical_path, units_path, plain_path;
  const TransientResult physical = run(chain, VecX::Ones(3), physical_path);
  const VecX s{{1e-4, 1.0, 1e3}};
  QuarticChain chain_units(3, 100.0, 1e6, force), chain_plain(3, 100.0, 1e6, force);
  ScaledSystem with_units(chain_units, s, true), without_units(chain_plain, s, false);
  const TransientResult units = run(with_units, s, units_path);
  const TransientResult plain = run(without_units, s, plain_path);
  ASSERT_TRUE(physical.status && units.status && plain.status) << units.status.message;
  ASSERT_EQ(units_path.size(), physical_path.size());
  double largest = 0.0, units_difference = 0.0, plain_difference = 0.0;
  for (std::size_t k = 0; k < physical_path.size(); ++k) {
    largest = std::max(largest, physical_path[k].cwiseAbs().maxCoeff());
    units_difference =
        std::max(units_difference, (units_path[k] - physical_path[k]).cwiseAbs().maxCoeff());
    if (k < plain_path.size())
      plain_difference =
          std::max(plain_difference, (plain_path[k] - physical_path[k]).cwiseAbs().maxCoeff());
  }
  std::printf(
      "Newton iterations: physical %d, scaled with units %d, without %d; largest "
      "difference to the physical path %.2e (units) and %.2e (none) of %.3e m\n",
      physical.newton_iterations, units.newton_iterations, plain.newton_iterations,
      units_difference, plain_difference, largest);
  EXPECT_EQ(units.newton_iterations, physical.newton_iterations);
  EXPECT_LT(units_difference, 1e-9 * largest);
  EXPECT_NE(plain.newton_iterations, physical.newton_iterations);
}

TEST(StepControl, OptionsValidate) {
  EXPECT_TRUE(IntegratorOptions{}.Validate());
  IntegratorOptions options;
  options.alpha = -0.5;
  EXPECT_EQ(options.Validate().message, "integrator.alpha = -0.5: must be in [-1/3, 0]");
  options = {};
  options.rho_inf = 1.5;
  EXPECT_EQ(options.Validate().message, "integrator.rho_inf = 1.5: must be in [0, 1]");
  options = {};
  options.dt = 0.0;
  EXPECT_EQ(options.Validate().message, "integrator.dt = 0: must be > 0");
  options = {};
  options.t_end = -1.0;
  EXPECT_EQ(options.Validate().message, "integrator.t_end = -1: must be > t_start = 0");
  options = {};
  options.dt_max = 1e-4;
  EXPECT_EQ(options.Validate().message, "integrator.dt_max = 0.0001: must be >= dt = 0.001");
  options = {};
  options.energy_conserving = true;  // with the default scheme kHht
  EXPECT_EQ(options.Validate().message,
            "integrator.energy_conserving = true: needs scheme newmark with beta = 0.25 and gamma "
            "= 0.5");
  options = {};
  options.newton.max_iterations = 0;
  EXPECT_EQ(options.Validate().message, "newton.max_iterations = 0: must be >= 1");
  // Integrate reports invalid options as a failed status without running.
  LinearSystem system = Oscillator();
  options = {};
  options.alpha = 0.1;
  const TransientResult result = Integrate(system, options, VecX::Ones(1), VecX::Zero(1));
  EXPECT_FALSE(result.status);
  EXPECT_EQ(result.status.message, "integrator.alpha = 0.1: must be in [-1/3, 0]");
  EXPECT_EQ(system.commits, 0);
}

}  // namespace
}  // namespace jointdyn::time
