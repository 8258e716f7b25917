// nampi::mpi keyvals from C++ callables with captures: comm_create_keyval, type_create_keyval
// and win_create_keyval take copy and delete callables, MPI runs them on dup, delete_attr and
// free; an exception in a callable becomes the MPI error of the call that ran it. A
// shared_ptr captured by the callables shows that their state lives on after
// MPI_X_free_keyval (MPI may still call delete; it is released after MPI_Finalize).
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <nampi/mpi/communicators.hpp>
#include <nampi/mpi/datatypes.hpp>
#include <nampi/mpi/rma.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
// The states kept until MPI_Finalize must be gone at exit. This check is registered with atexit
// before any keyval exists, so it runs after nampi's release (atexit runs in reverse order), and
// after the destructor of the test's own shared_ptr: what is left is held by a state.
std::vector<std::weak_ptr<int>> kept_states;

void check_released_at_exit() {
  for (const std::weak_ptr<int>& state : kept_states) {
    if (!state.expired()) {
      std::fprintf(stderr, "[nampi test] a keyval's callables were not released at exit\n");
      std::_Exit(EXIT_FAILURE);
    }
  }
}
const bool check_at_exit = std::atexit(&check_released_at_exit) == 0;

std::shared_ptr<int> tracked() {
  REQUIRE(check_at_exit);
  auto alive = std::make_shared<int>(0);
  kept_states.push_back(alive);
  return alive;
}

// What the callables saw.
template <typename CHandle>
struct attr_log {
  int copies = 0;
  CHandle copied_from{};
  int copy_keyval = MPI_KEYVAL_INVALID;
  std::vector<void*> deleted;
  std::vector<CHandle> deleted_from;
};
}  // namespace

TEST_CASE(
    "comm_create_keyval from capturing lambdas: copy on comm_dup, delete on delete_attr and free") {
  attr_log<MPI_Comm> log;
  int value = 17;
  int copied = 18;
  const auto alive = tracked();  // one more owner per callable the state holds
  nampi_pmpi_reset();
  {
    int keyval = mpi::comm_create_keyval(
        [&log, &copied, alive](mpi::comm old, int kv, void* in) -> std::optional<void*> {
          ++log.copies;
          log.copied_from = old.get();
          log.copy_keyval = kv;
          CHECK(*static_cast<int*>(in) == 17);
          return &copied;
        },
        [&log, alive](mpi::comm c, int, void* attribute) {
          log.deleted.push_back(attribute);
          log.deleted_from.push_back(c.get());
        });
    CHECK(alive.use_count() == 3);
    mpi::unique_comm a = mpi::comm_dup(mpi::comm_world());
    mpi::comm_set_attr(a, keyval, &value);

    mpi::unique_comm b = mpi::comm_dup(a);  // runs the copy callable
    CHECK(log.copies == 1);
    CHECK(log.copied_from == a.get());
    CHECK(log.copy_keyval == keyval);
    const mpi::comm_get_attr_result got = mpi::comm_get_attr(b, keyval);
    CHECK(got.flag);
    CHECK(got.attribute_val == &copied);

    mpi::comm_delete_attr(a, keyval);  // runs the delete callable
    CHECK(log.deleted == std::vector<void*>{&value});
    CHECK(log.deleted_from == std::vector<MPI_Comm>{a.get()});

    const MPI_Comm b_handle = b.get();
    mpi::comm_free_keyval(keyval);
    CHECK(keyval == MPI_KEYVAL_INVALID);
    CHECK(alive.use_count() == 3);  // b still holds an attribute: MPI will call delete again
    b.reset();                      // deletes b's copy
    CHECK(log.deleted == std::vector<void*>{&value, &copied});
    CHECK(log.deleted_from == std::vector<MPI_Comm>{a.get(), b_handle});
    CHECK(log.copies == 1);
  }
  CHECK(alive.use_count() == 3);  // kept until MPI_Finalize has returned
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_create_keyval", 1},
                                              {"MPI_Comm_delete_attr", 1},
                                              {"MPI_Comm_dup", 2},
                                              {"MPI_Comm_free", 2},
                                              {"MPI_Comm_free_keyval", 1},
                                              {"MPI_Comm_get_attr", 1},
                                              {"MPI_Comm_set_attr", 1},
                                              {"MPI_Finalized", 2}});
}

