"""The Minecraft version the project is tested on."""

# What a local server speaks when nothing names a version, and what game data reads for a
# version minecraft-data does not know.
DEFAULT_VERSION = "1.20.4"
