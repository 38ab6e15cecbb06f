#!/usr/bin/env python3
"""Checks that a man page documents every option its tool's --help lists.

  check_man.py PAGE [--subcommands] [--pass-options PREFIX] -- TOOL [ARGS...]

Runs `TOOL ARGS... --help` and takes the first word of each option line
(LLVM's "Generic Options" aside); each must appear in PAGE, written as troff
writes it (\\-\\-name). --subcommands also reads the SUBCOMMANDS block of the
help, requires a `.SS name` section per subcommand and checks the options of
`TOOL name --help`. --pass-options PREFIX checks the options of the passes
whose flag starts with PREFIX instead (tpuprof-opt), written as `name=`.
Exits 1 listing what is missing."""
import argparse
import re
import subprocess
import sys

OPTION = re.compile(r"^(\s+)(-{1,2}[A-Za-z][\w-]*)")
USAGE_OPTION = re.compile(r"\[(-{1,2}[A-Za-z][\w-]*)")
SUBCOMMAND = re.compile(r"^\s+([a-z][\w-]*)\s+- ")


def help_text(cmd):
    done = subprocess.run(cmd + ["--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    return done.stdout


def options(text):
    """First words of option lines outside the generic categories, and
    options of a one-line usage."""
    found, generic = [], False
    for line in text.splitlines():
        if line and not line[0].isspace() and line.rstrip().endswith(":"):
            generic = line.strip().lower() in ("generic options:", "general options:")
            continue
        if line.lower().startswith("usage:"):
            found += USAGE_OPTION.findall(line)
        m = OPTION.match(line)
        if m and not generic:
            found.append(m.group(2))
    return found


def pass_options(text, prefix):
    """Sub-options (`--name=...`, indented below the pass) of the passes
    whose flag starts with prefix."""
    found, indent = [], None
    for line in text.splitlines():
        m = OPTION.match(line)
        if not m:
            continue
        depth = len(m.group(1))
        if m.group(2).startswith(prefix):
            indent = depth
            found.append(m.group(2))
        elif indent is not None and depth > indent:
            found.append(m.group(2).lstrip("-") + "=")
        else:
            indent = None
    return found


def troff(word):
    return word.replace("-", "\\-")


def main():
    if "--" not in sys.argv:
        sys.exit(__doc__)
    split = sys.argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("page")
    parser.add_argument("--subcommands", action="store_true")
    parser.add_argument("--pass-options")
    args = parser.parse_args(sys.argv[1:split])
    command = sys.argv[split + 1:]
    page = open(args.page).read()
    text = help_text(command)
    missing = []
    if args.pass_options:
        wanted = pass_options(text, args.pass_options)
        if not wanted:
            sys.exit("no pass starting with %s in %s --help" % (args.pass_options, command[0]))
    else:
        wanted = options(text)
    if args.subcommands:
        in_block = False
        for line in text.splitlines():
            if line.startswith("SUBCOMMANDS:"):
                in_block = True
            elif in_block and line and not line[0].isspace():
                break
            elif in_block and SUBCOMMAND.match(line):
                name = SUBCOMMAND.match(line).group(1)
                if not re.search(r"^\.SS %s\b" % re.escape(name), page, re.M):
                    missing.append(".SS " + name)
                wanted += options(help_text(command + [name]))
    for word in sorted(set(wanted)):
        if troff(word) not in page:
            missing.append(troff(word))
    if missing:
        sys.exit("%s does not document: %s" % (args.page, ", ".join(missing)))
    print("%s: %d options documented" % (args.page, len(set(wanted))))


if __name__ == "__main__":
    main()
