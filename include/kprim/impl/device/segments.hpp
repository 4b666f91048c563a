#pragma once
// Device layer: segmented reduce and scans as one scan of the whole input (kprim/segmented.hpp).
//
// Each element becomes a pair (value, head), head set where a segment starts, and the pairs are
// scanned with the segmented op: (a, b) -> b when b holds a head, else (op(a, b), a's head)
// (Blelloch 1990; CUB's ReduceByKey and scan-by-key use the same pairs). The op is associative
// whenever op is, and keeps op's operand order, so the same single-pass engine that runs
// kprim's scans (the hand-written CUDA kernels included, pairs of up to 16 bytes) runs every
// segment length mix in one launch: a segment of one element, segments longer than a tile and
// empty segments cost the same per element.
//
// Where segments start comes from one bit per element, set by a pass over the offsets (CSR form),
// or from i / size (fixed-size form, a multiply-high). A segmented reduce counts heads instead of
// flagging them: the count at a segment's first element is that segment's rank among the
// non-empty ones, which the pass over the offsets maps back to the segment, and the value the
// scan holds just before the next head is the segment's total.

#include <kprim/impl/device/adapters.hpp>
#include <kprim/impl/device/reduce_value.hpp>
#include <kprim/impl/device/temporary_storage.hpp>
#include <kprim/impl/thread/chained_run.hpp>
#include <kprim/impl/thread/fast_divider.hpp>
#include <kprim/impl/thread/vector_sum_short.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <Kokkos_Core.hpp>
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <kprim/impl/cuda/segmented_scan.cuh>
#include <kprim/impl/cuda/team.cuh>
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kprim::impl::segments {

/// A span of consecutive elements: op over its elements from its last segment head on (all of
/// them when it holds none), and whether it holds a head.
template <class T>
struct Headed {
  T value;
  std::uint32_t head;
};

/// The head flag of the empty span: the pair ops' identity when op has none (a lambda), so the
/// engine can seed and pad with it; a pair of an element never holds it.
template <class Flag>
inline constexpr Flag empty_span = Flag(~Flag(0));

/// The segmented op on Headed: associative when op is; not commutative.
template <class T, class Op>
struct HeadedOp {
  Op op;
  KOKKOS_FUNCTION Headed<T> identity() const {
    if constexpr (HasIdentity<Op, T>) return {identity_of<T>(op), 0u};
    else return {T{}, empty_span<std::uint32_t>};
  }
  KOKKOS_FUNCTION Headed<T> operator()(const Headed<T>& a, const Headed<T>& b) const {
    if constexpr (!HasIdentity<Op, T>) {
      if (b.head == empty_span<std::uint32_t>) return a;
      if (a.head == empty_span<std::uint32_t>) return b;
    }
    if (b.head) return b;
    return {T(op(a.value, b.value)), a.head};
  }
};

/// As Headed, counting the heads a span holds (a segmented reduce finds segments by that count).
/// Count is 32-bit where the segments allow: the pair is then as small as Headed.
template <class T, class Count>
struct Counted {
  T value;
  Count heads;
};

template <class T, class Count, class Op>
struct CountedOp {
  Op op;
  KOKKOS_FUNCTION Counted<T, Count> identity() const {
    if constexpr (HasIdentity<Op, T>) return {identity_of<T>(op), Count(0)};
    else return {T{}, empty_span<Count>};
  }
  KOKKOS_FUNCTION Counted<T, Count> operator()(const Counted<T, Count>& a, const Counted<T, Count>& b) const {
    if constexpr (!HasIdentity<Op, T>) {
      if (b.heads == empty_span<Count>) return a;
      if (a.heads == empty_span<Count>) return b;
    }
    return {b.heads ? b.value : T(op(a.value, b.value)), Count(a.heads + b.heads)};
  }
};

/// What a segmented reduce writes: op over the segment, after `init` when the call gave one (as
/// std::reduce); an empty segment gets init, or op's identity.
template <class T, class Op>
struct SegmentTotals {
  Op op;
  T empty;
  bool seeded;
  KOKKOS_FUNCTION T operator()(const T& total) const { return seeded ? T(op(empty, total)) : total; }
};

/// The totals of a call without init (op has an identity).
template <class T, class Op>
SegmentTotals<T, Op> totals_of(const Op& op) {
  return {op, identity_of<T>(op), false};
}
template <class T, class Op>
SegmentTotals<T, Op> totals_of(const Op& op, const T& init) {
  return {op, init, true};
}

/// Segments given by CSR offsets: element i starts one when its bit is set. Elements before
/// offsets(0) or from offsets(S) on belong to none and are never written.
template <class Offsets>
struct MarkedSegments {
  const std::uint32_t* bits;
  Offsets offsets;
  std::int64_t count;  // S
  KOKKOS_FUNCTION bool is_head(std::int64_t i) const { return (bits[i >> 5] >> (i & 31)) & 1u; }
  KOKKOS_FUNCTION bool inside(std::int64_t i) const {
    return i >= std::int64_t(offsets(0)) && i < std::int64_t(offsets(count));
  }
  /// The elements inside(i) holds for: [covered_begin(), covered_end()).
  KOKKOS_FUNCTION std::int64_t covered_begin() const { return std::int64_t(offsets(0)); }
  KOKKOS_FUNCTION std::int64_t covered_end() const { return std::int64_t(offsets(count)); }
  /// Bit k set when element first + k (< n) starts a segment, k < Bits; first is a multiple of
  /// Bits (16, 32 or 64), so the bits come from one or two words of the marks.
  template <int Bits>
  KOKKOS_FUNCTION std::uint64_t run_heads(std::int64_t first, std::int64_t n) const {
    if (first >= n) return 0;
    const std::int64_t word = first >> 5;
    std::uint64_t heads = bits[word] >> (first & 31);
    if constexpr (Bits > 32) {
      if ((word + 1) * 32 < n) heads |= std::uint64_t(bits[word + 1]) << 32;
      return heads;
    } else {
      return heads & ((std::uint64_t(1) << Bits) - 1);
    }
  }
};

/// Segments given by CSR offsets, for a kernel that finds each tile's heads in the offsets itself
/// (the segmented look-ahead scan, impl/cuda/lookahead_segmented_scan.cuh): no bit array to zero
/// and mark first. The heads are the offsets(s), s <= S, below n (an empty segment's start is the
/// next one's; offsets(S) < n heads the elements after the last segment).
template <class Offsets>
struct OffsetSegments {
  static constexpr bool finds_tile_heads = true;
  Offsets offsets;
  std::int64_t count;  // S
  KOKKOS_FUNCTION std::int64_t offset(std::int64_t s) const { return std::int64_t(offsets(s)); }
  KOKKOS_FUNCTION std::int64_t covered_begin() const { return std::int64_t(offsets(0)); }
  KOKKOS_FUNCTION std::int64_t covered_end() const { return std::int64_t(offsets(count)); }
};

/// Segments of `size` elements (the last one shorter when size does not divide n).
struct FixedSegments {
  thread::FastDivider size;
  KOKKOS_FUNCTION std::int64_t segment_of(std::int64_t i) const { return std::int64_t(size.quotient(std::uint64_t(i))); }
  KOKKOS_FUNCTION bool is_head(std::int64_t i) const { return segment_of(i) * std::int64_t(size.divisor()) == i; }
  KOKKOS_FUNCTION bool inside(std::int64_t) const { return true; }
  KOKKOS_FUNCTION std::int64_t covered_begin() const { return 0; }
  KOKKOS_FUNCTION std::int64_t covered_end() const { return std::int64_t(0x7fffffffffffffff); }  // no bound: n
  /// Bit k set when element first + k (< n) starts a segment, k < Bits.
  template <int Bits>
  KOKKOS_FUNCTION std::uint64_t run_heads(std::int64_t first, std::int64_t n) const {
    const std::int64_t step = std::int64_t(size.divisor());
    std::int64_t head = segment_of(first) * step;
    if (head < first) head += step;
    const std::int64_t end = Kokkos::min(first + Bits, n);
    std::uint64_t heads = 0;
    for (; head < end; head += step) heads |= std::uint64_t(1) << (head - first);
    return heads;
  }
};

/// The value and head-flag types of a pair.
template <class Pair>
struct pair_parts;
template <class T>
struct pair_parts<Headed<T>> {
  using value = T;
  using flag = std::uint32_t;
};
template <class T, class Count>
struct pair_parts<Counted<T, Count>> {
  using value = T;
  using flag = Count;
};

/// Element i as a pair (Pair = Headed<T> or Counted<T, Count>).
template <class Pair, class In, class Segments>
struct PairSource {
  In in;
  Segments segments;
  KOKKOS_FUNCTION Pair operator()(std::int64_t i) const {
    using T = typename pair_parts<Pair>::value;
    using Flag = typename pair_parts<Pair>::flag;
    return {T(in(i)), segments.is_head(i) ? Flag(1) : Flag(0)};
  }
};

/// The segmented scans' sink: from the scan's exclusive prefix of pairs at i and i's own pair,
/// out(i) = op over i's segment up to i (inclusive), or op(init, the same up to i - 1).
template <bool Exclusive, class T, class In, class Segments, class Out, class Op>
struct ScanWrite {
  PairSource<Headed<T>, In, Segments> source;
  Out out;
  Op op;
  T init;
  KOKKOS_FUNCTION Headed<T> prepare(std::int64_t i) const { return source(i); }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const Headed<T>& prefix, const Headed<T>& own) const {
    if (!source.segments.inside(i)) return;
    if constexpr (Exclusive) out(i) = own.head ? init : T(op(init, prefix.value));
    else out(i) = own.head ? own.value : T(op(prefix.value, own.value));
  }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const Headed<T>& prefix) const { (*this)(i, prefix, prepare(i)); }
};

