"""The English `explain` gives each statement is written when first read, not when compiling:
it was about a third of `rulesdsl check`'s time (and of every command's start), and no game
reads it.  What is written is the same as before, once (the texts every explain test pins)."""

from __future__ import annotations

import rulesdsl.compiler as compiler_module
from rulesdsl.explain import explain
from rulesdsl.interpreter.agents import RandomAgent
from rulesdsl.pipeline import Ruleset, compile_layers


def test_compiling_and_playing_write_no_english_until_explain_reads_it(monkeypatch):
    written = []
    real = compiler_module.english

    def counted(*args, **kwargs):
        written.append(args[0])
        return real(*args, **kwargs)
    monkeypatch.setattr(compiler_module, "english", counted)
    content = compile_layers(("pantheon", "agora"), "duel", 2).content
    game = Ruleset(content).new_game(seed=5)
    agent = RandomAgent(5)
    while not game.over:
        game.apply(agent.act(game))
    assert written == []

    card = content.items[content.item_index["Chamber of Commerce"]]
    assert "When built: gain 3 coins for each grey card in your city." in explain("Chamber of Commerce", content)
    assert written, "explain wrote the card's English"
    assert all(text.__class__ is str for text in card.phrases)   # (kept once written)
    asked = len(written)
    explain("Chamber of Commerce", content)
    assert len(written) == asked


def test_every_kind_of_text_reads_as_a_string():
    content = compile_layers((), "duel", 2).content
    strategy = content.items[content.item_index["Strategy"]]
    assert strategy.triggers and strategy.triggers[0].text.__class__ is str
    assert strategy.triggers[0].text == "When you build a red card: 1 shield"
    discard = next(a for a in content.actions if a.name == "discard")
    assert all(t.__class__ is str for t in discard.texts)
    assert all(t.__class__ is str for b in content.blocks for t in b.texts)
    assert all(t.__class__ is str for r in content.rules for t in [r.text])
