#include "fe/contact_pairing.h"

#include <gmsh.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>

#include "core/error.h"
#include "fe/abaqus_inp.h"
#include "fe/gmsh_mesh.h"
#include "fe/gmsh_session.h"
#include "fe/gmsh_structures.h"
#include "fe/mesh_faces.h"
#include "fe/structured_mesh.h"
#include "fe/test/fe_test_util.h"

namespace jointdyn::fe {
namespace {

// Appends a block of nx x ny x 1 hex8 over [0, lx] x [0, ly] x [z0, z1] whose interior
// in-plane node positions are perturbed (faces stay planar at z0 and z1), and the face
// set `face` of its top (top = true) or bottom faces.
void AddPlate(Mesh& mesh, const std::string& name, const std::string& face, int nx, int ny,
              double lx, double ly, double z0, double z1, bool top) {
  const int offset = mesh.num_nodes();
  auto id = [&](int i, int j, int k) { return offset + (k * (ny + 1) + j) * (nx + 1) + i; };
  mesh.nodes.conservativeResize(offset + 2 * (nx + 1) * (ny + 1), 3);
  for (int k = 0; k < 2; ++k) {
    for (int j = 0; j <= ny; ++j) {
      for (int i = 0; i <= nx; ++i) {
        double x = lx * i / nx, y = ly * j / ny;
        if (i > 0 && i < nx) x += 0.25 * lx / nx * std::sin(3.1 * i + 1.7 * j);
        if (j > 0 && j < ny) y += 0.25 * ly / ny * std::cos(2.3 * i - 0.9 * j);
        mesh.nodes.row(id(i, j, k)) << x, y, k == 0 ? z0 : z1;
      }
    }
  }
  ElementBlock block{.name = name, .type = ElementType::kHex8};
  FaceSet faces{.type = ElementType::kQuad4};
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      for (int k = 0; k < 2; ++k) {
        for (int v : {id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k)})
          block.connectivity.push_back(v);
      }
      const int k = top ? 1 : 0;
      for (int v : {id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k)})
        faces.connectivity.push_back(v);
    }
  }
  mesh.blocks.push_back(block);
  mesh.face_sets[face] = faces;
}

// Two plates touching on a flat, non-matching interface at z = 0 (master below) with the
// slave plate `gap` above.
Mesh FlatPair(double gap) {
  Mesh mesh;
  mesh.nodes.resize(0, 3);
  AddPlate(mesh, "lower", "master", 5, 3, 1.0, 0.6, -0.1, 0.0, true);
  AddPlate(mesh, "upper", "slave", 7, 4, 1.0, 0.6, gap, gap + 0.1, false);
  EXPECT_TRUE(mesh.Validate("flat pair").ok);
  return mesh;
}

// The integrals of 1 and X over a surface by quadrature (independent of the pairing).
std::pair<double, Vec3> AreaAndMoment(const Mesh& mesh, const FaceSet& set) {
  const QuadratureRule rule = Quadrature(set.type, 8);
  double area = 0.0;
  Vec3 first = Vec3::Zero();
  ShapeValues shape;
  for (int f = 0; f < set.size(); ++f) {
    const MatX x = FaceCoordinates(mesh, set, f);
    for (int q = 0; q < rule.size(); ++q) {
      const VecX xi = rule.points.row(q).transpose();
      EvaluateShape(set.type, xi.data(), shape);
      const double da = rule.weights[q] * FaceNormal(set.type, x, xi.data()).norm();
      area += da;
      first += da * x.transpose() * shape.n;
    }
  }
  return {area, first};
}

