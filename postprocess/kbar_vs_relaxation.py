#!/usr/bin/python3
"""kbar_vs_parameter.py relaxation: k̄ (± kbar_spread), k̄_F and k̄_V of a sweep against
tau0 v_F / L0 (log axis) in one panel. See --help."""
import sys
from kbar_vs_parameter import alias
sys.exit(alias("relaxation"))
