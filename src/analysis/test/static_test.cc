// The static analysis against closed forms and exact properties: a cantilever whose tip is
// pushed by a prescribed displacement has the beam-theory reaction, the reactions balance,
// and the tip force equal to that reaction gives back the prescribed displacement
// (reciprocity of the exact elimination); a lap joint with frictionless linear penalty
// contact on touching faces is positively homogeneous: twice the push, twice every
// reaction and gap.
#include "analysis/static.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iostream>
#include <utility>

#include "analysis/test/lap_joint.h"
#include "core/error.h"
#include "laws/normal_laws.h"

namespace jointdyn::analysis {
namespace {

constexpr double kLength = 0.2, kHeight = 0.01;
const fe::ElasticMaterial kSteelNoPoisson{.youngs_modulus = 210e9, .poisson_ratio = 0.0};

// A hex20 cantilever [0, L] x [0, h]^2 clamped at x = 0, its tip face rigidly coupled to
// `tip` at the face centre.
StaticOptions Cantilever() {
  StaticOptions options;
  fe::FeModelSpec& fe = options.fe;
  fe.source = fe::MeshSource::kBox;
  fe.box.size = Vec3(kLength, kHeight, kHeight);
  fe.box.divisions = {16, 2, 2};
  fe.box.type = fe::ElementType::kHex20;
  fe.materials = {{"box", kSteelNoPoisson}};
  fe.reference_nodes = {{"tip", Vec3(kLength, kHeight / 2, kHeight / 2), ""}};
  fe.couplings = {{fe::CouplingKind::kRigid, "tip", "xmax"}};
  fe.supports = {{.set = "xmin"}};
  return options;
}

StaticResult Solve(const StaticOptions& options) {
  StaticObserver quiet;
  StaticResult result = RunStatic(options, quiet);
  EXPECT_TRUE(result.status.ok) << result.status.message;
  return result;
}

TEST(Static, PrescribedTipDisplacementGivesTheBeamTheoryReaction) {
  const double d = 1e-3;  // [m]
  StaticOptions options = Cantilever();
  options.fe.supports.push_back({.set = "tip", .components = {2}});
  options.prescribed = {{.support = 1, .value = {.value = d}}};
  options.steps = 2;
  const StaticResult pushed = Solve(options);
  ASSERT_EQ(pushed.steps.size(), 2u);
  const Reaction& clamp = pushed.steps[1].reactions[0];
  const Reaction& tip = pushed.steps[1].reactions[1];

  // Timoshenko (k = 5/6, nu = 0): d = F L^3 / (3 E I) + F L / (k G A); the support lifts
  // the tip with F. The rigid tip face and the clamped root's restrained warping make the
  // solid slightly stiffer (measured: +0.016 %).
  const double e = kSteelNoPoisson.youngs_modulus, g = kSteelNoPoisson.ShearModulus();
  const double area = kHeight * kHeight, inertia = std::pow(kHeight, 4) / 12.0;
  const double compliance =
      std::pow(kLength, 3) / (3.0 * e * inertia) + kLength / (5.0 / 6.0 * g * area);
  EXPECT_NEAR(tip.force.z(), d / compliance, 0.002 * d / compliance);
  EXPECT_NEAR(pushed.steps[0].reactions[1].force.z(), tip.force.z() / 2, 1e-9 * d / compliance);

  // The reactions balance: forces, and moments about the clamp's centroid (the tip
  // rotates freely: no moment there).
  const double scale = std::abs(tip.force.z());
  EXPECT_LT((clamp.force + tip.force).norm(), 1e-8 * scale);
  EXPECT_EQ(tip.moment.norm(), 0.0);
  const Vec3 total = clamp.moment + (tip.point - clamp.point).cross(tip.force);
  EXPECT_LT(total.norm(), 1e-8 * scale * kLength);
  EXPECT_NEAR(clamp.point.x(), 0.0, 1e-15);

  // Reciprocity: the reaction as a load on the free tip moves it by d.
  StaticOptions loaded = Cantilever();
  loaded.loads = {{.loads = {{.node = "tip", .force = tip.force}}}};
  const StaticResult result = Solve(loaded);
  // The tip face's nodes lie symmetrically about `tip`: their mean uz is the tip's.
  const std::vector<int>& face = result.model.mesh.node_sets.at("xmax");
  double tip_uz = 0.0;
  for (int n : face) tip_uz += result.displacement(3 * n + 2) / static_cast<double>(face.size());
  EXPECT_NEAR(tip_uz, d, 1e-9 * d);
}

// The cantilever's own weight: the clamp carries the weight m g and its moment about the
// clamp, m g at the centroid of the uniform bar (the consistent mass's resultants).
TEST(Static, GravityIsCarriedByTheClamp) {
  StaticOptions options = Cantilever();
  options.fe.materials.at("box").density = 7850.0;
  const Vec3 g(0.0, 0.0, -9.81);
  options.loads = {{.gravity = g}};
  const StaticResult result = Solve(options);
  ASSERT_EQ(result.steps.size(), 1u);
  const Reaction& clamp = result.steps[0].reactions[0];
  const double mass = 7850.0 * kLength * kHeight * kHeight;
  EXPECT_LT((clamp.force + mass * g).norm(), 1e-9 * mass * g.norm());
  const Vec3 centroid(kLength / 2, kHeight / 2, kHeight / 2);
  const Vec3 moment = -(centroid - clamp.point).cross(mass * g);
  EXPECT_LT((clamp.moment - moment).norm(), 1e-9 * moment.norm());
}

// A uniform pressure p on the cantilever's top face is the distributed load q = p h of beam
// theory: the clamp carries q L and its moment, and the tip (mean uz of its face) deflects
// by Timoshenko's q L^4 / (8 E I) + q L^2 / (2 k G A) (the solid is slightly stiffer, as
// under the tip load; measured -0.02 %).
TEST(Static, PressureOnTheTopFaceHasTheBeamTheoryDeflection) {
  const double p = 1e5;  // [Pa]
  StaticOptions options = Cantilever();
  options.loads = {{.pressures = {{.set = "zmax", .pressure = p}}}};
  const StaticResult result = Solve(options);
  ASSERT_EQ(result.steps.size(), 1u);
  const Reaction& clamp = result.steps[0].reactions[0];
  const double q = p * kHeight, total = q * kLength;
  EXPECT_LT((clamp.force - Vec3(0.0, 0.0, total)).norm(), 1e-9 * total);
  EXPECT_NEAR(clamp.moment.y(), -total * kLength / 2, 1e-9 * total * kLength);
  const double e = kSteelNoPoisson.youngs_modulus, g = kSteelNoPoisson.ShearModulus();
  const double area = kHeight * kHeight, inertia = std::pow(kHeight, 4) / 12.0;
  const double deflection = q * std::pow(kLength, 4) / (8.0 * e * inertia) +
                            q * kLength * kLength / (2.0 * 5.0 / 6.0 * g * area);
  const std::vector<int>& face = result.model.mesh.node_sets.at("xmax");
  double tip_uz = 0.0;
  for (int n : face) tip_uz += result.displacement(3 * n + 2) / static_cast<double>(face.size());
  std::cout << "pressure on the cantilever: tip deflection " << tip_uz << " m, Timoshenko "
            << -deflection << " m\n";
  EXPECT_NEAR(tip_uz, -deflection, 0.002 * deflection);
}

// The pressure's nodal forces on a curved hex20 box (z += c x^2: its quad8 faces
// reproduce the parabola exactly): on the closed boundary, no resultant and no moment
// (the surface is watertight); on the top face, -p times its vector area
// (-c lx^2 ly, 0, lx ly) whatever the curvature.
TEST(Static, PressureOnACurvedClosedSurfaceHasNoResultant) {
  StaticOptions options = Cantilever();
  options.fe.box.divisions = {3, 2, 1};
  fe::FeModel model = fe::BuildFeModel(options.fe);
  const double c = 4.0;  // [1/m]: the top rises by c L^2 = 0.16 m over the length
  for (int n = 0; n < model.mesh.num_nodes(); ++n)
    model.mesh.nodes(n, 2) += c * model.mesh.nodes(n, 0) * model.mesh.nodes(n, 0);
  const double p = 1e5;
  std::vector<fe::PressureLoad> all;
  for (const std::string side : {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"})
    all.push_back({.set = side, .pressure = p});
  const auto resultants = [&](const std::vector<fe::PressureLoad>& loads) {
    const VecX f = fe::AssemblePressureLoads(model, loads, "pressures");
    Vec3 force = Vec3::Zero(), moment = Vec3::Zero();
    for (int n = 0; n < model.mesh.num_nodes(); ++n) {
      force += f.segment<3>(3 * n);
      moment += Vec3(model.mesh.nodes.row(n)).cross(Vec3(f.segment<3>(3 * n)));
    }
    return std::pair(force, moment);
  };
  const double scale = p * kLength * kHeight;
  const auto [closed_force, closed_moment] = resultants(all);
  EXPECT_LT(closed_force.norm(), 1e-12 * scale);
  EXPECT_LT(closed_moment.norm(), 1e-12 * scale * kLength);
  const auto [top, top_moment] = resultants({all.back()});
  const Vec3 vector_area(-c * kLength * kLength * kHeight, 0.0, kLength * kHeight);
  EXPECT_LT((top + p * vector_area).norm(), 1e-12 * scale);
  EXPECT_THROW(fe::AssemblePressureLoads(model, {{.set = "nowhere", .pressure = p}}, "pressures"),
               InputError);
}

// The lap joint (analysis/test/lap_joint.h: touching hex8 blocks) with frictionless linear
// penalty contact, its upper block's end pushed down: the solution of a piecewise-linear
// problem whose pieces are cones (g0 = 0) scales with the push.
TEST(Static, FrictionlessLinearPenaltyScalesWithThePush) {
  const auto run = [](double push) {
    StaticOptions options;
    options.fe = testing::LapJoint();
    options.fe.supports.push_back({.set = "tip", .components = {2}});
    options.prescribed = {{.support = 1, .value = {.value = push}}};
    options.joints = {{.contact = "joint",
                       .normal = std::make_shared<laws::LinearPenaltyLaw>(
                           laws::LinearPenaltyParams{.eps = 5e13})}};
    return Solve(options);
  };
  const StaticResult once = run(-1e-5), twice = run(-2e-5);
  ASSERT_EQ(once.steps.size(), 1u);
  ASSERT_EQ(twice.steps.size(), 1u);
  const StaticStep &a = once.steps[0], &b = twice.steps[0];
  EXPECT_GT(a.joints.open_pairs, 0);
  EXPECT_GT(a.joints.slipping_pairs, 0);  // closed (frictionless: "slip")
  EXPECT_EQ(a.joints.open_pairs, b.joints.open_pairs);
  for (size_t s = 0; s < a.reactions.size(); ++s) {
    const double scale = a.reactions[s].force.norm();
    EXPECT_GT(scale, 0.0);
    EXPECT_LT((b.reactions[s].force - 2.0 * a.reactions[s].force).norm(), 1e-10 * scale);
    EXPECT_LT((b.reactions[s].moment - 2.0 * a.reactions[s].moment).norm(), 1e-10 * scale);
  }
  EXPECT_NEAR(b.joints.gap_norm, 2.0 * a.joints.gap_norm, 1e-10 * a.joints.gap_norm);
  EXPECT_NEAR(b.joints.max_pressure, 2.0 * a.joints.max_pressure, 1e-10 * a.joints.max_pressure);
  EXPECT_LT((twice.displacement - 2.0 * once.displacement).lpNorm<Eigen::Infinity>(),
            1e-10 * once.displacement.lpNorm<Eigen::Infinity>());
}

std::string ErrorOf(const StaticOptions& options) {
  try {
    StaticObserver quiet;
    RunStatic(options, quiet);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Static, RejectsPrescriptionsThatCannotHold) {
  StaticOptions options = Cantilever();
  options.fe.supports.push_back({.set = "xmin", .components = {2}});
  options.prescribed = {{.support = 1, .value = {.value = 1e-3}}};
  EXPECT_NE(ErrorOf(options).find("supports[1].value = xmin: node"), std::string::npos)
      << ErrorOf(options);
  EXPECT_NE(ErrorOf(options).find("is held by another support too"), std::string::npos);
  options.prescribed = {{.support = 1, .value = {.value = 1e-3}},
                        {.support = 1, .value = {.value = 2e-3}}};
  EXPECT_EQ(ErrorOf(options), "supports[1].value: is prescribed twice");
  options.prescribed = {{.support = 2}};
  EXPECT_EQ(ErrorOf(options), "prescribed = 2: must index a support");
  options.prescribed = {};
  options.steps = 0;
  EXPECT_EQ(ErrorOf(options), "static.steps = 0: must be >= 1");
}

}  // namespace
}  // namespace jointdyn::analysis

namespace jointdyn::analysis {
namespace {

// Records the mesh displacement of every step.
class Recorder : public StaticObserver {
 public:
  void Step(const StaticStep&, std::span<const joint::JointOperator>,
            const VecX& mesh_displacement) override {
    displacements.push_back(mesh_displacement);
  }
  std::vector<VecX> displacements;
};

// The lap joint's blocks held together by a vertical beam bolt through the overlap
// (testing::BoltedLapJoint), frictionless contact, the lower block clamped. A preload P: the
// bolt force is P, the contact carries P (the vertical equilibrium of the upper block, on
// which only the bolt's axial force and the contact pressure act vertically), the clamp
// nothing (the preload is internal); a next step without load keeps the state and P.
TEST(Static, BoltPreloadIsTheBoltForceAndTheContactForce) {
  const double preload = 1000.0;  // [N]
  StaticOptions options;
  options.fe = testing::BoltedLapJoint();
  options.joints = {
      {.contact = "joint",
       .normal = std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = 5e13})}};
  options.preloads = {{.beam = 0, .force = preload}};
  Recorder recorder;
  const StaticResult result = RunStatic(options, recorder);
  ASSERT_TRUE(result.status.ok) << result.status.message;
  ASSERT_EQ(result.steps.size(), 2u);
  const StaticStep &preloaded = result.steps[0], &next = result.steps[1];
  EXPECT_EQ(preloaded.index, 0);
  EXPECT_NEAR(preloaded.bolt_forces.at(0), preload, 1e-12 * preload);
  EXPECT_NEAR(preloaded.joints.normal_force, preload, 1e-8 * preload);
  EXPECT_LT(preloaded.reactions[0].force.norm(), 1e-8 * preload);

  EXPECT_NEAR(next.bolt_forces.at(0), preload, 1e-8 * preload);
  EXPECT_NEAR(next.joints.normal_force, preload, 1e-8 * preload);
  const VecX& u0 = recorder.displacements.at(0);
  EXPECT_GT(u0.lpNorm<Eigen::Infinity>(), 0.0);
  EXPECT_LT((recorder.displacements.at(1) - u0).lpNorm<Eigen::Infinity>(),
            1e-10 * u0.lpNorm<Eigen::Infinity>());
}

// A preload on a cut section (seed 003 section 4.2 cuts the screw's shank and loads the
// cut): the two faces of the cut (here the lap joint's touching faces, as if the two blocks
// were the halves of a shank) each rigidly coupled to a reference node 1 mm off the cut on
// its own side, joined by a short beam, the beam preloaded. The blocks are clamped at their
// far ends; the section carries P along its axis, and each clamp the same P (the only force
// along z on its block besides the section's), opposite.
TEST(Static, PreloadOnACutSectionIsCarriedByTheClamps) {
  const double preload = 1000.0;  // [N]
  StaticOptions options;
  options.fe = testing::LapJoint();
  options.fe.reference_nodes = {{"cut_upper", Vec3(0.075, 0.025, 0.021), ""},
                                {"cut_lower", Vec3(0.075, 0.025, 0.019), ""}};
  options.fe.couplings = {{fe::CouplingKind::kRigid, "cut_upper", "upper_joint"},
                          {fe::CouplingKind::kRigid, "cut_lower", "lower_joint"}};
  options.fe.contacts.clear();
  options.fe.supports = {{.set = "lower_xmin"}, {.set = "upper_xmax"}};
  options.fe.beams = {{.a = "cut_lower",
                       .b = "cut_upper",
                       .diameter = 8e-3,
                       .material = {.youngs_modulus = 210e9, .poisson_ratio = 0.3}}};
  options.preloads = {{.beam = 0, .force = preload}};
  const StaticResult result = Solve(options);
  ASSERT_TRUE(result.status.ok) << result.status.message;
  const StaticStep& preloaded = result.steps.at(0);
  EXPECT_NEAR(preloaded.bolt_forces.at(0), preload, 1e-12 * preload);
  EXPECT_NEAR(preloaded.reactions[0].force.z(), -preload, 1e-8 * preload);
  EXPECT_NEAR(preloaded.reactions[1].force.z(), preload, 1e-8 * preload);
  EXPECT_LT((preloaded.reactions[0].force + preloaded.reactions[1].force).norm(), 1e-8 * preload);
  EXPECT_NEAR(result.steps.at(1).bolt_forces.at(0), preload, 1e-8 * preload);  // locked
}

// The reduced solution of a linear model is exact: the tip of the cantilever pushed by a
// prescribed displacement (the static lift is its solution with nothing else acting), or
// loaded by a force on its free tip (the load mode K^-1 f); with 3 fixed-interface modes
// and no boundary, reactions and displacements equal the full ones to rounding. The load
// mode is dropped when the load acts on boundary DOFs (their constraint modes span it).
TEST(Static, ReducedLinearModelIsExactForLoadsAndPrescribedSupports) {
  StaticOptions pushed = Cantilever();
  pushed.fe.materials.at("box").density = 7850.0;
  pushed.fe.supports.push_back({.set = "tip", .components = {2}});
  pushed.prescribed = {{.support = 1, .value = {.value = 1e-3}}};
  StaticOptions loaded = Cantilever();
  loaded.fe.materials.at("box").density = 7850.0;
  loaded.loads = {{.loads = {{.node = "tip", .force = Vec3(20.0, -50.0, 300.0)}}}};
  StaticOptions on_boundary = loaded;
  on_boundary.reduction = StaticReduction{.cms = {.boundary = {"tip"}, .vibration_modes = 3}};
  for (StaticOptions& options : {std::ref(pushed), std::ref(loaded)}) {
    const StaticResult full = Solve(options);
    options.reduction = StaticReduction{.cms = {.boundary = options.prescribed.empty()
                                                                ? std::vector<std::string>{"tip"}
                                                                : std::vector<std::string>{},
                                                .vibration_modes = 3}};
    const StaticResult reduced = Solve(options);
    ASSERT_EQ(reduced.steps.size(), 1u);
    EXPECT_EQ(reduced.coordinates, options.prescribed.empty() ? 3 + 6 : 3 + 1) << reduced.basis;
    const double scale = full.displacement.lpNorm<Eigen::Infinity>();
    // Rounding at K's conditioning: 1.2e-10 of the largest displacement measured on one
    // machine, below 1e-10 on another (the BLAS kernels differ).
    EXPECT_LT((reduced.displacement - full.displacement).lpNorm<Eigen::Infinity>(), 1e-9 * scale);
    const Reaction &a = reduced.steps[0].reactions[0], &b = full.steps[0].reactions[0];
    EXPECT_LT((a.force - b.force).norm(), 1e-9 * b.force.norm());
    EXPECT_LT((a.moment - b.moment).norm(), 1e-9 * b.moment.norm());
  }
}

// A nonlinear joint: the lap joint's tip pushed down with frictionless penalty contact.
// The CMS basis alone misses the joint's deformation; joint modes (wPOD of the TVDs of the
// basis and of the prescribed support's lift) bring the reduced solution to the full one
// as their number grows.
TEST(Static, ReducedLapJointApproachesTheFullSolutionWithJointModes) {
  StaticOptions options;
  options.fe = testing::LapJoint();
  options.fe.supports.push_back({.set = "tip", .components = {2}});
  options.prescribed = {{.support = 1, .value = {.value = -2e-5}}};
  const auto law = std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = 5e13});
  options.joints = {{.contact = "joint", .normal = law}};
  const StaticResult full = Solve(options);
  const double scale = full.steps[0].reactions[1].force.norm();
  std::vector<double> errors;
  for (const int g : {0, 3, 6}) {
    StaticReduction reduction{.cms = {.boundary = {"bolt"}, .vibration_modes = 4}};
    if (g > 0) {
      JointModeSpec spec{.contact = "joint", .normal_law = law, .from_ratio = false};
      spec.modes.modes = g;
      reduction.joint_modes = spec;
    }
    options.reduction = reduction;
    const StaticResult reduced = Solve(options);
    ASSERT_EQ(reduced.steps.size(), 1u);
    errors.push_back(
        (reduced.steps[0].reactions[1].force - full.steps[0].reactions[1].force).norm() / scale);
    std::cout << reduced.basis << ": " << reduced.coordinates << " coordinates, tip reaction error "
              << errors.back() << "\n";
  }
  // Measured: 0.11 (CMS), 1.3e-2 (3 joint modes), 4.8e-3 (6).
  EXPECT_LT(errors[1], errors[0]);
  EXPECT_LT(errors[2], errors[1]);
  EXPECT_LT(errors[2], 1e-2);
}

// The reduced preload step: the bolt carries P exactly (its force is the preload by
// construction), and with the bolt's ends as Craig-Bampton's boundary and joint modes of
// the contact, the joint's normal force and the pressures approach the full solution's.
TEST(Static, ReducedPreloadCarriesThePreload) {
  const double preload = 1000.0;  // [N]
  StaticOptions options;
  options.fe = testing::BoltedLapJoint();
  const auto law = std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = 5e13});
  options.joints = {{.contact = "joint", .normal = law}};
  options.preloads = {{.beam = 0, .force = preload}};
  const StaticResult full = Solve(options);
  JointModeSpec spec{.contact = "joint", .normal_law = law, .from_ratio = false};
  spec.modes.modes = 6;
  options.reduction = StaticReduction{.cms = {.boundary = {"head", "nut"}, .vibration_modes = 4},
                                      .joint_modes = spec};
  const StaticResult reduced = Solve(options);
  ASSERT_EQ(reduced.steps.size(), 2u);
  const StaticStep& preloaded = reduced.steps[0];
  EXPECT_NEAR(preloaded.bolt_forces.at(0), preload, 1e-12 * preload);
  const double error =
      std::abs(preloaded.joints.normal_force - full.steps[0].joints.normal_force) / preload;
  std::cout << reduced.basis << ": joint normal force " << preloaded.joints.normal_force
            << " N (full " << full.steps[0].joints.normal_force << " N), error " << error << "\n";
  EXPECT_LT(error, 1e-8);  // measured 8e-15: the bolt's ends are boundary DOFs
  EXPECT_NEAR(reduced.steps[1].bolt_forces.at(0), preload, 1e-8 * preload);
}

}  // namespace
}  // namespace jointdyn::analysis