/// The fixed-size segmented reduce's sink: a head at i closes segment i / size - 1 with the
/// prefix; the last element closes its own.
template <class T, class In, class Out, class Op>
struct FixedReduceWrite {
  PairSource<Headed<T>, In, FixedSegments> source;
  Out out;
  HeadedOp<T, Op> pair_op;
  SegmentTotals<T, Op> totals;
  std::int64_t last;
  KOKKOS_FUNCTION Headed<T> prepare(std::int64_t i) const { return source(i); }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const Headed<T>& prefix, const Headed<T>& own) const {
    if (own.head && i > 0) out(source.segments.segment_of(i) - 1) = totals(prefix.value);
    if (i == last) out(source.segments.segment_of(i)) = totals(pair_op(prefix, own).value);
  }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const Headed<T>& prefix) const { (*this)(i, prefix, prepare(i)); }
};

/// The CSR segmented reduce's sink: a head at i closes the segment of rank (heads before i) - 1;
/// the last element closes the one it is in. segment_of_rank maps ranks to segments (-1: the
/// elements after the last segment).
template <class T, class Count, class In, class Offsets, class Out, class Op>
struct MarkedReduceWrite {
  using Pair = Counted<T, Count>;
  PairSource<Pair, In, MarkedSegments<Offsets>> source;
  Out out;
  CountedOp<T, Count, Op> pair_op;
  SegmentTotals<T, Op> totals;
  const std::int64_t* segment_of_rank;
  std::int64_t last;
  KOKKOS_FUNCTION void close(Count heads, const T& value) const {
    if (heads == 0 || heads == empty_span<Count>) return;  // elements before the first segment
    const std::int64_t s = segment_of_rank[heads - 1];
    if (s >= 0) out(s) = totals(value);
  }
  KOKKOS_FUNCTION Pair prepare(std::int64_t i) const { return source(i); }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const Pair& prefix, const Pair& own) const {
    if (own.heads) close(prefix.heads, prefix.value);
    if (i == last) {
      const Pair through = pair_op(prefix, own);
      close(through.heads, through.value);
    }
  }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const Pair& prefix) const { (*this)(i, prefix, prepare(i)); }
};

/// Segment s's first element when s is non-empty and starts inside [0, n), else -1. s == S
/// stands for the elements after the last segment (marked like a segment when there are any).
template <class Offsets>
KOKKOS_FUNCTION std::int64_t marked_start(const Offsets& offsets, std::int64_t s, std::int64_t count, std::int64_t n) {
  const std::int64_t begin = std::int64_t(offsets(s));
  const std::int64_t end = s < count ? std::int64_t(offsets(s + 1)) : n;
  return (begin < end && begin >= 0 && begin < n) ? begin : -1;
}

KOKKOS_INLINE_FUNCTION void set_bit(std::uint32_t* bits, std::int64_t i) {
  Kokkos::atomic_or(bits + (i >> 5), std::uint32_t(1) << (i & 31));
}

