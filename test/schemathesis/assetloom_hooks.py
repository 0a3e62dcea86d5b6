"""Schemathesis hooks for the asset API (loaded through SCHEMATHESIS_HOOKS by run.mjs).

One rule of the contract relates two fields, which JSON Schema cannot state: a generate
request's `params.animation.frameDurations` holds one duration per frame of a direction, so its
length must equal `params.frames.framesPerDirection` (the contract's default, 4, when omitted) for
the asset types that carry frames (sprite, animation). The server answers any other length with
400 参数错误 and a message naming the field (decision 0020).

Without this filter, a schema-valid body that breaks the rule is "schema-valid data rejected"
(ST202). With it, generate keeps the strict positive-data check for everything the schema can
state: the hook drops only bodies whose duration count disagrees with their frame count.
"""

from __future__ import annotations

import schemathesis

FRAMED_TYPES = {"sprite", "animation"}


def _frames_per_direction(params: dict, default: int) -> object:
    frames = params.get("frames")
    if isinstance(frames, dict) and "framesPerDirection" in frames:
        return frames["framesPerDirection"]
    return default


def durations_match_frames(body: object, default_frames: int) -> bool:
    """True unless the body is a framed request whose duration count differs from its frame count."""
    if not isinstance(body, dict) or body.get("assetType") not in FRAMED_TYPES:
        return True
    params = body.get("params")
    if not isinstance(params, dict):
        return True
    animation = params.get("animation")
    if not isinstance(animation, dict):
        return True
    durations = animation.get("frameDurations")
    if not isinstance(durations, list):
        return True
    expected = _frames_per_direction(params, default_frames)
    # JSON Schema counts 3.0 as the integer 3 (and so does the server); a count that is not an
    # integer at all is the schema's business (its own 400), not this rule's.
    if isinstance(expected, bool) or not isinstance(expected, (int, float)):
        return True
    if isinstance(expected, float) and not expected.is_integer():
        return True
    return len(durations) == int(expected)


def _default_frames(ctx) -> int:
    """The contract's default framesPerDirection, read from the loaded document."""
    try:
        schemas = ctx.operation.schema.raw_schema["components"]["schemas"]
        value = schemas["Frames"]["properties"]["framesPerDirection"]["default"]
        if isinstance(value, int):
            return value
    except (AttributeError, KeyError, TypeError):
        pass
    return 4


@schemathesis.hook("filter_body").apply_to(method="POST", path="/api/v1/generate")
def generate_frame_durations(ctx, body):
    return durations_match_frames(body, _default_frames(ctx))
