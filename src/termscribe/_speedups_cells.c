/* termscribe._speedups: cells and committed lines' style layouts (what
 * each returns: see _speedups.c). */
#include "_speedups.h"

PyObject *
termscribe_style_layout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("style_layout", nargs, 1, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    /* First pass: the number of runs, and the largest code point the
     * layout holds. */
    Py_ssize_t runs = 0;
    Py_UCS4 maxchar = 0;
    Py_UCS4 last = 0;
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (i == 0 || c != last) {
            if (i > 0 && (Py_UCS4)(i - start) > maxchar) {
                maxchar = (Py_UCS4)(i - start);
            }
            runs++;
            start = i;
            last = c;
            if (c > maxchar) {
                maxchar = c;
            }
        }
    }
    if (runs == 0 || (runs == 1 && last == 0)) {
        return PyUnicode_FromOrdinal(0);
    }
    if ((size_t)runs > 0x10FFFF || maxchar > 0x10FFFF) {
        PyErr_SetString(PyExc_ValueError, "style_layout(): a run count or length is not a code point");
        return NULL;
    }
    if ((Py_UCS4)runs > maxchar) {
        maxchar = (Py_UCS4)runs;
    }
    PyObject *out = PyUnicode_New(2 * runs, maxchar);
    if (out == NULL) {
        return NULL;
    }
    int out_kind = PyUnicode_KIND(out);
    void *out_data = PyUnicode_DATA(out);
    PyUnicode_WRITE(out_kind, out_data, 0, (Py_UCS4)runs);
    /* Second pass: each run's code after the count, and the length of each
     * but the last after the codes. */
    Py_ssize_t run = 0;
    start = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (i == 0 || c != last) {
            if (i > 0) {
                PyUnicode_WRITE(out_kind, out_data, 1 + runs + run - 1, (Py_UCS4)(i - start));
            }
            PyUnicode_WRITE(out_kind, out_data, 1 + run, c);
            run++;
            start = i;
            last = c;
        }
    }
    return out;
}

static const char *
class_table(const char *name, PyObject *arg)
{
    Py_ssize_t size;
    int kind;
    const char *table;
    if (characters(name, arg, &size, &kind, &table) < 0) {
        return NULL;
    }
    if (kind != PyUnicode_1BYTE_KIND || size != 0x110000) {
        PyErr_Format(PyExc_ValueError, "%s(): the table is one Latin-1 character a code point",
                     name);
        return NULL;
    }
    return table;
}

/* How far the characters are printable ASCII or BMP code points of class
 * SINGLE (see single_run_end). */
static inline Py_ssize_t
single_end(int kind, const void *data, Py_ssize_t n, const char *table)
{
    Py_ssize_t i = 0;
    while (i < n) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (!((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c < 0x10000 && table[c] == '0'))) {
            break;
        }
        i++;
    }
    return i;
}

/* Whether c is one of the n characters of set (of kind). */
static inline int
in_set(Py_UCS4 c, int kind, const void *set, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyUnicode_READ(kind, set, i) == c) {
            return 1;
        }
    }
    return 0;
}

/* The sets of marked_cell_run_end besides the table: each a str. */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
} CharSet;

#define IN(c, set) in_set((c), (set).kind, (set).data, (set).n)

/* How far the characters are cells with marks joined to them (see
 * marked_cell_run_end). */
