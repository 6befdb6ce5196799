/* Shared by the files of termscribe._speedups (see _speedups.c, which
 * lists what each function returns and the Python it mirrors). */
#ifndef TERMSCRIBE_SPEEDUPS_H
#define TERMSCRIBE_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

/* _speedups_lines.c: lines of text, progress bars, SGR sequences. */
PyObject *termscribe_text_lines_end(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_line_feeds(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_plain_overwrites_end(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_sgr_split(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_without_sgr(PyObject *, PyObject *const *, Py_ssize_t);

/* _speedups_cells.c: cells and their style layouts. */
PyObject *termscribe_style_layout(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_parts_layout(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_single_run_end(PyObject *, PyObject *const *, Py_ssize_t);
PyObject *termscribe_class_run_end(PyObject *, PyObject *const *, Py_ssize_t);

#endif
