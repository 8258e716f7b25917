"""The bindings model: plain dataclasses built from parameters.yaml, rules.yaml
and bindings/*.yaml, with every cross-reference checked (file:line errors)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from .errors import SpecError, Where

ELEMENT_STORAGE = {
    "vector_of_element": "nampi::detail::default_container_t<{e}>",
    # The one block a rank receives (scatterv's share): a vector, or one value where the elements
    # are the bytes of a serialized value (types.hpp: block_container).
    "block_of_element": "nampi::detail::block_container_t<{e}>",
    "element": "{e}",
    # A window the call creates over elements of the call's type (nampi/window.hpp).
    "window_of_element": "nampi::Window<{e}>",
}


class Receiver(NamedTuple):
    cpp_class: str  # whose member the call is
    variable: str  # what the call's tests and examples name it


# The handle a call runs on (Binding.receiver), as mpi_args names it: the communicator, a
# window (nampi/window.hpp) or a file (nampi/file.hpp).
RECEIVERS = {
    "comm": Receiver("nampi::Communicator", "comm"),
    "win": Receiver("nampi::Window<T>", "win"),
    "fh": Receiver("nampi::File", "file"),
}


@dataclass(frozen=True)
class Parameter:
    name: str
    doc: str
    to_mpi: str
    array: bool  # data buffer or one value per rank: creating it allocates
    storage: str | None
    omitted_storage: str | None
    factories: dict  # role -> factory name
    where: Where
    data: bool = False  # the message data: moved into a nonblocking call, it comes back from wait()
    # MPI calls its conversion issues at every call (to_mpi new_comm: the new communicator's
    # rank and size); counted in the expected calls whether the caller gives it or not.
    mpi_calls: dict = field(default_factory=dict)
    # MPI calls its conversion issues on top of mpi_calls in a blocking call, and in a
    # nonblocking one (new_comm: nampi's own context of the new communicator, made by
    # MPI_Comm_dup in the one, started by a second MPI_Comm_idup in the other).
    blocking_mpi_calls: dict = field(default_factory=dict)
    nonblocking_mpi_calls: dict = field(default_factory=dict)
    # What a value given to its `in` factory must be (integer, int_array, datatype_array,
    # op); None: not checked by the factory.
    takes: str | None = None
    # Run-time check of a value the caller gives, before the call's first MPI call:
    # nampi::detail::check_<check>(ctx, slot) (parameters.yaml `check`).
    check: str | None = None
    # What the generator does with it besides passing it on (parameters.yaml `role`): in_place
    # (selects the in-place form), root (the rank of root-only arguments), layout (a data
    # buffer's count, displacements or datatype, computed for a serialized buffer).
    role: str | None = None
    # The header that defines its storage type, which nampi/communicator.hpp does not include
    # (nampi/window.hpp, nampi/file.hpp): a call creating one checks it is included.
    header: str | None = None
    # The C type of the MPI handle its storage gives by mpi_handle() (MPI_Comm, MPI_Win, ...),
    # for C libraries; the reference pages say so where a call returns one.
    mpi_handle: str | None = None
    # Its factory takes a braced list (parameters.yaml `braced_list`) though it is no array.
    braced_list: bool = False


@dataclass(frozen=True)
class RuleArg:
    name: str
    literal: bool


@dataclass(frozen=True)
class Rule:
    name: str
    doc: str
    helper: str
    args: tuple[RuleArg, ...]
    mpi_calls: dict  # MPI function -> count
    where: Where
    root_only: bool = False  # the value is meaningful at the root only
    copies_argument: bool = False  # the value is its (one) argument's value
    # The count is one block per rank of the buffer it reads (size_of_per_rank) or sizes
    # (size_count_per_rank): MPI reads or writes count x ranks elements of that buffer.
    per_rank: bool = False
    # The argument (a count) that, given by the caller, says how many elements the call uses,
    # not how large the buffer is: a buffer whose binding policy is resize_to_fit only grows then.
    grows_only_if_given: str | None = None
    # Calls that depend on the communicator's topology, on top of mpi_calls:
    # {"cart" | "graph" | "dist_graph": {MPI function: count}} (the test fixture names its topology).
    topology_calls: dict = field(default_factory=dict)


@dataclass(frozen=True)
class RuleCall:
    """`rule(arg, ...)` as written in a binding's `default:`."""

    rule: Rule
    args: tuple[str, ...]  # parameter names, or C++ expressions for literal args
    text: str

    def param_args(self) -> list[str]:
        return [a for a, spec in zip(self.args, self.rule.args) if not spec.literal]


