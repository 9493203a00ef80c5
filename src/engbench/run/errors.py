"""The run stage's refusal, in a module of its own so that every part of the stage that refuses
(params, limits, targets) raises the one class without importing another part."""


class ParamError(ValueError):
    """A parameter, knob or run limit that is malformed or cannot be honoured: refused before
    anything is written."""