/// The reduce's pass over the offsets, a scan of the marks: sets each mark's bit, maps its rank
/// to its segment, and writes `empty` (init or the identity) to the empty segments.
template <class Offsets, class Out, class T>
struct MarkAndRank {
  Offsets offsets;
  Out out;
  std::uint32_t* bits;
  std::int64_t* segment_of_rank;
  std::int64_t count, n;
  T empty;
  KOKKOS_FUNCTION std::int64_t operator()(std::int64_t s) const {
    return marked_start(offsets, s, count, n) >= 0 ? 1 : 0;
  }
  KOKKOS_FUNCTION void operator()(std::int64_t s, const std::int64_t& rank) const {
    const std::int64_t start = marked_start(offsets, s, count, n);
    if (start >= 0) {
      set_bit(bits, start);
      segment_of_rank[rank] = s < count ? s : -1;
    } else if (s < count) {
      out(s) = empty;
    }
  }
};

/// Tag of the head marks' buffers (apart from the engine's, which the calls use meanwhile).
struct MarkBuffers {};

/// Bytes of n bits in whole 32-bit words, rounded up to 8 so what follows is aligned for int64.
inline std::size_t bit_bytes(std::int64_t n) { return std::size_t((n + 63) / 64) * 8; }

// ---- host spaces ----------------------------------------------------------------------------
// On CPUs the pairs cost 2-3x Kokkos' loop per segment (2-core VM, 2026-11-26: the pair scan
// reduced 2^26 floats in 117-152 ms against Kokkos' 35-51 ms). There the input is cut into a few
// contiguous chunks per thread; each walks the segments that meet it with the thread layer's
// folds and scans (several chains, vectorised), and the calling thread joins what crosses chunks.

/// Host execution spaces (their kernels run on this process's threads).
template <class Space>
inline constexpr bool runs_on_host_v = Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible;

/// Where segments start: CSR offsets or every `size` elements, clamped into [0, n].
template <class Offsets>
struct OffsetStarts {
  Offsets offsets;
  std::int64_t count, n;
  std::int64_t begin(std::int64_t s) const { return std::clamp(std::int64_t(offsets(s)), std::int64_t(0), n); }
  std::int64_t end(std::int64_t s) const { return std::max(begin(s), begin(s + 1)); }
  /// The last segment starting at or before i (-1 when none does).
  std::int64_t at(std::int64_t i) const {
    std::int64_t low = -1, high = count;  // begin(low) <= i < begin(high), with begin(-1) = -inf
    while (high - low > 1) {
      const std::int64_t middle = low + (high - low) / 2;
      if (begin(middle) <= i) low = middle;
      else high = middle;
    }
    return low;
  }
};

struct FixedStarts {
  std::int64_t size, count, n;
  std::int64_t begin(std::int64_t s) const { return std::min(s * size, n); }
  std::int64_t end(std::int64_t s) const { return std::min((s + 1) * size, n); }
  std::int64_t at(std::int64_t i) const { return i < 0 ? -1 : std::min(i / size, count - 1); }
};

/// out(i) = value, for the thread layer's scans. A functor, not a lambda: the thread layer's
/// functions are host and device, and nvcc warns when they call a host lambda (as `get`,
/// IndexSource over the input View).
template <class Out>
struct PutInto {
  Out out;
  KOKKOS_FUNCTION void operator()(std::int64_t i, const typename Out::non_const_value_type& value) const {
    out(i) = value;
  }
};

/// The chunks of a host call: a few per thread, each at least 16384 elements.
template <class Space>
std::int64_t host_chunks(const Space& space, std::int64_t n) {
  return std::max<std::int64_t>(1, std::min<std::int64_t>(n / 16384, 8 * std::int64_t(space.concurrency())));
}

/// What a chunk leaves for the join: the piece of a segment begun before it (head) and the piece
/// of the segment that goes on after it (tail).
template <class T>
struct ChunkEnds {
  std::int64_t head_segment = -1, tail_segment = -1;
  bool head_closes = false;
  T head{}, tail{};
};

/// Whether host_reduce sums short segments with thread::short_sum: a View of values
/// can_short_sum_v takes, summed with Sum (at run time also: stride 1).
template <class In, class T, class Op>
inline constexpr bool short_summable_v = [] {
  if constexpr (Kokkos::is_view_v<In>)
    return std::is_same_v<Op, Sum> && !In::memory_traits::is_atomic &&
           thread::can_short_sum_v<typename In::non_const_value_type, T>;
  else
    return false;
}();

/// Segmented reduce on a host space: out(s) for every segment [begin(s), end(s)).
template <class Space, class In, class Starts, class Out, class Op>
void host_reduce(const Space& space, const In& in, const Starts& starts, const Out& out,
                 const SegmentTotals<typename Out::non_const_value_type, Op>& totals) {
  using T = typename Out::non_const_value_type;
  const Op& op = totals.op;
  const std::int64_t n = starts.n, count = starts.count;
  const std::int64_t chunks = host_chunks(space, n);
  std::vector<ChunkEnds<T>> ends(chunks);
  const IndexSource<In, T> get{in, n};
  bool contiguous = false;
  if constexpr (short_summable_v<In, T, Op>) contiguous = in.stride(0) == 1;
  Kokkos::parallel_for(
      "kprim::segmented_reduce host", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
      [&](std::int64_t c) {
        const std::int64_t first = n * c / chunks, last = n * (c + 1) / chunks;
        ChunkEnds<T>& mine = ends[c];
        std::int64_t s = starts.at(first);
        if (s >= 0 && starts.begin(s) < first && first < starts.end(s)) {  // begun before this chunk
          const std::int64_t stop = std::min(starts.end(s), last);
          mine.head_segment = s;
          mine.head_closes = stop == starts.end(s);
          mine.head = thread::fold_run<T>(first, stop, get, op);
        }
        // The segments this chunk owns: those starting in it (the last chunk also those at n).
        s = starts.at(first - 1) + 1;
        for (std::int64_t b = s < count ? starts.begin(s) : n; s < count && (b < last || (c == chunks - 1 && b == n));
             ++s) {
          const std::int64_t next = starts.begin(s + 1), e = std::max(b, next);
          if (e <= last) {
            if (e == b) {
              out(s) = totals.empty;
            } else if (e - b < 64) {  // short: fold_run's set-up costs more than its chains save
              if constexpr (short_summable_v<In, T, Op>) {  // no branch on the length
                if (contiguous && e - b <= thread::short_sum_window && b + thread::short_sum_window <= n) {
                  out(s) = totals(thread::short_sum<T>(in.data() + b, int(e - b)));
                  b = next;
                  continue;
                }
              }
              T value = get(b);
              for (std::int64_t i = b + 1; i < e; ++i) value = T(op(value, get(i)));
              out(s) = totals(value);
            } else {
              out(s) = totals(thread::fold_run<T>(b, e, get, op));
            }
          } else {
            mine.tail_segment = s;
            mine.tail = thread::fold_run<T>(b, last, get, op);
          }
          b = next;
        }
      });
  space.fence("kprim::segmented_reduce: join the chunks");
  std::int64_t open = -1;
  T value{};
  for (std::int64_t c = 0; c < chunks; ++c) {
    if (ends[c].head_segment >= 0 && ends[c].head_segment == open) {
      value = T(op(value, ends[c].head));
      if (ends[c].head_closes) {
        out(open) = totals(value);
        open = -1;
      }
    }
    if (ends[c].tail_segment >= 0) {
      open = ends[c].tail_segment;
      value = ends[c].tail;
    }
  }
}

