"""bcast_plan: generate a verified communication plan at build time.

    load("//tools:bcast_plan.bzl", "bcast_plan")

    bcast_plan(
        name = "bcast16",               # output: bcast16.cc (and bcast16.report)
        topology = "mesh:4x4",
        root = 5,
        algorithm = "bst-mesh",         # or "auto"
        emit = "mpi-cpp",               # mpi-cpp | nccl-cu | proto | textproto
                                        # | text | msccl-xml | svg
        bytes = "64KiB",
        function_name = "my_bcast",
    )

    cc_binary(name = "app", srcs = ["app.cc", ":bcast16"], deps = ["@mpi"])

The action runs `bcastc compile` (//compiler/driver:bcastc) with the given
options and writes NAME + the emit kind's extension (.cc, .cu, .pb,
.textproto, .sched, .xml, .svg; `out` overrides it) and NAME.report, the
verification and cost report. bcastc exits non-zero, failing the build, when
the algorithm does not apply or the plan fails verification: a plan that
reaches the build output has been verified. Output is deterministic, so the
action caches like any compile.
"""

_EXTENSIONS = {
    "mpi-cpp": ".cc",
    "nccl-cu": ".cu",
    "proto": ".pb",
    "textproto": ".textproto",
    "text": ".sched",
    "msccl-xml": ".xml",
    "svg": ".svg",
}

def _bcast_plan_impl(ctx):
    if ctx.attr.emit not in _EXTENSIONS:
        fail("emit must be one of %s, not '%s'" %
             (", ".join(sorted(_EXTENSIONS.keys())), ctx.attr.emit))
    out = ctx.outputs.out
    if not out:
        out = ctx.actions.declare_file(ctx.label.name + _EXTENSIONS[ctx.attr.emit])
    report = ctx.actions.declare_file(ctx.label.name + ".report")

    args = ctx.actions.args()
    args.add(ctx.executable._bcastc)
    args.add(report)
    args.add("compile")
    args.add("--topology=" + ctx.attr.topology)
    args.add("--root=%d" % ctx.attr.root)
    args.add("--algorithm=" + ctx.attr.algorithm)
    args.add("--bytes=" + ctx.attr.bytes)
    args.add("--emit=" + ctx.attr.emit)
    args.add("--function-name=" + ctx.attr.function_name)
    if ctx.attr.machine:
        args.add("--machine=" + ctx.attr.machine)
    args.add_all(ctx.attr.bcastc_args)
    args.add("-o", out)

    # The report (and warnings) go to NAME.report rather than the build log;
    # on failure it is printed, so the build says why.
    ctx.actions.run_shell(
        command = 'tool=$1 report=$2; shift 2; ' +
                  '"$tool" "$@" >"$report" 2>&1 || { cat "$report" >&2; exit 1; }',
        arguments = [args],
        inputs = [],
        tools = [ctx.executable._bcastc],
        outputs = [out, report],
        mnemonic = "BcastPlan",
        progress_message = "bcastc: %s plan for %s, root %d -> %s" %
                           (ctx.attr.algorithm, ctx.attr.topology,
                            ctx.attr.root, out.short_path),
    )
    return [DefaultInfo(files = depset([out]),
                        runfiles = ctx.runfiles(files = [out]))]

bcast_plan = rule(
    implementation = _bcast_plan_impl,
    doc = "Runs bcastc at build time; see the module docstring.",
    attrs = {
        "topology": attr.string(mandatory = True, doc = "e.g. linear:16, mesh:4x4"),
        "root": attr.int(default = 0, doc = "source node id"),
        "algorithm": attr.string(default = "auto", doc = "see `bcastc algorithms`"),
        "emit": attr.string(default = "mpi-cpp", doc = "--emit kind"),
        "bytes": attr.string(default = "64KiB", doc = "message length the plan is costed for"),
        "function_name": attr.string(default = "bcastc_broadcast", doc = "emitted function's name"),
        "machine": attr.string(default = "", doc = "machine preset or file (default delta)"),
        "bcastc_args": attr.string_list(doc = "further `bcastc compile` options"),
        "out": attr.output(doc = "output file (default NAME + the emit kind's extension)"),
        # The plan is a target-configuration input (a source file), so the
        # tool is built for the target too: on this non-cross build that is
        # the same machine, and it avoids compiling the whole compiler a
        # second time in the host configuration.
        "_bcastc": attr.label(
            default = Label("//compiler/driver:bcastc"),
            executable = True,
            cfg = "target",
        ),
    },
)
