// shapes.hpp - geometry for the demo renderer.
#pragma once

#include <memory>
#include <string>
#include <vector>
#include "color.hpp"

#define SHAPES_VERSION 3
#define SHAPES_CHECK(cond) do { if (!(cond)) ::shapes::fail(#cond); } while (0)

namespace shapes {

[[noreturn]] void fail(const char *what);

/// A point in the plane.
struct Point {
    double x = 0, y = 0;
    Point operator+(const Point &o) const { return {x + o.x, y + o.y}; }
};

/**
 * Shape is the base of everything drawable.
 */
class Shape {
public:
    explicit Shape(std::string name);
    virtual ~Shape() = default;
    Shape(const Shape &) = delete;

    /// Area in square units.
    virtual double area() const = 0;
    const std::string &name() const { return name_; }
    static int count();

protected:
    void rename(std::string n);

private:
    std::string name_;
    static int live_;
};

enum class Kind : unsigned char { Circle, Polygon };

template <typename T>
class Registry {
public:
    using Ptr = std::unique_ptr<T>;

    template <typename... Args>
    T &emplace(Args &&...args);

    std::size_t size() const noexcept { return items_.size(); }

    struct Entry {
        Ptr value;
        int id;
    };

private:
    std::vector<Entry> items_;
};

class Circle final : public Shape, private Registry<Circle>::Entry {
public:
    Circle(Point c, double r);
    double area() const override;
    bool operator==(const Circle &o) const;
    explicit operator bool() const { return r_ > 0; }
    friend std::ostream &operator<<(std::ostream &os, const Circle &c);

private:
    Point c_;
    double r_;
};

namespace detail {
double pi();
}

}  // namespace shapes

namespace shapes::io {
std::string to_json(const Shape &s);
}

typedef std::vector<shapes::Point> Path;
