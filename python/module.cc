// The Python module `jointdyn` (pybind11): models from model files or from Python dicts
// with the same schema, validation and messages, their analyses run with the same files as
// `jointdyn run`, and the interface laws evaluated pointwise along a slip path, returning
// numpy arrays (typed_results.h). The core never includes Python: python/ is the only
// folder that does.
//
// Errors: a bad model or argument raises jointdyn.InputError (a ValueError) with the
// command line's message; a file that cannot be written raises jointdyn.IoError (an
// OSError). The GIL is released while C++ computes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"
#include "laws/law_point.h"
#include "model/law_registry.h"
#include "model/model_node.h"
#include "python/python_observer.h"
#include "python/typed_results.h"
#include "run/run_model.h"

namespace py = pybind11;
using jointdyn::model::ModelNode;

namespace {

// A Python value as YAML: dicts as mappings, lists, tuples and numpy arrays as sequences,
// None as null, floats with all their digits.
void Emit(const py::handle& value, YAML::Emitter& out, const std::string& path) {
  if (value.is_none()) {
    out << YAML::Null;
  } else if (py::isinstance<py::bool_>(value)) {
    out << value.cast<bool>();
  } else if (py::isinstance<py::int_>(value)) {
    out << value.cast<long long>();
  } else if (py::isinstance<py::float_>(value)) {
    out << value.cast<double>();
  } else if (py::isinstance<py::str>(value)) {
    out << YAML::DoubleQuoted << value.cast<std::string>();
  } else if (py::isinstance<py::dict>(value)) {
    out << YAML::BeginMap;
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw jointdyn::InputError(path, py::str(key).cast<std::string>(),
                                   "a model key must be a string");
      const std::string name = key.cast<std::string>();
      out << YAML::Key << name << YAML::Value;
      Emit(item, out, path.empty() ? name : path + "." + name);
    }
    out << YAML::EndMap;
  } else if (py::isinstance<py::array>(value)) {
    Emit(value.attr("tolist")(), out, path);
  } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    out << YAML::Flow << YAML::BeginSeq;
    int i = 0;
    for (const auto& item : value) Emit(item, out, path + "[" + std::to_string(i++) + "]");
    out << YAML::EndSeq;
  } else if (py::hasattr(value, "__float__")) {  // numpy scalars
    out << py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
  } else {
    throw jointdyn::InputError(path, py::str(value).cast<std::string>(),
                               "must be a dict, list, number, string, bool or None");
  }
}

// A model: its YAML text and the name messages give it (the file, or "<dict>").
struct Model {
  std::string text;
  std::string name;

  ModelNode Root() const { return ModelNode::LoadString(text, name); }
  std::string Analysis() const { return Root().String("analysis"); }
};

Model FromDict(const py::dict& model, const std::string& name) {
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  Emit(model, out, "");
  return {out.c_str(), name};
}

Model Load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw jointdyn::InputError("model", path, "cannot be read (no such file?)");
  std::stringstream text;
  text << in.rdbuf();
  return {text.str(), path};
}

// Runs `model` into folder `out` as `jointdyn run` does; returns ok, message and the
// summary (summary.json as a dict).
py::dict Run(const Model& model, const std::string& out) {
  jointdyn::run::RunOutcome outcome;
  {
    const ModelNode root = model.Root();
    py::gil_scoped_release release;
    jointdyn::python::StopOnInterrupt interrupt;
    outcome = jointdyn::run::RunModel(root, out);
    jointdyn::ClearStopRequest();
  }
  std::ifstream in(outcome.summary);
  std::stringstream json;
  json << in.rdbuf();
  py::dict result;
  result["ok"] = outcome.ok;
  result["message"] = outcome.message;
  result["summary"] = py::module_::import("json").attr("loads")(json.str());
  return result;
}

