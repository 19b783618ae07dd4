"""The engine: compiled rules, actions, the game state and its mechanisms.

Everything a match needs once a description has been compiled to
:class:`~mariage.engine.rules.Rules`: the actions (:mod:`.actions`), the phases
(:mod:`.phase`), deals and the seeded generator (:mod:`.deals`, :mod:`.prng`), the
state that holds the data and dispatches (:mod:`.state`), one module per rules
mechanism (:mod:`.mechanisms`), how hands and matches end (:mod:`.outcomes`) and what
one seat may see (:mod:`.observation`). Nothing here reads YAML.
"""
