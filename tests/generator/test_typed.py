"""Tests of the typed layer's model (generator/typed.py): the C++ signature decided for
representative functions, large-count overloads, callables, and `typed:` override errors."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.errors import SpecError  # noqa: E402
from generator.mpi_spec import load_mpi_callbacks, load_mpi_spec  # noqa: E402
from generator.shapes import typed_body  # noqa: E402
from generator.typed import typed_plan  # noqa: E402

SPEC = ROOT / "spec"


@pytest.fixture(scope="module")
def plan():
    functions = load_mpi_spec(SPEC, ROOT)
    chapters, skipped = typed_plan(functions, load_mpi_callbacks(SPEC, ROOT))
    wrappers = [w for ws in chapters.values() for w in ws]
    return functions, wrappers, skipped


def wrappers_of(plan, c_name):
    return [w for w in plan[1] if w.source.split(": ")[1].split()[0] == c_name]


def one(plan, c_name, large=False, template=False):
    found = [w for w in wrappers_of(plan, c_name) if w.large_count == large and bool(w.template) == template]
    assert len(found) == 1, found
    return found[0]


def test_every_function_has_a_wrapper_or_a_reason(plan):
    functions, wrappers, skipped = plan
    wrapped = {w.source.split(": ")[1].split()[0] for w in wrappers}
    assert wrapped.isdisjoint(s.name for s in skipped)
    assert wrapped | {s.name for s in skipped} == set(functions)
    assert [(s.name, s.reason) for s in skipped] == [("MPI_Pcontrol", "C varargs cannot be forwarded")]
    # One large-count overload per _c twin.
    twins = [f for f in functions.values() if f.large_count]
    assert len([w for w in wrappers if w.large_count and not w.template]) == len(twins)


def test_handles_in_and_owner_out(plan):
    w = one(plan, "MPI_Comm_split")
    assert (w.name, w.result_type, w.signature) == (
        "comm_split", "nampi::mpi::unique_comm", "nampi::mpi::comm comm, int color, int key")
    assert "nampi::detail::call_mpi(\"MPI_Comm_split\", MPI_Comm_split, comm.get(), color, key, &newcomm);" in typed_body(w)
    assert w.guard == "defined(NAMPI_HAVE_MPI_COMM_SPLIT)"
    # Inout handles are references (MPI_Comm_free resets them).
    assert one(plan, "MPI_Comm_free").signature == "nampi::mpi::comm& comm"
    # Requests are returned without an owner.
    assert one(plan, "MPI_Isend").result_type == "nampi::mpi::request"


def test_borrowed_override_returns_a_plain_handle(plan):
    assert one(plan, "MPI_Comm_get_parent").result_type == "nampi::mpi::comm"
    w = one(plan, "MPI_File_get_view")
    assert [(f.type, f.name) for f in w.fields] == [
        ("MPI_Offset", "disp"), ("nampi::mpi::datatype", "etype"), ("nampi::mpi::datatype", "filetype")]
    assert w.signature.endswith("char* datarep")  # a string of unknown length stays raw
    assert w.raw == ("datarep",)


def test_span_gives_the_length_and_out_arrays_are_vectors(plan):
    w = one(plan, "MPI_Group_translate_ranks")
    assert w.signature == "nampi::mpi::group group1, std::span<const int> ranks1, nampi::mpi::group group2"
    assert w.result_type == "std::vector<int>"
    assert typed_body(w)[0] == (
        'const int n = nampi::detail::narrow<int, nampi::mpi::count_error>(ranks1.size(), "MPI_Group_translate_ranks", '
        '"ranks1.size()", nampi::mpi::detail::length_argument);'
    )
    w = one(plan, "MPI_Type_create_struct")
    assert any(line.startswith("nampi::mpi::detail::check_same_length(\"MPI_Type_create_struct\", \"array_of_types\"") for line in typed_body(w))
    # No span supplies maxdims: it stays a parameter and sizes the returned vectors.
    w = one(plan, "MPI_Cart_get")
    assert w.signature == "nampi::mpi::comm comm, int maxdims"
    assert [f.name for f in w.fields] == ["dims", "periods", "coords"]
    assert w.result_type == "nampi::mpi::cart_get_result"
    # Unknown length ('*'): caller-provided spans; statuses may be ignored with an empty span.
    w = one(plan, "MPI_Waitall")
    assert w.signature == "std::span<nampi::mpi::request> array_of_requests, std::span<MPI_Status> array_of_statuses"
    assert "nampi::mpi::detail::statuses(array_of_statuses)" in typed_body(w)[-1]


def test_strings_and_scalars(plan):
    w = one(plan, "MPI_Error_string")
    assert (w.signature, w.result_type) == ("int errorcode", "std::string")
    assert "int resultlen = 0;" in typed_body(w)  # consumed: not a parameter, not an output
    assert w.returns == "nampi::mpi::detail::written_string(string, resultlen)"
    w = one(plan, "MPI_Get_version")
    assert [(f.type, f.name) for f in w.fields] == [("int", "version"), ("int", "subversion")]
    w = one(plan, "MPI_Initialized")
    assert (w.result_type, w.returns) == ("bool", "flag != 0")
    w = one(plan, "MPI_Info_get_string")
    assert w.signature == "nampi::mpi::info info, const char* key, int& buflen, char* value"
    w = one(plan, "MPI_Wtime")
    assert (w.error_code, typed_body(w)) == (False, ("return MPI_Wtime();",))
    assert one(plan, "MPI_Comm_f2c").returns == "nampi::mpi::comm(MPI_Comm_f2c(comm))"
    # Rows of a fixed width sized by an in scalar: a span of std::array gives the rows and n.
    for c_name in ("MPI_Group_range_incl", "MPI_Group_range_excl"):
        w = one(plan, c_name)
        assert w.signature == "nampi::mpi::group group, std::span<const std::array<int, 3>> ranges"
        assert ('const int n = nampi::detail::narrow<int, nampi::mpi::count_error>(ranges.size(), "' + c_name
                + '", "ranges.size()", nampi::mpi::detail::length_argument);') in typed_body(w)
        assert any("nampi::mpi::detail::c_rows(ranges)" in line for line in typed_body(w))


def test_large_count_overload_and_fallback(plan):
    w = one(plan, "MPI_Send", large=True)
    assert w.name == "send"
    assert "MPI_Count count" in w.signature
    assert w.guard == "(defined(NAMPI_HAVE_MPI_SEND_C)) || (defined(NAMPI_HAVE_MPI_SEND))"
    assert typed_body(w) == (
        "#if defined(NAMPI_HAVE_MPI_SEND_C)",
        'nampi::detail::call_mpi("MPI_Send_c", MPI_Send_c, buf, count, datatype.get(), dest, tag, comm.get());',
        "#else",
        'nampi::detail::call_mpi("MPI_Send", MPI_Send, buf, nampi::detail::narrow<int, nampi::mpi::count_error>(count, "MPI_Send_c", "count", nampi::mpi::detail::without_c), datatype.get(), dest, tag, comm.get());',
        "#endif",
    )
    # Only the output differs: same parameters, so a name of its own.
    w = one(plan, "MPI_Get_count", large=True)
    assert (w.name, w.result_type) == ("get_count_c", "MPI_Count")
    assert "count = count_narrow;" in typed_body(w)
    # The twin has parameters the base lacks: no fallback.
    w = one(plan, "MPI_Type_get_contents", large=True)
    assert w.guard == "defined(NAMPI_HAVE_MPI_TYPE_GET_CONTENTS_C)" and len(w.variants) == 1
    # Arrays of counts are narrowed element by element.
    w = one(plan, "MPI_Allgatherv", large=True)
    assert 'nampi::mpi::detail::narrow_each<int>("MPI_Allgatherv_c", "displs", displs).data()' in typed_body(w)[3]


def test_callable_overloads(plan):
    w = one(plan, "MPI_Op_create", template=True)
    assert (w.template, w.signature, w.adapter) == ("template <typename F>", "F user_fn, bool commute", "user_function")
    assert typed_body(w)[0].startswith("static_assert(nampi::mpi::callable::user_function::accepts<F>, "
                                  "\"nampi::mpi::op_create: parameter 'user_fn' must be a capture-free callable")
    assert "nampi::mpi::callable::user_function::pointer<F>()" in typed_body(w)[-2]
    assert not w.defines_struct
    w = one(plan, "MPI_Op_create", large=True, template=True)
    assert (w.name, w.adapter) == ("op_create_c", "user_function_c")
    for kind in ("comm", "win", "file", "session"):
        w = one(plan, f"MPI_{kind.capitalize()}_create_errhandler", template=True)
        assert w.adapter == f"{kind}_errhandler_function"
    # Raw function pointers stay available.
    assert one(plan, "MPI_Op_create").signature == "MPI_User_function* user_fn, bool commute"


def test_callables_with_state_come_together_and_replace_extra_state(plan):
    w = one(plan, "MPI_Comm_create_keyval", template=True)
    assert (w.template, w.signature, w.result_type) == (
        "template <typename F1, typename F2>", "F1 comm_copy_attr_fn, F2 comm_delete_attr_fn", "int")
    assert [(c.template_param, c.adapter) for c in w.callables] == [
        ("F1", "comm_copy_attr_function"), ("F2", "comm_delete_attr_function")]
    assert typed_body(w)[1].startswith("static_assert(nampi::mpi::callable::comm_delete_attr_function::accepts<F2>, "
                                  "\"nampi::mpi::comm_create_keyval: parameter 'comm_delete_attr_fn' is not accepted by")
    assert typed_body(w)[2:] == (
        "auto callable_state = nampi::mpi::callable::make_state<nampi::mpi::callable::comm_copy_attr_function, "
        "nampi::mpi::callable::comm_delete_attr_function>(std::move(comm_copy_attr_fn), std::move(comm_delete_attr_fn));",
        "int comm_keyval{};",
        'nampi::detail::call_mpi("MPI_Comm_create_keyval", MPI_Comm_create_keyval, callable_state->template c_function<0>(), '
        "callable_state->template c_function<1>(), &comm_keyval, callable_state->extra_state());",
        "nampi::mpi::callable::hand_over(std::move(callable_state));",
        "return comm_keyval;",
    )
    assert w.adapter is None  # not one capture-free callable
    assert w.template_args("t") == "<t::comm_copy_attr_function, t::comm_delete_attr_function>"
    assert w.pointer_type("t") == "int (*)(t::comm_copy_attr_function, t::comm_delete_attr_function)"
    for kind in ("Type", "Win"):
        w = one(plan, f"MPI_{kind}_create_keyval", template=True)
        assert [c.adapter for c in w.callables] == [f"{kind.lower()}_copy_attr_function", f"{kind.lower()}_delete_attr_function"]
    w = one(plan, "MPI_Grequest_start", template=True)
    assert (w.signature, w.result_type) == ("F1 query_fn, F2 free_fn, F3 cancel_fn", "nampi::mpi::request")
    assert "callable_state->extra_state(), &request);" in typed_body(w)[-3]
    # Datarep: the _c twin's conversions have adapters of their own; the extent function has no twin.
    w = one(plan, "MPI_Register_datarep", template=True)
    assert w.signature == "const char* datarep, F1 read_conversion_fn, F2 write_conversion_fn, F3 dtype_file_extent_fn"
    w = one(plan, "MPI_Register_datarep", large=True, template=True)
    assert w.name == "register_datarep_c"
    assert [c.adapter for c in w.callables] == ["datarep_conversion_function_c", "datarep_conversion_function_c", "datarep_extent_function"]
    assert len(w.variants) == 1  # no fallback: a callback type cannot be narrowed
    # The C function pointers and extra_state stay available (MPI_COMM_DUP_FN & co.).
    assert one(plan, "MPI_Comm_create_keyval").signature == (
        "MPI_Comm_copy_attr_function* comm_copy_attr_fn, MPI_Comm_delete_attr_function* comm_delete_attr_fn, void* extra_state")


def test_every_callback_typedef_is_a_callable_or_says_why_it_stays_raw():
    callbacks = load_mpi_callbacks(SPEC, ROOT)
    typedefs = {name: cb for name, cb in callbacks.items() if cb.callback}
    undecided = sorted(name for name, cb in typedefs.items() if cb.typed is None or not (cb.typed.callable or cb.typed.raw))
    assert undecided == []
    callables = sorted(name for name, cb in typedefs.items() if cb.typed.callable and not cb.typed.state)
    assert callables == ["MPI_Comm_errhandler_function", "MPI_File_errhandler_function", "MPI_Session_errhandler_function",
                         "MPI_User_function", "MPI_Win_errhandler_function"]
    with_state = sorted(name for name, cb in typedefs.items() if cb.typed.state)
    assert with_state == ["MPI_Comm_copy_attr_function", "MPI_Comm_delete_attr_function", "MPI_Datarep_conversion_function",
                          "MPI_Datarep_extent_function", "MPI_Grequest_cancel_function", "MPI_Grequest_free_function",
                          "MPI_Grequest_query_function", "MPI_Type_copy_attr_function", "MPI_Type_delete_attr_function",
                          "MPI_Win_copy_attr_function", "MPI_Win_delete_attr_function"]
    assert {typedefs[name].typed.state for name in with_state} == {"extra_state"}
    raw = sorted(name for name, cb in typedefs.items() if cb.typed.raw)
    assert raw == ["MPI_Copy_function", "MPI_Delete_function", "MPI_T_event_cb_function", "MPI_T_event_dropped_cb_function",
                   "MPI_T_event_free_cb_function"]
    # A raw typedef gets no callable overload: its functions keep only the C pointer.
    chapters, _ = typed_plan(load_mpi_spec(SPEC, ROOT), callbacks)
    keyval = [w for w in chapters["deprecated"] if w.c_name == "MPI_Keyval_create"]
    assert [w.template for w in keyval] == [""]


# --- `typed:` overrides -----------------------------------------------------------------------

FILE = """\
MPI_Comm_dup:
  introduced: "1.0"
  params:
    - {name: comm, kind: COMMUNICATOR, c_type: "MPI_Comm", dir: in}
    - {name: newcomm, kind: COMMUNICATOR, c_type: "MPI_Comm *", dir: out}
