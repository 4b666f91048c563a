#pragma once
// Distributed layer, below kprim::mpi: combines one value per rank (a rank's local reduce) across
// a communicator. Everything here moves a few bytes per rank; the node-local work stays in the
// drivers under impl/device.
//
// How the values are combined — decided in one place, combination<T, Op>():
//   native    built-in op on an MPI-native type (Sum/Prod on arithmetic types, Min/Max on integers):
//             MPI_Allreduce / MPI_Exscan with MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX.
//   user_op   a stateless op (empty class) on a trivially copyable type, floating Min/Max included
//             (MPI_MIN/MPI_MAX need not propagate NaN as kprim's do): an MPI_Op built from the op,
//             created commutative only when the op says it is, so MPI keeps rank order otherwise.
//   gathered  an op with state (MPI_Op callbacks cannot reach it), or Determinism::bitwise with an
//             order-sensitive type/op: MPI_Allgather of the values, folded on the host in rank
//             order, the same on every rank and in every run.

#include <kprim/config.hpp>
#include <kprim/errors.hpp>
#include <kprim/impl/device/dispatch.hpp>
#include <kprim/ops.hpp>
#include <kprim/options.hpp>

#include <mpi.h>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kprim::impl::mpi {

enum class Combination { native, user_op, gathered };

/// The MPI datatype of an arithmetic T, or MPI_DATATYPE_NULL.
template <class T>
MPI_Datatype native_datatype() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, long double>) return MPI_LONG_DOUBLE;
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    constexpr bool is_signed = std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1) return is_signed ? MPI_INT8_T : MPI_UINT8_T;
    else if constexpr (sizeof(T) == 2) return is_signed ? MPI_INT16_T : MPI_UINT16_T;
    else if constexpr (sizeof(T) == 4) return is_signed ? MPI_INT32_T : MPI_UINT32_T;
    else if constexpr (sizeof(T) == 8) return is_signed ? MPI_INT64_T : MPI_UINT64_T;
    else return MPI_DATATYPE_NULL;
  } else return MPI_DATATYPE_NULL;
}

template <class T, class Op>
constexpr bool has_native_op() {
  if constexpr (!(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)) return false;
  else if constexpr (std::is_same_v<Op, Sum> || std::is_same_v<Op, Prod>) return true;
  else return std::is_integral_v<T> && (std::is_same_v<Op, Min> || std::is_same_v<Op, Max>);
}

template <class T, class Op>
MPI_Op native_op() {
  if constexpr (std::is_same_v<Op, Sum>) return MPI_SUM;
  else if constexpr (std::is_same_v<Op, Prod>) return MPI_PROD;
  else if constexpr (std::is_same_v<Op, Min>) return MPI_MIN;
  else return MPI_MAX;
}

template <class T, class Op>
Combination combination(Determinism determinism) {
  if (determinism == Determinism::bitwise && !detail::exact_in_any_order<T, Op>()) return Combination::gathered;
  if constexpr (has_native_op<T, Op>()) return Combination::native;
  else if constexpr (std::is_empty_v<Op> && std::is_default_constructible_v<Op>) return Combination::user_op;
  else return Combination::gathered;
}

inline void check_mpi(const char* function, const char* call, int status) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(status, text, &length) != MPI_SUCCESS) length = 0;
  throw kprim::mpi::error(std::string(function) + ": " + call + " failed: " + std::string(text, std::size_t(length)));
}

/// MPI is usable and `comm` is an intracommunicator; checked before any communication.
inline void check_communicator(const char* function, MPI_Comm comm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    throw kprim::not_initialized(std::string(function) +
                                 (finalized ? ": MPI is already finalized" : ": MPI is not initialized (call MPI_Init first)"));
  if (comm == MPI_COMM_NULL) throw kprim::invalid_argument(std::string(function) + ": the communicator is MPI_COMM_NULL");
  int is_inter = 0;
  check_mpi(function, "MPI_Comm_test_inter", MPI_Comm_test_inter(comm, &is_inter));
  if (is_inter) throw kprim::invalid_argument(std::string(function) + ": the communicator is an intercommunicator");
}

template <class T>
T from_bytes(const unsigned char* bytes) {
  std::array<unsigned char, sizeof(T)> copy;
  for (std::size_t i = 0; i < sizeof(T); ++i) copy[i] = bytes[i];
  return std::bit_cast<T>(copy);
}

template <class T>
void to_bytes(const T& value, unsigned char* bytes) {
  const auto copy = std::bit_cast<std::array<unsigned char, sizeof(T)>>(value);
  for (std::size_t i = 0; i < sizeof(T); ++i) bytes[i] = copy[i];
}

// MPI_User_function for a stateless Op: inout[i] = op(in[i], inout[i]), `in` coming from the
// lower ranks (the MPI standard's order). Byte copies: MPI's buffers need not be aligned for T.
template <class T, class Op>
void combine_user_values(void* in, void* inout, int* count, MPI_Datatype*) {
  const Op op{};
  auto* lower = static_cast<const unsigned char*>(in);
  auto* upper = static_cast<unsigned char*>(inout);
  for (int i = 0; i < *count; ++i) {
    const std::size_t offset = std::size_t(i) * sizeof(T);
    to_bytes<T>(T(op(from_bytes<T>(lower + offset), from_bytes<T>(upper + offset))), upper + offset);
  }
}

