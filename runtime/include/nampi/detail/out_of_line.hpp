// Where the runtime's out-of-line functions are compiled. They are the entry points of nampi's
// cold and once-per-program code: MPI_Init and MPI_Finalize (nampi::Environment), throwing an
// error, freeing nampi's handles before MPI_Finalize, looking up a derived datatype's extents.
// Each is `NAMPI_OUT_OF_LINE`, declared under `#if !NAMPI_DEFINE_OUT_OF_LINE` and defined under
// its `#else` (a member function: declared in its class, defined below it under
// `#if NAMPI_DEFINE_OUT_OF_LINE`; GCC warns of an inline declaration with gnu::noinline that
// precedes its definition, so a free function is either declared or defined, never both):
//   header-only (the default, nampi::nampi): inline, compiled in every unit that calls one;
//   NAMPI_COMPILED_RUNTIME=1 (CMake: link nampi::compiled): declared only, and compiled once,
//   into the library nampi_compiled (runtime/src/compiled_runtime.cpp, which defines
//   NAMPI_RUNTIME_SOURCE). A unit then compiles none of them nor anything only they call:
//   about 0.3 G instructions of the compiler (a twentieth of a second) less in the unit that
//   holds main, and 0.1 G in each unit that calls MPI (bench/README.md).
// Every unit of a program uses the same mode: CMake's targets set the macro for all of them.
// None of these functions depends on a macro that a unit may set differently (what
// NAMPI_ERRORS_ARE_FATAL decides in nampi::Environment is passed from the caller's unit).
#pragma once

#if defined(NAMPI_COMPILED_RUNTIME) && NAMPI_COMPILED_RUNTIME
#define NAMPI_OUT_OF_LINE
#if defined(NAMPI_RUNTIME_SOURCE)
#define NAMPI_DEFINE_OUT_OF_LINE 1
#else
#define NAMPI_DEFINE_OUT_OF_LINE 0
#endif
#else
#define NAMPI_OUT_OF_LINE inline
#define NAMPI_DEFINE_OUT_OF_LINE 1
#endif

// Instances of function templates that the library compiles for the common case (int counts
// and displacements arrays): in compiled mode a unit declares each `extern template` and
// compiles none of them (`#if NAMPI_LIBRARY_INSTANCES` `NAMPI_LIBRARY_INSTANCE void f<int>(...);`).
// Each is a noinline template of element types only, instantiated alike in every mode.
#if defined(NAMPI_COMPILED_RUNTIME) && NAMPI_COMPILED_RUNTIME
#define NAMPI_LIBRARY_INSTANCES 1
#if defined(NAMPI_RUNTIME_SOURCE)
#define NAMPI_LIBRARY_INSTANCE template
#else
#define NAMPI_LIBRARY_INSTANCE extern template
#endif
#else
#define NAMPI_LIBRARY_INSTANCES 0
#endif
