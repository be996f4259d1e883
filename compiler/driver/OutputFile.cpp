//===- compiler/driver/OutputFile.cpp -------------------------------------===//

#include "compiler/driver/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <cerrno>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace bcastc {

static Error cannotWrite(StringRef Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot write '" + Path + "': " + Why);
}

namespace {
/// Holds back the signals LLVM's removal handler catches while it lives, so
/// that a kill cannot land between creating a temporary and registering it
/// for removal; a signal that came meanwhile is delivered on destruction,
/// when the handler knows the file.
class BlockSignals {
public:
  BlockSignals() {
    sigset_t Block;
    sigemptyset(&Block);
    for (int Sig : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGUSR2,
                    SIGXCPU, SIGXFSZ})
      sigaddset(&Block, Sig);
    sigprocmask(SIG_BLOCK, &Block, &Old);
  }
  ~BlockSignals() { sigprocmask(SIG_SETMASK, &Old, nullptr); }

private:
  sigset_t Old;
};

/// Where output to a path goes.
struct Target {
  /// The path to write or rename onto: \p Path with its symlinks followed.
  SmallString<256> Path;
  /// False for devices, FIFOs, sockets and open-file names (/dev/stdout):
  /// they are written through, never renamed over.
  bool Replace = true;
  /// The permissions of the file being replaced, if there is one.
  Optional<mode_t> Mode;
};
} // namespace

/// Follows \p Path's symlinks (each relative to its link's folder) to the
/// entry the output replaces. A dangling link's target is created, as a
/// shell redirection would.
static Expected<Target> resolveTarget(StringRef Path) {
  Target T;
  T.Path = Path;
  for (int Links = 0;; ++Links) {
    StringRef P = T.Path;
    // /dev/stdout, /dev/fd/N and /proc/self/fd/N name an open file
    // description: renaming over what they point to would not reach it.
    if (P.startswith("/proc/") || P.startswith("/dev/fd/")) {
      T.Path = Path;
      T.Replace = false;
      return T;
    }
    struct stat St;
    if (::lstat(T.Path.c_str(), &St) != 0) {
      if (errno == ENOENT)
        return T; // A new file.
      return cannotWrite(Path, std::error_code(errno, std::generic_category())
                                   .message());
    }
    if (S_ISREG(St.st_mode)) {
      T.Mode = St.st_mode & 07777;
      return T;
    }
    if (!S_ISLNK(St.st_mode)) {
      if (S_ISDIR(St.st_mode))
        return cannotWrite(Path, "is a directory");
      T.Path = Path;
      T.Replace = false;
      return T;
    }
    if (Links == 40)
      return cannotWrite(Path, "too many levels of symbolic links");
    char Buf[4096];
    ssize_t N = ::readlink(T.Path.c_str(), Buf, sizeof(Buf));
    if (N < 0 || size_t(N) == sizeof(Buf))
      return cannotWrite(Path, "cannot read symbolic link '" + T.Path + "'");
    StringRef Link(Buf, size_t(N));
    if (sys::path::is_absolute(Link)) {
      T.Path = Link;
    } else {
      sys::path::remove_filename(T.Path);
      sys::path::append(T.Path, Link);
    }
  }
}

/// Writes \p Contents to \p Path, which is opened as it is (no temporary).
static Error writeThrough(StringRef Path, StringRef Contents) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return cannotWrite(Path, EC.message());
  OS << Contents;
  OS.close();
  if (OS.has_error()) {
    std::string Msg = OS.error().message();
    OS.clear_error();
    return cannotWrite(Path, Msg);
  }
  return Error::success();
}

Error writeFileAtomically(StringRef Path,
                          function_ref<Error(raw_ostream &)> Write) {
  Optional<Target> T;
  if (Path != "-") {
    auto Resolved = resolveTarget(Path);
    if (!Resolved)
      return Resolved.takeError();
    T = std::move(*Resolved);
  }
  // Standard output and other write-through targets get nothing until the
  // backend has succeeded: they cannot be taken back.
  if (!T || !T->Replace) {
    std::string Contents;
    raw_string_ostream OS(Contents);
    if (Error E = Write(OS))
      return E;
    OS.flush();
    if (T)
      return writeThrough(Path, Contents);
    outs() << Contents;
    outs().flush();
    if (outs().has_error())
      return cannotWrite("-", outs().error().message());
    return Error::success();
  }
  SmallString<256> Model(T->Path);
  sys::path::remove_filename(Model);
  if (Model.empty())
    Model = ".";
  sys::path::append(Model,
                    "." + sys::path::filename(T->Path) + ".tmp-%%%%%%");
  int FD;
  SmallString<256> TempPath;
  {
    BlockSignals Blocked;
    if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, TempPath))
      return cannotWrite(Path, EC.message());
    sys::RemoveFileOnSignal(TempPath);
  }
  auto Discard = [&] {
    sys::fs::remove(TempPath);
    sys::DontRemoveFileOnSignal(TempPath);
  };
  // The replaced file keeps its permissions (createUniqueFile's are 0666
  // less the umask, as for a new file).
  if (T->Mode && ::fchmod(FD, *T->Mode) != 0) {
    std::error_code EC(errno, std::generic_category());
    ::close(FD);
    Discard();
    return cannotWrite(Path, EC.message());
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    Error Failed = Write(OS);
    OS.close();
    if (Failed || OS.has_error()) {
      std::string Msg = OS.has_error() ? OS.error().message() : "";
      OS.clear_error();
      Discard();
      if (Failed)
        return Failed;
      return cannotWrite(Path, Msg);
    }
  }
  if (std::error_code EC = sys::fs::rename(TempPath, T->Path)) {
    Discard();
    return cannotWrite(Path, EC.message());
  }
  sys::DontRemoveFileOnSignal(TempPath);
  return Error::success();
}

Error writeFileAtomically(StringRef Path, StringRef Contents) {
  return writeFileAtomically(Path, [&](raw_ostream &OS) {
    OS << Contents;
    return Error::success();
  });
}

} // namespace bcastc
