"""What an installed wheel must do wherever it is installed (run by
scripts/build_release.sh and scripts/check_pythons.sh from the fresh
environment, outside the checkout): load from that environment, natively,
decide an explicit change with both implementations and both shipped rules,
and load the static vector table it ships."""

import sys

import turnsignal
from turnsignal import RESET_RULE, TopicContinuity, _hotpath

assert turnsignal.IMPLEMENTATION == "native", turnsignal.IMPLEMENTATION
assert turnsignal.__file__.startswith(sys.prefix), turnsignal.__file__
request = {"messages": [
    {"role": "user", "content": "Refactor the routing module so plugins load lazily"},
    {"role": "assistant", "content": "Done. The loader now defers plugin initialization."},
    {"role": "user", "content": "New topic: suggest a weekend hiking trail near Seattle"}]}
for implementation in ("native", "python"):
    for signal in (TopicContinuity(implementation=implementation),
                   TopicContinuity([RESET_RULE], implementation=implementation)):
        reason = signal.evaluate(request).results[0].reason.value
        assert reason == "change_explicit_marker", (implementation, reason)
    assert _hotpath.vector_table(implementation).pool("pasta recipe").known == 2
print("ok:", turnsignal.__version__, turnsignal.IMPLEMENTATION)
