#pragma once

namespace stcsim {

// After sc_start() returns, tells AddressSanitizer that the thread runs on the main stack
// again and clears the shadow of the dead stack below the caller. A no-op without ASan.
//
// Why: SystemC 2.3.4 announces its QuickThreads switches to ASan, but for its main
// coroutine it passes no stack bounds, so once a simulation has run ASan believes the main
// thread lives on the last SC_THREAD's stack. Every later C++ throw then makes ASan refuse
// to unpoison the stack ("ASan is ignoring requested __asan_handle_no_return") and report
// stale scope poison as stack-use-after-scope: a false positive on the error path of any
// write that fails after the run (seen on a full disk while writing op0_x.npy).
void restore_main_stack_for_sanitizer();

}  // namespace stcsim