/// Segmented scan on a host space: the chunks' carries first (each chunk's fold from its last
/// segment start, or of all of it), joined in order, then each chunk scans its pieces.
template <bool Exclusive, class Space, class In, class Starts, class Out, class Op>
void host_scan(const Space& space, const In& in, const Starts& starts, const Out& out,
               const typename Out::non_const_value_type& init, const Op& op) {
  using T = typename Out::non_const_value_type;
  const std::int64_t n = starts.n, count = starts.count;
  if (count == 0) return;
  const std::int64_t chunks = host_chunks(space, n);
  const std::int64_t covered_end = starts.begin(count);
  std::vector<T> carry(chunks);          // pass 1: the chunk's carry out; then the carry into it
  std::vector<char> restarts(chunks, 0);  // a segment starts inside the chunk
  const IndexSource<In, T> get{in, n};
  using policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("kprim::segmented_scan host carries", policy(space, 0, chunks), [&](std::int64_t c) {
    const std::int64_t first = n * c / chunks, last = std::min(n * (c + 1) / chunks, covered_end);
    if (first >= last) {  // past the last segment, as every chunk after it: the carry is never used
      carry[c] = T{};
      restarts[c] = 1;
      return;
    }
    const std::int64_t s = starts.at(last - 1);  // the segment of the chunk's last element
    const std::int64_t from = s >= 0 ? std::max(starts.begin(s), first) : first;
    restarts[c] = s < 0 || starts.begin(s) >= first;
    carry[c] = thread::fold_run<T>(from, last, get, op);
  });
  space.fence("kprim::segmented_scan: join the carries");
  T running{};  // chunk 0 always restarts
  for (std::int64_t c = 0; c < chunks; ++c) {
    const T out_of_chunk = restarts[c] ? carry[c] : T(op(running, carry[c]));
    carry[c] = running;
    running = out_of_chunk;
  }
  Kokkos::parallel_for("kprim::segmented_scan host", policy(space, 0, chunks), [&](std::int64_t c) {
    const std::int64_t first = n * c / chunks, last = std::min(n * (c + 1) / chunks, covered_end);
    if (first >= last) return;
    const PutInto<Out> put{out};
    std::int64_t s = starts.at(first);
    std::int64_t at = first;
    if (s >= 0 && starts.begin(s) < first) {  // the piece of a segment begun before
      const std::int64_t stop = std::min(starts.end(s), last);
      thread::scan_run_as<Exclusive, T>(first, stop, get, put, Exclusive ? T(op(init, carry[c])) : carry[c], op);
      at = stop;
    }
    for (s = std::max<std::int64_t>(s, 0); at < last && s < count; ++s) {
      const std::int64_t b = starts.begin(s), e = std::min(starts.end(s), last);
      if (b < at || b >= e) continue;  // before this chunk, or empty
      if constexpr (Exclusive) {
        thread::scan_run_as<true, T>(b, e, get, put, init, op);
      } else {  // from the first element: ops without an identity scan too
        const T head = get(b);
        put(b, head);
        thread::scan_run_as<false, T>(b + 1, e, get, put, head, op);
      }
      at = e;
    }
  });
  space.fence("kprim::segmented_scan host");
}

/// Whether a segmented scan runs the hand-written CUDA kernel (impl/cuda/segmented_scan.cuh): the
/// trait's types, plain options asking for nothing else (no algorithm, tuning or bitwise order,
/// which the pair scan honours).
template <class Space, class In, class T, class Options>
bool takes_segmented_scan_kernel(const Options& options) {
  if constexpr (cuda_segmented_scan_avail_v<Space, typename In::non_const_value_type, T> &&
                std::is_same_v<Options, ScanOptions>) {
    return options.algorithm == ScanAlgorithm::automatic && options.determinism != Determinism::bitwise &&
           detail::is_default(options.tuning);
  } else {
    return false;
  }
}

/// The tile state the kernel needs (none where it is not compiled).
template <class Space, class T, class Pair>
TileStateNeed segmented_scan_tile_state(std::int64_t n) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) return cuda::segmented_scan_tile_state<T, Pair>(n);
#endif
  (void)n;
  return {};
}

/// Runs the CUDA segmented scan kernel (n > 0) when takes_segmented_scan_kernel said so.
template <bool Exclusive, class Pair, class PairOp, class Space, class In, class Out, class Heads, class T, class Op>
void run_segmented_scan_kernel(const char* function, const Space& space, const In& in, const Out& out,
                               const Heads& heads, const T& init, const Op& op, TileState tiles) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (cuda_segmented_scan_avail_v<Space, typename In::non_const_value_type, T>) {
    const detail::PathRegion region(function, "cuda segmented");
    cuda::segmented_scan<Exclusive, Pair, PairOp>(function, space, detail::cuda_input(in), detail::cuda_output(out),
                                                  heads, std::int64_t(in.extent(0)), init, op, tiles);
    return;
  }
#endif
  (void)function, (void)space, (void)in, (void)out, (void)heads, (void)init, (void)op, (void)tiles;
}