/// The datatype and op MPI needs for (T, Op) on the user_op path; frees them on scope exit.
template <class T, class Op>
class UserOp {
 public:
  explicit UserOp(const char* function) {
    check_mpi(function, "MPI_Type_contiguous", MPI_Type_contiguous(int(sizeof(T)), MPI_BYTE, &datatype_));
    if (int status = MPI_Type_commit(&datatype_); status != MPI_SUCCESS) {
      MPI_Type_free(&datatype_);
      check_mpi(function, "MPI_Type_commit", status);
    }
    if (int status = MPI_Op_create(&combine_user_values<T, Op>, is_commutative_v<Op> ? 1 : 0, &op_);
        status != MPI_SUCCESS) {
      MPI_Type_free(&datatype_);
      check_mpi(function, "MPI_Op_create", status);
    }
  }
  UserOp(const UserOp&) = delete;
  UserOp& operator=(const UserOp&) = delete;
  ~UserOp() {
    MPI_Op_free(&op_);
    MPI_Type_free(&datatype_);
  }
  MPI_Datatype datatype() const { return datatype_; }
  MPI_Op op() const { return op_; }

 private:
  MPI_Datatype datatype_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
};

/// Every rank's value, in rank order.
template <class T>
std::vector<T> gather_values(const char* function, MPI_Comm comm, const T& local) {
  int ranks = 0;
  check_mpi(function, "MPI_Comm_size", MPI_Comm_size(comm, &ranks));
  std::vector<unsigned char> bytes(std::size_t(ranks) * sizeof(T));
  std::array<unsigned char, sizeof(T)> mine;
  to_bytes<T>(local, mine.data());
  check_mpi(function, "MPI_Allgather",
            MPI_Allgather(mine.data(), int(sizeof(T)), MPI_BYTE, bytes.data(), int(sizeof(T)), MPI_BYTE, comm));
  std::vector<T> values;
  values.reserve(std::size_t(ranks));
  for (int r = 0; r < ranks; ++r) values.push_back(from_bytes<T>(bytes.data() + std::size_t(r) * sizeof(T)));
  return values;
}

template <class T, class Op>
void check_value_type() {
  static_assert(std::is_trivially_copyable_v<T>,
                "kprim::mpi: the value type must be trivially copyable (it is sent between ranks as bytes)");
}

/// op over every rank's `local`, in rank order; the same value on every rank.
template <class T, class Op>
T combine_all_ranks(const char* function, MPI_Comm comm, const T& local, const Op& op, Determinism determinism) {
  check_value_type<T, Op>();
  switch (combination<T, Op>(determinism)) {
    case Combination::native:
      if constexpr (has_native_op<T, Op>()) {
        T global = local;
        check_mpi(function, "MPI_Allreduce",
                  MPI_Allreduce(MPI_IN_PLACE, &global, 1, native_datatype<T>(), native_op<T, Op>(), comm));
        return global;
      }
      break;
    case Combination::user_op:
      if constexpr (std::is_empty_v<Op> && std::is_default_constructible_v<Op>) {
        const UserOp<T, Op> user(function);
        std::array<unsigned char, sizeof(T)> mine, global;
        to_bytes<T>(local, mine.data());
        check_mpi(function, "MPI_Allreduce",
                  MPI_Allreduce(mine.data(), global.data(), 1, user.datatype(), user.op(), comm));
        return from_bytes<T>(global.data());
      }
      break;
    case Combination::gathered: break;
  }
  const std::vector<T> values = gather_values(function, comm, local);
  T global = values.front();
  for (std::size_t r = 1; r < values.size(); ++r) global = op(global, values[r]);
  return global;
}

/// op over the `local` values of the ranks before this one (rank order); op's identity on rank 0.
template <class T, class Op>
T combine_lower_ranks(const char* function, MPI_Comm comm, const T& local, const Op& op, Determinism determinism) {
  check_value_type<T, Op>();
  int rank = 0;
  check_mpi(function, "MPI_Comm_rank", MPI_Comm_rank(comm, &rank));
  const T identity = identity_of<T>(op);
  switch (combination<T, Op>(determinism)) {
    case Combination::native:
      if constexpr (has_native_op<T, Op>()) {
        T prefix = identity;
        check_mpi(function, "MPI_Exscan",
                  MPI_Exscan(&local, &prefix, 1, native_datatype<T>(), native_op<T, Op>(), comm));
        return rank == 0 ? identity : prefix;  // MPI leaves rank 0's buffer undefined
      }
      break;
    case Combination::user_op:
      if constexpr (std::is_empty_v<Op> && std::is_default_constructible_v<Op>) {
        const UserOp<T, Op> user(function);
        std::array<unsigned char, sizeof(T)> mine, prefix;
        to_bytes<T>(local, mine.data());
        check_mpi(function, "MPI_Exscan", MPI_Exscan(mine.data(), prefix.data(), 1, user.datatype(), user.op(), comm));
        return rank == 0 ? identity : from_bytes<T>(prefix.data());
      }
      break;
    case Combination::gathered: break;
  }
  const std::vector<T> values = gather_values(function, comm, local);
  if (rank == 0) return identity;
  T prefix = values.front();
  for (int r = 1; r < rank; ++r) prefix = op(prefix, values[std::size_t(r)]);
  return prefix;
}

/// out(i) = op(left, out(i)): a value from the lower ranks put in front of a finished local scan.
template <class View, class T, class Op>
struct CombineFromLeft {
  View out;
  T left;
  Op op;
  KOKKOS_FUNCTION void operator()(std::int64_t i) const { out(i) = op(left, out(i)); }
};

}  // namespace kprim::impl::mpi
