"""The one error a blueprint file gives: what was wrong with it and what is read."""

from agent.errors import ConfigError

FORMATS_READ = "Sponge .schem (v1, v2, v3), MCEdit/Schematica .schematic, Litematica .litematic, Mindcraft JSON"


class BlueprintError(ConfigError):
    """A file that cannot be read as a blueprint. Raised with what is wrong (`is not gzip-compressed
    NBT`); read_blueprint puts the file's name in front."""

    exit_code = 2
