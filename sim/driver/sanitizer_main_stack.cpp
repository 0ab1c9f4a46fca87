#include "sim/driver/sanitizer_main_stack.h"

#if defined(__SANITIZE_ADDRESS__)
#define STCSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STCSIM_ASAN 1
#endif
#endif

#ifdef STCSIM_ASAN
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>

#include <cstddef>
#endif

namespace stcsim {

#ifdef STCSIM_ASAN
__attribute__((noinline)) void restore_main_stack_for_sanitizer() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* lowest = nullptr;
  std::size_t size = 0;
  const int got = pthread_attr_getstack(&attr, &lowest, &size);
  pthread_attr_destroy(&attr);
  if (got != 0 || lowest == nullptr || size == 0) return;
  // A switch "to" the stack we are on: ASan takes these bounds as the thread's stack.
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, lowest, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
  // Below this frame (and a margin for its own locals) the stack holds nothing live:
  // clear whatever poison frames left there while ASan had the wrong bounds.
  char* const below = static_cast<char*>(__builtin_frame_address(0)) - 512;
  char* const low = static_cast<char*>(lowest);
  if (below > low) __asan_unpoison_memory_region(low, std::size_t(below - low));
}
#else
void restore_main_stack_for_sanitizer() {}
#endif

}  // namespace stcsim
