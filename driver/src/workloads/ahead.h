// Generate ahead: a helper thread fills the next batch while the caller sends the current one, as
// iibench.py's statement_maker process builds the next INSERT while its executor waits for the
// server. Two slots: the helper is at most one batch ahead; batches come out in the order they
// were filled, each exactly once.
//
//   Ahead<Batch> a([&](Batch& b) { return make_next(b); });  // false: no more batches
//   while (Batch* b = a.next()) { send(*b); a.done(); }
//
// fill() runs on the helper thread only, one call at a time, in order; whatever it touches is the
// helper's until next() hands the batch over. An exception from fill() is rethrown by next() (after
// the batches filled before it); the destructor stops the helper and joins it, so leaving the loop
// early (a stop, an exception while sending) never leaves a thread behind.
#pragma once
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace eb {
namespace wl {

template <class Batch>
class Ahead {
 public:
  explicit Ahead(std::function<bool(Batch&)> fill) : fill_(std::move(fill)), helper_([this] { run(); }) {}
  ~Ahead() {
    {
      std::lock_guard<std::mutex> g(mu_);
      quit_ = true;
    }
    cv_.notify_all();
    helper_.join();
  }
  Ahead(const Ahead&) = delete;
  Ahead& operator=(const Ahead&) = delete;

  // The next filled batch (blocks until it is there), or nullptr when fill() said there are no more.
  Batch* next() {
    std::unique_lock<std::mutex> lk(mu_);
    Slot& s = slot_[taken_ % 2];
    cv_.wait(lk, [&] { return s.state != State::Empty; });
    if (s.state == State::End) {
      if (error_) std::rethrow_exception(error_);
      return nullptr;
    }
    return &s.batch;
  }
  // The batch next() returned has been used: its slot may be filled again.
  void done() {
    {
      std::lock_guard<std::mutex> g(mu_);
      slot_[taken_ % 2].state = State::Empty;
      ++taken_;
    }
    cv_.notify_all();
  }

 private:
  enum class State { Empty, Full, End };
  struct Slot {
    Batch batch;
    State state = State::Empty;
  };

  void run() {
    for (unsigned long i = 0;; ++i) {
      Slot& s = slot_[i % 2];
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return quit_ || s.state == State::Empty; });
        if (quit_) return;
      }
      bool more = false;
      try {
        more = fill_(s.batch);
      } catch (...) {
        std::lock_guard<std::mutex> g(mu_);
        error_ = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> g(mu_);
        s.state = more ? State::Full : State::End;
      }
      cv_.notify_all();
      if (!more) return;
    }
  }

  std::function<bool(Batch&)> fill_;
  std::mutex mu_;
  std::condition_variable cv_;
  Slot slot_[2];
  unsigned long taken_ = 0;
  bool quit_ = false;
  std::exception_ptr error_;
  std::thread helper_;  // last: started once everything above exists
};

}  // namespace wl
}  // namespace eb
