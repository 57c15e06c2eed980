#!/usr/bin/python3
"""kbar_vs_parameter.py payne: k̄ (± kbar_spread), k̄_F and k̄_V of a d-scan against the
Payne parameter d (log axis) in one panel, with k̄ of d = 0 and of the elastic rubber as
reference lines. See --help."""
import sys
from kbar_vs_parameter import alias
sys.exit(alias("payne"))
