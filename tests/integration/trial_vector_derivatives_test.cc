// Trial vector derivatives on two touching plates (joint_test_model.h): against finite
// differences of the basis under the same contact stiffness (first-order convergence), the
// static equation K_c Phi_T = F, the column order with and without focus columns, the
// direction dependence of eq. 3.46, blocked against one-at-a-time solves, zero deflections
// and option checks.
#include "reduction/trial_vector_derivatives.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <vector>

#include "joint_test_model.h"

namespace jointdyn::reduction {
namespace {

using test::JointedPlates;

const JointedPlates& Plates() {
  static const JointedPlates model = test::MakeJointedPlates();
  return model;
}

TvdResult Tvds(const JointedPlates& model, const std::vector<int>& focus = {},
               const TvdOptions& options = {}, const TangentialStiffness& tangential = {}) {
  return ComputeTrialVectorDerivatives(model.cb.basis.vectors, model.normals, model.zero_gap,
                                       model.Stiffness(), *model.cb.interior_factor,
                                       model.cb.interior_dofs, focus, options, tangential);
}

// The sticking stiffness of the seed's friction bar (1e4 N/mm^3) on every pair's area.
TangentialStiffness Sticking(const JointedPlates& model) {
  return {.tangents = model.tangents, .stiffness = 1e13 * model.area};
}

// The rows `rows` of a.
MatX Rows(const MatX& a, const std::vector<int>& rows) {
  MatX out(rows.size(), a.cols());
  for (std::size_t r = 0; r < rows.size(); ++r) out.row(r) = a.row(rows[r]);
  return out;
}

int ColumnIndex(int i, int j, int k, int m) { return (j * 2 + (k + 1) / 2) * m + i; }

TEST(TrialVectorDerivatives, SolveTheStaticEquationInTheDocumentedOrder) {
  const JointedPlates& model = Plates();
  const int m = model.cb.basis.size();
  ASSERT_EQ(m, 10);
  const TvdResult tvd = Tvds(model);
  ASSERT_TRUE(tvd.status) << tvd.status.message;
  ASSERT_EQ(tvd.derivatives.cols(), 2 * m * m);
  EXPECT_EQ(tvd.solves, 2 * m * m);
  ASSERT_EQ(tvd.columns.size(), 2u * m * m);
  ASSERT_EQ(tvd.contact_pairs.size(), 2u * m);
  for (int j = 0; j < m; ++j) {
    for (int k = -1; k <= 1; k += 2) {
      for (int i = 0; i < m; ++i) {
        const TvdColumn& c = tvd.columns[ColumnIndex(i, j, k, m)];
        EXPECT_TRUE(c.i == i && c.j == j && c.direction == k) << i << " " << j << " " << k;
      }
    }
  }
  // K_c Phi_T = F on the free rows, to rounding (K_c is factored once, so the residual is
  // the factor's backward error: eps times the condition number at most).
  const MatX phi = Rows(tvd.derivatives, model.cb.interior_dofs);
  const MatX f = Rows(tvd.forces, model.cb.interior_dofs);
  const double residual = (model.k_c * phi - f).norm() / f.norm();
  std::printf("|K_c Phi_T - F| / |F| = %.2e, |F| = %.3e\n", residual, f.norm());
  EXPECT_LT(residual, 1e-11);
  // Zero on the held (boundary) rows.
  for (int r = 0; r < model.cb.num_dofs; ++r) {
    if (!std::binary_search(model.cb.interior_dofs.begin(), model.cb.interior_dofs.end(), r)) {
      EXPECT_EQ(tvd.derivatives.row(r).cwiseAbs().maxCoeff(), 0.0);
      EXPECT_EQ(tvd.forces.row(r).cwiseAbs().maxCoeff(), 0.0);
    }
  }
  // Deflections without contact: the vectors that move both plates alike (rounding only).
  std::printf("zero deflections: %d of %d\n", tvd.zero_deflections, 2 * m);
  EXPECT_EQ(tvd.zero_deflections,
            std::count(tvd.contact_pairs.begin(), tvd.contact_pairs.end(), 0));
  EXPECT_LT(tvd.zero_deflections, m);
  EXPECT_GT(tvd.solves_per_second(), 0.0);
}

// dK fixed to the contact stiffness of the deflection (k, j): phi_i(h) solves (K_c + h dK)
// phi_i(h) = K_c phi_i on the free rows; its difference quotient tends to the TVD as
// h K_c^-1 dK K_c^-1 dK phi_i (first order). dK is built here from the header's
// definition, with the tangential stiffness of the closed pairs when it is given.
void ExpectFiniteDifferencesToFirstOrder(const TangentialStiffness& tangential) {
  const JointedPlates& model = Plates();
  const int m = model.cb.basis.size();
  const TvdResult tvd = Tvds(model, {}, {}, tangential);
  ASSERT_TRUE(tvd.status) << tvd.status.message;
  const std::vector<int>& rows = model.cb.interior_dofs;
  const MatX k_c = MatX(model.k_c);
  const MatX n_free = Rows(MatX(model.normals).transpose(), rows).transpose();   // pairs x ni
  const MatX t_free = Rows(MatX(model.tangents).transpose(), rows).transpose();  // 2 pairs x ni
  const MatX basis = Rows(model.cb.basis.vectors, rows);
  double worst_order_gap = 0.0;
  int checked = 0;
  // Four deflections with contact, each differentiating another basis vector.
  std::vector<int> moving;  // basis vectors with normal motion in the joint
  for (int j = 0; j < m; ++j) {
    if (tvd.contact_pairs[2 * j] + tvd.contact_pairs[2 * j + 1] > 0) moving.push_back(j);
  }
  ASSERT_GE(moving.size(), 4u);
  std::vector<std::tuple<int, int, int>> cases;
  for (std::size_t c = 0; c < 4; ++c) {
    const int j = moving[c], k = tvd.contact_pairs[2 * j + 1] > 0 ? 1 : -1;
    cases.emplace_back(moving[(c + 1) % moving.size()], j, k);
  }
  for (const auto& [i, j, k] : cases) {
    // The contact stiffness of the deflection, computed here from the header's definition.
    const VecX phi_j = model.cb.basis.vectors.col(j);
    const VecX nphi = MatX(model.normals) * phi_j;
    const double amplitude = 1e-6 / nphi.cwiseAbs().maxCoeff();
    VecX c(nphi.size());
    for (Eigen::Index p = 0; p < c.size(); ++p) {
      const bool moves = std::abs(nphi(p)) > 1e-10 * phi_j.cwiseAbs().maxCoeff();
      c(p) = model.Stiffness()(static_cast<int>(p), moves ? k * amplitude * nphi(p) : 0.0);
    }
    ASSERT_EQ(tvd.contact_pairs[2 * j + (k + 1) / 2], (c.array() > 0.0).count());
    MatX dk = n_free.transpose() * c.asDiagonal() * n_free;
    if (!tangential.empty()) {
      VecX e = VecX::Zero(2 * c.size());
      for (Eigen::Index p = 0; p < c.size(); ++p) {
        if (c(p) > 0.0) e.segment<2>(2 * p).setConstant(tangential.stiffness(p));
      }
      dk += t_free.transpose() * e.asDiagonal() * t_free;
    }
    const VecX exact = Rows(tvd.derivatives.col(ColumnIndex(i, j, k, m)), rows);
    ASSERT_GT(exact.norm(), 0.0);
    const VecX rhs = k_c * basis.col(i);
    double previous = 0.0;
    for (double h : {1e-4, 1e-5, 1e-6}) {
      const VecX phi_h = (k_c + h * dk).llt().solve(rhs);
      const double error = ((phi_h - basis.col(i)) / h - exact).norm() / exact.norm();
      std::printf("TVD (i %d, j %d, k %+d), h %.0e: relative error %.3e", i, j, k, h, error);
      if (previous > 0.0) {
        const double order = std::log10(previous / error);
        std::printf(", observed order %.3f", order);
        if (h == 1e-6) worst_order_gap = std::max(worst_order_gap, std::abs(order - 1.0));
      }
      std::printf("\n");
      previous = error;
    }
    // The leading error term: h |K_c^-1 dK TVD| / |TVD| at h = 1e-6.
    const double bound = 1e-6 * k_c.llt().solve(dk * exact).norm() / exact.norm() * 1.01 + 1e-9;
    EXPECT_LT(previous, bound);
    ++checked;
  }
  EXPECT_EQ(checked, 4);
  EXPECT_LT(worst_order_gap, 0.02);  // order between h = 1e-5 and 1e-6 (asymptotic range)
}

TEST(TrialVectorDerivatives, MatchFiniteDifferencesOfTheBasisToFirstOrder) {
  ExpectFiniteDifferencesToFirstOrder({});
}

TEST(TrialVectorDerivatives, WithTangentialStiffnessMatchFiniteDifferencesToFirstOrder) {
  ExpectFiniteDifferencesToFirstOrder(Sticking(Plates()));
}

// The tangential stiffness adds shear to the fictive forces of the closed pairs only: the
// difference to the normal-only forces is -T^T diag(e) T phi_i, zero for deflections
// without contact; a mismatched size is a failure naming the counts.
TEST(TrialVectorDerivatives, TangentialStiffnessAddsTheShearOfClosedPairs) {
  const JointedPlates& model = Plates();
  const int m = model.cb.basis.size();
  const TangentialStiffness sticking = Sticking(model);
  const TvdResult normal = Tvds(model), both = Tvds(model, {}, {}, sticking);
  ASSERT_TRUE(normal.status && both.status) << both.status.message;
  EXPECT_EQ(both.contact_pairs, normal.contact_pairs);
  const MatX t = MatX(model.tangents), nrm = MatX(model.normals);
  double largest_shear = 0.0;
  for (int j = 0; j < m; ++j) {
    for (int k = -1; k <= 1; k += 2) {
      const VecX nphi = nrm * model.cb.basis.vectors.col(j);
      const double amplitude = 1e-6 / nphi.cwiseAbs().maxCoeff();
      const double cut = 1e-10 * model.cb.basis.vectors.col(j).cwiseAbs().maxCoeff();
      VecX e = VecX::Zero(t.rows());
      for (Eigen::Index p = 0; p < nphi.size(); ++p) {
        if (std::abs(nphi(p)) > cut && k * amplitude * nphi(p) < 0.0)
          e.segment<2>(2 * p).setConstant(sticking.stiffness(p));
      }
      for (int i = 0; i < m; ++i) {
        const int c = ColumnIndex(i, j, k, m);
        VecX shear = -(t.transpose() * e.asDiagonal() * t * model.cb.basis.vectors.col(i));
        for (int r = 0; r < model.cb.num_dofs; ++r) {
          if (!std::binary_search(model.cb.interior_dofs.begin(), model.cb.interior_dofs.end(), r))
            shear(r) = 0.0;
        }
        const VecX added = both.forces.col(c) - normal.forces.col(c);
        EXPECT_LE((added - shear).norm(), 1e-12 * (both.forces.col(c).norm() + 1.0))
            << i << " " << j << " " << k;
        largest_shear = std::max(largest_shear, shear.norm());
      }
    }
  }
  const double changed = (both.derivatives - normal.derivatives).norm() / normal.derivatives.norm();
  std::printf("largest shear part of a fictive force: %.3e N, TVDs changed by %.3e\n",
              largest_shear, changed);
  EXPECT_GT(largest_shear, 0.0);
  EXPECT_GT(changed, 1e-3);  // the plates' joint slides under the modes: shear matters
  TangentialStiffness short_one = sticking;
  short_one.stiffness.conservativeResize(sticking.stiffness.size() - 1);
  const TvdResult failed = Tvds(model, {}, {}, short_one);
  EXPECT_FALSE(failed.status);
  EXPECT_NE(failed.status.message.find("2 rows per pair"), std::string::npos)
      << failed.status.message;
  TangentialStiffness negative = sticking;
  negative.stiffness(3) = -1.0;
  EXPECT_FALSE(Tvds(model, {}, {}, negative).status);
}

// Eq. 3.46: a mode whose normal relative motion has both signs closes different pairs
// when deflected in + and -, so the TVDs of the two directions differ.
TEST(TrialVectorDerivatives, DependOnTheDeflectionDirection) {
  const JointedPlates& model = Plates();
  const int m = model.cb.basis.size();
  const TvdResult tvd = Tvds(model);
  ASSERT_TRUE(tvd.status) << tvd.status.message;
  int both_signs = 0;
  for (int j = 0; j < m; ++j) {
    const VecX nphi = MatX(model.normals) * model.cb.basis.vectors.col(j);
    const double largest = nphi.cwiseAbs().maxCoeff();
    const double cut = 1e-10 * model.cb.basis.vectors.col(j).cwiseAbs().maxCoeff();
    const int closing_plus = static_cast<int>((nphi.array() < -cut).count());
    const int closing_minus = static_cast<int>((nphi.array() > cut).count());
    if (largest <= cut) continue;
    EXPECT_EQ(tvd.contact_pairs[2 * j + 1], closing_plus) << "mode " << j;
    EXPECT_EQ(tvd.contact_pairs[2 * j], closing_minus) << "mode " << j;
    if (closing_plus == 0 || closing_minus == 0) continue;
    ++both_signs;
    // The pairs closed by + and - are disjoint, so dK_(+,j) phi_j and dK_(-,j) phi_j have
    // disjoint supports among the pairs: the TVDs differ by more than either's rounding.
    const MatX plus = tvd.derivatives.col(ColumnIndex(j, j, 1, m));
    const MatX minus = tvd.derivatives.col(ColumnIndex(j, j, -1, m));
    EXPECT_GT((plus - minus).norm(), 0.1 * std::max(plus.norm(), minus.norm())) << "mode " << j;
    EXPECT_GT((plus + minus).norm(), 0.1 * std::max(plus.norm(), minus.norm())) << "mode " << j;
  }
  std::printf("%d of %d basis vectors close different pairs in + and -\n", both_signs, m);
  EXPECT_GE(both_signs, 2);
}

TEST(TrialVectorDerivatives, BlockedEqualsOneAtATime) {
  const JointedPlates& model = Plates();
  const TvdResult blocked = Tvds(model, {}, {.block_size = 256});
  const TvdResult single = Tvds(model, {}, {.block_size = 1});
  ASSERT_TRUE(blocked.status && single.status);
  const double difference =
      (blocked.derivatives - single.derivatives).norm() / blocked.derivatives.norm();
  std::printf("blocked (256) vs one at a time: %.2e relative\n", difference);
  EXPECT_LT(difference, 1e-13);
  EXPECT_EQ(blocked.forces, single.forces);
}

// Preload-related TVDs (eq. 3.70): with p focus columns among m = m' + p, only the pairs
// (i, j) with i or j in focus, 2 (p^2 + 2 p m') columns, equal to the same columns of the
// full set.
TEST(TrialVectorDerivatives, FocusColumnsKeepTheOrderAndCount) {
  const JointedPlates& model = Plates();
  const int m = model.cb.basis.size();
  const TvdResult all = Tvds(model);
  const std::vector<int> focus = {7, 2};
  const TvdResult focused = Tvds(model, focus);
  ASSERT_TRUE(all.status && focused.status) << focused.status.message;
  const int p = 2, other = m - p;
  ASSERT_EQ(focused.derivatives.cols(), 2 * (p * p + 2 * p * other));
  ASSERT_EQ(focused.columns.size(), static_cast<std::size_t>(focused.derivatives.cols()));
  int previous = -1;
  for (std::size_t c = 0; c < focused.columns.size(); ++c) {
    const TvdColumn& col = focused.columns[c];
    EXPECT_TRUE(col.i == 2 || col.i == 7 || col.j == 2 || col.j == 7);
    const int index = ColumnIndex(col.i, col.j, col.direction, m);
    EXPECT_GT(index, previous);  // the full order with the other pairs skipped
    previous = index;
    EXPECT_EQ(focused.derivatives.col(c), all.derivatives.col(index));
  }
  EXPECT_EQ(focused.contact_pairs, all.contact_pairs);
}

TEST(TrialVectorDerivatives, CountZeroDeflections) {
  const JointedPlates& model = Plates();
  const int m = model.cb.basis.size();
  // A basis vector without normal relative motion in the joint: a unit displacement of a
  // node on the lower plate's bottom face (not a pair node), in z.
  MatX basis = model.cb.basis.vectors;
  basis.conservativeResize(Eigen::NoChange, m + 1);
  basis.col(m).setZero();
  const int node = model.mesh.node_sets.at("lower_zmin")[4];
  const int dof = model.dofs->FreeIndex(model.dofs->MeshDof(node, 2));
  ASSERT_GE(dof, 0);
  basis(dof, m) = 1.0;
  const TvdResult base = Tvds(model);
  const TvdResult tvd =
      ComputeTrialVectorDerivatives(basis, model.normals, model.zero_gap, model.Stiffness(),
                                    *model.cb.interior_factor, model.cb.interior_dofs);
  ASSERT_TRUE(tvd.status) << tvd.status.message;
  EXPECT_EQ(tvd.zero_deflections, base.zero_deflections + 2);
  EXPECT_EQ(tvd.contact_pairs[2 * m], 0);
  EXPECT_EQ(tvd.contact_pairs[2 * m + 1], 0);
  const int n1 = m + 1;
  for (int k = -1; k <= 1; k += 2) {
    EXPECT_EQ(tvd.derivatives.middleCols(ColumnIndex(0, m, k, n1), n1).norm(), 0.0);
  }
  // It has no normal motion either, so it is not changed by the others' contact (N phi = 0).
  EXPECT_EQ(tvd.forces.col(ColumnIndex(m, 0, 1, n1)).norm(), 0.0);

  // An initial gap larger than every deflection keeps all pairs open: all 2 m deflections
  // are zero, so are all TVDs.
  const VecX open = VecX::Constant(model.zero_gap.size(), 1e-3);
  const TvdResult none =
      ComputeTrialVectorDerivatives(model.cb.basis.vectors, model.normals, open, model.Stiffness(),
                                    *model.cb.interior_factor, model.cb.interior_dofs);
  ASSERT_TRUE(none.status);
  EXPECT_EQ(none.zero_deflections, 2 * m);
  EXPECT_EQ(none.derivatives.norm(), 0.0);
}

TEST(TrialVectorDerivatives, RejectBadOptionsAndInputs) {
  const JointedPlates& model = Plates();
  const TvdResult deflection = Tvds(model, {}, {.deflection = 0.0});
  EXPECT_FALSE(deflection.status);
  EXPECT_NE(deflection.status.message.find("tvd.deflection = 0"), std::string::npos)
      << deflection.status.message;
  EXPECT_NE(deflection.status.message.find("must be > 0"), std::string::npos);
  const TvdResult block = Tvds(model, {}, {.block_size = 0});
  EXPECT_FALSE(block.status);
  EXPECT_NE(block.status.message.find("tvd.block_size = 0"), std::string::npos)
      << block.status.message;
  EXPECT_NE(block.status.message.find("must be >= 1"), std::string::npos);
  const TvdResult focus = Tvds(model, {3, 3});
  EXPECT_FALSE(focus.status);
  EXPECT_NE(focus.status.message.find("focus column 3"), std::string::npos);
  const TvdResult negative = ComputeTrialVectorDerivatives(
      model.cb.basis.vectors, model.normals, model.zero_gap, [](int, double) { return -1.0; },
      *model.cb.interior_factor, model.cb.interior_dofs);
  EXPECT_FALSE(negative.status);
  EXPECT_NE(negative.status.message.find("must be finite and >= 0"), std::string::npos);
}

}  // namespace
}  // namespace jointdyn::reduction