// Patch test: a pressure p on the slave surface (nodal forces p A_i along the slave's
// normal -n) transferred to the master nodes with the shape-function weights has the
// resultant and the moment about `origin` of the exact distributed load (p A, and
// p int (X - origin) dA x (-n), valid for a flat interface with normal n).
void ExpectExactTransfer(const Mesh& mesh, const PairingResult& result, const FaceSet& slave,
                         const Vec3& n) {
  const double p = 2.5e5;  // [Pa]
  const Vec3 origin(0.3, -0.2, 0.5);
  Vec3 force = Vec3::Zero(), moment = Vec3::Zero();
  for (const ContactPair& pair : result.pairs) {
    const Vec3 f = -p * pair.area * pair.n;
    for (std::size_t i = 0; i < pair.master.size(); ++i) {
      const Vec3 x = mesh.nodes.row(pair.master[i]).transpose();
      force += pair.weights[i] * f;
      moment += (x - origin).cross(pair.weights[i] * f);
    }
  }
  const auto [area, first] = AreaAndMoment(mesh, slave);
  const Vec3 exact_force = -p * area * n;
  const Vec3 exact_moment = (first - area * origin).cross(exact_force / area);
  EXPECT_LT((force - exact_force).norm(), 1e-12 * exact_force.norm());
  EXPECT_LT((moment - exact_moment).norm(), 1e-12 * exact_force.norm() * 0.5);
}

void ExpectOrthonormalFrames(const PairingResult& result) {
  for (const ContactPair& pair : result.pairs) {
    const Mat3 q = (Mat3() << pair.n, pair.t1, pair.t2).finished();
    ASSERT_LT((q.transpose() * q - Mat3::Identity()).norm(), 1e-13) << pair.slave;
    ASSERT_NEAR(q.determinant(), 1.0, 1e-13) << pair.slave;
    double sum = 0.0;
    for (double w : pair.weights) sum += w;
    ASSERT_NEAR(sum, 1.0, 1e-13);
  }
}

TEST(ContactPairing, FlatNonMatchingPatchTestGapsAndFrames) {
  const double gap = 1.25e-4;  // [m]
  const Mesh mesh = FlatPair(gap);
  const ContactSurface slave = SurfaceFromFaceSet(mesh, "slave");
  const ContactSurface master = SurfaceFromFaceSet(mesh, "master");
  const PairingResult result = PairSurfaces(mesh, slave, master, {});
  ASSERT_EQ(result.pairs.size(), 8u * 5u);
  EXPECT_EQ(result.node_to_node, 0);
  EXPECT_NEAR(result.slave_area, 0.6, 1e-14);
  EXPECT_NEAR(result.min_gap, gap, 1e-15);
  EXPECT_NEAR(result.max_gap, gap, 1e-15);
  ExpectOrthonormalFrames(result);
  for (const ContactPair& pair : result.pairs) {
    ASSERT_LT((pair.n - Vec3::UnitZ()).norm(), 1e-14);   // master outward normal
    ASSERT_LT((pair.t1 - Vec3::UnitX()).norm(), 1e-14);  // the reference direction
    // The intersection point lies under the slave node.
    ASSERT_LT((pair.point - mesh.nodes.row(pair.slave).transpose() + gap * pair.n).norm(), 1e-14);
  }
  ExpectExactTransfer(mesh, result, slave.faces, Vec3::UnitZ());
  // The same pairs with every master face as a candidate.
  PairingOptions all;
  all.search = CandidateSearch::kAllFaces;
  const PairingResult brute = PairSurfaces(mesh, slave, master, all);
  for (std::size_t k = 0; k < result.pairs.size(); ++k)
    ASSERT_EQ(brute.pairs[k].master_face, result.pairs[k].master_face);
}

TEST(ContactPairing, UnpairableSlaveNodeIsNamed) {
  Mesh mesh = FlatPair(0.0);
  const int node = mesh.FaceSetNodes("slave")[7];
  mesh.nodes(node, 2) = 0.01;  // 10 mm off the master surface
  const ContactSurface slave = SurfaceFromFaceSet(mesh, "slave");
  const ContactSurface master = SurfaceFromFaceSet(mesh, "master");
  try {
    PairSurfaces(mesh, slave, master, {});
    FAIL() << "no error";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("slave node " + std::to_string(node) + " at ("), std::string::npos)
        << message;
    EXPECT_NE(message.find("0.01) m"), std::string::npos) << message;
    EXPECT_NE(message.find("search_distance"), std::string::npos) << message;
  }
  PairingOptions strict;
  strict.mode = PairingMode::kNodeToNode;
  EXPECT_THROW(PairSurfaces(FlatPair(0.0), SurfaceFromFaceSet(FlatPair(0.0), "slave"),
                            SurfaceFromFaceSet(FlatPair(0.0), "master"), strict),
               InputError);
}

