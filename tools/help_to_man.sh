#!/usr/bin/env bash
# help_to_man.sh BCASTC OUT: writes bcastc(1), a man page, from
# `BCASTC --help` and every subcommand's `--help` (the SUBCOMMANDS section
# names them). help2man is not used even where installed: it stamps the date
# and its own version, and the page must be the same on every machine.
# LLVM's help layout: `HEADING:` at column 0, option lines `  -x ... - text`
# with continuation lines indented further, other indented lines verbatim.
set -euo pipefail
bcastc=$1
out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bcastc" --help >"$tmp/main"
subs=$(awk '/^[A-Z]+:/ { in_subs = ($1 == "SUBCOMMANDS:") ; next }
            in_subs && /^  [a-z][a-z0-9-]* +- / { print $1 }' "$tmp/main")

# to_roff LEVEL: help text on stdin to roff on stdout; LEVEL SH or SS.
to_roff() {
  awk -v level="$1" '
    function esc(s) {
      gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s)
      if (s ~ /^[.'"'"']/) s = "\\&" s
      return s
    }
    function verbatim_end() { if (nf) { print ".fi"; nf = 0 } }
    /^$/ { verbatim_end(); print ".PP"; next }
    # A command'"'"'s own help: `SUBCOMMAND '"'"'NAME'"'"': what it does`.
    /^SUBCOMMAND '"'"'/ { verbatim_end(); sub(/^[^:]*: */, ""); print esc($0); next }
    /^[^ ]/ {
      verbatim_end()
      head = $0; rest = ""
      if (match($0, /^[A-Za-z][A-Za-z ]*:/)) { head = substr($0, 1, RLENGTH - 1); rest = substr($0, RLENGTH + 1) }
      sub(/^ +/, "", rest)
      print "." level " \"" toupper(esc(head)) "\""
      if (rest != "") print esc(rest)
      next
    }
    /^  +-/ && / - / {
      verbatim_end()
      line = $0; sub(/^ +/, "", line)
      i = index(line, " - ")
      opt = substr(line, 1, i - 1); sub(/ +$/, "", opt)
      print ".TP"; print "\\fB" esc(opt) "\\fR"; print esc(substr(line, i + 3))
      in_opt = 1
      next
    }
    in_opt && /^       +[^ -]/ { line = $0; sub(/^ +/, "", line); print esc(line); next }
    {
      in_opt = 0
      if (!nf) { print ".nf"; nf = 1 }
      print esc($0)
    }
    END { verbatim_end() }'
}

{
  echo '.TH BCASTC 1 "" "bcastc" "User Commands"'
  echo '.SH NAME'
  echo 'bcastc \- a schedule compiler for contention\-free collective communication'
  echo '.SH SYNOPSIS'
  echo '.B bcastc'
  echo '\fICOMMAND\fR [\fIOPTIONS\fR]'
  to_roff SH <"$tmp/main"
  for s in $subs; do
    echo ".SH \"COMMAND: $s\""
    # From its SUBCOMMAND line on: the overview above is the tool's, again.
    "$bcastc" "$s" --help | sed -n "/^SUBCOMMAND '/,\$p" | to_roff SS
  done
} >"$tmp/page"
mv "$tmp/page" "$out"
