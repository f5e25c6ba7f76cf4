// Patch tests of every continuum element type on distorted structured meshes: a linear
// displacement field gives constant stress and nodal equilibrium at interior nodes, rigid
// body motions give zero force, and the consistent mass sums to rho * volume.
#include "fe/elements.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <cstdio>
#include <random>
#include <set>

#include "core/error.h"
#include "fe/assembly.h"
#include "fe/structured_mesh.h"

namespace jointdyn::fe {
namespace {

const ElasticMaterial kSteel{210e9, 0.3, 7850.0, 2e-3};

// A distorted patch of several elements (3 x 3 x 3 cells, or 3 x 3 in 2D).
Mesh Patch(ElementType type) {
  if (Dimension(type) == 2) {
    RectangleMeshOptions options;
    options.size = Vec2(0.3, 0.2);
    options.divisions = {3, 3};
    options.type = type;
    options.distortion = 0.2;
    options.block = "patch";
    return MakeRectangleMesh(options);
  }
  BoxMeshOptions options;
  options.size = Vec3(0.3, 0.2, 0.25);
  options.divisions = {3, 3, 3};
  options.type = type;
  options.distortion = 0.2;
  options.block = "patch";
  return MakeBoxMesh(options);
}

std::set<int> BoundaryNodes(const Mesh& mesh) {
  std::set<int> boundary;
  for (const auto& [name, set] : mesh.node_sets) boundary.insert(set.begin(), set.end());
  return boundary;
}

// u(x) = a + B x at every node (DOF node * dim + component).
VecX LinearField(const Mesh& mesh, const VecX& a, const MatX& b) {
  const int dim = mesh.dim;
  VecX u(mesh.num_nodes() * dim);
  for (int n = 0; n < mesh.num_nodes(); ++n) {
    u.segment(n * dim, dim) = a + b * mesh.nodes.row(n).head(dim).transpose();
  }
  return u;
}

class PatchTest : public ::testing::TestWithParam<ElementType> {};

TEST_P(PatchTest, LinearFieldGivesConstantStressAndInteriorEquilibrium) {
  const Mesh mesh = Patch(GetParam());
  const int dim = mesh.dim;
  const AssemblyResult assembled = Assemble(mesh, {{"patch", kSteel}});
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const VecX a = VecX::NullaryExpr(dim, [&] { return 1e-4 * unit(rng); });
  const MatX b = MatX::NullaryExpr(dim, dim, [&] { return 1e-3 * unit(rng); });
  const VecX u = LinearField(mesh, a, b);
  const VecX f = assembled.stiffness * u;
  // Rounding scale of a nodal force: |K| |u| (entries summed over a row of ~100 terms).
  const double scale = solvers::MaxAbsEntry(assembled.stiffness) * u.cwiseAbs().maxCoeff();
  const std::set<int> boundary = BoundaryNodes(mesh);
  double interior_residual = 0.0;
  for (int n = 0; n < mesh.num_nodes(); ++n) {
    if (!boundary.contains(n)) {
      interior_residual =
          std::max(interior_residual, f.segment(n * dim, dim).cwiseAbs().maxCoeff());
    }
  }
  std::printf("%s: interior force residual / (|K| |u|) = %.2e\n", Name(GetParam()),
              interior_residual / scale);
  EXPECT_LT(interior_residual, 1e-12 * scale);

  // The same field solved from its boundary values (interior DOFs unknown).
  std::vector<int> interior_dofs;
  for (int n = 0; n < mesh.num_nodes(); ++n) {
    if (!boundary.contains(n)) {
      for (int i = 0; i < dim; ++i) interior_dofs.push_back(n * dim + i);
    }
  }
  ASSERT_FALSE(interior_dofs.empty());
  const int m = static_cast<int>(interior_dofs.size());
  std::vector<int> position(u.size(), -1);
  for (int k = 0; k < m; ++k) position[interior_dofs[k]] = k;
  std::vector<Eigen::Triplet<double>> triplets;
  VecX rhs = VecX::Zero(m);
  const solvers::SparseMatrix& k = assembled.stiffness;
  for (int col = 0; col < k.outerSize(); ++col) {
    for (solvers::SparseMatrix::InnerIterator it(k, col); it; ++it) {
      const int row = position[it.row()];
      if (row < 0) continue;
      if (position[col] >= 0) {
        triplets.emplace_back(row, position[col], it.value());
      } else {
        rhs(row) -= it.value() * u(col);
      }
    }
  }
  solvers::SparseMatrix k_interior(m, m);
  k_interior.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::SimplicialLDLT<solvers::SparseMatrix> solver(k_interior);
  ASSERT_EQ(solver.info(), Eigen::Success);
  const VecX solved = solver.solve(rhs);
  double error = 0.0;
  for (int kk = 0; kk < m; ++kk)
    error = std::max(error, std::abs(solved(kk) - u(interior_dofs[kk])));
  std::printf("%s: interior displacement error / |u| = %.2e\n", Name(GetParam()),
              error / u.cwiseAbs().maxCoeff());
  // Condition number of K ~ 1e3 on this patch: 1e-11 leaves two orders over rounding.
  EXPECT_LT(error, 1e-11 * u.cwiseAbs().maxCoeff());

  // Constant stress sigma = lambda tr(eps) I + 2 mu eps at every quadrature-free point
  // (the element nodes), eps = sym(B).
  const MatX strain = 0.5 * (b + b.transpose());
  const bool plane = dim == 2;
  const MatX sigma = kSteel.Lambda(plane) * strain.trace() * MatX::Identity(dim, dim) +
                     2.0 * kSteel.ShearModulus() * strain;
  VecX expected(VoigtSize(dim));
  if (dim == 3) {
    expected << sigma(0, 0), sigma(1, 1), sigma(2, 2), sigma(1, 2), sigma(2, 0), sigma(0, 1);
  } else {
    expected << sigma(0, 0), sigma(1, 1), sigma(0, 1);
  }
  const ElementBlock& block = mesh.blocks[0];
  ElementKernel kernel(block.type, dim);
  const MatX reference = ReferenceNodes(block.type);
  MatX x(kernel.num_nodes(), dim);
  VecX ue(kernel.num_dofs()), stress;
  double stress_error = 0.0;
  for (int e = 0; e < block.size(); ++e) {
    for (int aa = 0; aa < kernel.num_nodes(); ++aa) {
      const int node = block.element(e)[aa];
      x.row(aa) = mesh.nodes.row(node).head(dim);
      ue.segment(aa * dim, dim) = u.segment(node * dim, dim);
    }
    for (int aa = 0; aa < kernel.num_nodes(); ++aa) {
      const VecX xi = reference.row(aa).transpose();
      ASSERT_TRUE(kernel.Stress(x, ue, kSteel, xi.data(), stress).ok);
      stress_error = std::max(stress_error, (stress - expected).cwiseAbs().maxCoeff());
    }
  }
  std::printf("%s: stress error / |sigma| = %.2e\n", Name(GetParam()),
              stress_error / expected.cwiseAbs().maxCoeff());
  EXPECT_LT(stress_error, 1e-12 * expected.cwiseAbs().maxCoeff());
}

TEST_P(PatchTest, RigidBodyModesGiveZeroForce) {
  const Mesh mesh = Patch(GetParam());
  const int dim = mesh.dim;
  const AssemblyResult assembled = Assemble(mesh, {{"patch", kSteel}});
  // Translations along each axis, and the infinitesimal rotations u = w x (x - x0).
  std::vector<VecX> modes;
  for (int i = 0; i < dim; ++i)
    modes.push_back(LinearField(mesh, VecX::Unit(dim, i), MatX::Zero(dim, dim)));
  for (int i = 0; i < (dim == 3 ? 3 : 1); ++i) {
    const int axis = dim == 3 ? i : 2;
    Mat3 skew = Mat3::Zero();  // [w]x for w = e_axis
    skew((axis + 2) % 3, (axis + 1) % 3) = 1.0;
    skew((axis + 1) % 3, (axis + 2) % 3) = -1.0;
    modes.push_back(LinearField(mesh, VecX::Zero(dim), skew.topLeftCorner(dim, dim)));
  }
  // K and M are symmetric to the bit (element blocks are mirrored, not recomputed).
  const solvers::SparseMatrix k_transpose = assembled.stiffness.transpose();
  const solvers::SparseMatrix m_transpose = assembled.mass.transpose();
  EXPECT_EQ(solvers::MaxAbsEntry(assembled.stiffness - k_transpose), 0.0);
  EXPECT_EQ(solvers::MaxAbsEntry(assembled.mass - m_transpose), 0.0);
  const double k_max = solvers::MaxAbsEntry(assembled.stiffness);
  for (const VecX& mode : modes) {
    const double force = (assembled.stiffness * mode).cwiseAbs().maxCoeff();
    EXPECT_LT(force, 1e-12 * k_max * mode.cwiseAbs().maxCoeff()) << Name(GetParam());
  }
}

TEST_P(PatchTest, MassSumsToDensityTimesVolume) {
  const Mesh mesh = Patch(GetParam());
  const int dim = mesh.dim;
  const AssemblyResult assembled = Assemble(mesh, {{"patch", kSteel}});
  // The distortion moves interior nodes only: the patch still fills the box.
  const double volume = dim == 3 ? 0.3 * 0.2 * 0.25 : 0.3 * 0.2 * kSteel.thickness;
  for (int i = 0; i < dim; ++i) {
    for (int j = 0; j < dim; ++j) {
      const VecX ei = LinearField(mesh, VecX::Unit(dim, i), MatX::Zero(dim, dim));
      const VecX ej = LinearField(mesh, VecX::Unit(dim, j), MatX::Zero(dim, dim));
      const double total = ei.dot(assembled.mass * ej);
      EXPECT_NEAR(total, i == j ? kSteel.density * volume : 0.0, 1e-13 * kSteel.density * volume)
          << Name(GetParam()) << " directions " << i << ", " << j;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllElements, PatchTest,
                         ::testing::Values(ElementType::kTet4, ElementType::kTet10,
                                           ElementType::kHex8, ElementType::kHex20,
                                           ElementType::kQuad4, ElementType::kQuad8),
                         [](const auto& info) { return std::string(Name(info.param)); });

TEST(ElementKernel, FivePieceTetraMeshAlsoPassesThePatchTest) {
  BoxMeshOptions options;
  options.divisions = {2, 3, 2};
  options.type = ElementType::kTet10;
  options.tets_per_hex = 5;
  const Mesh mesh = MakeBoxMesh(options);
  EXPECT_EQ(mesh.blocks[0].size(), 5 * 12);
  const AssemblyResult assembled = Assemble(mesh, {{"box", kSteel}});
  const VecX u = LinearField(mesh, Vec3(1e-4, 0, 0), Mat3::Identity() * 1e-3);
  const VecX f = assembled.stiffness * u;
  const std::set<int> boundary = BoundaryNodes(mesh);
  const double scale = solvers::MaxAbsEntry(assembled.stiffness) * u.cwiseAbs().maxCoeff();
  for (int n = 0; n < mesh.num_nodes(); ++n) {
    if (!boundary.contains(n)) EXPECT_LT(f.segment(n * 3, 3).norm(), 1e-12 * scale);
  }
}

TEST(ElementKernel, RejectsTypesThatAreNotContinuumElements) {
  EXPECT_THROW(ElementKernel(ElementType::kQuad4, 3), InputError);
  EXPECT_THROW(ElementKernel(ElementType::kLine2, 2), InputError);
  EXPECT_THROW(ElementKernel(ElementType::kHex8, 2), InputError);
}

TEST(Assembly, NamesInvertedAndDegenerateElements) {
  BoxMeshOptions options;
  options.divisions = {2, 1, 1};
  Mesh mesh = MakeBoxMesh(options);
  std::vector<int>& nodes = mesh.blocks[0].connectivity;
  std::swap(nodes[8 + 0], nodes[8 + 4]);  // element 1: bottom and top faces swapped
  try {
    Assemble(mesh, {{"box", kSteel}});
    FAIL() << "no error for an inverted element";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("block 'box' element 1 (nodes"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("inverted element: det J = -"), std::string::npos)
        << error.what();
  }
  mesh = MakeBoxMesh(options);
  mesh.nodes.row(mesh.blocks[0].element(0)[6]) = mesh.nodes.row(mesh.blocks[0].element(0)[2]);
  mesh.nodes.row(mesh.blocks[0].element(0)[7]) = mesh.nodes.row(mesh.blocks[0].element(0)[3]);
  mesh.nodes.row(mesh.blocks[0].element(0)[5]) = mesh.nodes.row(mesh.blocks[0].element(0)[1]);
  mesh.nodes.row(mesh.blocks[0].element(0)[4]) = mesh.nodes.row(mesh.blocks[0].element(0)[0]);
  EXPECT_THROW(
      {
        try {
          Assemble(mesh, {{"box", kSteel}});
        } catch (const InputError& error) {
          EXPECT_NE(std::string(error.what()).find("element 0"), std::string::npos);
          throw;
        }
      },
      InputError);
}

TEST(Assembly, RejectsMissingAndInvalidMaterials) {
  const Mesh mesh = MakeBoxMesh({});
  EXPECT_THROW(Assemble(mesh, {{"other", kSteel}}), InputError);
  ElasticMaterial bad = kSteel;
  bad.poisson_ratio = 0.5;
  try {
    Assemble(mesh, {{"box", bad}});
    FAIL() << "no error for nu = 0.5";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "materials.box.poisson_ratio = 0.5: must be in (-1, 0.5)");
  }
}

}  // namespace
}  // namespace jointdyn::fe