/// Whether the CUDA segmented scan (takes_segmented_scan_kernel) runs the look-ahead kernel with
/// `Heads` (cuda::takes_lookahead_segments); false where it is not compiled.
template <bool Exclusive, class Pair, class PairOp, class Heads, class Space, class In, class Out, class Op>
bool takes_lookahead_segments(const char* function, const Space& space, const In& in, const Out& out, const Op&) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  using T = typename Out::non_const_value_type;
  if constexpr (cuda_segmented_scan_avail_v<Space, typename In::non_const_value_type, T>)
    return cuda::takes_lookahead_segments<Exclusive, Pair, PairOp, Heads, Op>(
        function, space, detail::cuda_input(in), detail::cuda_output(out), std::int64_t(in.extent(0)));
#endif
  (void)function, (void)space, (void)in, (void)out;
  return false;
}

/// Runs the CUDA segmented look-ahead kernel where takes_lookahead_segments said so.
template <bool Exclusive, class Pair, class PairOp, class Space, class In, class Out, class Heads, class T, class Op>
void run_lookahead_segments(const char* function, const Space& space, const In& in, const Out& out,
                            const Heads& heads, const T& init, const Op& op, TileState tiles) {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (cuda_segmented_scan_avail_v<Space, typename In::non_const_value_type, T>) {
    const detail::PathRegion region(function, "cuda segmented");
    cuda::lookahead_segmented_scan<Exclusive, Pair, PairOp>(function, space, detail::cuda_input(in),
                                                            detail::cuda_output(out), heads,
                                                            std::int64_t(in.extent(0)), init, op, tiles);
    return;
  }
#endif
  (void)function, (void)space, (void)in, (void)out, (void)heads, (void)init, (void)op, (void)tiles;
}

/// Segmented scan over CSR offsets (count = S segments).
template <bool Exclusive, class Space, class In, class Offsets, class Out, class Op, class Options>
void marked_scan(const char* function, const Space& space, const In& in, const Offsets& offsets, const Out& out,
                 const typename Out::non_const_value_type& init, const Op& op, const Options& options) {
  using T = typename Out::non_const_value_type;
  const std::int64_t n = std::int64_t(in.extent(0));
  const std::int64_t count = std::int64_t(offsets.extent(0)) - 1;
  if (n == 0 || count == 0) return;
  if constexpr (runs_on_host_v<Space>) {
    if (options.determinism != Determinism::bitwise) {
      host_scan<Exclusive>(space, in, OffsetStarts<Offsets>{offsets, count, n}, out, init, op);
      return;
    }
  }
  using Pair = Headed<T>;
  const bool kernel = takes_segmented_scan_kernel<Space, In, T>(options);
  // Sparse offsets: the look-ahead kernel finds each tile's heads in them, with no bits, memset or
  // marks kernel. H200, 2026-12-02, time / the marks call's at 2^24 (2^26): float ~1000 0.79 (0.98),
  // ~10^6 0.83 (0.92), double ~1000 0.82 (0.95); dense ones keep the marks: on the kernel, 2026-12-03,
  // 1-32 0.93 (1.00), the power law (mean length ~65) 1.05 (1.32), its search longer than the tile.
  constexpr std::int64_t sparse_mean_length = 256;
  if (kernel && n >= sparse_mean_length * count &&
      takes_lookahead_segments<Exclusive, Pair, HeadedOp<T, Op>, OffsetSegments<Offsets>>(function, space, in, out,
                                                                                         op)) {
    const auto buffers = TemporaryStorage<Space, typename Space::memory_space, MarkBuffers>::lease(
        function, space, 0, 0, segmented_scan_tile_state<Space, T, Pair>(n));
    run_lookahead_segments<Exclusive, Pair, HeadedOp<T, Op>>(function, space, in, out,
                                                             OffsetSegments<Offsets>{offsets, count}, init, op,
                                                             buffers.tile_state());
    return;
  }
  const std::size_t mark_bytes = (bit_bytes(n) + 15) / 16 * 16;
  const auto buffers = TemporaryStorage<Space, typename Space::memory_space, MarkBuffers>::lease(
      function, space, mark_bytes, 0, kernel ? segmented_scan_tile_state<Space, T, Pair>(n) : TileStateNeed{});
  std::uint32_t* const bits = buffers.template as<std::uint32_t>();
  zero_bytes(space, reinterpret_cast<unsigned char*>(bits), bit_bytes(n));
  Kokkos::parallel_for(
      "kprim::segmented_scan marks", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, count),
      KOKKOS_LAMBDA(std::int64_t s) {
        const std::int64_t start = marked_start(offsets, s, count, n);
        if (start >= 0) set_bit(bits, start);
      });
  using Segments = MarkedSegments<Offsets>;
  if (kernel) {
    run_segmented_scan_kernel<Exclusive, Pair, HeadedOp<T, Op>>(function, space, in, out, Segments{bits, offsets, count},
                                                                init, op, buffers.tile_state());
    return;
  }
  const PairSource<Pair, In, Segments> source{in, Segments{bits, offsets, count}};
  using Write = ScanWrite<Exclusive, T, In, Segments, Out, Op>;
  const Pair seed = HeadedOp<T, Op>{op}.identity();
  scan_values(function, space, IndexSource<PairSource<Pair, In, Segments>, Pair>{source, n},
              Sink<Pair, Write>{Write{source, out, op, init}, n}, true, &seed, HeadedOp<T, Op>{op}, options,
              NoTotal{});
}

/// Segmented scan over segments of `size` elements.
template <bool Exclusive, class Space, class In, class Out, class Op, class Options>
void fixed_scan(const char* function, const Space& space, const In& in, std::int64_t size, const Out& out,
                const typename Out::non_const_value_type& init, const Op& op, const Options& options) {
  using T = typename Out::non_const_value_type;
  const std::int64_t n = std::int64_t(in.extent(0));
  if (n == 0) return;
  if constexpr (runs_on_host_v<Space>) {
    if (options.determinism != Determinism::bitwise) {
      host_scan<Exclusive>(space, in, FixedStarts{size, (n + size - 1) / size, n}, out, init, op);
      return;
    }
  }
  using Pair = Headed<T>;
  const FixedSegments segments{thread::FastDivider(std::uint64_t(size))};
  if (takes_segmented_scan_kernel<Space, In, T>(options)) {
    const auto buffers = TemporaryStorage<Space, typename Space::memory_space, MarkBuffers>::lease(
        function, space, 0, 0, segmented_scan_tile_state<Space, T, Pair>(n));
    run_segmented_scan_kernel<Exclusive, Pair, HeadedOp<T, Op>>(function, space, in, out, segments, init, op,
                                                                buffers.tile_state());
    return;
  }
  const PairSource<Pair, In, FixedSegments> source{in, segments};
  using Write = ScanWrite<Exclusive, T, In, FixedSegments, Out, Op>;
  const Pair seed = HeadedOp<T, Op>{op}.identity();
  scan_values(function, space, IndexSource<PairSource<Pair, In, FixedSegments>, Pair>{source, n},
              Sink<Pair, Write>{Write{source, out, op, init}, n}, true, &seed, HeadedOp<T, Op>{op}, options,
              NoTotal{});
}

