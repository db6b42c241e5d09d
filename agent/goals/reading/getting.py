"""Intents about things: getting, making, digging and smelting them (has_item), storing them in a
chest (container_has), taking everything out of one, giving them to a player."""

from __future__ import annotations

from dataclasses import replace

from agent.checks.model import ContainerHas, HasItem, Not, Stock
from agent.goals.reading.asks import Ask
from agent.goals.reading.lexicon import lexicon
from agent.goals.reading.model import CONTAINERS, Context, Read, Thing, phrases_of, whole
from agent.goals.reading.nouns import Named, Phrase, Role, resolve
from agent.goals.reading.things import asked, from_container, made_thing, of_source, thing_of, unknown
from agent.goals.reading.words import words_of
from agent.goals.understanding import SubGoal, Unread
from agent.mc.gamedata import item_names
from agent.mc.names import Item


def obtain(ask: Ask, context: Context, mc_version: str | None) -> Read:
    """has_item of each thing asked, as the verb asks for it."""
    product = ask.prep("into")
    if product is not None and not made_thing(product, mc_version):
        product = None  # "cook the chicken in the furnace": where, not what it makes
    objects = ask.objects
    if product is not None and any(p.every or p.carried for p in ask.objects) and \
            (ask.verb or "") not in lexicon().smelt_verbs:
        return whole(ask, "all of them made into another thing: how many? say the number")
    if product is not None and ask.intents and not set(ask.intents) & {"store"}:  # "smelt 4 sand into glass"
        smelted = (ask.verb or "") in lexicon().smelt_verbs  # a furnace makes one of each
        counted = next((p.count for i, p in enumerate(ask.objects) if p.count is not None and (
            smelted or i > 0 and (p.empty or p.pronoun))), None)  # "turn it into planks, 8 of them"
        objects = [product if product.count is not None or counted is None else replace(product, count=counted)]
    if not objects:
        return amend(ask, context) if ask.verb is None or set(ask.intents) & {"want", "get"} else \
            whole(ask, f"{ask.verb} what?")
    read = Read()
    verb = ask.then_verb or ask.verb or "get"
    role: Role = "dig" if verb in lexicon().dig_verbs and ask.then_verb is None else "item"
    things: list[Thing] = []
    for phrase in objects:
        if phrase.contents:
            continue
        if (phrase.empty or phrase.pronoun) and phrase.count is not None and things:  # "some sand, 4 should do"
            things[-1] = replace(things[-1], count=phrase.count, count_of=None, said=True)
            read.subgoals[-1] = holding(ask.says, things[-1])
            continue
        if phrase.empty and phrase.count is not None:  # "get me 2": of the thing said before
            amended = amend(ask, context, phrase.count)
            read.subgoals.extend(amended.subgoals)
            read.unread.extend(amended.unread)
            read.amends = amended.amends
            continue
        thing = asked(phrase, verb, role, context, mc_version, made_into=product is not None,
                       source=ask.prep("from"), from_chest=from_container(ask, mc_version))
        thing = of_source(thing, ask.prep("from"), mc_version) if isinstance(thing, Thing) else thing
        if isinstance(thing, Unread):
            read.unread.append(thing)
            continue
        things.append(thing)
        context.things = things[-1:]  # "all the wood from that tree, every log of it"
        read.subgoals.append(holding(ask.says, thing))
    if things:
        context.things = things
    return read


def holding(says: str, thing: Thing) -> SubGoal:
    check = HasItem(has_item=Item(name=thing.named.name, count=thing.count))
    return SubGoal(says=says, check=check, kinds=thing.kinds, count_of=thing.count_of, counted=thing.counted)


def amend(ask: Ask, context: Context, count: int | None = None) -> Read:
    """A count alone ("4 should do", "I want at least 8", "get me 2"): of the thing said before."""
    count = count or next((p.count for p in ask.objects if p.count is not None), None)
    if count is None or len(context.things) != 1:
        return whole(ask, "of what?") if ask.says else Read()
    thing = replace(context.things[0], count=count, count_of=None, said=True)
    amends = not context.things[0].said
    context.things = [thing]
    return Read([holding(ask.says, thing)], amends=amends)