@dataclass
class FormParam:
    name: str
    param: Parameter
    required: bool  # the call cannot be compiled without it
    required_at_root: bool  # omittable, but needed (and checked) at the root
    default: RuleCall | None  # computes it when not given
    resize: RuleCall | None  # sizes it when the call writes it
    returned_if_omitted: bool
    storage: str  # C++ type when the call creates it ("void" if never created)
    allocates: bool  # creating it allocates an array
    policy: str  # resize policy when the caller names none
    where: Where
    # Computes it, instead of `default` (or its being required), when a buffer of the call is
    # serialized: the byte counts of the serialized values (the caller may not give it then).
    serialized_default: RuleCall | None = None
    one_value: bool = False  # `storage: element`: the call creates one value, not an array

    def grows_only_if_given(self) -> str | None:
        """The parameter whose given value makes the binding's resize_to_fit a grow_only (its
        resize rule's `grows_only_if_given`): a count the caller gives is how many elements the
        call uses, so a larger buffer keeps its size (bcast's receivers given send_recv_count)."""
        if self.policy != "resize_to_fit" or self.resize is None or not self.resize.rule.grows_only_if_given:
            return None
        names = [a.name for a in self.resize.rule.args]
        return self.resize.args[names.index(self.resize.rule.grows_only_if_given)]


@dataclass
class Form:
    """One shape of a call: regular, or in place (selected by a trigger parameter)."""

    kind: str  # "regular" | "in_place"
    params: list[FormParam]
    rule_order: list[tuple[FormParam, RuleCall]]  # defaults in dependency order, then resizes
    mpi_args: list[str]  # C++ argument expressions
    primary: FormParam | None
    element: str | None  # C++ element type of the call's buffers
    element_template: bool  # element type is the call's template parameter T
    test: dict | None
    where: Where
    either: tuple[str, ...] = ()  # two parameters computed from each other: the caller gives at least one
    all_or_none: tuple[str, ...] = ()  # parameters the caller gives together or not at all
    # The MPI function's parameter at each position of mpi_args (spec/mpi/): its Forum kind
    # (BUFFER, DATATYPE, ...), C type and root_only say what each argument is to MPI.
    mpi_params: tuple = ()
    not_given: tuple[str, ...] = ()  # parameters the form takes omitted only (their slot works)
    # The parameter whose element type `element` is: without a template T, or where T is not
    # given (`element: template or <buffer>`).
    element_buffer: str | None = None
    # The MPI function's parameters that some implementation's mpi.h declares without the
    # standard's const (spec/mpi `implementations:`): their arguments lose const at the call.
    mpi_nonconst: frozenset[str] = frozenset()

    def param(self, name: str) -> FormParam | None:
        return next((p for p in self.params if p.name == name), None)

    def directions(self, name: str) -> set[str]:
        """The directions of the MPI arguments the parameter is given as (in, out, inout)."""
        return {m.direction for a, m in zip(self.mpi_args, self.mpi_params) if a == name}

    def written(self, name: str) -> bool:
        """MPI writes the parameter: its argument is an out one (cart_rank's rank, cart_coords'
        coords). A parameter with an `in` factory for other calls is an output of this one."""
        return "out" in self.directions(name)

    @property
    def inferable(self) -> list[FormParam]:
        """Parameters a caller may omit (tests cover every subset of them)."""
        return [p for p in self.params if not p.required and not p.required_at_root]

    def accepts(self, given: set[str], asked_back: set[str] = frozenset()) -> bool:
        """Whether a call that gives the inferable parameters `given` (as inputs: the
        tests give a parameter by its `in` factory if it has one) and asks back
        `asked_back` meets the form's constraints: one of `either` is an input, none
        of `not_given` is given, and the parameters of `all_or_none` are all passed
        (in any role) or none is."""
        if self.either and not given & set(self.either):
            return False
        if given & set(self.not_given):
            return False
        present = [name in given or name in asked_back for name in self.all_or_none]
        return all(present) or not any(present)

    def expected_calls(self, mpi_function: str, computed: set[str], topology: str | None = None,
                       blocking: bool = True, topology_calls: dict | None = None) -> dict[str, int]:
        """The exact multiset of MPI calls when the rules of `computed` run
        (parameters omitted, asked back, or written by the call), on a communicator
        with the given topology (needed by rules whose calls depend on it), in a blocking
        call or not. The topology is asked once per call: by a neighbourhood call always
        (`topology_calls`, its binding's), else by the first rule that needs it."""
        calls: Counter = Counter({mpi_function: 1})
        for p in self.params:
            calls.update(p.param.mpi_calls)
            calls.update(p.param.blocking_mpi_calls if blocking else p.param.nonblocking_mpi_calls)
        query = topology_calls or {}
        for p, rule_call in self.rule_order:
            if p.name in computed:
                calls.update(rule_call.rule.mpi_calls)
                query = query or rule_call.rule.topology_calls
        if query:
            if topology not in query:
                raise ValueError(f"the call asks its communicator's topology, which the test does not name (got {topology!r})")
            calls.update(query[topology])
        return dict(sorted(calls.items()))


