#include "model/joints_reader.h"

#include <set>

#include "model/fe_reader.h"
#include "model/law_registry.h"

namespace jointdyn::model {
namespace {

analysis::JointSpec ReadJoint(const ModelNode& node, const fe::FeModelSpec& fe) {
  analysis::JointSpec joint;
  joint.contact = fe.contacts[ReadContactIndex(node, "contact", fe)].name;
  joint.normal = ReadNormalLaw(node.Map("normal"));
  if (node.Has("friction")) {
    const ModelNode friction = node.Map("friction");
    joint.friction = ReadTangentialLaw(friction);
    if (joint.friction->dim() != 2)
      friction.FailValue("dim", std::to_string(joint.friction->dim()),
                         "must be 2: the slip in a joint has two components (add dim: 2)");
  }
  node.Finish();
  return joint;
}

}  // namespace

std::vector<analysis::JointSpec> ReadJoints(const ModelNode& root, const fe::FeModelSpec& spec) {
  std::vector<analysis::JointSpec> joints;
  std::set<std::string> contacts;
  for (const ModelNode& node : root.Maps("joints")) {
    joints.push_back(ReadJoint(node, spec));
    if (!contacts.insert(joints.back().contact).second)
      node.FailValue("contact", joints.back().contact, "has a joint already");
  }
  return joints;
}

}  // namespace jointdyn::model
