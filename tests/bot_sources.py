"""Agents a bot author might get wrong, as module source: the tests that seat a custom agent by
`module:Class` (`balance`, `simulate`, `play`) write it, with agents of their own, into a module
on PYTHONPATH, so that worker processes import it too."""

MISBEHAVING = '''
from rulesdsl.interpreter.actions import Action


class Illegal:
    def __init__(self, seed):
        pass

    def act(self, game):
        return Action("fly", ("away",))


class PlaysOnTheGame:
    """Plays its look-ahead on the game itself (not on a clone), then answers a legal action."""

    def __init__(self, seed):
        pass

    def act(self, game):
        game.apply(game.legal_actions()[0])
        return game.legal_actions()[0]
'''
