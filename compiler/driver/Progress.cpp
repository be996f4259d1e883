//===- compiler/driver/Progress.cpp ---------------------------------------===//

#include "compiler/driver/Progress.h"

#include "llvm/Support/Process.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

using namespace llvm;

namespace bcastc {

namespace {

std::mutex Lock; // guards Phase, Immediate and the terminal line
std::string Phase;
/// Draws the line now (Lock held); set while a display shows every phase
/// at once (After = 0, the tests' mode: no timing involved).
std::function<void()> DrawNow;

/// Forwards to a stream, first erasing the progress line if one is shown.
class ErasingStream : public raw_ostream {
public:
  ErasingStream(raw_ostream &To, raw_ostream &Terminal, bool &Shown)
      : To(To), Terminal(Terminal), Shown(Shown) {
    SetUnbuffered();
  }
  ~ErasingStream() override { flush(); }

private:
  raw_ostream &To, &Terminal;
  bool &Shown;
  void write_impl(const char *Ptr, size_t Size) override {
    std::lock_guard<std::mutex> G(Lock);
    if (Shown) {
      Terminal << "\r\x1b[K";
      Terminal.flush();
      Shown = false;
    }
    To.write(Ptr, Size);
    To.flush();
  }
  uint64_t current_pos() const override { return 0; }
};

} // namespace

void progressPhase(const Twine &What) {
  std::lock_guard<std::mutex> G(Lock);
  Phase = What.str();
  if (DrawNow)
    DrawNow();
}

std::string progressLine(StringRef What, unsigned Seconds, unsigned Columns) {
  std::string Line =
      ("bcastc: " + What + " ... " + Twine(Seconds) + " s").str();
  // One column short of the width: a full line wraps on some terminals.
  if (Columns > 1 && Line.size() >= Columns)
    Line = Line.substr(0, Columns - 4) + "...";
  return Line;
}

struct ProgressDisplay::Impl {
  raw_ostream &Terminal;
  bool Shown = false;
  ErasingStream Out, Err;
  std::mutex StopLock;
  std::condition_variable Stop;
  bool Stopping = false;
  std::thread Thread;

  Impl(raw_ostream &O, raw_ostream &T, std::chrono::milliseconds After)
      : Terminal(T), Out(O, T, Shown), Err(T, T, Shown) {
    auto Start = std::chrono::steady_clock::now();
    if (After.count() == 0) {
      std::lock_guard<std::mutex> G(Lock);
      DrawNow = [this, Start] { draw(std::chrono::steady_clock::now() - Start); };
      return;
    }
    Thread = std::thread([this, Start, After] {
      std::unique_lock<std::mutex> S(StopLock);
      while (!Stop.wait_for(S, std::chrono::milliseconds(500),
                            [this] { return Stopping; })) {
        auto Elapsed = std::chrono::steady_clock::now() - Start;
        if (Elapsed < After)
          continue;
        std::lock_guard<std::mutex> G(Lock);
        draw(Elapsed);
      }
    });
  }

  /// Redraws the line (Lock held).
  void draw(std::chrono::steady_clock::duration Elapsed) {
    if (Phase.empty())
      return;
    unsigned Seconds = unsigned(
        std::chrono::duration_cast<std::chrono::seconds>(Elapsed).count());
    unsigned Columns = sys::Process::StandardErrColumns();
    Terminal << "\r\x1b[K" << progressLine(Phase, Seconds, Columns);
    Terminal.flush();
    Shown = true;
  }

  ~Impl() {
    {
      std::lock_guard<std::mutex> S(StopLock);
      Stopping = true;
    }
    Stop.notify_one();
    if (Thread.joinable())
      Thread.join();
    std::lock_guard<std::mutex> G(Lock);
    DrawNow = nullptr;
    Phase.clear();
    if (Shown) {
      Terminal << "\r\x1b[K";
      Terminal.flush();
    }
  }
};

ProgressDisplay::ProgressDisplay(raw_ostream &Out, raw_ostream &Terminal,
                                 std::chrono::milliseconds After)
    : I(new Impl(Out, Terminal, After)) {}

ProgressDisplay::~ProgressDisplay() { delete I; }

raw_ostream &ProgressDisplay::out() { return I->Out; }
raw_ostream &ProgressDisplay::err() { return I->Err; }

} // namespace bcastc
