"""Topic segmentation of conversations and sessions (causal by construction).

>>> import turnsignal
>>> result = turnsignal.segment({"messages": [
...     {"role": "user", "content": "Refactor the routing module so plugins load lazily"},
...     {"role": "assistant", "content": "Done: the loader defers plugin initialization."},
...     {"role": "user", "content": "New topic: suggest a weekend hiking trail near Seattle"},
... ]})
>>> [(s.first, s.last, s.reason) for s in result]
[(0, 1, 'start'), (2, 2, 'change_explicit_marker')]
"""

from turnsignal.segmentation.api import Segmenter, segment
from turnsignal.segmentation.jaccard import DEFAULT_THRESHOLD
from turnsignal.segmentation.model import START, Judgement, Segment, Segmentation
from turnsignal.segmentation.rules import JACCARD

__all__ = ["DEFAULT_THRESHOLD", "JACCARD", "START", "Judgement", "Segment", "Segmentation",
           "Segmenter", "segment"]
