// The `analysis: transient` reader: every example reads and its system evaluates; a model
// with every key maps onto the lumped model, the integrator options and the outputs; the
// chain generator; the seed 003 table 4.9 cases and the Den Hartog example encode their
// references. (Running the examples: examples_test.cc, transient_examples_test.cc.)
#include "model/transient_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "core/test/test_paths.h"

namespace jointdyn::model {
namespace {

using lumped::kGround;
using lumped::NormalSource;

std::vector<std::filesystem::path> TransientExamples() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(test_paths::SourceDir() / "examples" / "transient"))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TransientFile ReadFile(const std::filesystem::path& file) {
  const ModelNode root = ModelNode::LoadFile(file.string());
  EXPECT_EQ(root.String("analysis"), "transient");
  return ReadTransient(root);
}

TransientFile ReadText(const std::string& text) {
  const ModelNode root = ModelNode::LoadString("analysis: transient\n" + text, "model.yaml");
  root.String("analysis");
  return ReadTransient(root);
}

class TransientExample : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(TransientExample, ReadsAndEvaluatesAtItsInitialState) {
  const TransientFile model = ReadFile(GetParam());
  lumped::LumpedSystem system(model.options.model);
  ASSERT_GT(system.size(), 0);
  const VecX q = system.initial_positions(), v = system.initial_velocities();
  const auto& o = model.options.integrator;
  VecX f, f_ext;
  time::Matrix k, d;
  const Status status =
      system.InternalForce({.t = o.t_start, .dt = o.dt, .q = &q, .v = &v}, f, &k, &d);
  ASSERT_TRUE(status.ok) << status.message;
  EXPECT_TRUE(f.allFinite());
  system.ExternalForce(o.t_start + o.dt, f_ext);
  EXPECT_TRUE(f_ext.allFinite());
  EXPECT_FALSE(model.plots.empty());
}

INSTANTIATE_TEST_SUITE_P(All, TransientExample, ::testing::ValuesIn(TransientExamples()),
                         [](const auto& info) { return info.param.stem().string(); });

TEST(TransientReader, MapsEveryKey) {
  const TransientFile model = ReadText(R"(
title: every key
dofs: [a, b, n, tip]
masses: {a: 1.0, b: 2.0, n: 0.5}
prescribed: {tip: {type: ramp, value: 0.01, rate: 0.1}}
initial: {q: {a: 0.001}, v: {b: -0.2}}
springs:
  - {a: a, b: tip, k: 2.0}
  - {name: ground_spring, a: b, k: 5.0}
dampers:
  - {a: a, b: b, c: 0.3}
elements:
  - {name: fric, a: a, law: {type: coulomb, c1: 1000, mu: 0.5}, normal: {pressure: 2.0}}
  - a: b
    law: {type: lugre, sigma0: 1.0e5, sigma1: 300, mu_c: 1, mu_s: 1.5, v_s: 1.0e-3}
    normal: {pressure: {type: table, points: [[0, 1], [1, 3]]}}
  - name: n2n
    a: a
    b: b
    law: {type: coulomb, c1: 1.0e4, mu: 0.3}
    normal: {law: {type: unilateral_preload, k_n: 1.0e4, n0: 10}, a: n, gap0: 0.001}
  - name: gap_function
    a: b
    law: {type: dahl, c1: 1000, mu: 0.2}
    normal:
      law: {type: linear, eps: 1.0e5}
      gap: {type: sinusoid, amplitude: 1.0e-4, frequency: 2, mean: -1.0e-4}
  - {name: stop, a: n, normal: {law: {type: power, eps: 1.0e7, m: 1.5}, gap0: 0.002}}
forces:
  - {dof: a, type: force0, f0: 5, period: 0.05}
  - {dofs: all, type: constant, value: 1.0}
gravity: {acceleration: -9.81, dofs: [n]}
integrator:
  scheme: generalized_alpha
  rho_inf: 0.6
  dt: 1.0e-3
  t_end: 2
  adaptive: true
  dt_max: 0.01
  newton: {max_iterations: 12, linear_solver: sparse_lu, reuse_contraction: 0.5}
  post_newton: {tolerance: 1.0e-8, max_passes: 4}
output:
  interval: 0.01
  dofs: [a, tip]
  elements: [fric, stop]
  energy: true
  plots:
    - {columns: [q_a, q_tip]}
    - {file: forces, x: q_a, columns: [f_fric, p_stop]}
)");
  const auto& m = model.options.model;
  EXPECT_EQ(model.options.title, "every key");
  ASSERT_EQ(m.dofs.size(), 4u);
  EXPECT_EQ(m.dofs[1].mass, 2.0);
  EXPECT_EQ(m.dofs[0].q0, 0.001);
  EXPECT_EQ(m.dofs[1].v0, -0.2);
  ASSERT_TRUE(m.dofs[3].motion.has_value());
  EXPECT_DOUBLE_EQ(m.dofs[3].motion->Value(2.0), 0.21);
  EXPECT_FALSE(m.dofs[2].motion.has_value());

  ASSERT_EQ(m.springs.size(), 2u);
  EXPECT_EQ(m.springs[0].name, "spring1");
  EXPECT_EQ(m.springs[0].b, 3);
  EXPECT_EQ(m.springs[1].name, "ground_spring");
  EXPECT_EQ(m.springs[1].b, kGround);
  ASSERT_EQ(m.dampers.size(), 1u);
  EXPECT_EQ(m.dampers[0].name, "damper1");
  EXPECT_EQ(m.dampers[0].c, 0.3);

  ASSERT_EQ(m.friction.size(), 4u);
  EXPECT_EQ(m.friction[0].name, "fric");
  EXPECT_EQ(m.friction[0].normal.kind, NormalSource::Kind::kPressure);
  EXPECT_EQ(m.friction[0].normal.pressure.Value(7.0), 2.0);
  EXPECT_EQ(m.friction[1].name, "element2");
  EXPECT_EQ(m.friction[1].law->type(), "lugre");
  EXPECT_DOUBLE_EQ(m.friction[1].normal.pressure.Value(0.5), 2.0);
  const auto& n2n = m.friction[2];
  EXPECT_EQ(n2n.normal.kind, NormalSource::Kind::kGapDofs);
  EXPECT_EQ(n2n.normal.a, 2);
  EXPECT_EQ(n2n.normal.b, kGround);
  EXPECT_EQ(n2n.normal.gap0, 0.001);
  EXPECT_EQ(n2n.normal.law->type(), "unilateral_preload");
  EXPECT_EQ(m.friction[3].normal.kind, NormalSource::Kind::kGapFunction);
  EXPECT_DOUBLE_EQ(m.friction[3].normal.gap.Value(0.125), 0.0);  // mean + amplitude
  ASSERT_EQ(m.contacts.size(), 1u);
  EXPECT_EQ(m.contacts[0].name, "stop");
  EXPECT_EQ(m.contacts[0].a, 2);
  EXPECT_EQ(m.contacts[0].gap0, 0.002);

  // force0 on a; the constant on the three free DOFs (not on tip); gravity m_n g on n.
  ASSERT_EQ(m.loads.size(), 5u);
  EXPECT_DOUBLE_EQ(m.loads[0].force.Value(0.0125), 2.5);
  EXPECT_EQ(m.loads[3].dof, 2);
  EXPECT_EQ(m.loads[4].dof, 2);
  EXPECT_DOUBLE_EQ(m.loads[4].force.Value(0.0), -9.81 * 0.5);

  const auto& o = model.options.integrator;
  EXPECT_EQ(o.scheme, time::Scheme::kGeneralizedAlpha);
  EXPECT_EQ(o.rho_inf, 0.6);
  EXPECT_EQ(o.dt, 1e-3);
  EXPECT_EQ(o.t_end, 2.0);
  EXPECT_TRUE(o.adaptive);
  EXPECT_EQ(o.dt_max, 0.01);
  EXPECT_EQ(o.dt_min, time::IntegratorOptions{}.dt_min);
  EXPECT_EQ(o.newton.max_iterations, 12);
  EXPECT_EQ(o.newton.linear_solver, solvers::LinearSolverKind::kSparseLU);
  EXPECT_EQ(o.newton.reuse_contraction, 0.5);
  EXPECT_EQ(o.post_newton_tolerance, 1e-8);
  EXPECT_EQ(o.post_newton_max, 4);
  EXPECT_EQ(o.output_interval, 0.01);

  EXPECT_EQ(model.options.Columns(),
            (std::vector<std::string>{"time", "q_a", "v_a", "q_tip", "v_tip", "f_fric", "p_fric",
                                      "p_stop", "E_kinetic", "E_stored", "W_external",
                                      "W_prescribed", "D_viscous", "D_laws", "D_numerical"}));
  ASSERT_EQ(model.plots.size(), 2u);
  EXPECT_EQ(model.plots[0].file, "transient");
  EXPECT_EQ(model.plots[0].title, "every key");
  EXPECT_EQ(model.plots[0].y_label, "displacement [m]");
  EXPECT_EQ(model.plots[1].file, "forces");
  EXPECT_EQ(model.plots[1].x_label, "displacement [m]");
  EXPECT_EQ(model.plots[1].y_label, "force [N]");
}

TEST(TransientReader, DefaultsAndACountOfDofs) {
  const TransientFile model = ReadText(R"(
dofs: 2
masses: {1: 1.0, 2: 3.0}
springs: [{a: 1, b: 2, k: 10}]
integrator: {dt: 0.5, t_end: 10}
)");
  EXPECT_EQ(model.options.model.dofs[1].name, "2");
  EXPECT_EQ(model.options.model.dofs[1].mass, 3.0);
  const auto& o = model.options.integrator;
  EXPECT_EQ(o.scheme, time::Scheme::kHht);
  EXPECT_EQ(o.alpha, time::IntegratorOptions{}.alpha);
  EXPECT_FALSE(o.adaptive);
  EXPECT_EQ(o.dt_max, 0.5);  // the default 0.1 s is raised to dt
  EXPECT_EQ(o.output_interval, 0.0);
  EXPECT_EQ(model.options.Columns(),
            (std::vector<std::string>{"time", "q_1", "v_1", "q_2", "v_2", "f_spring1"}));
  ASSERT_EQ(model.plots.size(), 1u);
  EXPECT_EQ(model.plots[0].columns, (std::vector<std::string>{"q_1", "q_2"}));
}

TEST(TransientReader, ChainGeneratesMassesSpringsAndGroundElements) {
  const TransientFile model = ReadText(R"(
chain:
  count: 5
  mass: 0.2
  spring: 50
  damper: 0.1
  ends: both
  ground: {law: {type: coulomb, c1: 1000, mu: 1}, normal: {pressure: 0.5}}
forces: [{dofs: [1, 5], type: sinusoid, amplitude: 0.2, frequency: 1}]
integrator: {dt: 1.0e-3, t_end: 1}
output: {elements: none}
)");
  const auto& m = model.options.model;
  ASSERT_EQ(m.dofs.size(), 5u);
  EXPECT_EQ(m.dofs[4].name, "5");
  EXPECT_EQ(m.dofs[4].mass, 0.2);
  ASSERT_EQ(m.springs.size(), 6u);  // wall - 1 - 2 - 3 - 4 - 5 - wall
  EXPECT_EQ(m.springs.front().name, "chain_spring_left");
  EXPECT_EQ(m.springs.front().b, kGround);
  EXPECT_EQ(m.springs[1].a, 0);
  EXPECT_EQ(m.springs[1].b, 1);
  EXPECT_EQ(m.springs.back().name, "chain_spring_right");
  EXPECT_EQ(m.springs.back().a, 4);
  EXPECT_EQ(m.dampers.size(), 6u);
  ASSERT_EQ(m.friction.size(), 5u);
  EXPECT_EQ(m.friction[2].name, "chain_ground3");
  EXPECT_EQ(m.friction[2].a, std::vector<int>{2});
  EXPECT_EQ(m.friction[2].b, std::vector<int>{kGround});
  EXPECT_EQ(m.friction[2].law, m.friction[0].law);  // one immutable law, shared
  ASSERT_EQ(m.loads.size(), 2u);
  EXPECT_EQ(m.loads[1].dof, 4);
  EXPECT_TRUE(model.options.output.elements.empty());
}

// Seed 003 table 4.9: R_G = mu p with mu = 1, so the normal force is R_G(t):
// gaping R_G0 / 2 cos(3 pi t / 2) (negative: open), varying that + R_G0, then R_G0 and
// 5 N; R_G0 = 0.15 N. The chain: 100 masses of 0.1 kg, k = 100 N/m, ten excited masses.
TEST(TransientReader, SeedThreeMultiMassCasesEncodeTable49) {
  const auto dir = test_paths::SourceDir() / "examples" / "transient";
  const std::vector<std::pair<std::string, std::function<double(double)>>> cases = {
      {"gaping", [](double t) { return 0.075 * std::cos(1.5 * M_PI * t); }},
      {"varying_rg", [](double t) { return 0.075 * std::cos(1.5 * M_PI * t) + 0.15; }},
      {"sticking_sliding", [](double) { return 0.15; }},
      {"pure_sticking", [](double) { return 5.0; }}};
  for (const auto& [name, r_g] : cases) {
    const TransientFile model = ReadFile(dir / ("multi_mass_" + name + ".yaml"));
    const auto& m = model.options.model;
    ASSERT_EQ(m.dofs.size(), 100u) << name;
    EXPECT_EQ(m.dofs[99].mass, 0.1);
    EXPECT_EQ(m.springs.size(), 100u);
    EXPECT_EQ(m.springs[50].k, 100.0);
    ASSERT_EQ(m.friction.size(), 100u);
    ASSERT_EQ(m.loads.size(), 10u);
    EXPECT_EQ(m.loads[3].dof, 24);  // mass 25
    EXPECT_NEAR(m.loads[3].force.Value(0.25), 0.2, 1e-15);
    for (const double t : {0.0, 0.3, 2.0 / 3.0, 1.1, 4.0}) {
      EXPECT_NEAR(m.friction[7].normal.pressure.Value(t), r_g(t), 1e-15) << name << " t=" << t;
    }
  }
  // Gaping: the element is open while R_G* <= 0 (t = 2/3 s: R_G* = -0.075 N), so with all
  // masses displaced by 1 mm only the wall spring pulls (on mass 1); at t = 0 every ground
  // element slips at R_G0 / 2 + c2 q (c2 = 1 N/m).
  lumped::LumpedSystem system(ReadFile(dir / "multi_mass_gaping.yaml").options.model);
  const VecX q = VecX::Constant(100, 1e-3), v = VecX::Zero(100);
  VecX f;
  ASSERT_TRUE(
      system.InternalForce({.t = 2.0 / 3.0, .dt = 1e-3, .q = &q, .v = &v}, f, nullptr, nullptr));
  EXPECT_NEAR(f(0), 0.1, 1e-15);
  EXPECT_EQ(f.tail(99).cwiseAbs().maxCoeff(), 0.0);
  ASSERT_TRUE(system.InternalForce({.t = 0.0, .dt = 1e-3, .q = &q, .v = &v}, f, nullptr, nullptr));
  EXPECT_NEAR(f(50), 0.075 + 1e-3, 1e-15);
}

// Den Hartog's closed form for m x'' + k x + F sgn(x') = P cos(omega t + phi) (no stops):
// X = sqrt(D^2 - (F U / k)^2), D = P / (k - m omega^2), U = sin(pi / beta) /
// (beta (1 + cos(pi / beta))), and x = -X at rest when the force phase phi has
// D cos(phi) = -X, D sin(phi) = F U / k (from the half-period solution with x(0) = -X,
// x(T/2) = X and zero velocities at both ends).
struct DenHartog {
  double amplitude, phase;
};
DenHartog DenHartogSteadyState(double m, double k, double p, double f, double omega) {
  const double beta = omega / std::sqrt(k / m), theta = M_PI / beta;
  const double d = p / (k - m * omega * omega);
  const double s = f / k * std::sin(theta) / (beta * (1.0 + std::cos(theta)));
  const double x = std::sqrt(d * d - s * s);
  return {x, std::atan2(s / d, -x / d)};
}

TEST(TransientReader, DenHartogExampleStartsOnTheExactSteadyState) {
  const TransientFile model =
      ReadFile(test_paths::SourceDir() / "examples" / "transient" / "den_hartog_coulomb.yaml");
  const auto& m = model.options.model;
  const double k = m.springs[0].k, omega = 2 * M_PI * 1.5;
  const DenHartog exact = DenHartogSteadyState(m.dofs[0].mass, k, 1.0, 0.3, omega);
  EXPECT_NEAR(exact.amplitude, 0.018265936145657604, 1e-15);  // the documented value
  EXPECT_NEAR(m.dofs[0].q0, -exact.amplitude, 1e-15);
  for (const double t : {0.0, 0.1, 0.37, 2.9})
    EXPECT_NEAR(m.loads[0].force.Value(t), std::cos(omega * t + exact.phase), 1e-13) << t;
  EXPECT_EQ(m.friction[0].normal.pressure.Value(0.0), 0.3);
}

}  // namespace
}  // namespace jointdyn::model
