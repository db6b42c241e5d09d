"""A goal's words parted into clauses in the order they are to be done: at sentence ends, at
"then", "after that", "afterwards", and at "and" or a comma where a new verb follows ("get 3 logs
and put them in the chest", not "oak and birch logs"); "once you have X, Y" and "before Y, X" put
in the order of doing. "until ..." stays with its clause: it says when that clause is done.
"""

from __future__ import annotations

from agent.goals.reading.lexicon import lexicon, phrase_at
from agent.goals.reading.words import Word

# Words that end a clause and begin the next, in the order of doing.
THEN = ["then", "and then", ", then", "after that", "afterwards", "after which", "and after that", "and also",
        "and next", "and finally", "finally", "lastly", "and lastly", "after this", "once done",
        "when done", "when you are done", "once you are done", "when finished", "once finished", "and afterwards"]
# Words that open a clause to be done first: "once you have 3 logs, make planks".
FIRST = ["once you have", "once you've", "after you have", "when you have", "once", "after", "when", "as soon as"]
BEFORE = ["before you", "before"]
SENTENCE_ENDS = frozenset(".;!?")
# Words that open a statement: what follows its comma is a clause of its own ("you're stuck, climb out").
SUBJECTS = frozenset({"you", "your", "i", "we", "it", "there", "this", "that", "he", "she", "they"})
# Verbs that need no object, after which "and" may start a new clause ("come back and ...").
INTRANSITIVE = frozenset({"come", "go", "return", "follow", "climb", "stand", "stay", "wait", "walk", "run", "head"})


def clauses(words: list[Word]) -> list[list[Word]]:
    """The clauses of a goal's words, in the order of doing."""
    out: list[list[Word]] = []
    for sentence in _sentences(words):
        out.extend(_ordered(_parted(sentence)))
    return [c for c in (_trimmed(c) for c in out) if c]


def _sentences(words: list[Word]) -> list[list[Word]]:
    parts: list[list[Word]] = [[]]
    for w in words:
        if w.text in SENTENCE_ENDS:
            parts.append([])
        else:
            parts[-1].append(w)
    return [p for p in parts if p]


def _parted(words: list[Word]) -> list[list[Word]]:
    """A sentence's clauses: at "then"-words, and at "and"/"," before a new verb."""
    out: list[list[Word]] = [[]]
    i = 0
    while i < len(words):
        end = phrase_at(words, i, THEN)
        if end is not None and out[-1]:
            out.append([])
            i = end
            continue
        w = words[i]
        if w.text == "to" and _means_clause(out[-1]) and i + 1 < len(words) and words[i + 1].text in lexicon().all_verbs:
            out.append([])  # "use the dirt you've got to build your way up": the way, then the ask
            i += 1
            continue
        if w.text in ("and", ",", "but") and out[-1] and _verb_follows(words, i + 1, out[-1]) and \
                phrase_at([*out[-1], w], 0, lexicon().frames) != len(out[-1]) + 1:  # "find material and craft"
            out.append([])
            i += 1
            continue
        out[-1].append(w)
        i += 1
    return [p for p in out if p]


def _verb_follows(words: list[Word], j: int, before: list[Word]) -> bool:
    """Whether a new verb phrase starts at words[j] (past "and", "then", "please", "also")."""
    lex = lexicon()
    while j < len(words) and words[j].text in ("and", ",", "please", "also", "then", "just", "now", "so", "next",
                                               "finally", "lastly", "first", "second", "third", "after"):
        j += 1
    if j >= len(words):
        return False
    w = words[j]
    if w.text in ("once", "after", "when", "before", "i", "you", "we", "there", "do", "can", "could", "would",
                  "let"):
        return True
    if w.text not in lex.all_verbs:  # a base form: "and sticks" is a thing, "and stick it" a verb
        return False
    if w.text == "like" and j + 1 < len(words) and words[j + 1].number is not None:
        return False  # "..., like 6 of them": about six, no verb
    if before and not any(lex.intents(b) and b.text not in lex.prepositions["means"] for b in before) and \
            phrase_at(before, 0, FIRST) is None and before[0].text not in SUBJECTS:
        return False  # "from the chest, take 3 apples": the words before belong to the verb after
    if before and before[-1].text in lex.all_verbs and not _has_object(before):
        return False  # "find and chop the tree", "craft and use a shovel": two verbs, one thing
    nxt = words[j + 1] if j + 1 < len(words) else None
    return nxt is not None and not nxt.punct and nxt.text not in ("and", "or") or w.text in INTRANSITIVE


def _means_clause(clause: list[Word]) -> bool:
    """Whether a clause so far is "use X": what comes after "to" is what it is for."""
    return bool(clause) and bool(set(clause[0].forms()) & set(lexicon().verbs["means"])) and len(clause) > 1


def _has_object(clause: list[Word]) -> bool:
    """Whether a clause has words past its verb (so a verb after "and" is not sharing its thing)."""
    verbs = [i for i, w in enumerate(clause) if w.text in lexicon().all_verbs or w.verbs & lexicon().all_verbs]
    return bool(verbs) and verbs[0] < len(clause) - 1


def _ordered(parts: list[list[Word]]) -> list[list[Word]]:
    """ "once you have X, Y": X then Y (the comma parts them); "before Y, X": X then Y."""
    out: list[list[Word]] = []
    pending_after: list[Word] | None = None
    for part in parts:
        first = phrase_at(part, 0, FIRST)
        before = phrase_at(part, 0, BEFORE)
        if before is not None:
            pending_after = part[before:]
            continue
        out.append(part[first:] if first is not None else part)
        if pending_after is not None:
            out.append(pending_after)
            pending_after = None
    if pending_after is not None:
        out.append(pending_after)
    return out


def _trimmed(words: list[Word]) -> list[Word]:
    """The clause without commas and joining words at its ends."""
    edge = {",", "and", "then", "but", "so", "or"}
    start, end = 0, len(words)
    while start < end and words[start].text in edge:
        start += 1
    while end > start and words[end - 1].text in edge:
        end -= 1
    return words[start:end]