// The message of the InputError PairSurfaces throws for slave and master of `mesh` ("" when
// none).
std::string PairingError(const Mesh& mesh, const std::string& slave, const std::string& master,
                         const PairingOptions& options) {
  try {
    PairSurfaces(mesh, SurfaceFromFaceSet(mesh, slave), SurfaceFromFaceSet(mesh, master), options);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(ContactPairing, SurfacesFacingAwayAreRejectedWithTheDeepestGap) {
  // The bottom and top of one box 0.125 m thick: opposite normals, but the slave lies on
  // the far side of the master's body (gap -0.125 m at every node).
  const Mesh box = MakeBoxMesh({.size = Vec3(1.0, 1.0, 0.125), .divisions = {2, 2, 1}});
  const std::string message = PairingError(box, "zmin", "zmax", {.search_distance = 0.25});
  EXPECT_NE(message.find("'zmin' -> 'zmax' = slave node "), std::string::npos) << message;
  EXPECT_NE(message.find("gap -0.125 m (the most negative of 9 pairs)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("max_penetration = 0.025 m"), std::string::npos) << message;
  EXPECT_NE(message.find("must face each other"), std::string::npos) << message;
  // Allowed explicitly, the same pairs are made.
  PairingOptions deep{.search_distance = 0.25};
  deep.max_penetration = 0.2;
  EXPECT_EQ(PairingError(box, "zmin", "zmax", deep), "");
  deep.max_penetration = -1.0;
  EXPECT_THROW(deep.Validate(), InputError);
}

TEST(ContactPairing, ShallowPenetrationIsAcceptedDeepIsNot) {
  // The slave plate overlaps the master plate by 1e-4 m (a tenth of the default search
  // distance is allowed) or by 5e-4 m.
  EXPECT_EQ(PairingError(FlatPair(-1e-4), "slave", "master", {}), "");
  const std::string message = PairingError(FlatPair(-5e-4), "slave", "master", {});
  EXPECT_NE(message.find("gap -0.0005 m"), std::string::npos) << message;
}

TEST(ContactPairing, SurfacesWhoseNormalsAreNotOppositeAreRejected) {
  // The top of the box paired with its side x = 1: the normals are 90 degrees apart.
  const Mesh box = MakeBoxMesh({.size = Vec3(1.0, 1.0, 0.1), .divisions = {2, 2, 1}});
  const std::string message = PairingError(box, "zmax", "xmax", {.search_distance = 2.0});
  EXPECT_NE(message.find("'zmax' -> 'xmax' = slave node"), std::string::npos) << message;
  EXPECT_NE(message.find("the slave normal (0, 0, 1) and the master normal (1, 0, 0) are 90 "
                         "degrees apart"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("within 60 degrees of opposite"), std::string::npos) << message;
}

TEST(ContactPairing, MessagesNameNodesByTheMeshFilesTags) {
  Mesh mesh = FlatPair(0.0);
  const int node = mesh.FaceSetNodes("slave")[7];
  mesh.nodes(node, 2) = 0.01;  // 10 mm off the master surface
  mesh.node_tags.resize(mesh.num_nodes());
  for (int n = 0; n < mesh.num_nodes(); ++n) mesh.node_tags[n] = 1000 + n;
  const std::string message = PairingError(mesh, "slave", "master", {});
  EXPECT_NE(message.find("slave node " + std::to_string(1000 + node) + " at ("), std::string::npos)
      << message;
}

// A quarter of a tube (radius from r0 to r1, angle 0..pi/2, length 0.05 m along z) meshed
// by Gmsh with `n_arc` elements around, as hex8 or hex20, with the face set "outer" (r = r1)
// and "inner" (r = r0).
Mesh QuarterTube(double r0, double r1, int n_arc, ElementOrder order) {
  GmshSession session;
  namespace geo = gmsh::model::geo;
  const int c = geo::addPoint(0, 0, 0);
  const int a0 = geo::addPoint(r0, 0, 0), a1 = geo::addPoint(r1, 0, 0);
  const int b1 = geo::addPoint(0, r1, 0), b0 = geo::addPoint(0, r0, 0);
  const std::vector<int> curves = {geo::addLine(a0, a1), geo::addCircleArc(a1, c, b1),
                                   geo::addLine(b1, b0), geo::addCircleArc(b0, c, a0)};
  for (int k : {0, 2}) geo::mesh::setTransfiniteCurve(curves[k], 2);
  for (int k : {1, 3}) geo::mesh::setTransfiniteCurve(curves[k], n_arc + 1);
  const int surface = geo::addPlaneSurface({geo::addCurveLoop(curves)});
  geo::mesh::setTransfiniteSurface(surface);
  geo::mesh::setRecombine(2, surface);
  gmsh::vectorpair out;  // top, volume, then the sides from the four curves
  geo::extrude({{2, surface}}, 0, 0, 0.05, out, {3}, {}, true);
  geo::synchronize();
  gmsh::model::addPhysicalGroup(3, {out[1].second}, 1);
  gmsh::model::setPhysicalName(3, 1, "tube");
  gmsh::model::addPhysicalGroup(2, {out[3].second}, 2);
  gmsh::model::setPhysicalName(2, 2, "outer");
  gmsh::model::addPhysicalGroup(2, {out[5].second}, 3);
  gmsh::model::setPhysicalName(2, 3, "inner");
  gmsh::option::setNumber("Mesh.ElementOrder", 1);
  gmsh::option::setNumber("Mesh.SecondOrderIncomplete", 1);
  gmsh::model::mesh::generate(3);
  if (order == ElementOrder::kQuadratic) gmsh::model::mesh::setOrder(2);
  return MeshFromGmshModel("quarter tube");
}

// Largest |r - R| over the faces of `set` sampled on a 21 x 21 grid [m].
double RadialDeviation(const Mesh& mesh, const FaceSet& set, double radius) {
  double deviation = 0.0;
  ShapeValues shape;
  for (int f = 0; f < set.size(); ++f) {
    const MatX x = FaceCoordinates(mesh, set, f);
    for (int i = 0; i <= 20; ++i) {
      for (int j = 0; j <= 20; ++j) {
        const double xi[2] = {-1.0 + 0.1 * i, -1.0 + 0.1 * j};
        EvaluateShape(set.type, xi, shape);
        const Vec3 p = x.transpose() * shape.n;
        deviation = std::max(deviation, std::abs(p.head<2>().norm() - radius));
      }
    }
  }
  return deviation;
}

TEST(ContactPairing, CylinderGapsWithinTheGeometricError) {
  const double radius = 0.02, gap = 1e-4;  // [m]
  for (ElementOrder order : {ElementOrder::kLinear, ElementOrder::kQuadratic}) {
    SCOPED_TRACE(order == ElementOrder::kLinear ? "hex8" : "hex20");
    Mesh mesh = QuarterTube(radius - 0.004, radius, 12, order);
    Mesh outer = QuarterTube(radius + gap, radius + gap + 0.004, 17, order);  // non-matching
    const int offset = mesh.num_nodes();
    mesh.nodes.conservativeResize(offset + outer.num_nodes(), 3);
    mesh.nodes.bottomRows(outer.num_nodes()) = outer.nodes;
    for (int& i : outer.blocks[0].connectivity) i += offset;
    for (int& i : outer.face_sets.at("inner").connectivity) i += offset;
    mesh.blocks.push_back({"sleeve", outer.blocks[0].type, outer.blocks[0].connectivity});
    mesh.face_sets["sleeve_inner"] = outer.face_sets.at("inner");
    const ContactSurface slave = SurfaceFromFaceSet(mesh, "sleeve_inner");
    const ContactSurface master = SurfaceFromFaceSet(mesh, "outer");
    PairingOptions options;
    options.tangent_reference = Vec3::UnitZ();  // along the axis
    const PairingResult result = PairSurfaces(mesh, slave, master, options);
    EXPECT_EQ(result.pairs.size(), slave.nodes.size());
    ExpectOrthonormalFrames(result);
    // The gap is exact up to the master faces' deviation from the cylinder: the chord
    // sag R (1 - cos(dtheta / 2)) for flat faces, the interpolation error for quadratic
    // ones (measured by sampling), plus the tilt of a facet normal (1 - cos) on g.
    const double half = 0.25 * std::numbers::pi / 12;
    const double bound = order == ElementOrder::kLinear
                             ? (radius + gap) * (1.0 - std::cos(half))
                             : 2.0 * RadialDeviation(mesh, master.faces, radius);
    double error = 0.0, tilt = 0.0;
    for (const ContactPair& pair : result.pairs) {
      const Vec3 x = mesh.nodes.row(pair.slave).transpose();
      error = std::max(error, std::abs(pair.gap - gap));
      tilt = std::max(tilt, (pair.n - Vec3(x.x(), x.y(), 0.0).normalized()).norm());
      ASSERT_NEAR(pair.t1.z(), 1.0, 1e-12);
    }
    EXPECT_LE(error, bound);
    EXPECT_LT(tilt, order == ElementOrder::kLinear ? 2.0 * half : 1e-3);
    std::cout << Name(master.faces.type) << ": max gap error " << error << " m (bound " << bound
              << " m), max normal tilt " << tilt << ", " << result.Summary() << "\n";
  }
}

class FrictionBarPairing
    : public ::testing::TestWithParam<std::tuple<CellShape, ElementOrder, bool>> {};

TEST_P(FrictionBarPairing, EverySlaveNodeOfTheJointIsPaired) {
  const auto [shape, order, non_matching] = GetParam();
  FrictionBarOptions options;
  options.mesh = {.mesh_size = 3e-3, .order = order, .shape = shape, .non_matching = non_matching};
  const Mesh mesh = BuildFrictionBar(options);
  const ContactSurface slave = SurfaceFromFaceSet(mesh, "sheet_2_joint");
  const ContactSurface master = SurfaceFromFaceSet(mesh, "sheet_1_joint");
  const PairingResult result = PairSurfaces(mesh, slave, master, {});
  EXPECT_EQ(result.pairs.size(), slave.nodes.size());
  EXPECT_NEAR(result.slave_area, test::FaceSetArea(mesh, slave.faces), 1e-13);
  EXPECT_LT(std::max(-result.min_gap, result.max_gap), 1e-12);
  ExpectOrthonormalFrames(result);
  ExpectExactTransfer(mesh, result, slave.faces, Vec3::UnitZ());
  if (!non_matching) {
    EXPECT_EQ(result.node_to_node, static_cast<int>(result.pairs.size()));
    for (const ContactPair& pair : result.pairs) ASSERT_EQ(pair.weights, std::vector<double>{1.0});
  } else {
    EXPECT_GT(result.node_to_segment, result.node_to_node);
  }
  std::cout << result.Summary() << "\n";
}

INSTANTIATE_TEST_SUITE_P(
    Meshes, FrictionBarPairing,
    ::testing::Values(std::make_tuple(CellShape::kHex, ElementOrder::kLinear, false),
                      std::make_tuple(CellShape::kHex, ElementOrder::kLinear, true),
                      std::make_tuple(CellShape::kHex, ElementOrder::kQuadratic, true),
                      std::make_tuple(CellShape::kTet, ElementOrder::kQuadratic, false),
                      std::make_tuple(CellShape::kTet, ElementOrder::kQuadratic, true)));

TEST(ContactSurface, NodeSetGivesTheFaceSetsFacesAndDiagonalWeightsArePositive) {
  FrictionBarOptions options;
  options.mesh = {.mesh_size = 4e-3, .order = ElementOrder::kQuadratic};
  const Mesh mesh = BuildFrictionBar(options);
  const ContactSurface from_faces = SurfaceFromFaceSet(mesh, "sheet_1_joint");
  const ContactSurface from_nodes = SurfaceFromNodeSet(mesh, "sheet_1_joint");
  EXPECT_EQ(from_nodes.nodes, from_faces.nodes);
  EXPECT_EQ(from_nodes.faces.size(), from_faces.faces.size());
  const VecX consistent = NodalAreas(mesh, from_faces, AreaWeighting::kConsistent);
  const VecX diagonal = NodalAreas(mesh, from_faces, AreaWeighting::kDiagonalScaled);
  const double area = test::FaceSetArea(mesh, from_faces.faces);
  EXPECT_NEAR(consistent.sum(), area, 1e-14);
  EXPECT_NEAR(diagonal.sum(), area, 1e-14);
  EXPECT_LT(consistent.minCoeff(), 0.0);  // quad8 corners
  EXPECT_GT(diagonal.minCoeff(), 0.0);
}

TEST(ContactPairing, MultilayerSheetCentralSheetOnBothOuterSheets) {
  MultilayerSheetOptions options;
  options.mesh = {.mesh_size = 4e-3, .non_matching = true};
  const Mesh mesh = BuildMultilayerSheet(options);
  const double t = options.thickness;
  for (const auto& [slave, master, normal] :
       {std::make_tuple("central_bottom", "lower_top", 1.0),
        std::make_tuple("central_top", "upper_bottom", -1.0)}) {
    const PairingResult result =
        PairSurfaces(mesh, SurfaceFromFaceSet(mesh, slave), SurfaceFromFaceSet(mesh, master), {});
    EXPECT_NEAR(result.slave_area, 0.3 * options.width, 1e-14) << slave;
    EXPECT_LT(std::max(-result.min_gap, result.max_gap), 1e-15 + 1e-12 * t);
    for (const ContactPair& pair : result.pairs) ASSERT_NEAR(pair.n.z(), normal, 1e-14);
  }
}

// A 2D (plane) pair of quad4 strips touching along y = 0 (lower: nx_lower elements on
// [0, 1] x [-0.1, 0], upper: nx_upper on [0, 1] x [gap, gap + 0.1]), faces = edges.
Mesh Strips2D(int nx_lower, int nx_upper, double gap) {
  Mesh mesh;
  mesh.dim = 2;
  mesh.nodes.resize(2 * (nx_lower + 1) + 2 * (nx_upper + 1), 3);
  int row = 0;
  for (const auto& [name, face, nx, y0, top] :
       {std::make_tuple("lower", "master", nx_lower, -0.1, true),
        std::make_tuple("upper", "slave", nx_upper, gap, false)}) {
    const int offset = row;
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i <= nx; ++i) mesh.nodes.row(row++) << 1.0 * i / nx, y0 + 0.1 * j, 0.0;
    ElementBlock block{.name = name, .type = ElementType::kQuad4};
    FaceSet edges{.type = ElementType::kLine2};
    for (int i = 0; i < nx; ++i) {
      const int a = offset + i, b = a + 1, c = b + nx + 1, d = a + nx + 1;
      block.connectivity.insert(block.connectivity.end(), {a, b, c, d});
      edges.connectivity.push_back(top ? d : a);
      edges.connectivity.push_back(top ? c : b);
    }
    mesh.blocks.push_back(block);
    mesh.face_sets[face] = edges;
  }
  EXPECT_TRUE(mesh.Validate("strips").ok);
  return mesh;
}

TEST(ContactPairing, PlaneStripsPairOnEdges) {
  const double gap = 2e-4;
  const Mesh mesh = Strips2D(4, 7, gap);
  const ContactSurface slave = SurfaceFromFaceSet(mesh, "slave");
  const PairingResult result = PairSurfaces(mesh, slave, SurfaceFromFaceSet(mesh, "master"), {});
  ASSERT_EQ(result.pairs.size(), 8u);
  EXPECT_NEAR(result.slave_area, 1.0, 1e-15);  // edge length [m] (per unit thickness)
  EXPECT_NEAR(result.min_gap, gap, 1e-15);
  EXPECT_NEAR(result.max_gap, gap, 1e-15);
  ExpectOrthonormalFrames(result);
  for (const ContactPair& pair : result.pairs) {
    ASSERT_LT((pair.n - Vec3::UnitY()).norm(), 1e-15);
    ASSERT_LT((pair.t1 - Vec3::UnitX()).norm(), 1e-15);
  }
  ExpectExactTransfer(mesh, result, slave.faces, Vec3::UnitY());
}

TEST(ContactPairing, CsvHasOneLinePerPair) {
  const Mesh mesh = FlatPair(0.0);
  const PairingResult result =
      PairSurfaces(mesh, SurfaceFromFaceSet(mesh, "slave"), SurfaceFromFaceSet(mesh, "master"), {});
  const std::string path = (test::ScratchDir("pairs_csv") / "pairs.csv").string();
  WritePairsCsv(path, mesh, result);
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("pair,slave,x,y,z,gap,nx", 0), 0u);
  int lines = 0, columns = 0;
  while (std::getline(in, line)) {
    ++lines;
    columns = static_cast<int>(std::count(line.begin(), line.end(), ',')) + 1;
  }
  EXPECT_EQ(lines, static_cast<int>(result.pairs.size()));
  EXPECT_EQ(columns, 18);
  EXPECT_THROW(WritePairsCsv("/nonexistent/dir/pairs.csv", mesh, result), IoError);
}

// Two stacked hex8 pairs whose first column is welded (the upper part uses the lower part's
// nodes 7, 8, 10, 11 at x = 0, 1) and whose second is in contact (the upper part's own nodes
// 13, 14 on the lower's 9, 12). Contact from node sets: the welded face is interior (not a
// surface face), and the shared nodes 8 and 11 on the faces of the contact column are
// reported and not paired with themselves.
TEST(ContactPairing, NodesSharedByBothSurfacesAreNotPairedWithThemselves) {
  std::string inp = "*Node\n";
  for (int k = 0; k < 2; ++k)  // lower block: nodes 1..12 = 1 + i + 3 j + 6 k
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i)
        inp += std::to_string(1 + i + 3 * j + 6 * k) + ", " + std::to_string(i) + ", " +
               std::to_string(j) + ", " + std::to_string(k) + "\n";
  inp += "13, 2, 0, 1\n14, 2, 1, 1\n";  // the upper block's own nodes at x = 2, z = 1
  for (int j = 0; j < 2; ++j)           // its top: 15 + i + 3 j at z = 2
    for (int i = 0; i < 3; ++i)
      inp += std::to_string(15 + i + 3 * j) + ", " + std::to_string(i) + ", " + std::to_string(j) +
             ", 2\n";
  inp +=
      "*Element, type=C3D8, elset=lower\n1, 1, 2, 5, 4, 7, 8, 11, 10\n2, 2, 3, 6, 5, 8, 9, 12, 11\n"
      "*Element, type=C3D8, elset=upper\n3, 7, 8, 11, 10, 15, 16, 19, 18\n"
      "4, 8, 13, 14, 11, 16, 17, 20, 19\n"
      "*Nset, nset=lower_top, generate\n7, 12\n*Nset, nset=upper_bottom\n7, 8, 10, 11, 13, 14\n";
  const std::string path = (test::ScratchDir("welded") / "welded.inp").string();
  std::ofstream(path) << inp;
  const Mesh mesh = ReadInp(path);
  const PairingResult result = PairSurfaces(mesh, SurfaceFromNodeSet(mesh, "upper_bottom"),
                                            SurfaceFromNodeSet(mesh, "lower_top"), {});
  EXPECT_EQ(result.slave_faces, 1);   // the contact column's face only: the welded one is
  EXPECT_EQ(result.master_faces, 1);  // inside the body
  std::vector<long long> shared, paired;
  for (int node : result.shared_nodes) shared.push_back(mesh.NodeTag(node));
  for (const ContactPair& pair : result.pairs) paired.push_back(mesh.NodeTag(pair.slave));
  EXPECT_EQ(shared, (std::vector<long long>{8, 11}));
  EXPECT_EQ(paired, (std::vector<long long>{13, 14}));
  for (const ContactPair& pair : result.pairs) EXPECT_NEAR(pair.gap, 0.0, 1e-15);
  EXPECT_NE(result.Summary().find("2 slave nodes are nodes of the master surface too"),
            std::string::npos)
      << result.Summary();
}

}  // namespace
}  // namespace jointdyn::fe
