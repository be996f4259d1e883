"""bcastc_dependencies(): what a workspace using @bcastc must declare.

    # WORKSPACE of a project using the bcast_plan rule
    local_repository(name = "bcastc", path = "/path/to/bcastc")
    load("@bcastc//tools:deps.bzl", "bcastc_dependencies")
    bcastc_dependencies()

Bazel 4 does not load a repository's own WORKSPACE, so the system libraries
bcastc builds against (Debian's LLVM 14, protobuf, Open MPI, GoogleTest,
libxml2, the names its BUILD files use: @llvm, @protobuf, @mpi, @gtest,
@libxml2; each also in bcastc's own WORKSPACE) are declared here
with bcastc's BUILD files for them, and so are the offline stand-ins for
rules_cc, rules_java and remote_coverage_tools, which Bazel 4.2.3 otherwise
downloads. Nothing is downloaded.
"""

_SYSTEM = {
    "llvm": "/usr/lib/llvm-14",
    "gtest": "/usr/include/gtest",
    "protobuf": "/usr/include/google/protobuf",
    "mpi": "/usr/lib/x86_64-linux-gnu/openmpi",
    # The MSCCL importer's XML parser: building the tool from source (the
    # rule's default `bcastc`) needs it.
    "libxml2": "/usr/include/libxml2",
}

def _bcastc_third_party_impl(rctx):
    # The stand-in's folder in @bcastc's tree; WORKSPACE marks the root.
    root = rctx.path(Label("//:WORKSPACE")).dirname
    src = root.get_child("third_party").get_child("bazel").get_child(rctx.attr.folder)
    for child in src.readdir():
        rctx.symlink(child, child.basename)

_bcastc_third_party = repository_rule(
    implementation = _bcastc_third_party_impl,
    attrs = {"folder": attr.string(mandatory = True)},
    local = True,
)

def bcastc_dependencies():
    for name, path in _SYSTEM.items():
        native.new_local_repository(
            name = name,
            path = path,
            # A string label that names @bcastc however the caller named it.
            build_file = str(Label("//third_party/system:%s.BUILD" % name)),
        )
    for name in ["rules_cc", "rules_java", "remote_coverage_tools"]:
        _bcastc_third_party(name = name, folder = name)
