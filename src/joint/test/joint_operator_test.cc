#include "joint/joint_operator.h"

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <numbers>
#include <random>

#include "core/error.h"
#include "fe/contact_surface.h"
#include "joint/contact_kinematics.h"
#include "joint/test/joint_test_util.h"
#include "laws/coulomb.h"
#include "laws/normal_laws.h"
#include "laws/viscoelastic.h"

namespace jointdyn::joint {
namespace {

// Two 1 x 1 x 0.5 m boxes touching on a non-matching interface (3 x 3 master faces, 4 x 4
// slave faces): 25 pairs, most of them node-to-segment.
ContactKinematics Interface(const fe::Mesh& mesh) {
  const fe::PairingResult pairing =
      fe::PairSurfaces(mesh, fe::SurfaceFromFaceSet(mesh, "upper_zmin"),
                       fe::SurfaceFromFaceSet(mesh, "lower_zmax"), {.search_distance = 0.1});
  return BuildContactKinematics(mesh, pairing);
}

fe::Mesh TwoBoxes() {
  return test::StackBoxes({.size = Vec3(1.0, 1.0, 0.5), .divisions = {3, 3, 1}},
                          {.size = Vec3(1.0, 1.0, 0.5), .divisions = {4, 4, 1}}, 0.0);
}

// Moderate units so that every branch shows up: penetration ~1e-3 m gives p ~ 1e3 Pa and a
// slip limit mu p ~ 300 Pa, reached at slips ~3e-3 m with c1 = 1e5 Pa/m.
JointLaws Laws(bool friction) {
  JointLaws laws{
      .normal = std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{.eps = 1e6})};
  if (friction)
    laws.tangential =
        std::make_shared<laws::CoulombLaw>(laws::CoulombParams{.c1 = 1e5, .c2 = 1e3, .mu = 0.3}, 2);
  return laws;
}

// A state whose pairs are open, sticking and slipping: the upper body's nodes move by
// random normal displacements in [-2, 1] mm and tangential ones in [-3, 3] mm.
VecX RandomState(const fe::Mesh& mesh, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> normal(-2e-3, 1e-3), tangential(-3e-3, 3e-3);
  VecX u = VecX::Zero(3 * mesh.num_nodes());
  for (int node = 0; node < mesh.num_nodes(); ++node) {
    u(3 * node) = tangential(rng);
    u(3 * node + 1) = tangential(rng);
    u(3 * node + 2) = normal(rng);
  }
  return u;
}

std::map<laws::ContactState, int> CountStates(const JointOperator& joint) {
  std::map<laws::ContactState, int> counts;
  for (int i = 0; i < joint.num_pairs(); ++i) ++counts[joint.Output(i).state];
  return counts;
}

VecX ForcesAt(JointOperator& joint, const VecX& x, const VecX* velocity = nullptr) {
  EXPECT_TRUE(joint.Evaluate(x, velocity, 1e-3).ok);
  VecX f;
  joint.Forces(f);
  return f;
}

// Central differences of the forces, column by column, at x (velocity: differences in
// the velocity instead).
MatX CentralDifferences(JointOperator& joint, const VecX& x, double h, bool in_velocity,
                        const VecX& velocity) {
  MatX j(joint.size(), joint.size());
  for (int k = 0; k < joint.size(); ++k) {
    VecX xp = in_velocity ? velocity : x, xm = xp;
    xp(k) += h;
    xm(k) -= h;
    const VecX fp = in_velocity ? ForcesAt(joint, x, &xp) : ForcesAt(joint, xp, &velocity);
    const VecX fm = in_velocity ? ForcesAt(joint, x, &xm) : ForcesAt(joint, xm, &velocity);
    j.col(k) = (fp - fm) / (2.0 * h);
  }
  return j;
}

TEST(JointOperator, JacobianMatchesCentralDifferencesWithHistory) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  JointOperator joint(k.relative, k.initial_gap, k.area, Laws(true));
  // History: commit a first state (offsets of pairs open there, slider positions), then
  // differentiate at a second one.
  ASSERT_TRUE(joint.Evaluate(RandomState(mesh, 1)).ok);
  joint.Commit();
  const VecX u = RandomState(mesh, 2);
  ASSERT_TRUE(joint.Evaluate(u).ok);
  const auto counts = CountStates(joint);
  EXPECT_GT(counts.at(laws::ContactState::kOpen), 2);
  EXPECT_GT(counts.at(laws::ContactState::kStick), 2);
  EXPECT_GT(counts.at(laws::ContactState::kSlip), 2);
  solvers::SparseMatrix analytic;
  joint.Jacobian(analytic);
  // Piecewise-smooth forces: h = 1e-8 m is far below the distance of these states to a
  // switching surface (slips and gaps ~1e-3 m); the truncation error of the central
  // difference vanishes on the piecewise-linear (stick, penalty) parts and is ~h^2 f''' in
  // slip, rounding ~1e-16 |f| / h.
  const MatX numeric = CentralDifferences(joint, u, 1e-8, false, VecX::Zero(u.size()));
  const MatX dense(analytic);
  const double error =
      (dense - numeric).lpNorm<Eigen::Infinity>() / dense.lpNorm<Eigen::Infinity>();
  std::cout << "friction joint: open/stick/slip " << counts.at(laws::ContactState::kOpen) << "/"
            << counts.at(laws::ContactState::kStick) << "/" << counts.at(laws::ContactState::kSlip)
            << ", Jacobian vs central differences " << error << " (relative max norm)\n";
  EXPECT_LT(error, 1e-6);
  // With friction the tangent is unsymmetric (d tau / d p in slip).
  EXPECT_FALSE(joint.symmetric_tangent());
  EXPECT_GT((dense - dense.transpose()).lpNorm<Eigen::Infinity>(),
            1e-3 * dense.lpNorm<Eigen::Infinity>());
}

