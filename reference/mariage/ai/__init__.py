"""The rules in AI frameworks (optional extra ``ai``: numpy, gymnasium, pettingzoo, open_spiel).

* :mod:`mariage.ai.encoding`: a fixed action-id space per ruleset, action
  masks and observation vectors built from a seat's view (numpy only);
* :mod:`mariage.ai.pettingzoo_env`: a PettingZoo AEC environment with
  Gymnasium spaces;
* :mod:`mariage.ai.openspiel_game`: an OpenSpiel Python game for every
  ruleset (chance nodes for the deals, information state strings).

Nothing here is imported by ``import mariage``: the core needs none of these
packages.
"""
