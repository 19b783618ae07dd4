"""The rules in AI frameworks (optional extra ``ai``: numpy, gymnasium, pettingzoo, open_spiel).

* :mod:`mariage.ai.layout`: the layouts of observations and information-state
  tensors, as tables (pure Python);
* :mod:`mariage.ai.encoding`: a fixed action-id space per ruleset, action
  masks, observation vectors built from a seat's view and perfect-recall
  information-state tensors (numpy);
* :mod:`mariage.ai.gym_env`: single-agent Gymnasium environments registered as
  ``mariage/<ruleset>-v0`` (one seat learns against built-in policies);
* :mod:`mariage.ai.pettingzoo_env`: a PettingZoo AEC environment with
  Gymnasium spaces;
* :mod:`mariage.ai.openspiel_game`: an OpenSpiel Python game for every
  ruleset (chance nodes for the deals, information state strings and tensors);
* :mod:`mariage.ai.rewards`, :mod:`mariage.ai.policies` (the baselines, ISMCTS
  among them) and :mod:`mariage.ai.evaluate` (paired deals, Wilson intervals);
* :mod:`mariage.ai.docs`: the Sphinx directive that prints the layouts.

Nothing here is imported by ``import mariage``: the core needs none of these
packages.
"""
