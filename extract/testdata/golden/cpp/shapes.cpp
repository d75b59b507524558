#include "shapes.hpp"
#include "color.hpp"

#include <cmath>
#include <iostream>
#include <stdexcept>

namespace {

// Counts how often fail was called.
int failures = 0;

void log_failure(const char *what) {
    ++failures;
    std::cerr << what << '\n';
}

}  // namespace

int shapes::Shape::live_ = 0;

static const double kTau = 2 * std::acos(-1.0);

namespace shapes {

void fail(const char *what) {
    log_failure(what);
    throw std::runtime_error(what);
}

Shape::Shape(std::string name) : name_(std::move(name)) {
    ++live_;
}

int Shape::count() { return live_; }

void Shape::rename(std::string n) {
    SHAPES_CHECK(!n.empty());
    name_ = n;
}

/// Makes a circle centred on c.
Circle::Circle(Point c, double r) : Shape("circle"), c_(c), r_(r) {
    if (r < 0) fail("negative radius");
}

double Circle::area() const {
    auto square = [](double v) { return std::pow(v, 2); };
    return detail::pi() * square(r_);
}

bool Circle::operator==(const Circle &o) const {
    return c_.x == o.c_.x && this->r_ == o.r_;
}

std::ostream &operator<<(std::ostream &os, const Circle &c) {
    return os << c.name() << '(' << c.r_ << ')';
}

double detail::pi() { return kTau / 2; }

}  // namespace shapes

template <typename T>
template <typename... Args>
T &shapes::Registry<T>::emplace(Args &&...args) {
    items_.push_back(Entry{std::make_unique<T>(std::forward<Args>(args)...), 0});
    return *items_.back().value;
}

std::string shapes::io::to_json(const shapes::Shape &s) {
    std::string out = "{\"name\":\"" + s.name() + "\"}";
    return out;
}

int main() {
    shapes::Registry<shapes::Circle> reg;
    auto &c = reg.emplace(shapes::Point{0, 0}, 2.0);
    auto *p = new shapes::Circle({1, 1}, 1.0);
    std::cout << shapes::io::to_json(c) << c.area() << shapes::Shape::count() << '\n';
    std::vector<int> v;
    v.push_back(1);
    v.emplace_back(2);
    delete p;
    return static_cast<int>(v.size());
}
