"""The conformance suite machinery: engine protocol, reference engine, runner and reports.

An engine in any language speaks the line-delimited JSON protocol of
:mod:`mariage.conformance.protocol`; :mod:`mariage.conformance.runner` plays
the tests of ``conformance/`` against it and reports what passed, per ruleset
and per rule ID.
"""

from __future__ import annotations

from .limits import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "RUNNER_VERSION"]

#: Version of the runner rules in ``docs/conformance.rst``.
RUNNER_VERSION = 1