/// A Kokkos reducer for a kprim op with an identity (nested parallel_reduce over a team's range).
template <class T, class Op>
struct OpReducer {
  using reducer = OpReducer;
  using value_type = T;
  using result_view_type = Kokkos::View<T, Kokkos::AnonymousSpace, Kokkos::MemoryUnmanaged>;
  Op op;
  T* value;
  KOKKOS_FUNCTION void join(T& dest, const T& src) const { dest = T(op(dest, src)); }
  KOKKOS_FUNCTION void init(T& v) const { v = identity_of<T>(op); }
  KOKKOS_FUNCTION T& reference() const { return *value; }
  KOKKOS_FUNCTION result_view_type view() const { return result_view_type(value); }
  KOKKOS_FUNCTION bool references_scalar() const { return true; }
};

/// op over read(0 .. n), n >= 1, in range order, by the vector lanes of the calling team thread
/// (every lane gets it), for any op: on CUDA a contiguous run a lane, the runs joined with
/// shuffles (cuda::vector_fold_in_order), elsewhere one lane's loop.
template <class T, class Member, class Read, class Op>
KOKKOS_FUNCTION T vector_fold_in_order(const Member& team, std::int64_t n, const Read& read, const Op& op) {
  T total;
  bool done = false;
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  if constexpr (cuda_team_avail_v<Member, T>) {
    KOKKOS_IF_ON_DEVICE((total = cuda::vector_fold_in_order<T>(n, read, op); done = true;))
  }
#endif
  if (!done) Kokkos::single(Kokkos::PerThread(team), [&](T& value) { value = thread::fold_run<T>(0, n, read, op); }, total);
  return total;
}

/// op over read(0 .. n), n >= 1, by the calling team thread's `lanes` vector lanes (every lane
/// gets it): commutative ops with an identity fold each lane's strided share with four loads in
/// flight (one at a time, a lane waits on memory for each: 0.69x CUB for segments of ~1000 floats,
/// H100); any other op folds in order (vector_fold_in_order).
template <class T, class Member, class Read, class Op>
KOKKOS_FUNCTION T vector_fold(const Member& team, int lanes, std::int64_t n, const Read& read, const Op& op) {
  if constexpr (is_commutative_v<Op> && HasIdentity<Op, T>) {
    T value;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, 0, lanes),
        [&](int lane, T& partial) {
          std::int64_t i = lane;
          for (; i + 3 * lanes < n; i += 4 * lanes) {
            const T a = T(read(i)), b = T(read(i + lanes)), c = T(read(i + 2 * lanes)), d = T(read(i + 3 * lanes));
            partial = T(op(partial, T(op(T(op(a, b)), T(op(c, d))))));
          }
          for (; i < n; i += lanes) partial = T(op(partial, T(read(i))));
        },
        OpReducer<T, Op>{op, &value});
    return value;
  } else {
    return vector_fold_in_order<T>(team, n, read, op);
  }
}

/// Segments whose mean length is at least this many elements go through chunked_reduce on
/// devices, shorter ones through the pairs: H100, 2^26 floats, a power law of mean ~75 takes 373
/// us in pairs and 481 in chunks, segments of ~1000 337 and 153.
inline constexpr std::int64_t chunked_mean_length = 256;

/// Elements per chunk of chunked_reduce (GPUs): 64 per lane of the warp that reduces it, so a
/// segment of ~1000 floats is one warp's work, as in CSR SpMV's vector-per-row kernels.
inline constexpr std::int64_t reduce_chunk = 2048;

/// Whether chunked_reduce reads in 16-byte vectors: on CUDA, for ops folded in order (any but
/// commutative ones with an identity) over a contiguous View of vectorizable elements. Chunks are
/// read in coalesced rows of the warp's vectors joined by a butterfly: a run a lane element by
/// element starts every 64 elements (256 bytes for floats) and thrashed the L1 (H100, 2^26
/// floats, a lambda, the chunk kernel, ncu: 353 us in runs, L1 hits 82%, DRAM 27%; 135 us in
/// vectors, DRAM 60%). Segments shorter than a chunk keep a run a lane, read in vectors
/// (cuda::vector_fold_runs_contiguous), in a kernel of their own: the butterfly takes 63 registers
/// where runs take 42, and in one kernel segments of ~1000 ran at 50% occupancy (151 us, 137 at 75%).
template <class Member, class T, class In, class Op>
inline constexpr bool chunks_in_vectors_v =
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    !(is_commutative_v<Op> && HasIdentity<Op, T>) &&
    (std::is_same_v<typename In::array_layout, Kokkos::LayoutRight> ||
     std::is_same_v<typename In::array_layout, Kokkos::LayoutLeft>) &&
    cuda::vectorizable_v<typename In::non_const_value_type> && cuda_team_avail_v<Member, T>;
#else
    false;
#endif

/// Segment s's range for chunked_reduce, clamped into [0, n] (offsets out of range read nothing),
/// and its chunks: length / reduce_chunk, the last one taking the rest of the segment (none for
/// the entry s == count, which the exclusive scan over the counts turns into their total).
template <class Offsets>
struct ChunkCounts {
  Offsets offsets;
  std::int64_t count, n;
  KOKKOS_FUNCTION Kokkos::pair<std::int64_t, std::int64_t> range(std::int64_t s) const {
    const std::int64_t begin = Kokkos::clamp(std::int64_t(offsets(s)), std::int64_t(0), n);
    return {begin, Kokkos::max(begin, Kokkos::clamp(std::int64_t(offsets(s + 1)), std::int64_t(0), n))};
  }
  KOKKOS_FUNCTION std::int64_t operator()(std::int64_t s) const {
    if (s == count) return 0;
    const auto r = range(s);
    return (r.second - r.first) / reduce_chunk;
  }
};

