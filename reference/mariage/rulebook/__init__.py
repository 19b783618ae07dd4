"""Rulebooks: compiled rules rendered as text, JSON and Sphinx pages.

:mod:`.render` turns rules into structured sections, :mod:`.sphinxext` is the Sphinx
extension of the documentation, :mod:`.docexamples` replays its worked examples and
:mod:`.schemadoc` reads the spec language's field reference from the JSON Schema.
"""