TEST(JointOperator, ForcesAreThePairTractionsTimesAreasAndSelfEquilibrated) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  JointOperator joint(k.relative, k.initial_gap, k.area, Laws(true));
  const VecX f = ForcesAt(joint, RandomState(mesh, 3));
  // The joint's forces cancel over both bodies (actio = reactio, weights sum to 1).
  Vec3 sum = Vec3::Zero();
  for (int node = 0; node < mesh.num_nodes(); ++node) sum += f.segment<3>(3 * node);
  EXPECT_LT(sum.norm(), 1e-12 * f.lpNorm<Eigen::Infinity>());
  // The upper (slave) body receives + A p n minus the friction: in z, f_z = -sum A_i p_i.
  double slave_z = 0.0;
  for (const fe::ElementBlock& b : mesh.blocks) {
    if (b.name != "upper") continue;
    std::vector<int> nodes(b.connectivity);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    for (int node : nodes) slave_z += f(3 * node + 2);
  }
  EXPECT_GT(joint.NormalForce(), 0.0);
  EXPECT_NEAR(slave_z, -joint.NormalForce(), 1e-12 * joint.NormalForce());
}

TEST(JointOperator, RateJacobianMatchesCentralDifferencesInTheVelocity) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  // Lankarani-Nikravesh with damping: p depends on the gap rate; Coulomb through p.
  JointLaws laws = Laws(true);
  laws.normal = std::make_shared<laws::LankaraniNikraveshLaw>(
      laws::LankaraniNikraveshParams{.k_c = 1e6, .n = 1.5, .d_c = 1e3, .chi = 0.0});
  JointOperator joint(k.relative, k.initial_gap, k.area, laws);
  const VecX u = RandomState(mesh, 4);
  const VecX v = 0.1 * RandomState(mesh, 5);
  ASSERT_TRUE(joint.Evaluate(u, &v, 1e-3).ok);
  solvers::SparseMatrix analytic;
  joint.Jacobian(analytic, Derivative::kVelocity);
  const MatX dense(analytic);
  const MatX numeric = CentralDifferences(joint, u, 1e-7, true, v);
  const double error =
      (dense - numeric).lpNorm<Eigen::Infinity>() / dense.lpNorm<Eigen::Infinity>();
  std::cout << "rate Jacobian vs central differences " << error << "\n";
  EXPECT_LT(error, 1e-6);
}