"""


@pytest.fixture
def tmp_spec(tmp_path: Path) -> Path:
    (tmp_path / "spec" / "schema").mkdir(parents=True)
    (tmp_path / "spec" / "mpi").mkdir()
    shutil.copy(SPEC / "schema" / "mpi.schema.json", tmp_path / "spec" / "schema")
    return tmp_path / "spec"


def load(spec_dir: Path, text: str):
    (spec_dir / "mpi" / "a.yaml").write_text(text, encoding="utf-8")
    return load_mpi_spec(spec_dir, spec_dir.parent)


def load_error(spec_dir: Path, text: str) -> str:
    with pytest.raises(SpecError) as info:
        load(spec_dir, text)
    return str(info.value)


def with_typed(line: str) -> str:
    return FILE.replace('  introduced: "1.0"\n', '  introduced: "1.0"\n' + line + "\n")


def test_override_errors_have_file_and_line(tmp_spec):
    assert load_error(tmp_spec, with_typed('  typed: {borrowed: [newcom], reason: "r"}')) == (
        "spec/mpi/a.yaml:3: MPI_Comm_dup.typed.borrowed: unknown parameter 'newcom'")
    assert load_error(tmp_spec, with_typed('  typed: {borrowed: [comm], reason: "r"}')) == (
        "spec/mpi/a.yaml:3: MPI_Comm_dup.typed.borrowed: 'comm' is not an out handle (it is in 'MPI_Comm')")
    assert load_error(tmp_spec, with_typed('  typed: {callable: user_function, reason: "r"}')) == (
        "spec/mpi/a.yaml:3: MPI_Comm_dup.typed.callable: only a callback typedef (callback: true) can have a callable adapter")
    assert load_error(tmp_spec, with_typed('  typed: {raw: true, reason: "r"}')) == (
        "spec/mpi/a.yaml:3: MPI_Comm_dup.typed.raw: only a callback typedef (callback: true) is kept as a C function pointer")
    message = load_error(tmp_spec, with_typed('  typed: {state: comm, reason: "r"}'))
    assert message.startswith("spec/mpi/a.yaml:3: ") and "callable" in message  # state needs callable
    message = load_error(tmp_spec, with_typed('  typed: {raw: true}'))
    assert message.startswith("spec/mpi/a.yaml:3: ") and "reason" in message
    message = load_error(tmp_spec, with_typed("  typed: {skip: true}"))
    assert message.startswith("spec/mpi/a.yaml:3: ") and "reason" in message
    message = load_error(tmp_spec, with_typed('  typed: {skip: true, borrowed: [newcomm], reason: "r"}'))
    assert message.startswith("spec/mpi/a.yaml:3: ")


def test_skip_and_borrowed_overrides_take_effect(tmp_spec):
    functions = load(tmp_spec, with_typed('  typed: {borrowed: [newcomm], reason: "r"}'))
    chapters, skipped = typed_plan(functions, {})
    assert chapters["a"][0].result_type == "nampi::mpi::comm"
    functions = load(tmp_spec, with_typed('  typed: {skip: true, reason: "not useful in C++"}'))
    chapters, skipped = typed_plan(functions, {})
    assert chapters == {}
    assert [(s.name, s.reason) for s in skipped] == [("MPI_Comm_dup", "typed.skip: not useful in C++")]


def test_out_vectors_pass_a_valid_pointer_even_when_empty(plan):
    # Open MPI's MPI_Graph_get rejects a null edges array although maxedges is 0.
    body = "\n".join(typed_body(one(plan, "MPI_Graph_get")))
    assert "nampi::mpi::detail::out_array(index)" in body
    assert "nampi::mpi::detail::out_array(edges)" in body
    assert "std::span(edges).data()" not in body
    # Arrays of handles keep their conversion to C handles.
    contents = "\n".join(typed_body(one(plan, "MPI_Type_get_contents")))
    assert "nampi::mpi::detail::c_handles(std::span(array_of_datatypes))" in contents
    assert "nampi::mpi::detail::out_array(array_of_integers)" in contents


CALLBACK = """\
MPI_X_copy_function:
  callback: true
  introduced: "2.0"
  typed: {callable: x_copy, state: STATE_PARAM, reason: "r"}
  params:
    - {name: oldcomm, kind: COMMUNICATOR, c_type: "MPI_Comm", dir: in}
    - {name: extra_state, kind: EXTRA_STATE, c_type: "void *", dir: in}
"""


def test_state_must_name_the_typedefs_extra_state(tmp_spec):
    (tmp_spec / "mpi" / "a.yaml").write_text(CALLBACK.replace("STATE_PARAM", "extra_state"), encoding="utf-8")
    callbacks = load_mpi_callbacks(tmp_spec, tmp_spec.parent)
    assert callbacks["MPI_X_copy_function"].typed.state == "extra_state"
    assert load_error(tmp_spec, CALLBACK.replace("STATE_PARAM", "oldcomm")) == (
        "spec/mpi/a.yaml:4: MPI_X_copy_function.typed.state: 'oldcomm' is not the typedef's `void *` EXTRA_STATE parameter "
        "(it is COMMUNICATOR 'MPI_Comm')")
    assert load_error(tmp_spec, CALLBACK.replace("STATE_PARAM", "extra")) == (
        "spec/mpi/a.yaml:4: MPI_X_copy_function.typed.state: 'extra' is not the typedef's `void *` EXTRA_STATE parameter "
        "(no such parameter)")
