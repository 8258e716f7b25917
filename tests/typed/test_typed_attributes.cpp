// nampi::mpi attributes and keyvals on communicators and datatypes, with copy and delete
// callbacks (C function pointers: the typed layer keeps them raw), and object names.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/mpi/communicators.hpp>
#include <nampi/mpi/datatypes.hpp>
#include <string>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
// What the callbacks saw; extra_state points here, so the callbacks need no globals.
struct callback_log {
  int copies = 0;
  int deletes = 0;
  void* last_deleted = nullptr;
};

int copy_attr(MPI_Comm, int, void* extra_state, void* value_in, void* value_out, int* flag) {
  ++static_cast<callback_log*>(extra_state)->copies;
  *static_cast<void**>(value_out) = value_in;  // the copy shares the value
  *flag = 1;
  return MPI_SUCCESS;
}

int delete_attr(MPI_Comm, int, void* value, void* extra_state) {
  auto* log = static_cast<callback_log*>(extra_state);
  ++log->deletes;
  log->last_deleted = value;
  return MPI_SUCCESS;
}
}  // namespace

TEST_CASE("comm keyval: set, get, copied by comm_dup, deleted by delete_attr and by comm_free") {
  callback_log log;
  int value = 17;
  nampi_pmpi_reset();
  {
    int keyval = mpi::comm_create_keyval(copy_attr, delete_attr, &log);
    mpi::unique_comm a = mpi::comm_dup(mpi::comm_world());
    CHECK_FALSE(mpi::comm_get_attr(a, keyval).flag);
    mpi::comm_set_attr(a, keyval, &value);
    const mpi::comm_get_attr_result got = mpi::comm_get_attr(a, keyval);
    CHECK(got.flag);
    CHECK(got.attribute_val == &value);

    mpi::unique_comm b = mpi::comm_dup(a);  // runs the copy callback
    CHECK(log.copies == 1);
    CHECK(mpi::comm_get_attr(b, keyval).attribute_val == &value);

    mpi::comm_delete_attr(a, keyval);  // runs the delete callback
    CHECK(log.deletes == 1);
    CHECK(log.last_deleted == &value);
    CHECK_FALSE(mpi::comm_get_attr(a, keyval).flag);

    mpi::comm_free_keyval(keyval);  // b still holds the attribute: MPI keeps the keyval alive
    CHECK(keyval == MPI_KEYVAL_INVALID);
    log.last_deleted = nullptr;
    b.reset();  // freeing b deletes its copy
    CHECK(log.deletes == 2);
    CHECK(log.last_deleted == &value);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_create_keyval", 1},
                                              {"MPI_Comm_delete_attr", 1},
                                              {"MPI_Comm_dup", 2},
                                              {"MPI_Comm_free", 2},
                                              {"MPI_Comm_free_keyval", 1},
                                              {"MPI_Comm_get_attr", 4},
                                              {"MPI_Comm_set_attr", 1},
                                              {"MPI_Finalized", 2}});
}

TEST_CASE("predefined attribute MPI_TAG_UB on MPI_COMM_WORLD") {
  nampi_pmpi_reset();
  const mpi::comm_get_attr_result tag_ub = mpi::comm_get_attr(mpi::comm_world(), MPI_TAG_UB);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_get_attr", 1}});
  REQUIRE(tag_ub.flag);
  CHECK(*static_cast<int*>(tag_ub.attribute_val) >= 32767);  // the standard's lower bound
}

TEST_CASE("datatype keyval with the predefined null callbacks; type_dup does not copy it") {
  int value = 5;
  nampi_pmpi_reset();
  {
    int keyval = mpi::type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, nullptr);
    mpi::unique_datatype pair = mpi::type_contiguous(2, mpi::datatype(MPI_INT));
    mpi::type_set_attr(pair, keyval, &value);
    const mpi::type_get_attr_result got = mpi::type_get_attr(pair, keyval);
    CHECK(got.flag);
    CHECK(got.attribute_val == &value);
    mpi::unique_datatype copy = mpi::type_dup(pair);  // MPI_TYPE_NULL_COPY_FN: not copied
    CHECK_FALSE(mpi::type_get_attr(copy, keyval).flag);
    mpi::type_delete_attr(pair, keyval);
    CHECK_FALSE(mpi::type_get_attr(pair, keyval).flag);
    mpi::type_free_keyval(keyval);
    CHECK(keyval == MPI_KEYVAL_INVALID);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 2},
                                              {"MPI_Type_contiguous", 1},
                                              {"MPI_Type_create_keyval", 1},
                                              {"MPI_Type_delete_attr", 1},
                                              {"MPI_Type_dup", 1},
                                              {"MPI_Type_free", 2},
                                              {"MPI_Type_free_keyval", 1},
                                              {"MPI_Type_get_attr", 3},
                                              {"MPI_Type_set_attr", 1}});
}

TEST_CASE("type_set_name / type_get_name; predefined datatypes carry their standard names") {
  nampi_pmpi_reset();
  {
    mpi::unique_datatype pair = mpi::type_contiguous(2, mpi::datatype(MPI_DOUBLE));
    mpi::type_set_name(pair, "nampi pair");
    CHECK(mpi::type_get_name(pair) == "nampi pair");
    CHECK(mpi::type_get_name(mpi::datatype(MPI_DOUBLE)) == "MPI_DOUBLE");
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Type_contiguous", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_get_name", 2},
                                              {"MPI_Type_set_name", 1}});
}
