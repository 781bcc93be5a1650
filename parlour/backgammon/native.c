/*
 * parlour.backgammon.native: the backgammon network's inputs, and the positions
 * each throw's legal plays reach, in C.
 *
 * Copyright (C) The Parlour developers
 *
 * This program is free software: you can redistribute it and/or modify it under
 * the terms of the GNU General Public License as published by the Free Software
 * Foundation, either version 3 of the License, or (at your option) any later
 * version. This program is distributed in the hope that it will be useful, but
 * WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for more
 * details. You should have received a copy of the GNU General Public License
 * along with this program. If not, see <https://www.gnu.org/licenses/>.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What this is
 * ------------
 * parlour.backgammon.network.encode -- the board's 198 inputs -- and
 * parlour.backgammon.features -- the hand-made ones -- written again in C, the
 * same arithmetic in the same order, so that every input is the same float64 to
 * the last bit (tests/backgammon/test_features.py compares them). The numpy
 * versions work on whole batches and are the fallback; this one walks each
 * position once, which for the thousands of positions a look two throws ahead
 * meets is several times quicker.
 *
 * Input: the checker counts of n positions, 50 bytes each (the player on roll's
 * 25 counts, then the other side's, each in its own numbering, index 24 the bar).
 * Output: a bytearray of n rows of INPUTS doubles.
 *
 * replies() lists, for each position and each of the 21 throws, every distinct
 * position the mover's legal plays reach, so that a look ahead of two throws
 * never builds a Python object for the hundreds of thousands of positions it
 * meets (see the comment above native_replies).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define POINTS 25 /* 24 points and the bar */
#define PER_SIDE 99
#define BOARD_INPUTS (2 * PER_SIDE)
#define FEATURES_PER_SIDE 6
#define FEATURES (2 * FEATURES_PER_SIDE + 1)
#define INPUTS (BOARD_INPUTS + FEATURES)

/* features.py's _ESCAPES: for each pattern of blocked points among the 12 ahead
 * (bit j: the point 12 - j pips ahead), the throws (of 36) a checker could play in
 * full by itself. */
static double escapes_table[1 << 12];

static int blocked_at(int window, int pips)
{
    return pips >= 1 && pips <= 12 && (window >> (12 - pips) & 1);
}

static void build_escapes(void)
{
    for (int window = 0; window < (1 << 12); window++) {
        int escapes = 0;
        for (int first = 1; first <= 6; first++) {
            for (int second = 1; second <= 6; second++) {
                int whole;
                if (first != second) {
                    whole = !blocked_at(window, first + second) &&
                            (!blocked_at(window, first) || !blocked_at(window, second));
                } else {
                    whole = 1;
                    for (int k = 1; k <= 4; k++)
                        whole = whole && !blocked_at(window, k * first);
                }
                escapes += whole;
            }
        }
        escapes_table[window] = escapes;
    }
}

/* One side's six features (features.py: features_of_counts, in its order). own:
 * the side's counts; theirs: the other side's, each in its own numbering. */
