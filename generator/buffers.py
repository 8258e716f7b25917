"""The data buffers of a call form's MPI function, read from the function's own parameter
kinds (spec/mpi/): which count and datatype describe each buffer, which arrays MPI reads one
entry of per peer, and the partitioned buffers."""

from __future__ import annotations

from .model import Form


def is_array(mpi_param) -> bool:
    return mpi_param.c_type.endswith("[]")


def typed_buffers(form: Form) -> list[tuple[str, str | None, str | None, bool]]:
    """Each data buffer the MPI call takes, with the parameters MPI reads as its count and its
    datatype (None: a literal such as the 1 of a `_single` call, or none) and whether MPI uses it
    at the root only. From the MPI function's own parameters (spec/mpi/): a buffer is followed by
    its count and datatype, or shares the next ones with the buffers after it (MPI_Allreduce); a
    window's memory (MPI_Win_create's base) by its size, counted in its own elements."""
    if len(form.mpi_params) != len(form.mpi_args):
        return []
    out = []
    pairs = list(zip(form.mpi_args, form.mpi_params))
    for i, (arg, mp) in enumerate(pairs):
        p = form.param(arg)
        if mp.kind != "BUFFER" or p is None or not p.param.data:
            continue
        count, datatype, counted = None, None, False
        for a, m in pairs[i + 1 :]:
            if m.kind == "PARTITION" or (is_array(m) and "NUM_ELEM" in m.kind):
                counted = True  # counts per rank or per partition: no one count of this buffer
            elif ("NUM_ELEM" in m.kind or m.kind == "WINDOW_SIZE") and not counted:
                count, counted = (a if form.param(a) else None), True
            if m.kind == "DATATYPE":
                datatype = a if form.param(a) and not is_array(m) else None
                break
        out.append((arg, count, datatype, mp.root_only))
    return out


def blocked_buffers(form: Form) -> list[tuple[str, str, str, str, bool]]:
    """The data buffers MPI reads in blocks, one per peer: a const buffer followed by an array of
    counts, an array of displacements and one datatype (MPI_Alltoallv's and MPI_Scatterv's send
    buffers), as (buffer, counts, displs, datatype, root_only). A receive buffer's blocks are
    sized and checked by its resize rule; per-peer datatypes (MPI_Alltoallw) are not listed."""
    if len(form.mpi_params) != len(form.mpi_args):
        return []
    out = []
    pairs = list(zip(form.mpi_args, form.mpi_params))
    for i, (arg, mp) in enumerate(pairs):
        p = form.param(arg)
        if mp.kind != "BUFFER" or p is None or not p.param.data or not mp.c_type.startswith("const"):
            continue
        rest = pairs[i + 1 : i + 4]
        if len(rest) < 3:
            continue
        (counts, mc), (displs, md), (datatype, mt) = rest
        if (is_array(mc) and "NUM_ELEM" in mc.kind and is_array(md) and "DISPLACEMENT" in md.kind
                and mt.kind == "DATATYPE" and not is_array(mt)
                and all(form.param(a) for a in (counts, displs, datatype))):
            out.append((arg, counts, displs, datatype, mp.root_only))
    return out


def typed_blocked_buffers(form: Form) -> list[tuple[str, str, str, str]]:
    """The data buffers MPI reads or writes in blocks with a datatype per peer: a buffer followed
    by an array of counts, an array of byte displacements and an array of datatypes
    (MPI_Alltoallw's and MPI_Neighbor_alltoallw's buffers), as (buffer, counts, displs, types)."""
    if len(form.mpi_params) != len(form.mpi_args):
        return []
    out = []
    pairs = list(zip(form.mpi_args, form.mpi_params))
    for i, (arg, mp) in enumerate(pairs):
        p = form.param(arg)
        if mp.kind != "BUFFER" or p is None or not p.param.data or len(pairs[i + 1 : i + 4]) < 3:
            continue
        (counts, mc), (displs, md), (types, mt) = pairs[i + 1 : i + 4]
        if (is_array(mc) and "NUM_ELEM" in mc.kind and is_array(md) and "DISPLACEMENT" in md.kind
                and is_array(mt) and mt.kind == "DATATYPE" and all(form.param(a) for a in (counts, displs, types))):
            out.append((arg, counts, displs, types))
    return out


def receives(form: Form, arg: str) -> bool:
    """Whether the MPI argument `arg` describes what the process receives (its MPI parameter is
    recvbuf, recvcount(s), rdispls, recvtype(s)): for a neighbourhood call, per in-neighbour."""
    mp = next(m for a, m in zip(form.mpi_args, form.mpi_params) if a == arg)
    return mp.name.startswith(("recv", "rdispl"))


def per_rank(form: Form, buffer: str, count: str) -> bool:
    """Whether the buffer holds `count` elements per rank (MPI reads or writes count x ranks of
    them): the count's default reads the buffer by a per-rank rule (scatter's send_count,
    size_of_per_rank_at_root(send_buf, root)), or the buffer's resize rule sizes it so
    (allgather's recv_buf, size_count_per_rank(recv_count))."""
    c, b = form.param(count), form.param(buffer)
    by_count = c is not None and c.default is not None and c.default.rule.per_rank and buffer in c.default.args
    by_buffer = b is not None and b.resize is not None and b.resize.rule.per_rank and count in b.resize.args
    return by_count or by_buffer


def one_element_buffers(form: Form) -> list[str]:
    """The data buffers of which MPI reads or writes exactly one element: those without any count
    argument before their datatype (MPI_Fetch_and_op, MPI_Compare_and_swap)."""
    if len(form.mpi_params) != len(form.mpi_args):
        return []
    out = []
    pairs = list(zip(form.mpi_args, form.mpi_params))
    for i, (arg, mp) in enumerate(pairs):
        p = form.param(arg)
        if mp.kind != "BUFFER" or p is None or not p.param.data:
            continue
        for _, m in pairs[i + 1 :]:
            if "NUM_ELEM" in m.kind or m.kind in ("WINDOW_SIZE", "PARTITION"):
                break
            if m.kind == "DATATYPE":
                out.append(arg)
                break
    return out


def partitioned_buffers(form: Form) -> list[tuple[str, str, str, str]]:
    """A buffer MPI splits into `partitions` partitions of `count` elements each (MPI_Psend_init,
    MPI_Precv_init): (buffer, partitions, count, datatype), from the MPI function's parameters."""
    if len(form.mpi_params) != len(form.mpi_args):
        return []
    pairs = list(zip(form.mpi_args, form.mpi_params))
    out = []
    for i, (arg, mp) in enumerate(pairs):
        after = pairs[i + 1 : i + 4]
        kinds = [m.kind for _, m in after]
        if mp.kind == "BUFFER" and len(after) == 3 and kinds[0] == "PARTITION" and "NUM_ELEM" in kinds[1]:
            if kinds[2] == "DATATYPE" and all(form.param(a) for a in [arg] + [a for a, _ in after]):
                out.append((arg, after[0][0], after[1][0], after[2][0]))
    return out


def per_peer(mpi_param) -> bool:
    """An array MPI reads one entry of per peer: counts, displacements, datatypes."""
    kind = mpi_param.kind
    return is_array(mpi_param) and ("NUM_ELEM" in kind or "DISPLACEMENT" in kind or kind == "DATATYPE")
