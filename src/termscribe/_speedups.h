/* Shared by the files of termscribe._speedups (see _speedups.c, which
 * lists what each function returns and the Python it mirrors). */
#ifndef TERMSCRIBE_SPEEDUPS_H
#define TERMSCRIBE_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static inline int
is_printable(Py_UCS4 c)
{
    return c > 0x9f || (c >= 0x20 && c < 0x7f);
}

/* The characters of ``text``, a str argument of function ``name``: their
 * number, their width in bytes and where they are. Returns -1 with an
 * exception set if ``text`` is not a str. */
static inline int
characters(const char *name, PyObject *text, Py_ssize_t *n, int *kind, const char **data)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "%s() argument 1 must be str, not %.100s", name,
                     Py_TYPE(text)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        return -1;
    }
#endif
    *n = PyUnicode_GET_LENGTH(text);
    *kind = PyUnicode_KIND(text);
    *data = PyUnicode_DATA(text);
    return 0;
}

/* Whether function ``name`` got ``expected`` arguments: -1 with a
 * TypeError set if not. */
static inline int
argument_count(const char *name, Py_ssize_t nargs, Py_ssize_t expected)
{
    if (nargs != expected) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd argument%s (%zd given)", name, expected,
                     expected == 1 ? "" : "s", nargs);
        return -1;
    }
    return 0;
}

/* argument_count, then characters of the first argument, a str (what
 * every function of the module starts with). */
static inline int
text_arguments(const char *name, Py_ssize_t nargs, Py_ssize_t expected, PyObject *const *args,
               Py_ssize_t *n, int *kind, const char **data)
{
    if (argument_count(name, nargs, expected) < 0) {
        return -1;
    }
    return characters(name, args[0], n, kind, data);
}

/* result = f(KIND, ...) with KIND the constant for ``kind``: an inline
 * function so called reads the characters at a constant width. */
#define BY_KIND(result, kind, f, ...)                      \
    switch (kind) {                                         \
    case PyUnicode_1BYTE_KIND:                              \
        result = f(PyUnicode_1BYTE_KIND, __VA_ARGS__);      \
        break;                                              \
    case PyUnicode_2BYTE_KIND:                              \
        result = f(PyUnicode_2BYTE_KIND, __VA_ARGS__);      \
        break;                                              \
    default:                                                \
        result = f(PyUnicode_4BYTE_KIND, __VA_ARGS__);      \
        break;                                              \
    }

/* _speedups_lines.c: batches of GROUND items, text, SGR sequences. */
PyObject *termscribe_batch_parts(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_marked_cell_run_end(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_sgr_split(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_without_sgr(PyObject *, PyObject *const *, Py_ssize_t);

/* _speedups_cells.c: cells and their style layouts. */
PyObject *termscribe_style_layout(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_single_run_end(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_class_run_end(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_classes(PyObject *, PyObject *const *, Py_ssize_t);

/* Where the printable ASCII characters from i end, or a little before (a
 * multiple of 8 characters from i): eight at a time, each word tested at
 * once for a byte below 0x20 or above 0x7e. */
static inline Py_ssize_t
ascii_printable_end(const unsigned char *data, Py_ssize_t n, Py_ssize_t i)
{
    const uint64_t ones = 0x0101010101010101ULL;
    const uint64_t highs = 0x8080808080808080ULL;
    while (n - i >= 8) {
        uint64_t x;
        memcpy(&x, data + i, 8);
        uint64_t below = (x - ones * 0x20) & ~x & highs;
        uint64_t above = ((x + ones) | x) & highs;  /* 0x7f and up */
        if (below | above) {
            break;
        }
        i += 8;
    }
    return i;
}

/* Where the parameter characters (0-9 ; :) from i end, at most max_params
 * of them. */
static inline Py_ALWAYS_INLINE Py_ssize_t
params_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params)
{
    Py_ssize_t limit = max_params < n - i ? i + max_params : n;
    while (i < limit) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (!((c >= '0' && c <= '9') || c == ';' || c == ':')) {
            break;
        }
        i++;
    }
    return i;
}

/* Where the parameters of an SGR sequence starting at i end (at its m), or
 * -1 if none starts there: ESC [, at most max_params parameter characters
 * (0-9 ; :), then m. */
static inline Py_ALWAYS_INLINE Py_ssize_t
sgr_params_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params)
{
    if (i + 2 >= n || PyUnicode_READ(kind, data, i) != 0x1b ||
        PyUnicode_READ(kind, data, i + 1) != '[') {
        return -1;
    }
    Py_ssize_t j = params_end(kind, data, n, i + 2, max_params);
    return j < n && PyUnicode_READ(kind, data, j) == 'm' ? j : -1;
}

/* Where the printable characters from i end (ASCII eight at a time in a
 * string of one byte per character). */
static inline Py_ALWAYS_INLINE Py_ssize_t
printable_run_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i)
{
    if (kind == PyUnicode_1BYTE_KIND) {
        i = ascii_printable_end((const unsigned char *)data, n, i);
    }
    while (i < n && is_printable(PyUnicode_READ(kind, data, i))) {
        i++;
    }
    return i;
}

/* args[0 .. count - 1] as the Py_ssize_t values of function ``name``: -1
 * with an exception set if one is not an int, or is negative. */
static inline int
size_arguments(const char *name, PyObject *const *args, Py_ssize_t count, Py_ssize_t *values)
{
    for (Py_ssize_t k = 0; k < count; k++) {
        values[k] = PyLong_AsSsize_t(args[k]);
        if (values[k] == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (values[k] < 0) {
            PyErr_Format(PyExc_ValueError, "%s() arguments must not be negative", name);
            return -1;
        }
    }
    return 0;
}

#endif
