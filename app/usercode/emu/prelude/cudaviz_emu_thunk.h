// cudaviz emulator: what the generated epilogue uses to expose each entry
// point (cv_emu::Entry): the launch's `void** params` (cuLaunchKernel style,
// one pointer per argument) unpacked into the kernel's typed arguments,
// deduced from the function's own type.
#pragma once

namespace cv_emu {

template <class A>
using Arg = std::remove_cv_t<std::remove_reference_t<A>>;

template <class... A, size_t... I>
inline void invoke(void (*k)(A...), void** p, std::index_sequence<I...>) {
  k(*static_cast<Arg<A>*>(p[I])...);
}
template <class... A>
inline void call(void (*k)(A...), void** p) {
  invoke(k, p, std::index_sequence_for<A...>{});
}

// Every thread of blocks [first, last) in order; the kernel is a constant and
// the loop is flattened, so the compiler inlines the kernel into it. Arguments are unpacked once; each
// thread gets its own copy, as on the GPU.
template <auto K, class... A, size_t... I>
__attribute__((flatten)) inline void loop_impl(void (*)(A...), void** p, unsigned long long first, unsigned long long last,
                      std::index_sequence<I...>) {
  const std::tuple<Arg<A>...> args(*static_cast<Arg<A>*>(p[I])...);
  Ctx& c = cv_emu_ctx_tls;
  const Dim bd = c.block_dim, gd = c.grid_dim;
  for (unsigned long long b = first; b < last; ++b) {
    c.block_idx = Dim{static_cast<unsigned>(b % gd.x), static_cast<unsigned>((b / gd.x) % gd.y),
                      static_cast<unsigned>(b / (static_cast<unsigned long long>(gd.x) * gd.y))};
    for (unsigned z = 0; z < bd.z; ++z)
      for (unsigned y = 0; y < bd.y; ++y)
        for (unsigned x = 0; x < bd.x; ++x) {
          c.thread_idx = Dim{x, y, z};
          K(std::get<I>(args)...);
        }
    cv_emu_count_block(c.blocks_done);
  }
}
template <class... A>
constexpr size_t arity(void (*)(A...)) { return sizeof...(A); }
template <auto K>
inline void loop(void** p, Ctx*, unsigned long long first, unsigned long long last) {
  loop_impl<K>(K, p, first, last, std::make_index_sequence<arity(K)>{});
}

// The fast path: blocks [first, last), each by F (cv_fis_<kernel>, generated),
// which runs one block's threads as loops between its barriers.
template <auto F, class... A, size_t... I>
inline void fission_impl(void (*)(A...), void** p, unsigned long long first, unsigned long long last,
                         std::index_sequence<I...>) {
  const std::tuple<Arg<A>...> args(*static_cast<Arg<A>*>(p[I])...);
  Ctx& c = cv_emu_ctx_tls;
  const Dim gd = c.grid_dim;
  for (unsigned long long b = first; b < last; ++b) {
    c.block_idx = Dim{static_cast<unsigned>(b % gd.x), static_cast<unsigned>((b / gd.x) % gd.y),
                      static_cast<unsigned>(b / (static_cast<unsigned long long>(gd.x) * gd.y))};
    c.first_block = b == first;
    c.last_block = b + 1 == last;
    F(std::get<I>(args)...);
    cv_emu_count_block(c.blocks_done);
  }
}
template <auto F>
inline void fission(void** p, Ctx*, unsigned long long first, unsigned long long last) {
  fission_impl<F>(F, p, first, last, std::make_index_sequence<arity(F)>{});
}
// F1 where the launch's blocks are one row of threads (y = z = 1), else F:
// the same block function, F1 compiled knowing the shape.
template <auto F1, auto F>
inline void fission_by_shape(void** p, Ctx* c, unsigned long long first, unsigned long long last) {
  const Dim bd = cv_emu_ctx_tls.block_dim;
  if (bd.y == 1 && bd.z == 1) fission<F1>(p, c, first, last);
  else fission<F>(p, c, first, last);
}

}  // namespace cv_emu
