// MPI's ports and name service (MPI_Open_port, MPI_Comm_accept, MPI_Publish_name, ...) as
// nampi::universe calls them: each returns MPI's error code. Where the MPI does not provide
// one (SimGrid's SMPI links them but stops the simulation in them, so the configure probe
// leaves their NAMPI_HAVE_<NAME> out), it returns MPI_ERR_OTHER without calling MPI: a set
// then registers without a port, and connect() says why.
// Some mpi.h declare the names without const (SMPI's); MPI only reads them, hence const_cast.
#pragma once

#include <mpi.h>

#include <string>

#include "nampi/detail/configuration.hpp"

namespace nampi::detail::sets {

inline int mpi_open_port(char* port) {
#if defined(NAMPI_HAVE_MPI_OPEN_PORT)
  return MPI_Open_port(MPI_INFO_NULL, port);
#else
  (void)port;
  return MPI_ERR_OTHER;
#endif
}

inline int mpi_close_port(std::string& port) {
#if defined(NAMPI_HAVE_MPI_CLOSE_PORT)
  return MPI_Close_port(port.data());
#else
  (void)port;
  return MPI_ERR_OTHER;
#endif
}

inline int mpi_publish_name(const std::string& service, const std::string& port) {
#if defined(NAMPI_HAVE_MPI_PUBLISH_NAME)
  return MPI_Publish_name(const_cast<char*>(service.c_str()), MPI_INFO_NULL,
                          const_cast<char*>(port.c_str()));
#else
  (void)service, (void)port;
  return MPI_ERR_OTHER;
#endif
}

inline int mpi_unpublish_name(const std::string& service, const std::string& port) {
#if defined(NAMPI_HAVE_MPI_UNPUBLISH_NAME)
  return MPI_Unpublish_name(const_cast<char*>(service.c_str()), MPI_INFO_NULL,
                            const_cast<char*>(port.c_str()));
#else
  (void)service, (void)port;
  return MPI_ERR_OTHER;
#endif
}

// `port` receives MPI_MAX_PORT_NAME characters.
inline int mpi_lookup_name(const std::string& service, char* port) {
#if defined(NAMPI_HAVE_MPI_LOOKUP_NAME)
  return MPI_Lookup_name(const_cast<char*>(service.c_str()), MPI_INFO_NULL, port);
#else
  (void)service, (void)port;
  return MPI_ERR_OTHER;
#endif
}

// MPI_Comm_accept where `accepts`, else MPI_Comm_connect.
inline int mpi_accept_or_connect(bool accepts, std::string& port, MPI_Info info, MPI_Comm local,
                                 MPI_Comm* inter) {
#if defined(NAMPI_HAVE_MPI_COMM_ACCEPT) && defined(NAMPI_HAVE_MPI_COMM_CONNECT)
  return accepts ? MPI_Comm_accept(port.data(), info, 0, local, inter)
                 : MPI_Comm_connect(port.data(), info, 0, local, inter);
#else
  (void)accepts, (void)port, (void)info, (void)local, (void)inter;
  return MPI_ERR_OTHER;
#endif
}

}  // namespace nampi::detail::sets
