#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace handoff::patterns {
namespace {

template <std::size_t size>
void copy_terminated(std::array<char, size>& into, std::string_view text) {
  const std::size_t length = std::min(text.size(), size - 1);
  std::memcpy(into.data(), text.data(), length);
  into[length] = '\0';
}

template <std::size_t size>
std::string_view terminated_text(const std::array<char, size>& text) {
  return {text.data(), ::strnlen(text.data(), size)};
}

}  // namespace

void command_record::set_variant(std::string_view name) {
  if (name.size() >= variant.size()) {
    throw std::invalid_argument("variant name '" + std::string(name) + "' is longer than " +
                                std::to_string(variant.size() - 1) + " characters");
  }
  copy_terminated(variant, name);
}

std::string_view command_record::variant_name() const {
  return terminated_text(variant);
}

void reply_record::set_error(std::string_view message) {
  ok = 0;
  copy_terminated(error, message);
}

std::string_view reply_record::error_text() const {
  return terminated_text(error);
}

}  // namespace handoff::patterns
