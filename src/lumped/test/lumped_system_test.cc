// The assembled lumped system: f_int and its tangents K = df/dq, D = df/dv against central
// differences at seeded random states for every element type (each case adds one law
// element to a base of springs and dampers between free, prescribed and ground ends);
// stored energy consistent with the force of conservative elements; the discrete gradient
// exact for the energy difference; post-Newton switching with rollback; the work of
// prescribed motions; external forces and matrices.
#include "lumped/lumped_system.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <functional>
#include <random>

#include "laws/bouc_wen.h"
#include "laws/bristle.h"
#include "laws/contact_point.h"
#include "laws/coulomb.h"
#include "laws/dahl_valanis.h"
#include "laws/lugre.h"
#include "laws/normal_laws.h"
#include "laws/viscoelastic.h"

namespace jointdyn::lumped {
namespace {

using std::make_shared;
using time::TimeFunction;

// DOF indices of the base model: four free DOFs and one prescribed.
constexpr int kX1 = 0, kX2 = 1, kY1 = 2, kY2 = 3, kU = 4;

// Four free DOFs (x1, x2: tangential; y1, y2: normal) and a prescribed u(t), with springs
// and dampers to each other, to ground and to u.
LumpedModel BaseModel() {
  LumpedModel m;
  m.dofs = {{"x1", 1.0}, {"x2", 2.0}, {"y1", 0.5}, {"y2", 1.5}, {"u", 0.0}};
  m.dofs[kU].motion = TimeFunction::Sinusoid(1e-3, 2.0, 0.4, 0.0);
  m.springs = {{"k1", kX1, kGround, 10.0},
               {"k12", kX1, kX2, 20.0},
               {"k2u", kX2, kU, 5.0},
               {"ky", kY1, kY2, 1e3}};
  m.dampers = {{"c12", kX1, kX2, 0.3}, {"c2u", kX2, kU, 0.1}};
  return m;
}

FrictionElement Friction(int a, int b, std::shared_ptr<const laws::TangentialLaw> law,
                         NormalSource normal) {
  return {"friction", {a}, {b}, std::move(law), std::move(normal)};
}

NormalSource Pressure(const TimeFunction& p) {
  NormalSource n;
  n.pressure = p;
  return n;
}

NormalSource GapFunction(std::shared_ptr<const laws::NormalLaw> law, const TimeFunction& gap) {
  NormalSource n;
  n.kind = NormalSource::Kind::kGapFunction;
  n.law = std::move(law);
  n.gap = gap;
  return n;
}

NormalSource GapDofs(std::shared_ptr<const laws::NormalLaw> law, int a, int b, double gap0) {
  NormalSource n;
  n.kind = NormalSource::Kind::kGapDofs;
  n.law = std::move(law);
  n.a = a;
  n.b = b;
  n.gap0 = gap0;
  return n;
}

struct Case {
  std::string name;
  std::function<void(LumpedModel&)> add;  // adds the element under test
  double scale = 1e-3;                    // typical displacement change per step [m]
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> Cases() {
  // Friction elements with a 1 N-scale slip limit and stick ranges of about 1e-3 m, so
  // random steps of 1e-3 m mix stick and slip; normal laws at about 1e-3 m penetration.
  const auto coulomb = make_shared<laws::CoulombLaw>(laws::CoulombParams{1e3, 10.0, 0.5}, 1);
  const auto linear = make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{1e4});
  const auto preload =
      make_shared<laws::UnilateralPreloadLaw>(laws::UnilateralPreloadParams{1e3, 0.5});
  const auto ln = make_shared<laws::LankaraniNikraveshLaw>(
      laws::LankaraniNikraveshParams{.k_c = 1e6, .n = 1.5, .d_c = 20.0, .chi = 1e4});
  const TimeFunction penetration = TimeFunction::Sinusoid(2e-4, 3.0, 0.0, -1e-3);
  std::vector<Case> cases;
  cases.push_back({"springs_and_dampers_only", [](LumpedModel&) {}});
  cases.push_back({"coulomb_constant_pressure_between_dofs", [=](LumpedModel& m) {
                     m.friction.push_back(
                         Friction(kX1, kX2, coulomb, Pressure(TimeFunction::Constant(2.0))));
                   }});
  cases.push_back({"dahl_pressure_function_to_ground", [](LumpedModel& m) {
                     m.friction.push_back(Friction(
                         kX1, kGround,
                         make_shared<laws::DahlValanisLaw>(laws::DahlParams{1e3, 5.0, 0.5}, 1),
                         Pressure(TimeFunction::Sinusoid(1.0, 1.0, 0.0, 2.0))));
                   }});
  cases.push_back({"valanis_prescribed_gap", [=](LumpedModel& m) {
                     m.friction.push_back(Friction(kX2, kGround,
                                                   make_shared<laws::DahlValanisLaw>(
                                                       laws::ValanisParams{1e3, 5.0, 0.1, 0.7}, 1),
                                                   GapFunction(linear, penetration)));
                   }});
  cases.push_back({"bouc_wen_to_prescribed_dof", [](LumpedModel& m) {
                     m.friction.push_back(Friction(
                         kX2, kU,
                         make_shared<laws::BoucWenLaw>(laws::BoucWenParams{1e3, 5.0, 0.5, 2.0}, 1),
                         Pressure(TimeFunction::Constant(2.0))));
                   }});
  cases.push_back(
      {"lugre_between_dofs", [](LumpedModel& m) {
         m.friction.push_back(Friction(
             kX1, kX2,
             make_shared<laws::LuGreLaw>(laws::LuGreParams{1e4, 30.0, 0.5, 0.5, 0.75, 1e-2}, 1),
             Pressure(TimeFunction::Constant(2.0))));
       }});
  cases.push_back({"zener_to_ground", [](LumpedModel& m) {
                     m.friction.push_back(Friction(
                         kX1, kGround,
                         make_shared<laws::ViscoelasticLaw>(laws::ZenerParams{50.0, 1e3, 3.0}, 1),
                         Pressure(TimeFunction::Constant(1.0))));
                   }});
  cases.push_back({"bristle_stick_between_dofs", [](LumpedModel& m) {
                     m.friction.push_back(Friction(
                         kX1, kX2,
                         make_shared<laws::BristleLaw>(laws::BristleParams{1e3, 2.0, 5.0}, 1),
                         Pressure(TimeFunction::Constant(2.0))));
                   }});
  cases.push_back({"node_to_node_coulomb_preload", [=](LumpedModel& m) {
                     m.friction.push_back(
                         Friction(kX1, kX2, coulomb, GapDofs(preload, kY1, kY2, -1e-3)));
                   }});
  cases.push_back({"node_to_node_dahl_lankarani_nikravesh_to_prescribed", [=](LumpedModel& m) {
                     // The gap rate enters the pressure, so tau depends on v (D off-diagonal).
                     m.friction.push_back(Friction(
                         kX1, kGround,
                         make_shared<laws::DahlValanisLaw>(laws::DahlParams{1e3, 5.0, 0.5}, 1),
                         GapDofs(ln, kY1, kU, -1e-3)));
                   }});
  // 2D (coupled) friction: slip (q_x1 - q_x2, q_y1 - u) at a given pressure, and
  // (q_x1, q_x2) to ground with the normal law at the pair (y1, y2).
  const auto coulomb_2d = make_shared<laws::CoulombLaw>(laws::CoulombParams{1e3, 10.0, 0.5}, 2);
  cases.push_back({"coulomb_2d_constant_pressure_between_pairs", [=](LumpedModel& m) {
                     m.friction.push_back({"friction_2d",
                                           {kX1, kY1},
                                           {kX2, kU},
                                           coulomb_2d,
                                           Pressure(TimeFunction::Constant(2.0))});
                   }});
  cases.push_back({"node_to_node_2d_coulomb_preload_to_ground", [=](LumpedModel& m) {
                     m.friction.push_back({"friction_2d",
                                           {kX1, kX2},
                                           {kGround, kGround},
                                           coulomb_2d,
                                           GapDofs(preload, kY1, kY2, -1e-3)});
                   }});
  cases.push_back(
      {"node_to_node_2d_lugre_lankarani_nikravesh", [=](LumpedModel& m) {
         m.friction.push_back(
             {"friction_2d",
              {kX1, kY2},
              {kX2, kGround},
              make_shared<laws::LuGreLaw>(laws::LuGreParams{1e4, 30.0, 0.5, 0.5, 0.75, 1e-2}, 2),
              GapDofs(ln, kY1, kU, -1e-3)});
       }});
  cases.push_back({"contact_linear_to_ground", [=](LumpedModel& m) {
                     m.contacts.push_back({"contact", kY1, kGround, -1e-3, linear});
                   }});
  cases.push_back({"contact_lankarani_nikravesh_between_dofs", [=](LumpedModel& m) {
                     m.contacts.push_back({"contact", kY1, kY2, -1e-3, ln});
                   }});
  return cases;
}

// One evaluation of the system's internal force with dense tangents.
struct Evaluation {
  VecX f;
  MatX K, D;
  double energy = 0.0;
};

Evaluation Evaluate(LumpedSystem& system, double t, double dt, const VecX& q, const VecX& v,
                    bool discrete_gradient = false) {
  const time::StepPoint point{
      .t = t, .dt = dt, .q = &q, .v = &v, .discrete_gradient = discrete_gradient};
  Evaluation e;
  time::Matrix k, d;
  const Status status = system.InternalForce(point, e.f, &k, &d);
  EXPECT_TRUE(status.ok) << status.message;
  e.K = k.ToDense();
  e.D = d.ToDense();
  e.energy = system.StoredEnergy();
  return e;
}

VecX Random(std::mt19937& rng, int n, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VecX x(n);
  for (int i = 0; i < n; ++i) x(i) = u(rng);
  return x;
}

// Central differences of f along q (which = 0) or v (which = 1), column by column.
MatX Differences(LumpedSystem& system, double t, double dt, const VecX& q, const VecX& v, int which,
                 double h, bool discrete_gradient = false) {
  MatX result(q.size(), q.size());
  for (int j = 0; j < q.size(); ++j) {
    VecX qp = q, qm = q, vp = v, vm = v;
    (which == 0 ? qp : vp)(j) += h;
    (which == 0 ? qm : vm)(j) -= h;
    result.col(j) = (Evaluate(system, t, dt, qp, vp, discrete_gradient).f -
                     Evaluate(system, t, dt, qm, vm, discrete_gradient).f) /
                    (2 * h);
  }
  return result;
}

class Tangents : public ::testing::TestWithParam<Case> {};

TEST_P(Tangents, MatchCentralDifferencesAtRandomStates) {
  LumpedModel model = BaseModel();
  GetParam().add(model);
  LumpedSystem system(model);
  ASSERT_EQ(system.size(), 4);
  std::mt19937 rng(20240611);
  const double scale = GetParam().scale, dt = 1e-3;
  double t = 0.0;
  VecX q = VecX::Zero(4);
  for (int step = 0; step < 6; ++step) {
    // A committed history that is not virgin, then a check at the next step.
    t += dt;
    const VecX v = Random(rng, 4, 0.5);
    q += Random(rng, 4, scale);
    const Evaluation e = Evaluate(system, t, dt, q, v);
    // h: 1e-6 of the step; tangents of order c1 / dt make the rounding error of the
    // differences about 1e-16 * |f| / h, far below the 1e-6 tolerance.
    const MatX k_fd = Differences(system, t, dt, q, v, 0, 1e-6 * scale);
    const MatX d_fd = Differences(system, t, dt, q, v, 1, 1e-6);
    const double k_scale = e.K.cwiseAbs().maxCoeff(), d_scale = 1.0 + e.D.cwiseAbs().maxCoeff();
    EXPECT_LE((e.K - k_fd).cwiseAbs().maxCoeff(), 1e-6 * k_scale) << "step " << step << "\nK =\n"
                                                                  << e.K << "\ndifferences =\n"
                                                                  << k_fd;
    EXPECT_LE((e.D - d_fd).cwiseAbs().maxCoeff(), 1e-6 * d_scale) << "step " << step << "\nD =\n"
                                                                  << e.D << "\ndifferences =\n"
                                                                  << d_fd;
    Evaluate(system, t, dt, q, v);  // the trial of this state, then accept it
    system.Commit();
  }
}

INSTANTIATE_TEST_SUITE_P(EveryElementType, Tangents, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

// Conservative elements only: springs and elastic normal laws (no prescribed motion).
LumpedSystem ConservativeSystem() {
  LumpedModel m;
  m.dofs = {{"a", 1.0}, {"b", 2.0}, {"c", 3.0}};
  m.springs = {{"k1", 0, kGround, 10.0}, {"k12", 0, 1, 20.0}, {"k23", 1, 2, 5.0}};
  m.contacts = {
      {"linear", 0, kGround, -1e-3,
       make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{1e4})},
      {"power", 1, 0, -1e-3,
       make_shared<laws::PowerPenaltyLaw>(laws::PowerPenaltyParams{1e8, 2.5})},
      {"joint_exponential", 2, 1, -5e-4,
       make_shared<laws::JointExponentialLaw>(laws::JointExponentialParams{1e4, 2e3, 0.0})},
      {"quadratic_linear", 2, kGround, -1e-3,
       make_shared<laws::QuadraticLinearLaw>(laws::QuadraticLinearParams{1e4, 0.0, -5e-4})}};
  return LumpedSystem(m);
}

TEST(StoredEnergy, ItsGradientIsTheInternalForceOfConservativeElements) {
  LumpedSystem system = ConservativeSystem();
  std::mt19937 rng(7);
  const VecX v = VecX::Zero(3);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX q = Random(rng, 3, 1.5e-3);  // crosses the contact onsets
    const VecX f = Evaluate(system, 0.1, 1e-3, q, v).f;
    const double h = 1e-9;
    for (int j = 0; j < 3; ++j) {
      VecX qp = q, qm = q;
      qp(j) += h;
      qm(j) -= h;
      const double gradient =
          (Evaluate(system, 0.1, 1e-3, qp, v).energy - Evaluate(system, 0.1, 1e-3, qm, v).energy) /
          (2 * h);
      EXPECT_NEAR(gradient, f(j), 1e-6 * (1.0 + f.cwiseAbs().maxCoeff())) << "DOF " << j;
    }
  }
}

TEST(DiscreteGradient, GivesTheEnergyDifferenceExactly) {
  LumpedSystem system = ConservativeSystem();
  std::mt19937 rng(11);
  const VecX v = VecX::Zero(3);
  VecX q = Random(rng, 3, 1e-3);
  double energy = Evaluate(system, 0.0, 1e-3, q, v).energy;
  system.Commit();
  // Large steps (difference quotients) and tiny ones (the midpoint fallback, exact to
  // O(step^2) relative).
  for (const double step : {1e-3, 3e-4, 1e-5, 1e-12}) {
    for (int trial = 0; trial < 3; ++trial) {
      const VecX q_next = q + Random(rng, 3, step);
      const Evaluation e = Evaluate(system, 0.0, 1e-3, q_next, v, true);
      const double work = e.f.dot(q_next - q);
      // Rounding: the energies (a few J) carry a few ulp each, so their difference does;
      // the difference quotients are exact to about 1e-9 relative (kRelativeStep).
      const double rounding = 8 * DBL_EPSILON * std::max(std::abs(e.energy), std::abs(energy));
      EXPECT_NEAR(work, e.energy - energy, rounding + 1e-9 * std::abs(work))
          << "step " << step << " trial " << trial;
      // The tangent of the discrete gradient against central differences.
      const MatX k_fd =
          Differences(system, 0.0, 1e-3, q_next, v, 0, 1e-3 * std::max(step, 1e-9), true);
      if (step >= 1e-5) {
        EXPECT_LE((e.K - k_fd).cwiseAbs().maxCoeff(), 1e-5 * e.K.cwiseAbs().maxCoeff())
            << "step " << step << "\nK =\n"
            << e.K << "\ndifferences =\n"
            << k_fd;
      }
      Evaluate(system, 0.0, 1e-3, q_next, v, true);  // the trial at q_next again, accepted
      system.Commit();
      q = q_next;
      energy = e.energy;
    }
  }
}

TEST(DiscreteGradient, SpringsGiveTheMidpointForce) {
  LumpedModel m;
  m.dofs = {{"a", 1.0}};
  m.springs = {{"k", 0, kGround, 10.0}};
  LumpedSystem system(m);
  const VecX v = VecX::Zero(1), q0 = VecX::Constant(1, 0.2), q1 = VecX::Constant(1, 0.5);
  Evaluate(system, 0.0, 0.1, q0, v);
  system.Commit();
  const Evaluation e = Evaluate(system, 0.1, 0.1, q1, v, true);
  EXPECT_DOUBLE_EQ(e.f(0), 10.0 * 0.35);
  EXPECT_DOUBLE_EQ(e.K(0, 0), 5.0);
  EXPECT_DOUBLE_EQ(e.energy, 0.5 * 10.0 * 0.25);
}

// Seed 002 bristle law: switching happens in PostNewtonUpdate only, and Rollback() (the
// integrator's rejected attempt) restarts from the committed history.
TEST(PostNewton, BristleSwitchesOutsideNewtonAndRollsBack) {
  LumpedModel m;
  m.dofs = {{"x", 1.0}};
  m.friction.push_back(
      Friction(0, kGround, make_shared<laws::BristleLaw>(laws::BristleParams{1e5, 0.0, 1.0}, 1),
               Pressure(TimeFunction::Constant(1.0))));
  LumpedSystem system(m);
  const VecX v = VecX::Zero(1);
  const auto x = [](double value) { return VecX::Constant(1, value); };
  const auto pass = [&](double t, double dt, double q) {
    const VecX position = x(q);
    return system.PostNewtonUpdate({.t = t, .dt = dt, .q = &position, .v = &v});
  };
  // Undefined state: no traction (mu_v = 0); the post-Newton step anchors the stick spring.
  EXPECT_EQ(Evaluate(system, 1e-3, 1e-3, x(2e-6), v).f(0), 0.0);
  EXPECT_DOUBLE_EQ(pass(1e-3, 1e-3, 2e-6), 1.0);  // | |f_lin| - mu p | with f_lin = 0
  EXPECT_EQ(Evaluate(system, 1e-3, 1e-3, x(2e-6), v).f(0), 0.0);
  EXPECT_EQ(pass(1e-3, 1e-3, 2e-6), 0.0);
  system.Commit();
  // Stick beyond the limit: 1e5 * 1.8e-5 = 1.8 N, switched to slip: mu p = 1 N.
  EXPECT_NEAR(Evaluate(system, 2e-3, 1e-3, x(2e-5), v).f(0), 1.8, 1e-12);
  EXPECT_NEAR(pass(2e-3, 1e-3, 2e-5), 0.8, 1e-12);
  EXPECT_DOUBLE_EQ(Evaluate(system, 2e-3, 1e-3, x(2e-5), v).f(0), 1.0);
  EXPECT_EQ(pass(2e-3, 1e-3, 2e-5), 0.0);
  // A rejected attempt starts again from the committed (stick) history after Rollback(),
  // also for a cut step (dt halved).
  system.Rollback();
  EXPECT_NEAR(Evaluate(system, 2e-3, 1e-3, x(2e-5), v).f(0), 1.8, 1e-12);
  EXPECT_NEAR(pass(2e-3, 1e-3, 2e-5), 0.8, 1e-12);
  EXPECT_DOUBLE_EQ(Evaluate(system, 2e-3, 1e-3, x(2e-5), v).f(0), 1.0);
  system.Rollback();
  EXPECT_NEAR(Evaluate(system, 1.5e-3, 5e-4, x(2e-5), v).f(0), 1.8, 1e-12);
}

TEST(Commit, TrialsDoNotTouchTheCommittedHistory) {
  LumpedModel model = BaseModel();
  Cases()[1].add(model);  // Coulomb between x1 and x2
  LumpedSystem system(model);
  const VecX v = VecX::Zero(4);
  const VecX a = (VecX(4) << 3e-3, -1e-3, 0.0, 0.0).finished();  // slips: 4e-3 > 1e-3 range
  const VecX b = (VecX(4) << 1e-3, 0.0, 0.0, 0.0).finished();
  const VecX fresh = Evaluate(system, 1e-3, 1e-3, b, v).f;
  Evaluate(system, 1e-3, 1e-3, a, v);
  EXPECT_EQ(Evaluate(system, 1e-3, 1e-3, b, v).f, fresh);  // the trial at a left no trace
  Evaluate(system, 1e-3, 1e-3, a, v);
  system.Commit();
  EXPECT_NE(Evaluate(system, 1e-3, 1e-3, b, v).f, fresh);  // slipped: the slider moved
}

TEST(PrescribedMotion, ItsWorkIsAccumulatedByTheTrapezoidalRule) {
  // A spring k from a free DOF held at 0 to u(t) = r t: the force at u is k u, so the
  // trapezoidal rule gives the exact work k u^2 / 2; a damper adds c r over the distance u.
  LumpedModel m;
  m.dofs = {{"x", 1.0}, {"u", 0.0}};
  m.dofs[1].motion = TimeFunction::Ramp(0.0, 0.1);
  m.springs = {{"k", 0, 1, 20.0}};
  m.dampers = {{"c", 0, 1, 3.0}};
  LumpedSystem system(m);
  const VecX q = VecX::Zero(1), v = VecX::Zero(1);
  const double dt = 0.01;
  for (int step = 0; step <= 10; ++step) {  // the initial state, then ten steps
    Evaluate(system, step * dt, dt, q, v);
    system.Commit();
  }
  const double u = 0.1 * 10 * dt;
  EXPECT_NEAR(system.prescribed_work(), 20.0 * u * u / 2 + 3.0 * 0.1 * u, 1e-15);
}

TEST(LumpedSystem, MatricesLoadsAndOutputs) {
  LumpedModel model = BaseModel();
  model.loads = {{kX1, TimeFunction::Constant(2.0)},
                 {kX1, TimeFunction::Ramp(0.0, 1.0)},
                 {kY2, TimeFunction::Sinusoid(1.0, 1.0, 0.0, 0.0)}};
  model.dofs[kX2].q0 = 0.25;
  model.dofs[kY1].v0 = -1.0;
  LumpedSystem system(model);
  EXPECT_EQ(system.mass().ToDense(),
            VecX((VecX(4) << 1.0, 2.0, 0.5, 1.5).finished()).asDiagonal().toDenseMatrix());
  const MatX c = system.damping().ToDense();
  EXPECT_EQ(c(0, 0), 0.3);
  EXPECT_EQ(c(1, 1), 0.4);  // c12 + c2u (u is prescribed)
  EXPECT_EQ(c(0, 1), -0.3);
  VecX f;
  system.ExternalForce(0.25, f);
  EXPECT_EQ(f, (VecX(4) << 2.25, 0.0, 0.0, 1.0).finished());
  EXPECT_EQ(system.initial_positions(), (VecX(4) << 0.0, 0.25, 0.0, 0.0).finished());
  EXPECT_EQ(system.initial_velocities(), (VecX(4) << 0.0, 0.0, -1.0, 0.0).finished());

  // Springs and dampers report k (q_a - q_b) and c (v_a - v_b), prescribed ends included.
  const double t = 0.1;
  const VecX q = (VecX(4) << 1.0, 2.0, 3.0, 4.0).finished(), v = VecX::Ones(4);
  const double u = model.dofs[kU].motion->Value(t), u_dot = model.dofs[kU].motion->Rate(t);
  const auto forces = system.ElementForces(t, q, v);
  const auto info = Elements(system.model());
  ASSERT_EQ(forces.size(), 6u);
  EXPECT_EQ(info[2].name, "k2u");
  EXPECT_DOUBLE_EQ(forces[2].force.x(), 5.0 * (2.0 - u));
  EXPECT_EQ(info[5].kind, ElementKind::kDamper);
  EXPECT_DOUBLE_EQ(forces[5].force.x(), 0.1 * (1.0 - u_dot));
  // ... and f_int holds the damper force of the prescribed velocity (C v adds the rest).
  const Evaluation e = Evaluate(system, t, 1e-3, q, v);
  EXPECT_DOUBLE_EQ(e.f(kX2), 20.0 + 5.0 * (2.0 - u) - 0.1 * u_dot);
}

TEST(LumpedSystem, ALawFailureNamesTheElement) {
  LumpedModel m;
  m.dofs = {{"x", 1.0}};
  m.contacts.push_back({"stop", 0, kGround, 0.0,
                        make_shared<laws::ExponentialLaw>(laws::ExponentialParams{1e6, 1e-6})});
  LumpedSystem system(m);
  VecX f;
  const VecX q = VecX::Constant(1, -1.0), v = VecX::Zero(1);  // exp(1e6): overflow
  const Status status =
      system.InternalForce({.t = 0.5, .dt = 1e-3, .q = &q, .v = &v}, f, nullptr, nullptr);
  EXPECT_FALSE(status.ok);
  EXPECT_EQ(status.message.rfind("element 'stop': normal law 'exponential' gave a non-finite", 0),
            0u)
      << status.message;
  EXPECT_NE(status.message.find(" at t = 0.5 s"), std::string::npos) << status.message;
}

}  // namespace
}  // namespace jointdyn::lumped