static void side_features(const uint8_t *own, const uint8_t *theirs, double *out)
{
    int64_t held = 0, made = 0, blots = 0;
    for (int i = 0; i < POINTS; i++)
        if (own[i] > 0)
            held |= (int64_t)1 << i;
    for (int q = 1; q <= 24; q++) { /* the other's checkers on our point q */
        int c = theirs[24 - q];
        if (c >= 2)
            made |= (int64_t)1 << (q - 1);
        else if (c == 1)
            blots |= (int64_t)1 << (q - 1);
    }

    /* shots: blot_ahead(d) = blots << d, open_ahead(d) = open << d */
    int64_t movers = own[24] > 0 ? (int64_t)1 << 24 : held;
    int64_t open = ~made & (((int64_t)1 << 24) - 1);
    int non_doubles = 0, doubles = 0;
    for (int high = 2; high <= 6; high++) {
        for (int low = 1; low < high; low++) {
            int64_t one_die = (blots << high) | (blots << low);
            int64_t both = (blots << (high + low)) & ((open << high) | (open << low));
            non_doubles += (movers & (one_die | both)) != 0;
        }
    }
    for (int d = 1; d <= 6; d++) {
        int64_t one = open << d, two = open << (2 * d), three = open << (3 * d);
        int64_t reach = (blots << d) | ((blots << (2 * d)) & one) |
                        ((blots << (3 * d)) & one & two) |
                        ((blots << (4 * d)) & one & two & three);
        doubles += (movers & reach) != 0;
    }
    out[0] = (double)(2 * non_doubles + doubles) / 36;

    /* escapes from every point */
    double escapes[POINTS];
    for (int p = 1; p <= POINTS; p++)
        escapes[p - 1] = escapes_table[((made << 12) >> (p - 1)) & 0xFFF];
    int rearmost = -1;
    for (int i = POINTS - 1; i >= 0; i--)
        if (own[i] > 0) {
            rearmost = i;
            break;
        }
    out[1] = rearmost >= 0 ? escapes[rearmost] / 36 : 1.0;
    double fewest = escapes[14];
    for (int i = 15; i < 24; i++)
        if (escapes[i] < fewest)
            fewest = escapes[i];
    double contained = 1 - fewest / 36;
    out[2] = contained;
    out[3] = contained * contained;

    /* pips past the other side's rearmost checker, on our point 24 - its index */
    int their_rearmost = 24; /* as numpy's argmax finds it for an empty side */
    for (int i = POINTS - 1; i >= 0; i--)
        if (theirs[i] > 0) {
            their_rearmost = i;
            break;
        }
    int64_t behind = 0, past = 24 - their_rearmost;
    for (int i = 0; i < POINTS; i++)
        if (i + 1 > past)
            behind += own[i] * (i + 1 - past);
    out[4] = (double)behind / 100;

    int home_made = 0;
    for (int i = 0; i < 6; i++)
        home_made += theirs[i] >= 2;
    double entry = (double)home_made / 6;
    out[5] = entry * entry;
}

static void board_inputs(const uint8_t *counts, double *out)
{
    int total = 0, pips = 0;
    for (int i = 0; i < 24; i++) {
        int c = counts[i];
        out[4 * i] = c >= 1;
        out[4 * i + 1] = c >= 2;
        out[4 * i + 2] = c >= 3;
        out[4 * i + 3] = c > 3 ? (double)(c - 3) / 2 : 0.0;
        total += c;
        pips += c * (i + 1);
    }
    total += counts[24];
    pips += counts[24] * 25;
    out[96] = (double)counts[24] / 2;
    out[97] = (double)(15 - total) / 15;
    out[98] = (double)pips / 100;
}

static PyObject *native_inputs(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len % (2 * POINTS) != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the counts are not 50 bytes a position");
        return NULL;
    }
    const uint8_t *counts = view.buf;
    for (Py_ssize_t i = 0; i < view.len; i++)
        if (counts[i] > 15) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "a point holds more than 15 checkers");
            return NULL;
        }
    Py_ssize_t n = view.len / (2 * POINTS);
    PyObject *result = PyByteArray_FromStringAndSize(NULL, n * INPUTS * (Py_ssize_t)sizeof(double));
    if (result == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    double *rows = (double *)PyByteArray_AS_STRING(result);
    for (Py_ssize_t k = 0; k < n; k++) {
        const uint8_t *mover = counts + k * 2 * POINTS, *other = mover + POINTS;
        double *row = rows + k * INPUTS;
        board_inputs(mover, row);
        board_inputs(other, row + PER_SIDE);
        side_features(mover, other, row + BOARD_INPUTS);
        side_features(other, mover, row + BOARD_INPUTS + FEATURES_PER_SIDE);
        row[INPUTS - 1] = row[BOARD_INPUTS + 4] > 0;
    }
    PyBuffer_Release(&view);
    return result;
}

