// Preloaded beam bolts (a beam of fe.beams between the reference nodes of its bores), shared
// by the static analysis (analysis/static.h) and the preloaded start of joint_dynamics.
//
// In the preload step the beam's axial stiffness k = EA / L is replaced by the preload
// force P pulling its ends together, so that the bolt force is P whatever the joint does.
// The bolt is then locked at its length (as Abaqus's bolt load "fixed at current length"):
// its axial force is N = k (e + s) with the elongation e = a^T x and the shortening
// s = P / k - e at the end of the preload step; the elongation's part of N is in K, the
// shortening's is the constant load -k s a, so that the preloaded state is in equilibrium
// and the bolt force follows the joint from there.
#pragma once

#include <string>
#include <vector>

#include "core/types.h"
#include "fe/fe_model.h"
#include "solvers/matrix.h"

namespace jointdyn::analysis {

// A preload on a beam bolt.
struct BoltPreload {
  int beam = 0;        // index in fe.beams
  double force = 0.0;  // P [N] > 0 (tension)
};

// Throws InputError naming <key>[i] for a beam index out of range, a beam preloaded twice or
// a force that is not > 0.
void ValidatePreloads(const std::vector<BoltPreload>& preloads, const fe::FeModelSpec& fe,
                      const std::string& key = "preload");

// A preloaded beam bolt on a state x = the columns of `transform`: elongation e = a^T x,
// axial stiffness k = EA / L, preload P and the shortening s locked after the preload step.
struct Bolt {
  solvers::SparseMatrix axis;  // a as a column
  double stiffness = 0.0;
  double preload = 0.0;
  double shortening = 0.0;
  double Elongation(const VecX& x) const;
  double Force(const VecX& x) const { return stiffness * (Elongation(x) + shortening); }
};

// The bolts of `preloads` on the state u = transform x (transform: the DOF map's, or its
// extended form with the held DOFs).
std::vector<Bolt> MakeBolts(const std::vector<BoltPreload>& preloads, const fe::FeModelSpec& fe,
                            const fe::FeModel& model, const solvers::SparseMatrix& transform);

// K without the bolts' axial stiffness: K - sum k a a^T (the preload step's stiffness).
solvers::SparseMatrix WithoutBoltStiffness(const solvers::SparseMatrix& stiffness,
                                           const std::vector<Bolt>& bolts);

// The bolts' forces on the structure: -P a in the preload step, then -k s a (locked).
VecX BoltLoad(const std::vector<Bolt>& bolts, bool preload, Eigen::Index size);

// Locks every bolt at its length in the preloaded state x: s = P / k - e(x).
void LockBolts(std::vector<Bolt>& bolts, const VecX& x);

}  // namespace jointdyn::analysis
