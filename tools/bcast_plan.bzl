"""bcast_plan: generate a verified communication plan at build time.

    load("@bcastc//tools:bcast_plan.bzl", "bcast_plan")   # "//tools:..." inside bcastc

    bcast_plan(
        name = "bcast16",               # outputs: bcast16.cc, bcast16.h,
                                        # bcast16.report
        topology = "mesh:4x4",
        root = 5,
        algorithm = "bst-mesh",         # or "auto"
        emit = "mpi-cpp",               # mpi-cpp | mpi-header | nccl-cu | proto
                                        # | textproto | text | msccl-xml | svg
        bytes = "64KiB",
        function_name = "my_bcast",
        machine = "calibrated.machine", # a file (label), e.g. from `bcastc calibrate`
    )

    cc_binary(name = "app", srcs = ["app.c", ":bcast16"], deps = ["@mpi"])

The action runs `bcastc compile` (@bcastc//compiler/driver:bcastc, built for
the exec platform, or the executable target in `bcastc`) with the given
options and writes three named outputs:

  NAME + the emit kind's extension (.cc, .h, .cu, .pb, .textproto, .sched,
      .xml, .svg; `out` overrides it): the plan or code;
  NAME.report: bcastc's verification and cost report (`:NAME.report`);
  NAME.h, for emit = "mpi-cpp" only: the C/C++ header declaring the emitted
      function (`--emit=mpi-header`), so C callers need not write the
      prototype. `srcs = [":NAME"]` brings the .cc and the .h; include it as
      "PACKAGE/NAME.h".

The machine file is a label, so it is staged into the sandbox and a changed
file re-runs the action; presets go in `machine_preset`. bcastc exits
non-zero, failing the build, when the algorithm does not apply or the plan
fails verification: a plan that reaches the build output has been verified.
Output is deterministic, so the action caches like any compile.
"""

_EXTENSIONS = {
    "mpi-cpp": ".cc",
    "mpi-header": ".h",
    "nccl-cu": ".cu",
    "proto": ".pb",
    "textproto": ".textproto",
    "text": ".sched",
    "msccl-xml": ".xml",
    "svg": ".svg",
}

def _outputs(name, emit):
    outs = {"report": name + ".report"}
    if emit == "mpi-cpp":
        outs["header"] = name + ".h"
    return outs

def _compile_args(ctx, emit, out):
    args = ctx.actions.args()
    args.add("compile")
    args.add("--topology=" + ctx.attr.topology)
    args.add("--root=%d" % ctx.attr.root)
    args.add("--algorithm=" + ctx.attr.algorithm)
    args.add("--bytes=" + ctx.attr.bytes)
    args.add("--emit=" + emit)
    args.add("--function-name=" + ctx.attr.function_name)
    if ctx.file.machine:
        # "./" so that a file named like a preset (delta) is read as a file.
        args.add("--machine=./" + ctx.file.machine.path)
    elif ctx.attr.machine_preset:
        args.add("--machine=" + ctx.attr.machine_preset)
    args.add_all(ctx.attr.bcastc_args)
    args.add("-o", out)
    return args

def _bcast_plan_impl(ctx):
    if ctx.attr.emit not in _EXTENSIONS:
        fail("emit must be one of %s, not '%s'" %
             (", ".join(sorted(_EXTENSIONS.keys())), ctx.attr.emit))
    if ctx.attr.machine and ctx.attr.machine_preset:
        fail("give machine (a file) or machine_preset (a name), not both")
    out = ctx.outputs.out
    if not out:
        out = ctx.actions.declare_file(ctx.label.name + _EXTENSIONS[ctx.attr.emit])
    report = ctx.outputs.report
    inputs = [ctx.file.machine] if ctx.file.machine else []
    tool = ctx.attr.bcastc[DefaultInfo].files_to_run

    # The report (and warnings) go to NAME.report rather than the build log;
    # on failure it is printed, so the build says why.
    ctx.actions.run_shell(
        command = 'tool=$1 report=$2; shift 2; ' +
                  '"$tool" "$@" >"$report" 2>&1 || { cat "$report" >&2; exit 1; }',
        arguments = [ctx.executable.bcastc.path, report.path,
                     _compile_args(ctx, ctx.attr.emit, out)],
        inputs = inputs,
        tools = [tool],
        outputs = [out, report],
        mnemonic = "BcastPlan",
        progress_message = "bcastc: %s plan for %s, root %d -> %s" %
                           (ctx.attr.algorithm, ctx.attr.topology,
                            ctx.attr.root, out.short_path),
    )
    files = [out]
    if ctx.attr.emit == "mpi-cpp":
        # The same request again as a header: the function's prototype, which
        # depends only on the collective and the name.
        # Its report is NAME.report's again: shown only if it fails.
        header = ctx.outputs.header
        ctx.actions.run_shell(
            command = 'tool=$1; shift; ' +
                      'log=$("$tool" "$@" 2>&1) || { printf "%s\\n" "$log" >&2; exit 1; }',
            arguments = [ctx.executable.bcastc.path,
                         _compile_args(ctx, "mpi-header", header)],
            inputs = inputs,
            tools = [tool],
            outputs = [header],
            mnemonic = "BcastPlanHeader",
            progress_message = "bcastc: header for %s" % out.short_path,
        )
        files.append(header)
    return [DefaultInfo(files = depset(files),
                        runfiles = ctx.runfiles(files = files))]

bcast_plan = rule(
    implementation = _bcast_plan_impl,
    doc = "Runs bcastc at build time; see the module docstring.",
    outputs = _outputs,
    attrs = {
        "topology": attr.string(mandatory = True, doc = "e.g. linear:16, mesh:4x4"),
        "root": attr.int(default = 0, doc = "source node id"),
        "algorithm": attr.string(default = "auto", doc = "see `bcastc algorithms`"),
        "emit": attr.string(default = "mpi-cpp", doc = "--emit kind"),
        "bytes": attr.string(default = "64KiB", doc = "message length the plan is costed for"),
        "function_name": attr.string(default = "bcastc_broadcast", doc = "emitted function's name"),
        "machine": attr.label(
            allow_single_file = True,
            doc = "machine file (key=value words, e.g. from `bcastc calibrate`)",
        ),
        "machine_preset": attr.string(default = "", doc = "delta or meganode (default delta)"),
        "bcastc_args": attr.string_list(doc = "further `bcastc compile` options"),
        "out": attr.output(doc = "output file (default NAME + the emit kind's extension)"),
        # The tool runs on the machine that builds, so it is built for the
        # exec platform: a cross build still gets a bcastc it can run.
        # Another executable target (e.g. an sh_binary running an installed
        # bcastc) skips building the compiler.
        "bcastc": attr.label(
            default = Label("//compiler/driver:bcastc"),
            executable = True,
            cfg = "exec",
            doc = "the bcastc to run (default: built from this repository)",
        ),
    },
)
