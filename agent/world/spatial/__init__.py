"""What the body has seen in one run, as a map in world blocks (x east, y up, z south).

survey.py: one survey from the bridge; cells.py and memory.py: the map itself (store.py keeps
it in the run's map.sqlite); walking.py: standable cells, walking moves and frontiers;
picture.py: the top-down picture; view.py: the map around the bot as mc-map shows it;
feed.py: how world tools feed it; targets.py: where mc-explore goes next.
"""

from agent.world.spatial.feed import memory_of, survey_into
from agent.world.spatial.memory import SpatialMemory
from agent.world.spatial.picture import Mark
from agent.world.spatial.store import MAP_FILE
from agent.world.spatial.survey import Kind, Survey
from agent.world.spatial.targets import Target, next_target
from agent.world.spatial.view import MapView, map_view, overview
from agent.world.spatial.walking import Frontier, Region

__all__ = ["MAP_FILE", "Frontier", "Kind", "MapView", "Mark", "Region", "SpatialMemory", "Survey", "Target", "map_view",
           "memory_of", "next_target", "overview", "survey_into"]
