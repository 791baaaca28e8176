#include <vector>
#include <memory>

namespace geo {
template <typename T>
class Vec : public Base<T> {
public:
  explicit Vec(std::size_t n) : data_(n) {}
  auto size() const noexcept -> std::size_t { return data_.size(); }
  T &operator[](std::size_t i) { return this->data_[i]; }
  static constexpr int kDim = 3;

private:
  std::vector<T> data_;
};
} // namespace geo

int main() {
  auto v = std::make_unique<geo::Vec<float>>(8);
  const char *raw = R"(raw "string")";
  return v->size() == 8 && raw != nullptr ? 0 : 1;
}
