// vec.c implements vec.h.
#include "vec.h"
#include "missing/internal.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include PLATFORM_HEADER

#define GROW(n) ((n) < VEC_MIN_CAP ? VEC_MIN_CAP : (n) * 2)

struct pool;

static int grow(vec_t *v, size_t want);
static int cmp_default(const double *a, const double *b);

/* The allocator, replaceable in tests. */
static struct allocator {
    void *(*alloc)(size_t);
    void (*release)(void *);
} alloc = {malloc, free};

DEFINE_COUNTER(pushes);

vec_t *vec_new(size_t cap)
{
    vec_t *v = alloc.alloc(sizeof *v);
    if (v == NULL) {
        return NULL;
    }
    memset(v, 0, sizeof *v);
    if (cap > 0 && grow(v, cap) != VEC_OK) {
        alloc.release(v);
        return NULL;
    }
    return v;
}

void vec_free(vec_t *v)
{
    if (!v)
        return;
    alloc.release(v->data);
    alloc.release(v);
}

/* grow makes room for want elements. */
static int
grow(vec_t *v, size_t want)
{
    size_t cap = GROW(v->cap);
    while (cap < want)
        cap = GROW(cap);
    double *data = realloc(v->data, cap * sizeof *data);
    if (data == NULL)
        return VEC_ENOMEM;
    v->data = data;
    v->cap = cap;
    v->stats.grows++;
    return VEC_OK;
}

vec_err vec_push(vec_t *v, double x)
{
    if (v->len == v->cap) {
        int err = grow(v, v->len + 1);
        if (err != VEC_OK)
            return err;
    }
    v->data[v->len++] = x;
    count_pushes();
    return VEC_OK;
}

double vec_at(const vec_t *v, size_t i)
{
    return i < v->len ? v->data[i] : NAN;
}

size_t vec_len(const vec_t *v) { return v->len; }

static int cmp_default(const double *a, const double *b)
{
    return (*a > *b) - (*a < *b);
}

void vec_sort(vec_t *v, vec_cmp_fn cmp)
{
    int (*fn)(const void *, const void *) = (void *)(cmp ? cmp : cmp_default);
    qsort(v->data, v->len, sizeof(double), fn);
}

double vec_sum(const vec_t *v)
{
    double s = 0;
    VEC_FOREACH(v, it) {
        s += *it;
    }
    return s;
}

struct stats_report {
    double min, max;
};

/** Reports the extremes of v. */
struct stats_report vec_report(const vec_t *v)
{
    struct stats_report r = {INFINITY, -INFINITY};
    for (size_t i = 0; i < v->len; i++) {
        r.min = fmin(r.min, vec_at(v, i));
        r.max = VEC_MAX(r.max, vec_at(v, i));
    }
    return r;
}

int main(int argc, char **argv)
{
    vec_t *v = vec_new(0);
    for (int i = 1; i < argc; i++)
        vec_push(v, atof(argv[i]));
    vec_sort(v, NULL);
    printf("%zu %f\n", vec_len(v), vec_sum(v));
    vec_free(v);
    return 0;
}