TEST(JointOperator, ReducedWithIdentityBasisEqualsFullAndProjectsAnyBasis) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  const int n = k.relative.cols();
  JointOperator full(k.relative, k.initial_gap, k.area, Laws(true));
  JointOperator identity(k.relative.Compose(MatX(MatX::Identity(n, n))), k.initial_gap, k.area,
                         Laws(true));
  ASSERT_FALSE(identity.relative().is_sparse());
  for (JointOperator* joint : {&full, &identity}) {
    ASSERT_TRUE(joint->Evaluate(RandomState(mesh, 6)).ok);
    joint->Commit();
  }
  const VecX u = RandomState(mesh, 7);
  const VecX f_full = ForcesAt(full, u), f_identity = ForcesAt(identity, u);
  solvers::SparseMatrix j_full;
  MatX j_identity;
  full.Jacobian(j_full);
  identity.Jacobian(j_identity);
  // Same sums in another order: rounding only.
  EXPECT_LT((f_full - f_identity).lpNorm<Eigen::Infinity>(),
            1e-13 * f_full.lpNorm<Eigen::Infinity>());
  EXPECT_LT((MatX(j_full) - j_identity).lpNorm<Eigen::Infinity>(),
            1e-13 * j_identity.lpNorm<Eigen::Infinity>());

  // A random basis V (n x 12): f_red(q) = V^T f(V q), J_red = V^T J(V q) V.
  std::mt19937 rng(8);
  std::normal_distribution<double> normal;
  MatX v(n, 12);
  for (double& entry : v.reshaped()) entry = normal(rng);
  JointOperator reduced(k.relative.Compose(v), k.initial_gap, k.area, Laws(true));
  JointOperator fresh(k.relative, k.initial_gap, k.area, Laws(true));
  VecX q(12);
  for (double& entry : q) entry = 2e-4 * normal(rng);
  const VecX f_reduced = ForcesAt(reduced, q), f_expanded = ForcesAt(fresh, v * q);
  MatX j_reduced;
  reduced.Jacobian(j_reduced);
  fresh.Jacobian(j_full);
  EXPECT_GT(reduced.CountInContact(), 0);
  EXPECT_LT((f_reduced - v.transpose() * f_expanded).lpNorm<Eigen::Infinity>(),
            1e-12 * f_reduced.lpNorm<Eigen::Infinity>());
  EXPECT_LT((j_reduced - v.transpose() * j_full * v).lpNorm<Eigen::Infinity>(),
            1e-12 * j_reduced.lpNorm<Eigen::Infinity>());
}

// A reduced copy that takes the full operator's committed history goes on from where the
// full one is: at x = V q it gives V^T f(V q) with that history (a virgin copy does not).
TEST(JointOperator, ReducedCopyTakesTheCommittedHistory) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  const int n = k.relative.cols();
  std::mt19937 rng(11);
  std::normal_distribution<double> normal;
  MatX v(n, 12);
  for (double& entry : v.reshaped()) entry = normal(rng);
  VecX q0(12), q1(12);
  for (double& entry : q0) entry = 3e-4 * normal(rng);
  for (double& entry : q1) entry = 3e-4 * normal(rng);
  JointOperator full(k.relative, k.initial_gap, k.area, Laws(true));
  ASSERT_TRUE(full.Evaluate(v * q0).ok);
  ASSERT_GT(CountStates(full)[laws::ContactState::kSlip], 0);
  full.Commit();
  JointOperator reduced(k.relative.Compose(v), k.initial_gap, k.area, Laws(true));
  const VecX virgin = ForcesAt(reduced, q1);
  reduced.CopyHistory(full);
  const VecX f_reduced = ForcesAt(reduced, q1), f_full = ForcesAt(full, v * q1);
  EXPECT_LT((f_reduced - v.transpose() * f_full).lpNorm<Eigen::Infinity>(),
            1e-12 * f_reduced.lpNorm<Eigen::Infinity>());
  EXPECT_GT((virgin - f_reduced).lpNorm<Eigen::Infinity>(),
            1e-3 * f_reduced.lpNorm<Eigen::Infinity>());
  EXPECT_EQ(reduced.openings(), 0);
}

