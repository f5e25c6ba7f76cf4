// Contact pairs between a slave and a master surface (seed 003 section 3.3.1, appendix
// D.1): one pair per slave node, node-to-node where a master node coincides with it
// (conforming meshes), node-to-segment otherwise (non-matching meshes).
//
// Node-to-segment: the intersection point X^M(xi, eta) is the closest point of the master
// surface, found per candidate face by Newton on the normal condition (eq. D.7: X^S - X^M
// orthogonal to X_,xi and X_,eta); when it falls outside a face, the closest point on the
// face's edges is taken, and of all candidate faces the nearest point wins (inside a face
// before on an edge at equal distance). Candidate faces come from a bucket grid of the
// master faces' bounding boxes grown by the search distance (O(1) faces per slave node).
//
// Frame: n is the master face's outward unit normal at X^M (eq. D.1; for node-to-node
// pairs the normalized mean of the normals of the master faces at the node); t1 is
// `tangent_reference` projected onto the tangent plane (the same direction for
// neighbouring pairs whatever the faces' parametrization), or X_,xi of the face (eq. D.4)
// when the reference is zero or within 60 degrees of n; t2 = n x t1 (eq. D.5).
// Gap g = (X^S - X^M) . n: > 0 open, < 0 penetrating.
//
// The surfaces must face each other: at every pair the slave surface's outward normal at
// the slave node (the normalized mean of its faces' normals there) must be within 60
// degrees of -n, and the slave node may lie behind the master surface by at most
// max_penetration (gap >= -max_penetration). Surfaces that point away from each other, or
// a slave surface on the far side of the master's body, are input errors naming the pair.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/types.h"
#include "fe/contact_surface.h"
#include "fe/mesh.h"

namespace jointdyn::fe {

enum class PairingMode {
  kAuto,        // node-to-node where nodes coincide, node-to-segment elsewhere
  kNodeToNode,  // every slave node must have a coincident master node
};

enum class CandidateSearch {
  kBucketGrid,  // O(1) candidate faces per slave node
  kAllFaces,    // every master face (the O(n m) reference for tests and benchmarks)
};

struct PairingOptions {
  double search_distance = 1e-3;  // [m] largest distance of a slave node from the master
                                  // surface (> 0)
  double node_tolerance = 1e-8;   // [m] nodes closer than this coincide (>= 0)
  PairingMode mode = PairingMode::kAuto;
  CandidateSearch search = CandidateSearch::kBucketGrid;
  AreaWeighting area_weighting = AreaWeighting::kConsistent;
  Vec3 tangent_reference = Vec3::UnitX();  // t1 direction (see above); zero: eq. D.4
  // [m] >= 0: the deepest a slave node may lie behind the master surface; unset: a tenth
  // of search_distance.
  std::optional<double> max_penetration;
  double MaxPenetration() const { return max_penetration.value_or(search_distance / 10.0); }
  void Validate() const;  // throws InputError
};

struct ContactPair {
  int slave = -1;               // slave node index
  int master_face = -1;         // face of the master surface holding X^M
  std::vector<int> master;      // master nodes: the face's, or the coincident node
  std::vector<double> weights;  // shape functions of the master face at X^M (sum 1)
  Vec3 point = Vec3::Zero();    // intersection point X^M [m]
  Vec3 n = Vec3::Zero(), t1 = Vec3::Zero(), t2 = Vec3::Zero();  // orthonormal, t2 = n x t1
  double gap = 0.0;                                             // [m] (X^S - X^M) . n
  double area = 0.0;  // [m^2] nodal area weight of the slave node
  bool node_to_node() const { return master.size() == 1; }
};

struct PairingResult {
  std::string slave, master;       // surface names
  std::vector<ContactPair> pairs;  // one per slave node not shared, in slave node order
  // Slave nodes that are nodes of the master surface too (parts that share nodes: merged,
  // welded): they are not paired (a node cannot be in contact with itself).
  std::vector<int> shared_nodes;
  int slave_faces = 0, master_faces = 0;  // faces of the two surfaces
  int node_to_node = 0;
  int node_to_segment = 0;
  int edge_projections = 0;             // X^M on a face edge, outside every candidate's interior
  int frames_from_face = 0;             // t1 from eq. D.4 because the reference was near n
  int max_newton_iterations = 0;        // over all projections
  double min_gap = 0.0, max_gap = 0.0;  // [m]
  double slave_area = 0.0;              // [m^2] sum of the area weights
  double seconds = 0.0;                 // wall time of the pairing
  std::string Summary() const;          // one line: counts, gap range, area
};

// Pairs every node of `slave` with `master`. Throws InputError naming the slave node (in
// the mesh file's numbering, mesh.h, and its coordinates) when no master face lies within
// search_distance of it (or, in kNodeToNode mode, no master node within node_tolerance),
// and, naming the worst pair with its gap, when the surfaces do not face each other (see
// above).
PairingResult PairSurfaces(const Mesh& mesh, const ContactSurface& slave,
                           const ContactSurface& master, const PairingOptions& options);

// Writes the pairs as CSV for inspection: pair, slave, x, y, z (slave node) [m], gap [m],
// nx..nz, t1x..t1z, t2x..t2z, area [m^2], master_nodes and master_weights (each a
// space-separated list), atomically (core/atomic_file.h). Throws IoError when the file
// cannot be written.
void WritePairsCsv(const std::string& path, const Mesh& mesh, const PairingResult& result);

}  // namespace jointdyn::fe
