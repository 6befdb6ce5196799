/* termscribe._speedups: optional C versions of hot string passes.
 *
 * Each function of the module (defined in _speedups_lines.c or in
 * _speedups_cells.c, with what they share in _speedups.h) returns exactly
 * what a pure-Python expression in the package returns (named below); the
 * package uses that expression when this module is not built, and a
 * property test holds the two equal.
 *
 * batch_parts(text, start, max_params, max_intermediates, max_string) ==
 * _grammar.batch_parts_by_regex(text, start):
 *   where the batch of GROUND items from ``start`` ends and its parts:
 *   texts (printable characters with SGR sequences among them) and items
 *   (control sequences, strings, escape sequences, controls) alternating,
 *   ``(start, [])`` if there is none (see _grammar, which lists the items;
 *   the limits are _syntax's MAX_PARAM_CHARS, MAX_INTERMEDIATES and
 *   MAX_STRING_CHARS). The parts of an item never overlap a text's, so one
 *   pass reads each character once, where the regex engine tries every
 *   alternative at every character. Every byte a transcript reads in
 *   GROUND goes through here.
 *
 * style_layout(styles) == _layouts.style_layout_by_python(styles):
 *   the layout (see _committed) of a line whose cells have the palette
 *   codes ``styles``, one a cell: "\x00" for no cells or all in code 0;
 *   else the number of runs of equal codes k, the k codes, and the lengths
 *   of the first k - 1 runs, each as a code point. Every committed line of
 *   styled output is laid out through here.
 *
 * single_run_end(text, table) == _unicode._single_run().match(text).end():
 *   how far ``text`` is printable ASCII and BMP code points of class SINGLE
 *   (one cell, stored as is): ``table`` is _unicode's class table, a str of
 *   one ASCII digit a code point ("0" for SINGLE), so that its one
 *   definition says which. Output scanned for wide characters goes through
 *   here on every print.
 *
 * class_run_end(text, table, classes) ==
 * re.compile(_unicode._table_class(classes) + "*+").match(text).end():
 *   how far the code points of ``text`` have a class in ``classes`` (a str
 *   of the digits of the classes) in the class table ``table`` (as above,
 *   one a code point, astral ones included).
 *
 * classes(text, table) == text.translate(table): the class of each code
 *   point of ``text`` in a table as above (any one of ASCII characters), the
 *   work of the class scans of text that needs more than single cells.
 *
 * marked_cell_run_end(text, table, selectors, others, spaces) ==
 * _unicode._cell_run(True).match(text).end(): how far the code points of
 * ``text`` are SINGLE or WIDE (C0 controls and SGR sequences apart), each
 * maybe followed by one or two marks joined to it (combining marks, and
 * the variation ``selectors`` and ``others`` joiners after a join base:
 * not ASCII and not one of ``spaces``, or a digit, # or *). The sets are
 * strs, from the definitions the regex is made of.
 *
 * without_sgr(text) == _grammar.SGR_SPLIT.sub("", text):
 *   text without its SGR sequences, as sgr_split finds them: what an
 *   unstyled transcript prints of styled text.
 *
 * sgr_split(text) == _grammar.SGR_SPLIT.split(text):
 *   text cut at each SGR sequence (ESC [, parameter characters 0-9 ; :,
 *   then m): the text before the first, then for each its parameters and
 *   the text after it. Every line of styled text is cut so.
 */
#include "_speedups.h"

static PyMethodDef methods[] = {
    {"style_layout", (PyCFunction)(void (*)(void))termscribe_style_layout, METH_FASTCALL,
     "style_layout(styles, /)\n--\n\n"
     "The same as _layouts.style_layout_by_python(styles): the layout of a\n"
     "line whose cells have the palette codes styles."},
    {"single_run_end", (PyCFunction)(void (*)(void))termscribe_single_run_end, METH_FASTCALL,
     "single_run_end(text, table, /)\n--\n\n"
     "The same as _unicode._single_run().match(text).end(): how far text is\n"
     "code points of one cell, stored as they are."},
    {"class_run_end", (PyCFunction)(void (*)(void))termscribe_class_run_end, METH_FASTCALL,
     "class_run_end(text, table, classes, /)\n--\n\n"
     "How far the code points of text have a class in classes, in the class\n"
     "table."},
    {"classes", (PyCFunction)(void (*)(void))termscribe_classes, METH_FASTCALL,
     "classes(text, table, /)\n--\n\n"
     "The same as text.translate(table) for a table of one ASCII character a\n"
     "code point: the class of each code point of text."},
    {"marked_cell_run_end", (PyCFunction)(void (*)(void))termscribe_marked_cell_run_end, METH_FASTCALL,
     "marked_cell_run_end(text, table, selectors, others, spaces, /)\n--\n\n"
     "How far _unicode._cell_run(True) matches text: cells, with one or two\n"
     "marks joined to a code point."},
    {"batch_parts", (PyCFunction)(void (*)(void))termscribe_batch_parts, METH_FASTCALL,
     "batch_parts(text, start, max_params, max_intermediates, max_string, /)\n--\n\n"
     "The same as _grammar.batch_parts_by_regex(text, start): where the batch\n"
     "at start ends, and its texts and items."},
    {"without_sgr", (PyCFunction)(void (*)(void))termscribe_without_sgr, METH_FASTCALL,
     "without_sgr(text, /)\n--\n\n"
     "The same as _grammar.SGR_SPLIT.sub(\"\", text): text without its SGR sequences."},
    {"sgr_split", (PyCFunction)(void (*)(void))termscribe_sgr_split, METH_FASTCALL,
     "sgr_split(text, /)\n--\n\n"
     "The same as _grammar.SGR_SPLIT.split(text): text, parameters, text, ...\n"
     "around each SGR sequence."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "termscribe._speedups",
    .m_doc = "Optional C versions of hot string passes (see _accel).",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