TEST(JointOperator, RollbackIsNotCommittingAndOpenPairsRestartFromZeroSlip) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  JointOperator joint(k.relative, k.initial_gap, k.area, Laws(true));
  const VecX u0 = RandomState(mesh, 9), u1 = RandomState(mesh, 10);
  const VecX f0 = ForcesAt(joint, u0);
  ForcesAt(joint, u1);  // a trial that is not committed
  EXPECT_EQ(ForcesAt(joint, u0), f0);

  // The upper body lifted and shifted: all pairs open; commit (the offsets follow), then
  // pressed down with the same tangential shift: zero slip, zero friction, stick.
  VecX u = VecX::Zero(k.relative.cols());
  const std::vector<int>& upper = mesh.blocks[1].connectivity;
  for (int node : upper) u.segment<3>(3 * node) = Vec3(4e-3, -1e-3, 1e-3);  // open
  ASSERT_TRUE(joint.Evaluate(u).ok);
  EXPECT_EQ(joint.CountInContact(), 0);
  joint.Commit();
  for (int node : upper) u(3 * node + 2) = -1e-3;  // closed, same tangential shift
  ASSERT_TRUE(joint.Evaluate(u).ok);
  EXPECT_EQ(joint.CountInContact(), joint.num_pairs());
  for (int i = 0; i < joint.num_pairs(); ++i) {
    const PairOutput out = joint.Output(i);
    ASSERT_EQ(out.state, laws::ContactState::kStick);
    ASSERT_NEAR(out.s1, 0.0, 1e-18);
    ASSERT_NEAR(out.friction_stress(), 0.0, 1e-9);
    ASSERT_NEAR(out.pressure, 1e6 * 1e-3, 1e-6);  // eps * penetration
  }
}

// Pairs that open drop the tangential energy their laws held: pressed and shifted (stick
// springs and the parallel spring c2 loaded), committed, then lifted: every pair counts one
// opening and drops the stick and c2 spring energies (not the penalty's).
TEST(JointOperator, CountsOpeningsAndTheLawEnergyTheyDrop) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  JointOperator joint(k.relative, k.initial_gap, k.area, Laws(true));
  VecX u = VecX::Zero(k.relative.cols());
  const std::vector<int>& upper = mesh.blocks[1].connectivity;
  for (int node : upper) u.segment<3>(3 * node) = Vec3(0.0, 0.0, -1e-3);  // closed
  ASSERT_TRUE(joint.Evaluate(u).ok);
  joint.Commit();
  for (int node : upper) u.segment<3>(3 * node) = Vec3(5e-3, 1e-3, -1e-3);  // slides
  ASSERT_TRUE(joint.Evaluate(u).ok);
  joint.Commit();
  EXPECT_EQ(joint.openings(), 0);
  const double stored = joint.StoredEnergy();
  // Per unit area: eps g^2 / 2 = 0.5 J/m^2, c2 |s|^2 / 2 = 0.013 J/m^2, and the slider's
  // stick spring at the slip limit (mu p)^2 / (2 c1) = 0.45 J/m^2.
  EXPECT_NEAR(stored / k.area.sum(), 0.5 + 0.013 + 0.45, 1e-9);
  for (int node : upper) u(3 * node + 2) = 1e-3;  // open
  ASSERT_TRUE(joint.Evaluate(u).ok);
  EXPECT_EQ(joint.openings(), 0);  // not committed yet
  joint.Commit();
  EXPECT_EQ(joint.openings(), joint.num_pairs());
  EXPECT_EQ(joint.Output(0).openings, 1);
  EXPECT_NEAR(joint.Output(0).opening_energy, (0.013 + 0.45) * k.area(0), 1e-12);
  const double tangential = (0.013 + 0.45) * k.area.sum();
  EXPECT_NEAR(joint.opening_energy(), tangential, 1e-12 * tangential);
  joint.Commit();  // open stays open: nothing new
  EXPECT_EQ(joint.openings(), joint.num_pairs());
  joint.ResetHistory();
  EXPECT_EQ(joint.openings(), 0);
  EXPECT_EQ(joint.opening_energy(), 0.0);
}