static inline Py_ssize_t
marked_end(int kind, const void *data, Py_ssize_t n, const char *table, CharSet selectors,
           CharSet others, CharSet spaces)
{
    Py_ssize_t i = 0;
    while (i < n) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= 0x20 && (table[c] == '0' || table[c] == '1')) {
            /* Printed code points, then maybe one or two marks. */
            do {
                i++;
            } while (i < n && (c = PyUnicode_READ(kind, data, i)) >= 0x20 &&
                     (table[c] == '0' || table[c] == '1'));
            if (i >= n) {
                break;
            }
            if (table[c] == '2') {
                i++;
                if (i < n) {
                    Py_UCS4 d = PyUnicode_READ(kind, data, i);
                    if (table[d] == '2' || IN(d, selectors) || IN(d, others)) {
                        i++;
                    }
                }
                continue;
            }
            int selector = IN(c, selectors);
            if (!selector && !IN(c, others)) {
                continue;
            }
            Py_UCS4 prev = PyUnicode_READ(kind, data, i - 1);
            int base = (prev > 0x7f && !IN(prev, spaces)) || (prev >= '0' && prev <= '9') ||
                       prev == '#' || prev == '*';
            if (!base) {
                continue;
            }
            i++;
            if (i < n) {
                Py_UCS4 d = PyUnicode_READ(kind, data, i);
                if (table[d] == '2' || (selector && (d == 0x200c || d == 0x200d))) {
                    i++;
                }
            }
            continue;
        }
        if (c == 0x1b) {
            /* An SGR sequence, whatever the number of parameter characters. */
            Py_ssize_t j = i + 1;
            if (j >= n || PyUnicode_READ(kind, data, j) != '[') {
                break;
            }
            for (j++; j < n; j++) {
                Py_UCS4 d = PyUnicode_READ(kind, data, j);
                if (!((d >= '0' && d <= '9') || d == ';' || d == ':')) {
                    break;
                }
            }
            if (j >= n || PyUnicode_READ(kind, data, j) != 'm') {
                break;
            }
            i = j + 1;
            continue;
        }
        if (c >= 0x20) {
            break;
        }
        i++;  /* a C0 control other than ESC */
    }
    return i;
}

PyObject *
termscribe_marked_cell_run_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("marked_cell_run_end", nargs, 5, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    const char *table = class_table("marked_cell_run_end", args[1]);
    if (table == NULL) {
        return NULL;
    }
    CharSet sets[3];
    for (int k = 0; k < 3; k++) {
        const char *set_data;
        if (characters("marked_cell_run_end", args[2 + k], &sets[k].n, &sets[k].kind,
                       &set_data) < 0) {
            return NULL;
        }
        sets[k].data = set_data;
    }
    Py_ssize_t end;
    BY_KIND(end, kind, marked_end, data, n, table, sets[0], sets[1], sets[2]);
    return PyLong_FromSsize_t(end);
}

PyObject *
termscribe_single_run_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("single_run_end", nargs, 2, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    const char *table = class_table("single_run_end", args[1]);
    if (table == NULL) {
        return NULL;
    }
    Py_ssize_t end;
    BY_KIND(end, kind, single_end, data, n, table);
    return PyLong_FromSsize_t(end);
}

PyObject *
termscribe_class_run_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("class_run_end", nargs, 3, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    const char *table = class_table("class_run_end", args[1]);
    if (table == NULL) {
        return NULL;
    }
    Py_ssize_t classes_size;
    int classes_kind;
    const char *classes;
    if (characters("class_run_end", args[2], &classes_size, &classes_kind, &classes) < 0) {
        return NULL;
    }
    unsigned char wanted[256] = {0};
    for (Py_ssize_t c = 0; c < classes_size; c++) {
        Py_UCS4 digit = PyUnicode_READ(classes_kind, classes, c);
        if (digit > 0xff) {
            PyErr_SetString(PyExc_ValueError, "class_run_end(): classes are Latin-1 characters");
            return NULL;
        }
        wanted[digit] = 1;
    }
    Py_ssize_t i = 0;
    while (i < n && wanted[(unsigned char)table[PyUnicode_READ(kind, data, i)]]) {
        i++;
    }
    return PyLong_FromSsize_t(i);
}

/* The class of each code point of ``text`` in ``table``: translate's work
 * for a table of one Latin-1 character a code point. */
#define CLASSES_OF(KIND, data, n, table, out)                       \
    do {                                                            \
        for (Py_ssize_t i = 0; i < (n); i++) {                      \
            (out)[i] = (Py_UCS1)(table)[PyUnicode_READ(KIND, (data), i)]; \
        }                                                           \
    } while (0)

PyObject *
termscribe_classes(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("classes", nargs, 2, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    const char *table = class_table("classes", args[1]);
    if (table == NULL) {
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(args[1])) {
        PyErr_SetString(PyExc_ValueError, "classes(): the table is ASCII");
        return NULL;
    }
    PyObject *result = PyUnicode_New(n, 127);
    if (result == NULL) {
        return NULL;
    }
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(result);
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        CLASSES_OF(PyUnicode_1BYTE_KIND, data, n, table, out);
        break;
    case PyUnicode_2BYTE_KIND:
        CLASSES_OF(PyUnicode_2BYTE_KIND, data, n, table, out);
        break;
    default:
        CLASSES_OF(PyUnicode_4BYTE_KIND, data, n, table, out);
        break;
    }
    return result;
}
