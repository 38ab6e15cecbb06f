#!/usr/bin/env python3
"""Writes a real torch.profiler Chrome trace of a few matmuls.

  torch_trace.py OUT.json

Run with Debian's python3 (python3-torch). PyTorch 1.13's profiler writes
timestamps in microseconds from its own start (the legacy format)."""
import sys

import torch
from torch.profiler import ProfilerActivity, profile

with profile(activities=[ProfilerActivity.CPU]) as prof:
    x = torch.randn(64, 64)
    for _ in range(4):
        x = x @ x
prof.export_chrome_trace(sys.argv[1])
