/*
 * vec.h - a growable array of doubles.
 *
 * This header is the public API; vec.c implements it.
 */
#ifndef VEC_H
#define VEC_H

#include <stddef.h>
#include <stdbool.h>
#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* VEC_API marks exported functions on platforms that need it. */
#if defined(_WIN32)
#define VEC_API __declspec(dllexport)
#else
#define VEC_API
#endif

/** Smallest capacity a vector grows to. */
#define VEC_MIN_CAP 8

/// Returns the larger of a and b; evaluates them twice.
#define VEC_MAX(a, b) ((a) > (b) ? (a) : (b))

#define VEC_FOREACH(v, it) \
    for (double *it = (v)->data; it < (v)->data + (v)->len; it++)

/**
 * struct vec - a growable array.
 * @data: the elements
 * @len:  how many are in use
 */
typedef struct vec {
    double *data;
    size_t len;
    size_t cap;
    struct {
        unsigned grows;
        unsigned shrinks;
    } stats;
} vec_t;

/* Error codes. */
typedef enum {
    VEC_OK = 0,
    VEC_ENOMEM,
    VEC_ERANGE,
} vec_err;

/** A comparison function for vec_sort. */
typedef int (*vec_cmp_fn)(const double *a, const double *b);

union vec_bits {
    double d;
    unsigned long long u;
};

/** Creates an empty vector with room for cap elements. */
VEC_API vec_t *vec_new(size_t cap);

/** Frees v and its elements. */
VEC_API void vec_free(vec_t *v);

/**
 * Appends x to v, growing it if needed.
 *
 * Returns VEC_OK or VEC_ENOMEM.
 */
VEC_API vec_err vec_push(vec_t *v, double x);

// Returns the element at i, or NAN when i is out of range.
double vec_at(const vec_t *v, size_t i);

void vec_sort(vec_t *v, vec_cmp_fn cmp);

/* A trailing attribute macro makes the grammar stumble: */
size_t vec_len(const vec_t *v) VEC_PURE;

static inline bool vec_empty(const vec_t *v) {
    return vec_len(v) == 0;
}

#ifdef __cplusplus
}
#endif

#endif /* VEC_H */
