// The source of the target that builds tests/support/nampi_test_pch.hpp's precompiled header.