// A bonded joint (bilateral normal law, elastic tangential law) never opens: lifted and
// shifted, every pair stays closed, pulls the bodies together with eps * lift and resists
// the shift with k * shift, and nothing opens when committed.
TEST(JointOperator, BondedPairsCarryTensionAndNeverOpen) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  JointOperator joint(
      k.relative, k.initial_gap, k.area,
      {.normal = std::make_shared<laws::BondedLaw>(laws::BondedParams{.eps = 1e6}),
       .tangential = std::make_shared<laws::ElasticLaw>(laws::ElasticParams{.k = 1e5}, 2)});
  VecX u = VecX::Zero(k.relative.cols());
  for (int node : mesh.blocks[1].connectivity) u.segment<3>(3 * node) = Vec3(4e-3, -1e-3, 1e-3);
  ASSERT_TRUE(joint.Evaluate(u).ok);
  EXPECT_EQ(joint.CountInContact(), joint.num_pairs());
  for (int i = 0; i < joint.num_pairs(); ++i) {
    const PairOutput out = joint.Output(i);
    ASSERT_EQ(out.state, laws::ContactState::kStick);
    ASSERT_NEAR(out.pressure, -1e6 * 1e-3, 1e-9);  // tension
    ASSERT_NEAR(out.tau1, 1e5 * 4e-3, 1e-9);
    ASSERT_NEAR(out.tau2, -1e5 * 1e-3, 1e-9);
  }
  EXPECT_NEAR(joint.NormalForce(), -1e3 * k.area.sum(), 1e-9);
  joint.Commit();
  EXPECT_EQ(joint.openings(), 0);
}

TEST(JointOperator, TouchingPairsCarryTheClosedSideTangentButNoPressure) {
  const fe::Mesh mesh = TwoBoxes();
  ContactKinematics k = Interface(mesh);
  JointOperator joint(k.relative, k.initial_gap, k.area, Laws(false));
  ASSERT_TRUE(joint.Evaluate(VecX::Zero(k.relative.cols())).ok);
  EXPECT_EQ(joint.CountInContact(), 0);
  for (const Mat3& d : joint.tangents()) ASSERT_EQ(d(2, 2), 1e6);  // -dp/dg = eps
  EXPECT_THROW(
      (void)JointOperator(k.relative, k.initial_gap, k.area, Laws(false), {.touch_band = -1.0}),
      InputError);
  EXPECT_THROW((void)JointOperator(k.relative, k.initial_gap, k.area, JointLaws{}), InputError);
}

// StartPeriod: every pair of a virgin (unpreloaded) joint pressed over a period of states
// starts as laws::ContactPair::PeriodicStart on that pair's own rows gives, not from its
// virgin offset.
TEST(JointOperator, StartPeriodAppliesThePairRuleToEachPair) {
  const fe::Mesh mesh = TwoBoxes();
  const ContactKinematics kinematics = Interface(mesh);
  JointOperator joint(kinematics.relative, kinematics.initial_gap, kinematics.area, Laws(true));
  const int n = 8, size = joint.pair().state_size();
  const VecX a = RandomState(mesh, 7), b = RandomState(mesh, 8);
  MatX samples(joint.size(), n);
  for (int j = 0; j < n; ++j) {
    const double theta = 2.0 * std::numbers::pi * j / n;
    samples.col(j) = 0.2 * (std::cos(theta) * a + std::sin(theta) * b);
    for (const int node : mesh.node_sets.at("upper_zmin")) samples(3 * node + 2, j) -= 2e-3;
  }
  joint.StartPeriod(samples);
  VecX z;
  MatX pair_z(n, 3);
  int moved = 0;
  for (int i = 0; i < joint.num_pairs(); ++i) {
    for (int j = 0; j < n; ++j) {
      joint.relative().Apply(samples.col(j), z);
      pair_z.row(j) = z.segment<3>(3 * i).transpose();
    }
    std::vector<double> expected(size);
    joint.pair().InitState(expected);
    ASSERT_TRUE(joint.pair().PeriodicStart(expected, pair_z, joint.initial_gap()(i), nullptr));
    const std::span<const double> got = joint.CommittedHistory(i);
    for (int k = 0; k < size; ++k) EXPECT_DOUBLE_EQ(got[k], expected[k]) << "pair " << i;
    moved += got[joint.pair().law_state_size()] != 0.0 ? 1 : 0;
  }
  EXPECT_EQ(moved, joint.num_pairs());
}

}  // namespace
}  // namespace jointdyn::joint
