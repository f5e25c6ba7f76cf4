#include "fe/contact_pairing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <limits>
#include <numbers>
#include <sstream>
#include <unordered_map>

#include "core/atomic_file.h"
#include "core/clock.h"
#include "core/error.h"
#include "fe/mesh_faces.h"
#include "fe/shape_functions.h"

namespace jointdyn::fe {
namespace {

constexpr double kInsideTolerance = 1e-9;  // [-] reference coordinates beyond a face's edge
constexpr int kMaxNewton = 50;

bool IsSimplex(ElementType face) {
  return face == ElementType::kTri3 || face == ElementType::kTri6;
}

bool Inside(ElementType face, const VecX& xi, double tolerance) {
  if (IsSimplex(face))
    return xi[0] >= -tolerance && xi[1] >= -tolerance && xi[0] + xi[1] <= 1.0 + tolerance;
  return (xi.array().abs() <= 1.0 + tolerance).all();
}

void ClampInside(ElementType face, VecX& xi) {
  if (!IsSimplex(face)) {
    xi = xi.cwiseMax(-1.0).cwiseMin(1.0);
    return;
  }
  xi = xi.cwiseMax(0.0);
  if (const double sum = xi.sum(); sum > 1.0) xi /= sum;
}

// Position X(xi) and tangents X_,xi_j (3 x d) of a face with node coordinates x.
struct FacePoint {
  Vec3 position;
  MatX tangents;
};

FacePoint Evaluate(ElementType face, const MatX& x, const VecX& xi, ShapeValues& shape) {
  EvaluateShape(face, xi.data(), shape);
  return {x.transpose() * shape.n, x.transpose() * shape.dn};
}

// The closest point of one face to p: its reference coordinates, distance, whether it is
// inside the face (not only on an edge) and the Newton iterations used.
struct Projection {
  VecX xi;
  Vec3 point = Vec3::Zero();
  double distance = std::numeric_limits<double>::infinity();
  bool inside = false;
  int iterations = 0;
};

// Newton on the normal condition (eq. D.7) in the d reference coordinates, with the second
// derivatives X_,ij by central differences of the tangents (exact for the shape functions
// of jointdyn's faces, whose tangents are at most quadratic). Falls back to Gauss-Newton
// when the Hessian of the squared distance is not positive definite.
Projection Newton(ElementType face, const MatX& x, const Vec3& p, VecX xi, ShapeValues& shape) {
  const int d = static_cast<int>(xi.size());
  Projection result;
  constexpr double kStep = 1e-3;
  for (int iteration = 1; iteration <= kMaxNewton; ++iteration) {
    const FacePoint at = Evaluate(face, x, xi, shape);
    const Vec3 r = p - at.position;
    const VecX gradient = at.tangents.transpose() * r;  // minus the gradient of |r|^2 / 2
    MatX hessian = at.tangents.transpose() * at.tangents;
    const MatX gauss_newton = hessian;
    for (int j = 0; j < d; ++j) {
      VecX plus = xi, minus = xi;
      plus[j] += kStep;
      minus[j] -= kStep;
      const MatX second =
          (Evaluate(face, x, plus, shape).tangents - Evaluate(face, x, minus, shape).tangents) /
          (2.0 * kStep);  // columns X_,ij
      for (int i = 0; i < d; ++i) hessian(i, j) -= r.dot(second.col(i));
    }
    Eigen::LLT<MatX> llt(hessian);
    const VecX step = llt.info() == Eigen::Success ? VecX(llt.solve(gradient))
                                                   : VecX(gauss_newton.ldlt().solve(gradient));
    const double size = step.cwiseAbs().maxCoeff();
    xi += size > 0.5 ? VecX(step * (0.5 / size)) : step;  // at most half the reference size
    result.iterations = iteration;
    if (size < 1e-14 || !std::isfinite(size)) break;
  }
  result.xi = xi;
  return result;
}

// Closest point on the straight reference segment a + s (b - a), s in [0, 1] (a face
// edge), by projected Newton on s.
Projection EdgeClosest(ElementType face, const MatX& x, const Vec3& p, const VecX& a, const VecX& b,
                       ShapeValues& shape) {
  const VecX direction = b - a;
  double s = 0.5;
  Projection result;
  constexpr double kStep = 1e-3;
  for (int iteration = 1; iteration <= kMaxNewton; ++iteration) {
    const FacePoint at = Evaluate(face, x, a + s * direction, shape);
    const Vec3 r = p - at.position;
    const Vec3 tangent = at.tangents * direction;
    const Vec3 bend = (Evaluate(face, x, a + (s + kStep) * direction, shape).tangents -
                       Evaluate(face, x, a + (s - kStep) * direction, shape).tangents) *
                      direction / (2.0 * kStep);
    double curvature = tangent.squaredNorm() - r.dot(bend);
    if (curvature <= 0.0) curvature = tangent.squaredNorm();
    const double next = std::clamp(s + r.dot(tangent) / curvature, 0.0, 1.0);
    result.iterations = iteration;
    const bool done = std::abs(next - s) < 1e-14;
    s = next;
    if (done) break;
  }
  result.xi = a + s * direction;
  return result;
}

Projection ClosestPoint(ElementType face, const MatX& x, const Vec3& p, ShapeValues& shape) {
  const MatX corners =
      ReferenceNodes(face).topRows(IsSimplex(face) ? 3 : (Dimension(face) == 1 ? 2 : 4));
  const VecX center = corners.colwise().mean().transpose();
  Projection best = Newton(face, x, p, center, shape);
  best.inside = Inside(face, best.xi, kInsideTolerance) && best.xi.allFinite();
  if (best.inside) {
    ClampInside(face, best.xi);
  } else {  // the closest point lies on the face's boundary
    const int iterations = best.iterations;
    best.distance = std::numeric_limits<double>::infinity();
    const int count = static_cast<int>(corners.rows());
    for (int k = 0; k < (Dimension(face) == 1 ? 2 : count); ++k) {
      const VecX a = corners.row(k).transpose();
      Projection edge =
          Dimension(face) == 1
              ? Projection{a}
              : EdgeClosest(face, x, p, a, corners.row((k + 1) % count).transpose(), shape);
      edge.point = Evaluate(face, x, edge.xi, shape).position;
      edge.distance = (p - edge.point).norm();
      if (edge.distance < best.distance) best = edge;
    }
    best.iterations += iterations;
    best.inside = false;
  }
  best.point = Evaluate(face, x, best.xi, shape).position;
  best.distance = (p - best.point).norm();
  return best;
}

// Master faces by cells of a uniform grid; each face is listed in every cell its bounding
// box (grown by the search distance) touches, so one cell lookup finds all candidates.
class BucketGrid {
 public:
  BucketGrid(const std::vector<Eigen::AlignedBox3d>& boxes) : boxes_(boxes) {
    double extent = 0.0;
    for (const auto& box : boxes) extent += box.sizes().maxCoeff();
    cell_ = std::max(extent / std::max<std::size_t>(boxes.size(), 1), 1e-12);
    for (int f = 0; f < static_cast<int>(boxes.size()); ++f) {
      const Eigen::Array3i lo = Cell(boxes[f].min()), hi = Cell(boxes[f].max());
      for (int i = lo[0]; i <= hi[0]; ++i)
        for (int j = lo[1]; j <= hi[1]; ++j)
          for (int k = lo[2]; k <= hi[2]; ++k) cells_[Key({i, j, k})].push_back(f);
    }
  }
  // Faces whose grown box contains p.
  void Candidates(const Vec3& p, std::vector<int>& out) const {
    out.clear();
    const auto it = cells_.find(Key(Cell(p)));
    if (it == cells_.end()) return;
    for (int f : it->second) {
      if (boxes_[f].contains(p)) out.push_back(f);
    }
  }

