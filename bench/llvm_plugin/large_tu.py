#!/usr/bin/env python3
"""Writes a large C++ translation unit for the plugin's compile-time cost:
the standard headers most C++ runtimes include, and N functions with loops,
templates and calls; every K-th function launches a kernel through
launchKernel (a C++ runtime function that may throw, so its probes also get
an exception cleanup).

    large_tu.py N OUT [K]
"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
every = int(sys.argv[3]) if len(sys.argv) > 3 else 8
out = ["#include <algorithm>", "#include <map>", "#include <string>",
       "#include <vector>", "#include <unordered_map>", "#include <memory>",
       "#include <functional>", "#include <sstream>", "",
       'extern "C" void launchKernel(const void *, long, long);', "",
       "template <class T> T reduce(const std::vector<T> &v) {",
       "  T s{};", "  for (const T &x : v) s += x;", "  return s;", "}", ""]
for i in range(n):
    out += [
        f"double work{i}(std::vector<double> &v, std::map<int, std::string> &m) {{",
        f"  std::sort(v.begin(), v.end());",
        f"  for (size_t j = 0; j < v.size(); ++j) v[j] = v[j] * {i % 7 + 1} + j;",
        f"  m[{i}] = std::to_string(v.empty() ? 0.0 : v[0]);",
        (f"  if (v.size() > {i % 13 + 2}) launchKernel(&v[0], (long)v.size(), {i});"
         if i % every == 0 else "  v.push_back(1.0);"),
        f"  return reduce(v) + (double)m.size();",
        "}",
    ]
open(sys.argv[2] if len(sys.argv) > 2 else "/dev/stdout", "w").write(
    "\n".join(out) + "\n")
