#include <trncore/error.hpp>

namespace trncore {

namespace {

std::string compose(std::string_view function, std::string_view problem, std::string_view hint) {
  std::string message;
  message.reserve(function.size() + problem.size() + hint.size() + 4);
  message.append(function).append(": ").append(problem);
  if (!hint.empty()) message.append(": ").append(hint);
  return message;
}

}  // namespace

Error::Error(std::string_view function, std::string_view problem, std::string_view hint)
    : std::runtime_error(compose(function, problem, hint)), function_(function), problem_(problem), hint_(hint) {}

ParseError::ParseError(std::string_view function, std::string_view problem, std::string_view hint, std::int64_t line,
                       std::int64_t column)
    : Error(function,
            std::string(problem) + " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")", hint),
      line_(line),
      column_(column) {}

}  // namespace trncore