def product_of(ask: Ask, context: Context, mc_version: str | None) -> Read:
    """ "shear the sheep": wool; "milk a cow": a bucket of milk."""
    table = lexicon().products[ask.verb or ""]
    for phrase in ask.objects:
        creature = next((w.text for w in phrase.naming if w.text in table or set(w.forms()) & set(table)), None)
        if creature is None:
            continue
        made = table.get(creature) or next(table[f] for f in phrase.naming[0].forms() if f in table)
        names = tuple(n for n in sorted(item_names(mc_version)) if n.endswith(made)) if made.startswith("_") else (made,)
        thing = Thing(Named(names, made if made.startswith("_") else None), phrase.count or 1)
        context.things = [thing]
        return Read([holding(ask.says, thing)])
    return whole(ask, f"{ask.verb} what?")


def store(ask: Ask, into: Phrase, context: Context, mc_version: str | None) -> Read:
    """container_has of each thing put into a container."""
    container, _ = resolve(into.naming, "container", mc_version)
    if into.pronoun is not None and not into.naming:
        container = Named(("chest",))
    if container is None or container.name not in CONTAINERS:
        return Read(unread=[Unread(words=into.says, why="not a container I can put things in")])
    if container.name != "chest":  # the world's check reads chests (container_has)
        return Read(unread=[Unread(words=into.says, why="what a container holds is checked in chests only")])
    read = Read()
    phrases = ask.objects or [Phrase(words=words_of("it"), pronoun="it")]  # "put in the chest": what was said
    for phrase in phrases:
        thing = thing_of(phrase, "item", context, mc_version)
        if thing is None:
            read.unread.append(unknown(phrase, "item", mc_version))
            continue
        if phrase.every and not phrase.carried and phrase.count is None:
            thing = thing if thing.said or thing.count_of else replace(thing, count_of="carried")
        if thing.definite and thing.count_of is None:
            thing = replace(thing, count_of="held")  # "put the dirt in the chest": the dirt there is
        stock = Stock(name=thing.named.name, count=thing.count)
        read.subgoals.append(SubGoal(says=ask.says, check=ContainerHas(container_has=stock), kinds=thing.kinds,
                                     count_of=thing.count_of if thing.count_of in ("carried", "held") else None,
                                     at_nearest=into.definite or into.pronoun is not None))
        context.things = [thing]
    return read


def filled(ask: Ask, mc_version: str | None) -> tuple[Phrase, Phrase] | None:
    """ "fill the chest with dirt", "load that chest with 10 torches": the container, and what goes
    in it (after "with")."""
    thing = ask.prep("means")
    if not ask.objects or thing is None:
        return None
    named, _ = resolve(ask.objects[0].naming, "container", mc_version)
    return (ask.objects[0], thing) if named is not None and named.name in CONTAINERS else None


def only_into_kind(ask: Ask, mc_version: str | None) -> bool:
    """ "turn the logs into planks": "into" a thing made, not a container."""
    into = ask.prep("into")
    return into is not None and made_thing(into, mc_version)


def take_all(ask: Ask, context: Context, mc_version: str | None) -> Read:
    """Everything the nearest chest holds at the start, taken ("empty that chest", "take
    everything out of it")."""
    place = next((p.of or p for p in phrases_of(ask) if p.contents or resolve(p.naming, "container", mc_version)[0]), None)
    if place is not None and place.naming:
        named, _ = resolve(place.naming, "container", mc_version)
        if named is None or named.name not in CONTAINERS:
            return whole(ask, "empty what? a chest")
    context.things = []
    return Read([SubGoal(says=ask.says, check=HasItem(has_item=Item(name="chest", count=1)), contents=True)])


def give(ask: Ask, context: Context, mc_version: str | None, player: str | None) -> Read:
    """Carry the things, then carry that many fewer: handed to the player (mc-give)."""
    got = obtain(ask, context, mc_version)
    if not got.subgoals or player is None:
        return got
    gives = []
    for sub in got.subgoals:
        item = sub.check.has_item  # _obtain's sub-goals are has_item
        rest = HasItem(has_item=item.model_copy(update={"count": 1}))
        gives.append(SubGoal(says=ask.says, check=Not(**{"not": rest}), count_of="given", lasting=True,
                             players=[player] if player.lower() in lexicon().player_pronouns else [],
                             given={"mc-give": {"player": player, "item": item.name, "count": item.count}}))
    return Read([*got.subgoals, *gives], got.unread)


def remember(ask: Ask, context: Context, mc_version: str | None) -> None:
    """ "use the dirt you've got": the thing "it" means next."""
    things = [t for p in ask.objects if (t := thing_of(p, "item", context, mc_version)) is not None]
    if things:
        context.things = things[-1:]

