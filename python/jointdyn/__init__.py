"""jointdyn from Python: models from model files or dicts, analyses, interface laws.

    import jointdyn
    model = jointdyn.load("examples/hysteresis/coulomb.yaml")   # or jointdyn.Model({...})
    result = jointdyn.run(model, out="out/coulomb")             # the files of `jointdyn run`
    result["summary"]["status"]
    loop = jointdyn.analyze(model)                              # typed, numpy arrays
    loop["slip"][:, 0], loop["traction"][:, 0]

Errors in a model raise jointdyn.InputError (a ValueError) with the command line's message.
"""
from ._jointdyn import InputError, IoError, Model, analyze, evaluate_law, laws, load, run

__all__ = ["InputError", "IoError", "Model", "analyze", "evaluate_law", "laws", "load", "run"]