TEST_CASE("comm keyval: a copy without value is not copied; MPI_COMM_DUP_FN and a delete lambda") {
  int no_copy_calls = 0;
  std::vector<void*> deleted;
  int x = 1;
  int y = 2;
  nampi_pmpi_reset();
  {
    // A callable copy that declines, with the predefined no-op delete (a C function pointer).
    int declined = mpi::comm_create_keyval(
        [&no_copy_calls](mpi::comm, int, void*) -> std::optional<void*> {
          ++no_copy_calls;
          return std::nullopt;
        },
        MPI_COMM_NULL_DELETE_FN);
    // The predefined copy (the new communicator shares the value) with a callable delete.
    int shared = mpi::comm_create_keyval(
        MPI_COMM_DUP_FN,
        [&deleted](mpi::comm, int, void* attribute) { deleted.push_back(attribute); });
    mpi::unique_comm a = mpi::comm_dup(mpi::comm_world());
    mpi::comm_set_attr(a, declined, &x);
    mpi::comm_set_attr(a, shared, &y);
    mpi::unique_comm b = mpi::comm_dup(a);
    CHECK(no_copy_calls == 1);
    CHECK_FALSE(mpi::comm_get_attr(b, declined).flag);
    const mpi::comm_get_attr_result got = mpi::comm_get_attr(b, shared);
    CHECK(got.flag);
    CHECK(got.attribute_val == &y);
    mpi::comm_free_keyval(declined);
    mpi::comm_free_keyval(shared);
    b.reset();
    a.reset();
    CHECK(deleted == std::vector<void*>{&y, &y});
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_create_keyval", 2},
                                              {"MPI_Comm_dup", 2},
                                              {"MPI_Comm_free", 2},
                                              {"MPI_Comm_free_keyval", 2},
                                              {"MPI_Comm_get_attr", 2},
                                              {"MPI_Comm_set_attr", 2},
                                              {"MPI_Finalized", 2}});
}

TEST_CASE("comm keyval: what the copy callable throws fails comm_dup with an MPI error") {
  int deletes = 0;
  int value = 3;
  bool as_mpi_error = false;
  nampi_pmpi_reset();
  {
    int keyval = mpi::comm_create_keyval(
        [&as_mpi_error](mpi::comm, int, void*) -> std::optional<void*> {
          if (as_mpi_error) throw nampi::mpi_error("copy", MPI_ERR_ARG);
          throw std::runtime_error("the copy callable failed");
        },
        [&deletes](mpi::comm, int, void*) { ++deletes; });
    mpi::unique_comm a = mpi::comm_dup(mpi::comm_world());
    mpi::comm_set_attr(a, keyval, &value);
    // Any other exception: MPI_ERR_OTHER.
    int error_class = MPI_SUCCESS;
    try {
      mpi::unique_comm b = mpi::comm_dup(a);
    } catch (const nampi::mpi_error& e) {
      error_class = e.error_class();
      CHECK(std::string(e.call()) == "MPI_Comm_dup");
    }
    CHECK(error_class == MPI_ERR_OTHER);
    // An mpi_error keeps its code.
    as_mpi_error = true;
    error_class = MPI_SUCCESS;
    try {
      mpi::unique_comm b = mpi::comm_dup(a);
    } catch (const nampi::mpi_error& e) {
      error_class = e.error_class();
    }
    CHECK(error_class == MPI_ERR_ARG);
    CHECK(deletes == 0);  // nothing was copied
    mpi::comm_delete_attr(a, keyval);
    CHECK(deletes == 1);
    mpi::comm_free_keyval(keyval);
  }
  // Each mpi_error asks MPI for its string and class: the two of comm_dup and the one thrown
  // by the callable.
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_create_keyval", 1},
                                              {"MPI_Comm_delete_attr", 1},
                                              {"MPI_Comm_dup", 3},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_free_keyval", 1},
                                              {"MPI_Comm_set_attr", 1},
                                              {"MPI_Error_class", 3},
                                              {"MPI_Error_string", 3},
                                              {"MPI_Finalized", 1}});
}

