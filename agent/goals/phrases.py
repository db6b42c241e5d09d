"""What words mean to the goal reader (rules.py): numbers and the phrases for them, the verbs of
each kind of ask (getting, digging, making, smelting, storing, going near, coming back,
climbing, following), the words a clause uses rather than asks for, and the distances a check
read from words allows. Patterns match lower-cased text.
"""

from __future__ import annotations

import re

NUMBERS = {"a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16, "twenty": 20}
# Phrases for a number, turned into digits before the words are read.
PHRASES = {"a couple of": "2", "a couple": "2", "a pair of": "2", "a few": "3", "half a dozen": "6",
           "a dozen": "12", "a stack of": "64", "a full stack of": "64"}
NUMBER_PHRASE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, PHRASES), key=len, reverse=True)) + r")\b")
MAX_COUNT = 64 * 36

_GET = (r"collect|gather|get|obtain|mine|dig|chop|cut|harvest|pick|fetch|acquire|grab|take|craft|make|smelt|cook|"
        r"bring|need|want|farm|punch|break|have|hold|carry|find me|gimme|give me|"
        r"produce|create|build|forge|cut down|turn|"
        r"convert|melt|roast|require|(?:would|'d) like|could use")
# Verbs that take a block out of the world: the item is what it drops (stone -> cobblestone).
DIG_VERBS = frozenset("mine dig chop cut harvest punch break farm".split())
# Verbs that make an item, not place a structure: "build a shear" makes shears when a recipe does.
MAKE_ONLY_VERBS = frozenset("build create produce forge".split())
# Verbs that make the thing named: "craft stone" is not what digging stone gives.
MAKE_VERBS = MAKE_ONLY_VERBS | frozenset("craft make turn convert".split())
# Verbs of the furnace: the thing named is what a furnace makes of it ("smelt raw iron": iron ingots).
SMELT_VERBS = frozenset("smelt cook melt roast".split())
# Words after which the things named are what a clause uses, not what it asks for ("planks from
# the logs", "mine stone with a pickaxe"); before "into" too ("turn the logs into planks").
SOURCE = re.compile(r"\b(?:from|out of|using|with|by using)\b")
_STORE = r"put|place|store|deposit|stash|leave|stow|drop|stick|stuff|load"
_NEAR = (r"(?:stand|be|get|go|walk|move|come|run|head|stay|climb|jump|hop)\s+(?:right\s+|over\s+|up\s+)?"
         r"(?:next to|beside|by|near|close to|up to|to|towards?|on top of|onto|on)\b|"
         r"\b(?:find|locate|reach|approach|search for|"
         r"look for|seek|spot|track down)")
_RETURN = (r"\b(?:come|go|walk|head|run|get|make your way|find your way)\s+back\b|\breturn\b|"
           r"\bback\s+(?:here|to (?:me|where you (?:started|were|began|are)|the start|your start|spawn))")
_CLIMB = r"\b(?:climb|tower|pillar|go up|get up|move up|rise|build yourself up)\b"
VERB = re.compile(rf"\b(?:{_GET}|{_STORE}|{_NEAR}|follow|stick|stay|return|climb|come|go|walk|head)\b")
CLAUSE = re.compile(r"\s*(?:[;!?]|\.(?:\s|$)|,?\s*\b(?:and\s+)?then\b,?|,?\s*\bafter that\b,?|,?\s*\bafterwards\b,?"
                    r"|,?\s*\band also\b|,?\s*\bafter which\b)\s*")
BLOCK_OF = re.compile(r"\bblocks? of (?:that |the |this )?(\w+)")
INTO = re.compile(r"\binto\b")
# Things that are places to take from or put into, never what a clause is about getting.
PLACES = frozenset({"chest", "barrel", "furnace", "crafting_table", "air", "cave_air", "void_air"})
JOIN = re.compile(r",?\s*\band\b\s+|,\s+")
STORE = re.compile(rf"\b(?:{_STORE})\b.*\b(?:in|into|inside|to)\b.*\bchests?\b")
FROM_CHEST = re.compile(r"\bfrom\b.*\bchests?\b|\bout of\b.*\bchests?\b")
RETURN = re.compile(_RETURN)
NEAR = re.compile(rf"\b(?:{_NEAR})\b")
GET = re.compile(rf"\b(?P<verb>{_GET})\b")
SKY = re.compile(r"\b(?:open sky|see the sky|under the sky|sky above|sky (?:is )?visible|the surface|"
                 r"open air|outdoors)\b")