/* -- the replies: every position a throw's legal plays reach ----------------------
 *
 * A position is worked on as 50 counts: the mover's 25 (index i is point i + 1,
 * index 24 the bar), then the opponent's 25 in the opponent's own numbering, so
 * that the mover's point q is the opponent's index 24 - q.
 *
 * The plays of a throw are found by brute force: every checker the first die can
 * move, then every checker the next die can move from there, and so on, a new
 * copy of the counts at each step. A non-double is tried in both orders of its
 * dice. A double's moves are tried from the same or lower points than the move
 * before: any play of a double can be made in that order (a checker moved first
 * from higher up never stands in the way of a lower one: it only lands lower, and
 * bearing off gets easier, never harder, as the highest checkers move), so this
 * finds every play once instead of once in every order of its moves.
 *
 * Each way of playing ends in a leaf: the position and how many dice it used.
 * Only the leaves of the highest rank are legal plays: the most dice used and,
 * when only one die of a non-double can be played, the higher die where it can
 * be. Leaves that reach the same position are one play: a hash set per throw
 * keeps them distinct. */

#define SIDES (2 * POINTS) /* counts a position */
#define THROW_COUNT 21

typedef struct {
    uint32_t stamp; /* the (position, throw) this slot belongs to; 0 never does */
    int32_t row;    /* the result it holds, in the results buffer */
} Slot;

typedef struct {
    uint8_t *rows; /* results, SIDES bytes each, as seen by the opponent on roll */
    Py_ssize_t used, capacity;
    Py_ssize_t first; /* the first result of the present (position, throw) */
    Slot *slots;      /* open addressing, a power of two slots */
    size_t slot_count;
    uint32_t stamp;
    int rank; /* of the leaves kept for the present (position, throw) */
    int dice[4], dice_count;
    int failed; /* out of memory: the search stops and the caller raises */
} Replies;

static uint64_t row_hash(const uint8_t *row)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (int i = 0; i < SIDES; i++) {
        h ^= row[i];
        h *= 1099511628211u;
    }
    return h;
}

/* A fresh, empty set for the results of a (position, throw), or after a leaf of
 * a higher rank makes every result kept so far illegal. */
static void forget_results(Replies *r)
{
    r->used = r->first;
    r->stamp++;
    if (r->stamp == 0) { /* wrapped: clear every slot once */
        memset(r->slots, 0, r->slot_count * sizeof(Slot));
        r->stamp = 1;
    }
}

static int grow_slots(Replies *r)
{
    size_t count = r->slot_count * 2;
    Slot *slots = calloc(count, sizeof(Slot));
    if (slots == NULL)
        return -1;
    free(r->slots);
    r->slots = slots;
    r->slot_count = count;
    /* the present results go in again; other stamps are gone with the old slots */
    for (Py_ssize_t k = r->first; k < r->used; k++) {
        size_t i = (size_t)row_hash(r->rows + k * SIDES) & (count - 1);
        while (slots[i].stamp == r->stamp)
            i = (i + 1) & (count - 1);
        slots[i].stamp = r->stamp;
        slots[i].row = (int32_t)(k - r->first);
    }
    return 0;
}

/* Keep the position a play reached (``board``, mover first), unless it is known
 * already. Stored as the opponent, now on roll, sees it: its counts first. */
