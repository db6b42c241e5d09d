"""The game's words, the ground floor every room of agent/ stands on: world coordinates and facings,
the egocentric frame, a seed's transform, block and item names, what minecraft-data says of them,
and the version the project is tested on. It imports no agent package above errors, paths and config."""