/// chunked_reduce's two kernels, each a vector of lanes per item. The first takes a segment per
/// vector: it writes the map from the segment's chunks to it, and folds a segment shorter than a
/// chunk into out(s) (totals.empty when it is empty). The second takes a chunk per vector (in
/// vectors where chunks_in_vectors_v says so), the last one of a segment up to its end: out(s)
/// for a segment of one chunk, else the partial in slot chunks_before[s] + its place.
template <bool OverChunks, class T, class In, class Offsets, class Out, class Op, class Member>
struct FoldChunks {
  In in;
  ChunkCounts<Offsets> counts;
  const std::int64_t* chunks_before;  // the chunks of the segments before s
  std::int64_t* segment_of;           // chunk -> segment
  Out out;
  SegmentTotals<T, Op> totals;
  T* partials;
  int lanes;

  KOKKOS_FUNCTION void operator()(const Member& team) const {
    const std::int64_t item = team.league_rank() * team.team_size() + team.team_rank();
    if constexpr (OverChunks) {
      if (item < chunks_before[counts.count]) fold_chunk(team, item);
    } else if (item < counts.count) {
      fold_segment(team, item);
    }
  }

  KOKKOS_FUNCTION void fold_chunk(const Member& team, std::int64_t k) const {
    const std::int64_t s = segment_of[k];
    const auto r = counts.range(s);
    const std::int64_t chunks = (r.second - r.first) / reduce_chunk;
    const std::int64_t nth = k - chunks_before[s];  // the chunk's place in its segment
    const std::int64_t begin = r.first + nth * reduce_chunk;
    const T value = fold(team, begin, nth == chunks - 1 ? r.second - begin : reduce_chunk);
    Kokkos::single(Kokkos::PerThread(team), [&] {
      if (chunks == 1) out(s) = totals(value);
      else partials[chunks_before[s] + nth] = value;
    });
  }

  KOKKOS_FUNCTION void fold_segment(const Member& team, std::int64_t s) const {
    const auto r = counts.range(s);
    const std::int64_t chunks = (r.second - r.first) / reduce_chunk;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, chunks_before[s], chunks_before[s] + chunks),
                         [&](std::int64_t c) { segment_of[c] = s; });
    if (chunks > 0) return;
    if (r.first == r.second) {
      Kokkos::single(Kokkos::PerThread(team), [&] { out(s) = totals.empty; });
      return;
    }
    const T value = fold(team, r.first, r.second - r.first);
    Kokkos::single(Kokkos::PerThread(team), [&] { out(s) = totals(value); });
  }

  KOKKOS_FUNCTION T fold(const Member& team, std::int64_t begin, std::int64_t n) const {
#if defined(KPRIM_ENABLE_CUDA_WARP) && defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    if constexpr (chunks_in_vectors_v<Member, T, In, Op>) {
      T total;
      bool done = false;
      KOKKOS_IF_ON_DEVICE((if (lanes == cuda::warp_size) {
        if constexpr (OverChunks) total = cuda::vector_fold_contiguous_in_order<T>(in.data() + begin, n, totals.op);
        else total = cuda::vector_fold_runs_contiguous<T>(in.data() + begin, n, totals.op);
        done = true;
      }))
      if (done) return total;
    }
#endif
    return vector_fold<T>(team, lanes, n, [&](std::int64_t i) { return T(in(begin + i)); }, totals.op);
  }
};

/// Segmented reduce of long segments: a segment of at least reduce_chunk elements is cut into
/// chunks of reduce_chunk, its last chunk taking the rest (up to twice as long), and one vector of
/// lanes folds each chunk with coalesced loads; a vector per segment folds a shorter segment, and
/// then the partials of segments of several chunks. Commutative ops with an identity fold each
/// lane's strided share; any other op folds in order, chunks in vectors where
/// chunks_in_vectors_v says so. The rest of a long segment joins its last chunk: folded in the
/// segments' kernel, it left that kernel waiting on one warp's loads per long segment (H100, 2^24
/// floats in ~10^6-element segments, Sum: 70-72 us against 62-64 in one kernel).
template <class Space, class In, class Offsets, class Out, class Op>
void chunked_reduce(const char* function, const Space& space, const In& in, const Offsets& offsets, const Out& out,
                    const SegmentTotals<typename Out::non_const_value_type, Op>& totals) {
  using T = typename Out::non_const_value_type;
  const Op op = totals.op;
  using team_policy = Kokkos::TeamPolicy<Space, Kokkos::IndexType<std::int64_t>>;
  using member = typename team_policy::member_type;
  const std::int64_t n = std::int64_t(in.extent(0));
  const std::int64_t count = std::int64_t(offsets.extent(0)) - 1;
  const std::int64_t most_chunks = n / reduce_chunk;
  const std::size_t index_bytes = std::size_t(count + 1 + most_chunks) * sizeof(std::int64_t);
  const std::size_t partial_offset = (index_bytes + alignof(T) - 1) / alignof(T) * alignof(T);
  const auto buffers = TemporaryStorage<Space, typename Space::memory_space, MarkBuffers>::lease(
      function, space, partial_offset + std::size_t(most_chunks) * sizeof(T));
  std::int64_t* const chunks_before = buffers.template as<std::int64_t>();
  std::int64_t* const segment_of = chunks_before + count + 1;
  T* const partials = reinterpret_cast<T*>(buffers.template as<unsigned char>() + partial_offset);
  // The chunk counts and their exclusive scan (a plain View scan, the fast path). One scan over an
  // IndexSource whose sink wrote the map took 37 us for 16,800 segments (H100: 5 blocks, 6%
  // occupancy), 0.59x CUB at 2^24.
  const ChunkCounts<Offsets> counts{offsets, count, n};
  Kokkos::parallel_for(
      "kprim::segmented_reduce chunk counts", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, count + 1),
      KOKKOS_LAMBDA(std::int64_t s) { chunks_before[s] = counts(s); });
  const Kokkos::View<std::int64_t*, typename Space::memory_space, Kokkos::MemoryUnmanaged> scanned(chunks_before,
                                                                                                   count + 1);
  const std::int64_t zero = 0;
  scan_values(function, space, scanned, scanned, true, &zero, Sum{}, ScanOptions{}, NoTotal{});
  // A segment or a chunk per vector of lanes (a warp on CUDA), 8 per team (one on host spaces,
  // whose teams are threads): no team barrier anywhere. Segments first: they write the map.
  constexpr int per_team = runs_on_host_v<Space> ? 1 : 8;
  const int lanes = team_policy::vector_length_max();
  const auto teams_for = [&](std::int64_t items) {
    return team_policy(space, (items + per_team - 1) / per_team, per_team, lanes);
  };
  using Segments = FoldChunks<false, T, In, Offsets, Out, Op, member>;
  Kokkos::parallel_for("kprim::segmented_reduce segments", teams_for(count),
                       Segments{in, counts, chunks_before, segment_of, out, totals, partials, lanes});
  using Chunks = FoldChunks<true, T, In, Offsets, Out, Op, member>;
  Kokkos::parallel_for("kprim::segmented_reduce chunks", teams_for(most_chunks),
                       Chunks{in, counts, chunks_before, segment_of, out, totals, partials, lanes});
  Kokkos::parallel_for(
      "kprim::segmented_reduce partials", teams_for(count), KOKKOS_LAMBDA(const member& team) {
        const std::int64_t s = team.league_rank() * team.team_size() + team.team_rank();
        if (s >= count) return;
        const std::int64_t first = chunks_before[s], chunks = chunks_before[s + 1] - first;
        if (chunks < 2) return;  // written by its chunk or its segment
        const T value = vector_fold<T>(team, lanes, chunks, [&](std::int64_t c) { return partials[first + c]; }, op);
        Kokkos::single(Kokkos::PerThread(team), [&] { out(s) = totals(value); });
      });
}

