"""World tools' result models, one module per tool: each world tool's result model lives in a
module named after it (mc-pillar-up -> pillar_up.py), beside its JS helper
(bridge/helpers/pillar-up.js) and its tests (tests/integration/test_mc_pillar_up.py).

Models shared by several tools live in a module named after what they share (digging.py).
Every model here builds on agent/world/models.py's `Model` base (extra fields forbidden, frozen),
and its conventions: world blocks x east, y up, z south; egocentric offsets forward, right, up in
whole blocks from the feet block, the facing snapped to its cardinal.
"""