TEST_CASE(
    "type_create_keyval from capturing lambdas: copy on type_dup, delete on delete_attr and free") {
  attr_log<MPI_Datatype> log;
  int values[2] = {5, 6};
  const auto alive = tracked();
  nampi_pmpi_reset();
  {
    int keyval = mpi::type_create_keyval(
        [&log, alive](mpi::datatype old, int kv, void* in) -> std::optional<void*> {
          ++log.copies;
          log.copied_from = old.get();
          log.copy_keyval = kv;
          return static_cast<int*>(in) + 1;  // the copy gets the next value
        },
        [&log, alive](mpi::datatype t, int, void* attribute) {
          log.deleted.push_back(attribute);
          log.deleted_from.push_back(t.get());
        });
    CHECK(alive.use_count() == 3);
    mpi::unique_datatype pair = mpi::type_contiguous(2, mpi::datatype(MPI_INT));
    mpi::type_set_attr(pair, keyval, &values[0]);
    mpi::unique_datatype copy = mpi::type_dup(pair);  // runs the copy callable
    CHECK(log.copies == 1);
    CHECK(log.copied_from == pair.get());
    CHECK(log.copy_keyval == keyval);
    const mpi::type_get_attr_result got = mpi::type_get_attr(copy, keyval);
    CHECK(got.flag);
    CHECK(got.attribute_val == &values[1]);

    mpi::type_delete_attr(pair, keyval);
    CHECK(log.deleted == std::vector<void*>{&values[0]});
    CHECK(log.deleted_from == std::vector<MPI_Datatype>{pair.get()});

    const MPI_Datatype copy_handle = copy.get();
    mpi::type_free_keyval(keyval);
    CHECK(keyval == MPI_KEYVAL_INVALID);
    copy.reset();  // freeing the copy deletes its attribute
    CHECK(log.deleted == std::vector<void*>{&values[0], &values[1]});
    CHECK(log.deleted_from == std::vector<MPI_Datatype>{pair.get(), copy_handle});
  }
  CHECK(alive.use_count() == 3);  // kept until MPI_Finalize has returned
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 2},
                                              {"MPI_Type_contiguous", 1},
                                              {"MPI_Type_create_keyval", 1},
                                              {"MPI_Type_delete_attr", 1},
                                              {"MPI_Type_dup", 1},
                                              {"MPI_Type_free", 2},
                                              {"MPI_Type_free_keyval", 1},
                                              {"MPI_Type_get_attr", 1},
                                              {"MPI_Type_set_attr", 1}});
}

TEST_CASE("win_create_keyval from capturing lambdas: delete on replace, delete_attr and win_free") {
  attr_log<MPI_Win> log;
  int slot = 0;
  int first = 1;
  int second = 2;
  int third = 3;
  const auto alive = tracked();
  nampi_pmpi_reset();
  {
    // MPI has no call that duplicates a window, so the copy callable never runs.
    int keyval = mpi::win_create_keyval(
        [&log, alive](mpi::win, int, void*) -> std::optional<void*> {
          ++log.copies;
          return std::nullopt;
        },
        [&log, alive](mpi::win w, int, void* attribute) {
          log.deleted.push_back(attribute);
          log.deleted_from.push_back(w.get());
        });
    CHECK(alive.use_count() == 3);
    mpi::unique_win win = mpi::win_create(&slot, sizeof(int), static_cast<int>(sizeof(int)),
                                          mpi::info(), mpi::comm_world());
    const MPI_Win win_handle = win.get();
    mpi::win_set_attr(win, keyval, &first);
    mpi::win_set_attr(win, keyval, &second);  // replacing deletes the old value
    CHECK(log.deleted == std::vector<void*>{&first});
    const mpi::win_get_attr_result got = mpi::win_get_attr(win, keyval);
    CHECK(got.flag);
    CHECK(got.attribute_val == &second);
    mpi::win_delete_attr(win, keyval);
    CHECK(log.deleted == std::vector<void*>{&first, &second});
    mpi::win_set_attr(win, keyval, &third);
    mpi::win_free_keyval(keyval);
    CHECK(keyval == MPI_KEYVAL_INVALID);
    win.reset();  // freeing the window deletes its attribute
    CHECK(log.deleted == std::vector<void*>{&first, &second, &third});
    CHECK(log.deleted_from == std::vector<MPI_Win>(3, win_handle));
    CHECK(log.copies == 0);
  }
  CHECK(alive.use_count() == 3);  // kept until MPI_Finalize has returned
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Win_create", 1},
                                              {"MPI_Win_create_keyval", 1},
                                              {"MPI_Win_delete_attr", 1},
                                              {"MPI_Win_free", 1},
                                              {"MPI_Win_free_keyval", 1},
                                              {"MPI_Win_get_attr", 1},
                                              {"MPI_Win_set_attr", 3}});
}