static void keep_result(Replies *r, const uint8_t *board)
{
    uint8_t row[SIDES];
    memcpy(row, board + POINTS, POINTS);
    memcpy(row + POINTS, board, POINTS);
    size_t mask = r->slot_count - 1;
    size_t i = (size_t)row_hash(row) & mask;
    while (r->slots[i].stamp == r->stamp) {
        if (memcmp(r->rows + (r->first + r->slots[i].row) * SIDES, row, SIDES) == 0)
            return;
        i = (i + 1) & mask;
    }
    if (r->used == r->capacity) {
        Py_ssize_t capacity = r->capacity * 2;
        uint8_t *rows = realloc(r->rows, (size_t)capacity * SIDES);
        if (rows == NULL) {
            r->failed = 1;
            return;
        }
        r->rows = rows;
        r->capacity = capacity;
    }
    memcpy(r->rows + r->used * SIDES, row, SIDES);
    r->slots[i].stamp = r->stamp;
    r->slots[i].row = (int32_t)(r->used - r->first);
    r->used++;
    /* at most half full, so that a search ends quickly */
    if (2 * (size_t)(r->used - r->first) > r->slot_count && grow_slots(r) < 0)
        r->failed = 1;
}

/* A way of playing has ended with ``used`` dice played, the first of them
 * ``first_die`` (0 when none). Its rank: the dice used, and for a single die of a
 * non-double, which die. */
static void leaf(Replies *r, const uint8_t *board, int used, int first_die)
{
    int doubles = r->dice[0] == r->dice[1];
    int rank = 8 * used + (used == 1 && !doubles ? first_die : 0);
    if (rank < r->rank)
        return;
    if (rank > r->rank) {
        forget_results(r);
        r->rank = rank;
    }
    keep_result(r, board);
}

/* Whether every one of the mover's checkers is in its home board (points 1-6). */
static int all_home(const uint8_t *board)
{
    for (int i = 6; i < POINTS; i++)
        if (board[i])
            return 0;
    return 1;
}

/* Play the dice from ``depth`` on, in every legal way, from ``board``; a double's
 * moves start at index ``highest`` or lower (see above). */
static void play_on(Replies *r, const uint8_t *board, int depth, int highest, int first_die)
{
    if (r->failed)
        return;
    if (depth == r->dice_count) {
        leaf(r, board, depth, first_die);
        return;
    }
    int die = r->dice[depth];
    const uint8_t *opponent = board + POINTS;
    int moved = 0;
    int lowest = 0, top = highest;
    if (board[24]) { /* a checker on the bar enters before any other moves */
        lowest = 24;
        top = 24;
    }
    int home = all_home(board);
    for (int from = top; from >= lowest; from--) {
        if (!board[from])
            continue;
        int point = from + 1; /* the bar is point 25 */
        int to = point - die; /* 0 or below: off */
        if (to >= 1) {
            if (opponent[24 - to] >= 2)
                continue; /* the opponent holds the point */
        } else {
            if (!home)
                continue;
            if (to < 0) { /* a higher die bears off only from the highest point */
                int higher = 0;
                for (int i = point; i < 6; i++)
                    higher |= board[i];
                if (higher)
                    continue;
            }
        }
        uint8_t next[SIDES];
        memcpy(next, board, SIDES);
        next[from]--;
        if (to >= 1) {
            next[to - 1]++;
            if (next[POINTS + 24 - to] == 1) { /* a blot hit goes to the bar */
                next[POINTS + 24 - to] = 0;
                next[POINTS + 24]++;
            }
        }
        moved = 1;
        int next_highest = r->dice[0] == r->dice[1] ? from : POINTS - 1;
        play_on(r, next, depth + 1, next_highest, depth == 0 ? die : first_die);
        if (r->failed)
            return;
    }
    if (!moved)
        leaf(r, board, depth, first_die);
}

static int by_counts(const void *a, const void *b)
{
    return memcmp(a, b, SIDES);
}

/* For each position and each throw of the engine's THROWS (high 1 to 6, low 1 to
 * high), every distinct position the mover's legal plays reach, each as the
 * opponent, now on roll, sees it (its 25 counts first; the position itself,
 * swapped, when nothing can be played), in the byte order of their counts so that
 * the list is the same however it is found; and how many there are for each
 * (position, throw), as native int32s. */
