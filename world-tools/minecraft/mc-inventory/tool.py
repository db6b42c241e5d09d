from agent.world.inventory import InventoryView
from agent.world.toolkit import NoArgs, call, run_tool


Result = InventoryView


def summarize(v: Result) -> str:
    items = ", ".join(f"{i.count} {i.name}" for i in v.items) or "nothing"
    return f"carrying {items}; holding {v.held.name if v.held else 'nothing'}; {v.empty_slots} slots free"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, NoArgs, call("inventory"), Result, summarize)