CLIMB = re.compile(_CLIMB)
# A clause that says what the bot or the speaker has: no ask, though it names what "them" means next.
SAYS_WHAT_IS = re.compile(r"\s*(?:you(?:'re| are|'ve| have)?|i(?:'ve| have)?|we|(?:do|did) you|have you)\s+"
                          r"(?:carry|carrying|have|hold|"
                          r"holding|got)\b")
# Getting out of somewhere below the ground: a hole, or "up and out".
OUT = re.compile(r"\b(?:out of|get out|climb out|clamber out|escape)\b")
DOWN = re.compile(r"\b(?:hole|pit|shaft|well|ditch|crater|trench|down there|down here|up)\b|\bclimb")
# A structure to build is no item to get: "build a platform of dirt" asks for a platform of dirt
# (structures.py), not for dirt. The verbs that put one up, and words for structures besides the
# templates' own names: "build a castle" asks for one that no template builds.
BUILD = re.compile(r"\b(?:build|make|construct|create|put up|set up|erect)\b")
STRUCTURE_WORDS = frozenset("platform house hut shelter wall bridge floor roof tower base fort fortress castle cabin "
                            "room structure building pool staircase stairway pillar column square cube ring path "
                            "road pyramid dome arch statue igloo tent barn shed bunker temple".split())
# Words before a structure's name that make it a place, not the thing built: "a pickaxe near the house".
PLACE_WORDS = frozenset("near by beside next to in inside into at behind around from on onto under over across "
                        "for with".split())
# A place by its coordinates: "go to 10 64 -5", "(12, 65, -8)", "x=10 y=64 z=-5".
_N = r"(?<![\w.-])(-?\d{1,7}(?:\.\d+)?)(?![\d.])"
COORDS = re.compile(rf"(?:\bx\s*[=:]?\s*)?{_N}\s*,?\s*(?:\by\s*[=:]?\s*)?"
                    rf"{_N}\s*,?\s*(?:\bz\s*[=:]?\s*)?{_N}(?!\s*(?:blocks?|high|tall))")
GO = re.compile(r"\b(?:go|walk|move|head|travel|run|come|get|return|teleport|navigate|path)\b")
# The commas between numbers ("12, 65, -8") list coordinates; they part no clauses.
LISTED = re.compile(r"(?<=\d)\s*,\s*(?=-?\d|[xyz]\s*[=:])")
# A height as the game counts it: "climb to y 80", "get up to y=70", "y level 12".
LEVEL = re.compile(r"\b(?:y|y level|y-level)\s*[=:]?\s*(?P<n>-?\d{1,3})\b")
DOWNWARD = re.compile(r"\b(?:down|dig|descend|below)\b")  # a level gone down to: no check says "at most"
BLOCKS = re.compile(r"\b(?P<n>\d{1,3})\s+blocks?\b")
HEIGHT = re.compile(r"\b(?P<n>\d{1,3})\s+(?:blocks?\s+)?(?:high|up|higher|tall|above)\b")
FOLLOW = re.compile(r"\b(?:(?:keep )?follow(?:ing)?|accompany|escort|keep up with|stay (?:close )?(?:to|with)|"
                    r"stick (?:close )?(?:to|with)|go after|tail|"
                    r"(?:come|go|walk|tag) (?:along )?with)\s+"
                    r"(?:the player\s+|player\s+)?(?P<name>\w{2,16})\b", re.IGNORECASE)
PRONOUN = re.compile(r"\b(?:it|them|those|these|they|that|one)\b")
# Who "follow me" means is the speaker's name, which the words do not give.
NOT_NAMES = {"me", "him", "her", "them", "you", "the", "that", "this", "someone", "anyone", "everyone", "player", "it",
             "us", "along"}
NEAR_DISTANCE = 2.0  # beside the block (1.1 from its centre) or on it
FOLLOW_DISTANCE = 3.0  # mc-follow keeps 2 by default; a step behind still counts
RETURN_DISTANCE = 2.0  # back where it started: within two blocks of the spawn point
MADE_DEPTH = 3  # a later sub-goal uses up an earlier one it is made from this many recipes away (table, planks, log)
COUNTED_BEFORE = 3  # a count stands at most this many words before its name ("three big oak logs")