@dataclass
class Binding:
    name: str
    group: str
    source: str  # spec file (display path)
    mpi: str
    doc: str
    regular: Form
    in_place: Form | None
    in_place_trigger: str | None
    where: Where
    variant: str = "blocking"  # "blocking" | "nonblocking" (nonblocking_result) | "persistent" (persistent_call)
    # | "partitioned" (partitioned_call: a persistent call with partition operations, no blocking form)
    base: str = ""  # the spec entry: the blocking binding it is a variant of (its own name if blocking)
    partition_side: str | None = None  # "send" | "recv" for a partitioned binding
    serialized: tuple[str, ...] = ()  # buffers that may be serialized (nampi/serialization.hpp)
    serialized_via: str | None = None  # the binding that serves calls with a serialized buffer
    # Buffers of `serialized` holding one value per rank, each serialized on its own (scatterv, alltoallv).
    serialized_per_rank: tuple[str, ...] = ()
    # Empty buffers reach MPI as a valid address instead of null (an empty std::vector has no
    # data pointer); only where an MPI rejects null buffers that transfer nothing.
    non_null_buffers: bool = False
    # Collective over the communicator (spec `collective`): the call checks that no other task
    # of a nampi::run issues collectives on it (nampi/detail/coroutine/strand.hpp).
    collective: bool = False
    # The MPI function's large-count twin (`MPI_X_c`) and the twin's C type of each MPI argument.
    large_twin: str | None = None
    large_types: tuple[str, ...] = ()  # "" where the twin's type is the int function's
    # Without the twin, a large count runs the int function on chunks of the buffers (an
    # element-wise reduction; blocking calls only) instead of reporting a usage_error.
    large_count_chunks: bool = False
    # Without the twin, counts arrays of MPI_Count / MPI_Aint are emulated with one MPI_Alltoallw
    # (its I or _init form) of per-peer derived datatypes (large_count_alltoallw.hpp) instead of
    # a compile error.
    large_count_alltoallw: bool = False
    # Whom per-peer arrays describe: "ranks" (checked against the communicator's size) or
    # "neighbors" (of the topology, which the call asks once, topology_calls, to check them).
    peers: str = "ranks"
    # For peers "neighbors": the calls that ask the topology for its neighbour counts, per kind
    # of topology (spec/rules.yaml topology_calls); issued once per call.
    topology_calls: dict = field(default_factory=dict)
    # Without the twin, a reduction's large count is one element of a derived datatype reduced
    # by a wrapper op that runs MPI_Reduce_local on its pieces (large_count_reduction.hpp).
    large_count_reduce_local: bool = False
    # The handle the call runs on, as mpi_args names it (RECEIVERS); one per spec file.
    receiver: str = "comm"
    # The C++ member's name where it differs from the binding's (unique across the spec, as the
    # check structs, tests and pages are named by it): File::sync is the binding file_sync.
    member_name: str | None = None

    @property
    def member(self) -> str:
        return self.member_name or self.name

    @property
    def written(self) -> str:
        """How a user writes the call: `comm.allgatherv`, `win.put`, `file.sync`."""
        return f"{self.receiver_variable}.{self.member}"

    @property
    def receiver_variable(self) -> str:
        return RECEIVERS[self.receiver].variable

    def call_expression(self, test: dict, args: list[str]) -> str:
        """The call as a test or an example writes it: `<receiver>.<member><T>(args)`."""
        return f"{self.receiver_variable}.{self.member}{test.get('template_args', '')}({', '.join(args)})"

    @property
    def emulation_state(self) -> str | None:
        """What the emulation of a missing twin keeps until the call completes (a nonblocking or
        persistent result holds it in an emulation_slot), if the binding has one."""
        if self.large_count_alltoallw:
            return "nampi::detail::block_exchange"
        if self.large_count_reduce_local:
            return "nampi::detail::large_reduction"
        return None

    @property
    def returns_before_completion(self) -> bool:
        """Returns while MPI still uses the call's buffers (nonblocking, persistent or
        partitioned): its result must own or reference them until completion."""
        return self.variant != "blocking"

    @property
    def forms(self) -> list[Form]:
        return [self.regular] + ([self.in_place] if self.in_place else [])