static PyObject *native_replies(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const char *wrong = NULL;
    const uint8_t *counts = view.buf;
    if (view.len % SIDES != 0)
        wrong = "the counts are not 50 bytes a position";
    for (Py_ssize_t start = 0; wrong == NULL && start < view.len; start += SIDES) {
        const uint8_t *mover = counts + start, *opponent = mover + POINTS;
        int mine = 0, theirs = 0;
        for (int i = 0; i < POINTS; i++) {
            mine += mover[i];
            theirs += opponent[i];
        }
        if (mine > 15 || theirs > 15)
            wrong = "a side has more than 15 checkers";
        for (int q = 1; q <= 24 && wrong == NULL; q++)
            if (mover[q - 1] && opponent[24 - q])
                wrong = "both sides have checkers on the same point";
    }
    if (wrong != NULL) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, wrong);
        return NULL;
    }
    Py_ssize_t n = view.len / SIDES;
    if (n > (Py_ssize_t)(INT32_MAX / THROW_COUNT)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "too many positions at once");
        return NULL;
    }
    Replies r = {0};
    r.capacity = 1024;
    r.rows = malloc((size_t)r.capacity * SIDES);
    r.slot_count = 256;
    r.slots = calloc(r.slot_count, sizeof(Slot));
    int32_t *sizes = malloc((size_t)(n * THROW_COUNT + 1) * sizeof(int32_t));
    PyObject *result = NULL, *rows = NULL, *found = NULL;
    if (r.rows == NULL || r.slots == NULL || sizes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        const uint8_t *board = counts + k * SIDES;
        int t = 0;
        for (int high = 1; high <= 6; high++) {
            for (int low = 1; low <= high; low++, t++) {
                r.first = r.used;
                forget_results(&r);
                r.rank = -1;
                if (high == low) {
                    r.dice_count = 4;
                    for (int i = 0; i < 4; i++)
                        r.dice[i] = high;
                    play_on(&r, board, 0, POINTS - 1, 0);
                } else {
                    r.dice_count = 2;
                    r.dice[0] = high;
                    r.dice[1] = low;
                    play_on(&r, board, 0, POINTS - 1, 0);
                    r.dice[0] = low;
                    r.dice[1] = high;
                    play_on(&r, board, 0, POINTS - 1, 0);
                }
                if (r.failed) {
                    PyErr_NoMemory();
                    goto done;
                }
                Py_ssize_t plays = r.used - r.first;
                if (plays > INT32_MAX || r.used > PY_SSIZE_T_MAX / SIDES) {
                    PyErr_SetString(PyExc_ValueError, "too many plays");
                    goto done;
                }
                qsort(r.rows + r.first * SIDES, (size_t)plays, SIDES, by_counts);
                sizes[k * THROW_COUNT + t] = (int32_t)plays;
            }
        }
    }
    rows = PyBytes_FromStringAndSize((const char *)r.rows, r.used * SIDES);
    found = PyBytes_FromStringAndSize(
        (const char *)sizes, n * THROW_COUNT * (Py_ssize_t)sizeof(int32_t));
    if (rows != NULL && found != NULL)
        result = PyTuple_Pack(2, rows, found);
done:
    Py_XDECREF(rows);
    Py_XDECREF(found);
    free(r.rows);
    free(r.slots);
    free(sizes);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef native_methods[] = {
    {"inputs", native_inputs, METH_O,
     "inputs(counts, /)\n--\n\nThe network's inputs of positions given as 50 counts "
     "each: a bytearray of float64 rows."},
    {"replies", native_replies, METH_O,
     "replies(counts, /)\n--\n\nFor positions given as 50 counts each and each of the 21 "
     "throws, every distinct position the mover's legal plays reach, as 50 counts seen by "
     "the opponent on roll, and how many for each (position, throw), as int32s."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "parlour.backgammon.native",
    "The backgammon network's inputs and the plays' results in C (native.c).", -1, native_methods,
};

PyMODINIT_FUNC PyInit_native(void)
{
    build_escapes();
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddIntConstant(module, "INPUTS", INPUTS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