 private:
  Eigen::Array3i Cell(const Vec3& p) const { return (p.array() / cell_).floor().cast<int>(); }
  static std::uint64_t Key(const Eigen::Array3i& c) {
    constexpr std::uint64_t kOffset = 1u << 20, kMask = (1u << 21) - 1;
    return ((c[0] + kOffset) & kMask) << 42 | ((c[1] + kOffset) & kMask) << 21 |
           ((c[2] + kOffset) & kMask);
  }
  const std::vector<Eigen::AlignedBox3d>& boxes_;
  double cell_ = 1.0;
  std::unordered_map<std::uint64_t, std::vector<int>> cells_;
};

std::string NodeText(const Mesh& mesh, int node) {
  std::ostringstream text;
  text << "slave " << mesh.NodeName(node) << " at (" << FormatValue(mesh.nodes(node, 0)) << ", "
       << FormatValue(mesh.nodes(node, 1)) << ", " << FormatValue(mesh.nodes(node, 2)) << ") m";
  return text.str();
}

// t1 and t2 for normal n (see the header); `face_xi` is X_,xi of the master face.
void Tangents(const Vec3& reference, const Vec3& face_xi, ContactPair& pair, int& from_face) {
  Vec3 t = reference - reference.dot(pair.n) * pair.n;
  if (reference.norm() == 0.0 || t.norm() < 0.5 * reference.norm()) {
    t = face_xi - face_xi.dot(pair.n) * pair.n;
    ++from_face;
  }
  pair.t1 = t.normalized();
  pair.t2 = pair.n.cross(pair.t1);
}

// A unit vector for messages, to 3 decimals.
std::string DirectionText(const Vec3& v) {
  const auto round = [](double x) { return FormatValue(std::round(x * 1000.0) / 1000.0 + 0.0); };
  return "(" + round(v[0]) + ", " + round(v[1]) + ", " + round(v[2]) + ")";
}

// The outward unit normal of `surface` at each of its nodes (surface.nodes order): the
// normalized mean of the unit normals of its faces at the node.
std::vector<Vec3> NodeNormals(const Mesh& mesh, const ContactSurface& surface) {
  const FaceSet& faces = surface.faces;
  const MatX reference = ReferenceNodes(faces.type);
  std::vector<Vec3> normals(surface.nodes.size(), Vec3::Zero());
  for (int f = 0; f < faces.size(); ++f) {
    const MatX x = FaceCoordinates(mesh, faces, f);
    for (int i = 0; i < NodesPerElement(faces.type); ++i) {
      const VecX xi = reference.row(i).transpose();
      const auto at =
          std::lower_bound(surface.nodes.begin(), surface.nodes.end(), faces.face(f)[i]);
      normals[at - surface.nodes.begin()] += FaceNormal(faces.type, x, xi.data()).normalized();
    }
  }
  for (Vec3& n : normals) n.normalize();
  return normals;
}

// Throws when the surfaces do not face each other (see the header): at the pair whose
// normals are farthest from opposite, else at the most negative gap.
void CheckFacing(const Mesh& mesh, const ContactSurface& slave, const PairingResult& result,
                 const PairingOptions& options, const std::string& where) {
  if (result.pairs.empty()) return;
  const std::vector<Vec3> normals = NodeNormals(mesh, slave);
  std::size_t worst = 0, deepest = 0;
  double worst_cos = -1.0;
  for (std::size_t p = 0; p < result.pairs.size(); ++p) {
    // The pair's slave node among the surface's (sorted) nodes: shared nodes have no pair.
    const auto s = std::lower_bound(slave.nodes.begin(), slave.nodes.end(), result.pairs[p].slave) -
                   slave.nodes.begin();
    const double cos = normals[s].dot(result.pairs[p].n);
    if (cos > worst_cos || p == 0) worst_cos = cos, worst = p;
    if (result.pairs[p].gap < result.pairs[deepest].gap) deepest = p;
  }
  constexpr double kMaxAngle = 60.0;  // [degrees] from opposite
  if (!(worst_cos <= -std::cos(kMaxAngle * std::numbers::pi / 180.0))) {
    const ContactPair& pair = result.pairs[worst];
    const double angle = std::acos(std::clamp(worst_cos, -1.0, 1.0)) * 180.0 / std::numbers::pi;
    throw InputError(where, NodeText(mesh, pair.slave),
                     "gap " + FormatValue(pair.gap) + " m: the slave normal " +
                         DirectionText(normals[worst]) + " and the master normal " +
                         DirectionText(pair.n) + " are " + FormatValue(std::round(angle)) +
                         " degrees apart: the surfaces must face each other (normals within " +
                         FormatValue(kMaxAngle) + " degrees of opposite)");
  }
  const ContactPair& pair = result.pairs[deepest];
  if (pair.gap < -options.MaxPenetration()) {
    throw InputError(where, NodeText(mesh, pair.slave),
                     "gap " + FormatValue(pair.gap) + " m (the most negative of " +
                         std::to_string(result.pairs.size()) +
                         " pairs): the slave node lies behind the master surface by more than "
                         "max_penetration = " +
                         FormatValue(options.MaxPenetration()) +
                         " m: the surfaces must face each other (do they point away from each "
                         "other, or is one on the far side of the other's body?)");
  }
}

}  // namespace

void PairingOptions::Validate() const {
  if (!(search_distance > 0.0) || !std::isfinite(search_distance))
    throw InputError("search_distance", FormatValue(search_distance), "must be > 0 and finite");
  if (!(node_tolerance >= 0.0) || !std::isfinite(node_tolerance))
    throw InputError("node_tolerance", FormatValue(node_tolerance), "must be >= 0 and finite");
  if (!tangent_reference.allFinite()) throw InputError("tangent_reference", "", "must be finite");
  if (max_penetration && (!(*max_penetration >= 0.0) || !std::isfinite(*max_penetration)))
    throw InputError("max_penetration", FormatValue(*max_penetration), "must be >= 0 and finite");
}

PairingResult PairSurfaces(const Mesh& mesh, const ContactSurface& slave,
                           const ContactSurface& master, const PairingOptions& options) {
  options.Validate();
  const auto start = Clock::now();
  const std::string where = "contact pairing '" + slave.name + "' -> '" + master.name + "'";
  const FaceSet& faces = master.faces;
  const int per = NodesPerElement(faces.type);
  const MatX reference_nodes = ReferenceNodes(faces.type);

  std::vector<MatX> coordinates(faces.size());
  std::vector<Eigen::AlignedBox3d> tight(faces.size()), boxes(faces.size());
  for (int f = 0; f < faces.size(); ++f) {
    coordinates[f] = FaceCoordinates(mesh, faces, f);
    for (int i = 0; i < per; ++i) tight[f].extend(Vec3(coordinates[f].row(i).transpose()));
    if (per > Dimension(faces.type) + 1 && faces.type != ElementType::kQuad4) {
      // Quadratic faces may bulge beyond their nodes' box: by less than half its size
      // (the Lebesgue constants of the face interpolations are below 1.5).
      const double margin = 0.5 * tight[f].sizes().maxCoeff();
      tight[f].min().array() -= margin;
      tight[f].max().array() += margin;
    }
    boxes[f] = tight[f];
    boxes[f].min().array() -= options.search_distance;
    boxes[f].max().array() += options.search_distance;
  }
  const BucketGrid grid(boxes);
  // Master faces at each master node (for the normals of node-to-node pairs).
  std::unordered_map<int, std::vector<std::pair<int, int>>> faces_at;  // node -> (face, local)
  for (int f = 0; f < faces.size(); ++f) {
    for (int i = 0; i < per; ++i) faces_at[faces.face(f)[i]].emplace_back(f, i);
  }

  PairingResult result;
  result.slave = slave.name;
  result.master = master.name;
  result.slave_faces = slave.faces.size();
  result.master_faces = faces.size();
  const VecX areas = NodalAreas(mesh, slave, options.area_weighting);
  result.pairs.reserve(slave.nodes.size());
  std::vector<int> candidates;
  std::vector<std::pair<double, int>> ordered;  // (box distance, face)
  ShapeValues shape;
  for (std::size_t s = 0; s < slave.nodes.size(); ++s) {
    const int node = slave.nodes[s];
    if (faces_at.contains(node)) {  // also a master node (merged, welded): no contact there
      result.shared_nodes.push_back(node);
      continue;
    }
    const Vec3 p = mesh.nodes.row(node).transpose();
    if (options.search == CandidateSearch::kBucketGrid) {
      grid.Candidates(p, candidates);
    } else {
      candidates.resize(faces.size());
      for (int f = 0; f < faces.size(); ++f) candidates[f] = f;
    }
    // Nearest bounding boxes first; a face whose box is farther than the best point so far
    // cannot hold a nearer one.
    ordered.clear();
    for (int f : candidates) ordered.emplace_back(tight[f].exteriorDistance(p), f);
    std::sort(ordered.begin(), ordered.end());
    Projection best;
    int best_face = -1;
    for (const auto& [box_distance, f] : ordered) {
      if (best_face >= 0 && box_distance > best.distance * (1.0 + 1e-12)) break;
      Projection projection = ClosestPoint(faces.type, coordinates[f], p, shape);
      result.max_newton_iterations = std::max(result.max_newton_iterations, projection.iterations);
      const double tie = 1e-12 * (1.0 + best.distance);
      const bool better =
          projection.distance < best.distance - tie ||
          (projection.distance <= best.distance + tie && projection.inside && !best.inside);
      if (best_face < 0 || better) best = std::move(projection), best_face = f;
    }
    if (best_face < 0 || best.distance > options.search_distance) {
      const std::string nearest =
          best_face < 0 ? "no master face near it"
                        : "the nearest master point is " + FormatValue(best.distance) + " m away";
      throw InputError(where, NodeText(mesh, node),
                       "no master face within search_distance = " +
                           FormatValue(options.search_distance) + " m (" + nearest + ")");
    }
    ContactPair pair;
    pair.slave = node;
    pair.master_face = best_face;
    pair.area = areas[static_cast<int>(s)];
    const int* face_nodes = faces.face(best_face);
    int coincident = -1;
    for (int i = 0; i < per && coincident < 0; ++i) {
      if ((mesh.nodes.row(face_nodes[i]).transpose() - p).norm() <= options.node_tolerance)
        coincident = i;
    }
    if (options.mode == PairingMode::kNodeToNode && coincident < 0)
      throw InputError(where, NodeText(mesh, node),
                       "no master node within node_tolerance = " +
                           FormatValue(options.node_tolerance) + " m (mode node-to-node)");
    const FacePoint at = Evaluate(faces.type, coordinates[best_face], best.xi, shape);
    if (coincident >= 0) {
      const int master_node = face_nodes[coincident];
      pair.master = {master_node};
      pair.weights = {1.0};
      pair.point = mesh.nodes.row(master_node).transpose();
      Vec3 normal = Vec3::Zero();
      for (const auto& [f, local] : faces_at.at(master_node)) {
        const VecX xi = reference_nodes.row(local).transpose();
        normal += FaceNormal(faces.type, coordinates[f], xi.data()).normalized();
      }
      pair.n = normal.normalized();
      ++result.node_to_node;
    } else {
      pair.master.assign(face_nodes, face_nodes + per);
      pair.weights.assign(shape.n.data(), shape.n.data() + per);
      pair.point = at.position;
      pair.n = FaceNormal(faces.type, coordinates[best_face], best.xi.data()).normalized();
      ++result.node_to_segment;
      if (!best.inside) ++result.edge_projections;
    }
    Tangents(options.tangent_reference, at.tangents.col(0), pair, result.frames_from_face);
    pair.gap = (p - pair.point).dot(pair.n);
    result.min_gap = result.pairs.empty() ? pair.gap : std::min(result.min_gap, pair.gap);
    result.max_gap = result.pairs.empty() ? pair.gap : std::max(result.max_gap, pair.gap);
    result.slave_area += pair.area;
    result.pairs.push_back(std::move(pair));
  }
  if (result.pairs.empty())
    throw InputError(where, "",
                     "every slave node is a node of the master surface too (the parts "
                     "share these nodes: merged or welded): nothing to pair");
  CheckFacing(mesh, slave, result, options, where);
  result.seconds = Seconds(start);
  return result;
}

std::string PairingResult::Summary() const {
  std::ostringstream text;
  text << "contact pairs '" << slave << "' (" << slave_faces << " faces) -> '" << master << "' ("
       << master_faces << " faces): " << pairs.size() << " (" << node_to_node << " node-to-node, "
       << node_to_segment << " node-to-segment, " << edge_projections << " on face edges), gap "
       << FormatValue(min_gap) << " .. " << FormatValue(max_gap) << " m, slave area "
       << FormatValue(slave_area) << " m^2, " << frames_from_face
       << " frames from the face's xi direction";
  if (!shared_nodes.empty())
    text << "; " << shared_nodes.size()
         << " slave nodes are nodes of the master surface too (merged or welded: not paired)";
  return text.str();
}

void WritePairsCsv(const std::string& path, const Mesh& mesh, const PairingResult& result) {
  AtomicFile file(path);
  std::ostream& out = file.out();
  out << std::setprecision(17);
  out << "pair,slave,x,y,z,gap,nx,ny,nz,t1x,t1y,t1z,t2x,t2y,t2z,area,master_nodes,"
         "master_weights\n";
  for (std::size_t k = 0; k < result.pairs.size(); ++k) {
    const ContactPair& pair = result.pairs[k];
    out << k << ',' << pair.slave;
    for (int d = 0; d < 3; ++d) out << ',' << mesh.nodes(pair.slave, d);
    out << ',' << pair.gap;
    for (const Vec3* v : {&pair.n, &pair.t1, &pair.t2})
      out << ',' << (*v)[0] << ',' << (*v)[1] << ',' << (*v)[2];
    out << ',' << pair.area << ',';
    for (std::size_t i = 0; i < pair.master.size(); ++i) out << (i ? " " : "") << pair.master[i];
    out << ',';
    for (std::size_t i = 0; i < pair.weights.size(); ++i) out << (i ? " " : "") << pair.weights[i];
    out << '\n';
  }
  file.Commit();
}

}  // namespace jointdyn::fe
