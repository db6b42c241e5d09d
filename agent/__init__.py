"""mcagent: a Minecraft embodied agent driving a Mineflayer bot from Python."""

__version__ = "0.1.0"
