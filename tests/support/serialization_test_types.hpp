// Values the serialization tests send: types cereal knows, none trivially copyable.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace nampi_test {

// A type cereal knows through its serialize() member.
struct record {
  std::string name;
  std::vector<double> values;
  int id = 0;

  template <typename Archive>
  void serialize(Archive& archive) {
    archive(name, values, id);
  }
  bool operator==(const record&) const = default;
};

// A standard type cereal knows through cereal/types/{map,string,vector}.hpp.
using dict = std::map<std::string, std::vector<int>>;

}  // namespace nampi_test
