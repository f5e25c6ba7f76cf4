// The FE model keys of a model file (mesh, materials, reference_nodes, supports,
// couplings, beams, contact, loads) as an fe::FeModelSpec (fe/fe_model.h). Reading checks
// every key and value; what needs the mesh (a set's name, a block without a material) is
// checked by fe::BuildFeModel, whose errors name their key path (the run layer locates them
// with ModelNode::Locate). The schema is in docs/model_files.md.
#pragma once

#include <string>
#include <vector>

#include "fe/fe_model.h"
#include "model/model_node.h"

namespace jointdyn::model {

// A support's `value` (a prescribed displacement, read by the analysis that takes it).
struct SupportValue {
  int support = 0;  // index in FeModelSpec::supports
  ModelNode node;   // the support's mapping, with `value` not yet read
};

// Reads mesh, materials, reference_nodes, supports, couplings, beams, contact and loads of
// `root` (not root.Finish()). Mesh files are found relative to the model file. With
// `values`, a support may have a `value` (collected there); without, `value` is an error
// that names the analysis that takes it.
fe::FeModelSpec ReadFeModelSpec(const ModelNode& root, std::vector<SupportValue>* values = nullptr);

// Reads `key` of `node` as a list of three numbers [x, y, z].
Vec3 ReadVec3(const ModelNode& node, const std::string& key);

// Reads the list under key `loads` of the mapping `node` (required there; e.g. the root,
// or a load case of an analysis): {node: tip, force: [0, 0, 100]}, {node: tip, moment:
// [20, 0, 0]}; force and moment optional, at least one; and checks the node names against
// the reference nodes of `spec`.
std::vector<fe::NodeLoad> ReadFeLoads(const ModelNode& node, const fe::FeModelSpec& spec);

// Reads `node` and `component` of the mapping `node` (and Finish() it), e.g. the measure of
// a study `{node: tip, component: uz}`; the node must be a reference node of `spec`.
fe::ReferenceDof ReadFeDof(const ModelNode& node, const fe::FeModelSpec& spec);

// The index in spec.contacts of the contact named by node[key] (InputError listing the
// contacts of the model otherwise).
int ReadContactIndex(const ModelNode& node, const std::string& key, const fe::FeModelSpec& spec);

}  // namespace jointdyn::model
