"""From a game description to compiled rules, in one direction.

Read YAML within bounds (:mod:`.yamlread`), merge ``extends:`` and check the schema
and consistency (:mod:`.specload`), resolve option values (:mod:`.options`), compile
to :class:`~mariage.engine.rules.Rules` (:mod:`.compile`, :mod:`.compile_games`), and
keep the results in the per-user cache (:mod:`.diskcache`).
"""