// A tangential law stepped along a slip path (n x 1 or n x 2 [m]) at a pressure [Pa] and
// time step [s]: traction (n x 2 [Pa]), the tangent d tau / d s (n x 2 x 2 [Pa/m]), stored
// energy (n [J/m^2]) and the state (0 open, 1 stick, 2 slip).
py::dict EvaluateLaw(const py::dict& law, const py::array_t<double>& slip, double pressure,
                     double dt) {
  py::dict wrapper;
  wrapper["law"] = law;
  const Model model = FromDict(wrapper, "<law>");
  const ModelNode root = model.Root();
  const auto built = jointdyn::model::ReadTangentialLaw(root.Map("law"));
  const auto s = slip.unchecked();
  if (s.ndim() < 1 || s.ndim() > 2 || (s.ndim() == 2 && s.shape(1) > 2))
    throw jointdyn::InputError("slip", "shape", "must be n values or n x 2 values [m]");
  const py::ssize_t n = s.shape(0);
  py::array_t<double> traction({n, py::ssize_t{2}}), tangent({n, py::ssize_t{2}, py::ssize_t{2}});
  py::array_t<double> energy(n);
  py::array_t<int> state(n);
  auto t = traction.mutable_unchecked<2>();
  auto d = tangent.mutable_unchecked<3>();
  auto e = energy.mutable_unchecked<1>();
  auto c = state.mutable_unchecked<1>();
  jointdyn::laws::LawPoint point(*built);
  for (py::ssize_t i = 0; i < n; ++i) {
    const jointdyn::Vec2 at =
        s.ndim() == 1 ? jointdyn::Vec2(s.data(i)[0], 0.0)
                      : jointdyn::Vec2(s.data(i, 0)[0], s.shape(1) > 1 ? s.data(i, 1)[0] : 0.0);
    jointdyn::laws::TangentialResponse r;
    const jointdyn::Status status = point.Step({at, pressure, dt}, r);
    if (!status)
      throw std::runtime_error("law " + std::string(built->type()) + " at sample " +
                               std::to_string(i) + ": " + status.message);
    for (int a = 0; a < 2; ++a) {
      t(i, a) = r.traction(a);
      for (int b = 0; b < 2; ++b) d(i, a, b) = r.d_traction_d_slip(a, b);
    }
    e(i) = r.stored_energy;
    c(i) = static_cast<int>(r.state);
  }
  py::dict result;
  result["traction"] = traction;
  result["tangent"] = tangent;
  result["stored_energy"] = energy;
  result["state"] = state;
  return result;
}

// The interface laws a model can name (model/law_registry.h): type, kind (tangential or
// normal), summary, reference, has_dim, the parameters (key, unit, rule, meaning) and the
// documented example (a YAML flow mapping) with its slip [m] and pressure scales.
py::list Laws() {
  py::list out;
  const auto add = [&out](const auto& spec, const char* kind) {
    py::list params;
    for (const jointdyn::model::ParamDoc& p : spec.params)
      params.append(py::dict(py::arg("key") = p.key, py::arg("unit") = p.unit,
                             py::arg("rule") = p.rule, py::arg("meaning") = p.meaning));
    out.append(py::dict(py::arg("type") = spec.type, py::arg("kind") = kind,
                        py::arg("summary") = spec.summary, py::arg("reference") = spec.reference,
                        py::arg("has_dim") = spec.has_dim, py::arg("params") = params,
                        py::arg("example") = spec.example,
                        py::arg("example_slip") = spec.example_slip,
                        py::arg("example_pressure") = spec.example_pressure));
  };
  for (const auto& spec : jointdyn::model::TangentialLawSpecs()) add(spec, "tangential");
  for (const auto& spec : jointdyn::model::NormalLawSpecs()) add(spec, "normal");
  return out;
}

py::dict Analyze(const Model& model, py::object progress) {
  return jointdyn::python::Analyze(model.Root(), std::move(progress));
}

}  // namespace

PYBIND11_MODULE(_jointdyn, m) {
  m.doc() = "jointdyn: nonlinear dynamics of jointed structures (C++ core)";
  py::register_exception<jointdyn::InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<jointdyn::IoError>(m, "IoError", PyExc_OSError);
  py::class_<Model>(m, "Model", "A model: a model file's content, from a file or a dict")
      .def(py::init(&FromDict), py::arg("model"), py::arg("name") = "<dict>",
           "A model from a dict with the model files' schema (docs/model_files.md)")
      .def_property_readonly("analysis", &Model::Analysis, "the analysis the model names")
      .def_readonly("name", &Model::name)
      .def_readonly("yaml", &Model::text, "the model as YAML text");
  m.def("load", &Load, py::arg("path"), "A model from a model file (YAML)");
  m.def("run", &Run, py::arg("model"), py::arg("out"),
        "Runs the model's analysis, writing into folder `out` what `jointdyn run` writes; "
        "returns {'ok', 'message', 'summary'} (summary.json as a dict)");
  m.def("analyze", &Analyze, py::arg("model"), py::arg("progress") = py::none(),
        "Runs the model's analysis without writing files and returns its typed result: "
        "status, counters, timings and numpy arrays. `progress(event)` gets dicts "
        "{'kind': 'progress', 'task', 'done', 'total'} and {'kind': 'note', 'text'}; if it "
        "raises (or on Ctrl-C) the run stops and the exception reaches the caller");
  m.def("laws", &Laws, "The interface laws (docs/laws.md) with their parameters and examples");
  m.def("evaluate_law", &EvaluateLaw, py::arg("law"), py::arg("slip"), py::arg("pressure"),
        py::arg("dt") = 1e-3,
        "Steps a tangential law (a dict as in model files, e.g. {'type': 'coulomb', 'dim': 2, "
        "'c1': 1e11, 'mu': 0.3}) along a slip path (n or n x 2 [m]) at a pressure [Pa]; "
        "returns traction [Pa], tangent [Pa/m], stored_energy [J/m^2] and state "
        "(0 open, 1 stick, 2 slip) as numpy arrays");
}
