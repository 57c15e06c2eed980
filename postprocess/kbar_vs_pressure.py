#!/usr/bin/python3
"""kbar_vs_parameter.py pressure: k̄ (± kbar_spread), k̄_F and k̄_V of a sweep against the
pressure p (MPa, bar on the top axis), one panel per quantity. See --help."""
import sys
from kbar_vs_parameter import alias
sys.exit(alias("pressure"))