_CALL = re.compile(r"^([a-z_]+)\((.*)\)$")


def parse_rule_call(text: str, rules: dict, where: Where, context: str) -> RuleCall:
    match = _CALL.match(text.strip())
    if not match:
        raise SpecError(where, f"{context}: expected rule(args), got '{text}'")
    name, inner = match.group(1), match.group(2).strip()
    if name not in rules:
        raise SpecError(where, f"{context}: unknown rule '{name}'")
    rule = rules[name]
    args = tuple(a.strip() for a in inner.split(",")) if inner else ()
    if len(args) != len(rule.args):
        raise SpecError(where, f"{context}: rule '{name}' takes {len(rule.args)} argument(s), got {len(args)}")
    return RuleCall(rule=rule, args=args, text=text.strip())


def order_rules(
    params: list[FormParam], where: Where, context: str, either: tuple[str, ...] = ()
) -> list[tuple[FormParam, RuleCall]]:
    """(parameter, rule) pairs to run: defaults in an order where every rule's
    inputs come first, then the resize rules (which read computed values and
    size buffers the MPI call writes).

    The two parameters of `either` may be computed from each other: the caller
    gives at least one, so when one's rule runs the other is an input, and the
    edge between them orders nothing."""
    by_name = {p.name: p for p in params}
    done: list[FormParam] = []
    visiting: set[str] = set()

    def visit(p: FormParam) -> None:
        if p in done or p.default is None:
            return
        if p.name in visiting:
            raise SpecError(p.where, f"{context}.{p.name}: default rules form a cycle")
        visiting.add(p.name)
        for dep in p.default.param_args():
            if dep not in by_name:
                raise SpecError(p.where, f"{context}.{p.name}: rule argument '{dep}' is not a parameter of this call")
            if dep != p.name and not (p.name in either and dep in either):
                visit(by_name[dep])
        visiting.discard(p.name)
        done.append(p)

    for p in params:
        visit(p)
    for p in params:
        for dep in p.resize.param_args() if p.resize else []:
            if dep not in by_name:
                raise SpecError(p.where, f"{context}.{p.name}: rule argument '{dep}' is not a parameter of this call")
    return [(p, p.default) for p in done] + [(p, p.resize) for p in params if p.resize]


def subsets(items: list) -> list[tuple]:
    """All subsets, smallest first, in a stable order."""
    return [c for k in range(len(items) + 1) for c in itertools.combinations(items, k)]