/// marked_reduce's pair scan (any op, any mix; n > 0 and S > 0).
template <class Space, class In, class Offsets, class Out, class Op, class Options>
void paired_reduce(const char* function, const Space& space, const In& in, const Offsets& offsets, const Out& out,
                   const SegmentTotals<typename Out::non_const_value_type, Op>& totals, const Options& options) {
  using T = typename Out::non_const_value_type;
  const Op& op = totals.op;
  const std::int64_t n = std::int64_t(in.extent(0));
  const std::int64_t count = std::int64_t(offsets.extent(0)) - 1;
  const std::size_t rank_bytes = std::size_t(count + 1) * sizeof(std::int64_t);
  const auto buffers =
      TemporaryStorage<Space, typename Space::memory_space, MarkBuffers>::lease(function, space, bit_bytes(n) + rank_bytes);
  std::uint32_t* const bits = buffers.template as<std::uint32_t>();
  std::int64_t* const segment_of_rank = reinterpret_cast<std::int64_t*>(buffers.template as<unsigned char>() + bit_bytes(n));
  zero_bytes(space, reinterpret_cast<unsigned char*>(bits), bit_bytes(n));
  using Marks = MarkAndRank<Offsets, Out, T>;
  const Marks marks{offsets, out, bits, segment_of_rank, count, n, totals.empty};
  const std::int64_t zero = 0;
  scan_values(function, space, IndexSource<Marks, std::int64_t>{marks, count + 1},
              Sink<std::int64_t, Marks>{marks, count + 1}, true, &zero, Sum{}, options, NoTotal{});
  using Segments = MarkedSegments<Offsets>;
  const auto run = [&](auto zero) {
    using Count = decltype(zero);
    using Pair = Counted<T, Count>;
    const PairSource<Pair, In, Segments> source{in, Segments{bits, offsets, count}};
    using Write = MarkedReduceWrite<T, Count, In, Offsets, Out, Op>;
    const CountedOp<T, Count, Op> pair_op{op};
    const Pair seed = pair_op.identity();
    scan_values(function, space, IndexSource<PairSource<Pair, In, Segments>, Pair>{source, n},
                Sink<Pair, Write>{Write{source, out, pair_op, totals, segment_of_rank, n - 1}, n}, true, &seed, pair_op,
                options, NoTotal{});
  };
  // Ranks count the marks, at most S + 1: 32 bits make the pair of a float or an int32 8 bytes
  // (all ones flags the empty span).
  if (count + 1 < std::int64_t(0xffffffff)) run(std::uint32_t(0));
  else run(std::int64_t(0));
}

/// Segmented reduce over CSR offsets: out(s) = totals(op over segment s), totals.empty when empty.
template <class Space, class In, class Offsets, class Out, class Op, class Options>
void marked_reduce(const char* function, const Space& space, const In& in, const Offsets& offsets, const Out& out,
                   const SegmentTotals<typename Out::non_const_value_type, Op>& totals, const Options& options) {
  const std::int64_t n = std::int64_t(in.extent(0));
  const std::int64_t count = std::int64_t(offsets.extent(0)) - 1;
  if (count == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(space, out, totals.empty);
    return;
  }
  if constexpr (runs_on_host_v<Space>) {
    if (options.determinism != Determinism::bitwise) {
      host_reduce(space, in, OffsetStarts<Offsets>{offsets, count, n}, out, totals);
      return;
    }
  }
  if constexpr (!runs_on_host_v<Space>) {
    if (n / count >= chunked_mean_length && options.determinism != Determinism::bitwise) {
      chunked_reduce(function, space, in, offsets, out, totals);
      return;
    }
  }
  paired_reduce(function, space, in, offsets, out, totals, options);
}

/// Segmented reduce over segments of `size` elements: out(s) = op over elements [s size, (s+1) size).
template <class Space, class In, class Out, class Op, class Options>
void fixed_reduce(const char* function, const Space& space, const In& in, std::int64_t size, const Out& out,
                  const SegmentTotals<typename Out::non_const_value_type, Op>& totals, const Options& options) {
  using T = typename Out::non_const_value_type;
  const Op& op = totals.op;
  const std::int64_t n = std::int64_t(in.extent(0));
  if (n == 0) return;
  if constexpr (runs_on_host_v<Space>) {
    if (options.determinism != Determinism::bitwise) {
      host_reduce(space, in, FixedStarts{size, (n + size - 1) / size, n}, out, totals);
      return;
    }
  }
  using Pair = Headed<T>;
  const PairSource<Pair, In, FixedSegments> source{in, FixedSegments{thread::FastDivider(std::uint64_t(size))}};
  using Write = FixedReduceWrite<T, In, Out, Op>;
  const HeadedOp<T, Op> pair_op{op};
  const Pair seed = pair_op.identity();
  scan_values(function, space, IndexSource<PairSource<Pair, In, FixedSegments>, Pair>{source, n},
              Sink<Pair, Write>{Write{source, out, pair_op, totals, n - 1}, n}, true, &seed, pair_op, options, NoTotal{});
}

}  // namespace kprim::impl::segments
