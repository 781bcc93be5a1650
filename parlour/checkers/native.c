/*
 * parlour.checkers.native: the checkers search in C.
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
 * The search the checkers engine runs -- parlour.ai.search.AlphaBeta walking a
 * parlour.checkers.engine.SearchBoard -- written again in C, the same algorithm
 * in the same order, so that at a fixed depth it visits the same nodes and
 * returns the same move, score, node count and principal variation, only many
 * times faster. Each part below names the Python it mirrors; where the two must
 * agree to the node, a comment says what the Python does.
 *
 * Positions are the engine's: four masks (Black's men and kings, White's men and
 * kings) in the padded 35-bit layout of parlour.checkers.board, and moves are its
 * Steps (start bit, end bit, the mask of the pieces jumped), so what goes in and
 * comes out is the same Python values. The evaluation's numbers are not worked
 * out here: the engine's Evaluation hands them over (Evaluation.native_tables),
 * so any Weights give the same scores. The endgame database is read in place
 * from its numpy array through the buffer protocol.
 *
 * The one thing done differently on purpose: the transposition table is keyed
 * by a 64-bit Zobrist hash of the position and side to move rather than by the
 * position itself. It is an open-addressing table with full 64-bit key checks
 * that grows like a dict, so it behaves as the Python dict does (an entry is only
 * ever replaced by the same key); two positions would have to share all 64 bits
 * of hash for the searches to part.
 *
 * The search releases the GIL while it runs, so other threads (a terminal app's
 * screen, say) carry on meanwhile; it takes the GIL back between iterations and
 * now and then to ask the stop event (check_limits says when).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* -- the search's constants (parlour/ai/search.py) -------------------------------- */

#define MATE 1000000
#define MATE_BOUND (MATE - 10000)
#define INFINITY_SCORE (MATE + 1)
enum { EXACT = 0, LOWER = 1, UPPER = 2 };
#define CHECK_EVERY 1024
#define FULL_DEPTH 64
#define REDUCE_AFTER 3
#define REDUCE_FROM_DEPTH 3
#define REDUCE_TWO_AFTER 8
#define NEXT_ITERATION_SHARE 0.65
/* The 40-move rule (parlour/checkers/engine.py FORTY_MOVE_PLIES). */
#define FORTY_MOVE_PLIES 80

/* The deepest search accepted: its plies, the quiescence search's captures
 * beyond them (each takes a piece: at most 23 in a row) and the PV walk all fit in
 * MAX_DEPTH + EXTRA_PLIES nodes. */
#define MAX_DEPTH 512
#define EXTRA_PLIES 64

/* -- the board: the padded layout (parlour/checkers/board.py) -----------------------
 *
 * Square n on row r (0 at the top) and column c sits at bit (9 r + c) / 2, as if
 * the board were nine columns wide: the four diagonal steps are then the same
 * shift everywhere (down-left +4, down-right +5, up-left -5, up-right -4), and a
 * step off the left or right edge lands on one of the unused bits 8, 17, 26. */

enum { BLACK = 0, WHITE = 1 };
#define BITS 35

static int SQUARE_BIT[33];     /* square 1-32 to bit; [0] unused */
static int BIT_SQUARE[BITS];   /* bit to square, 0 for the padding bits */
static uint64_t BOARD;         /* every playable bit */
static uint64_t CROWN_ROW[2];  /* Black is crowned on 29-32, White on 1-4 */

/* One jump from a bit: the piece jumped, and where the jumper lands. */
typedef struct {
    uint64_t over;
    int land;
    uint64_t land_mask;
} Jump;

/* The jumps from each bit that stay on the board, in the order of board.py's
 * _jump_table: kings in all four directions (+4, +5, -5, -4), Black's men down
 * (+4, +5), White's men up (-5, -4). */
static Jump KING_JUMPS[BITS][4];
static int KING_JUMP_COUNT[BITS];
static Jump MAN_JUMPS[2][BITS][4];
static int MAN_JUMP_COUNT[2][BITS];

static int
bit_of(int square)
{
    int row = (square - 1) / 4, index = (square - 1) % 4;
    int column = 2 * index + (row % 2 == 0 ? 1 : 0);
    return (9 * row + column) / 2;
}

static int
on_board(int bit)
{
    return bit >= 0 && bit < BITS && (BOARD >> bit & 1);
}

static int
jump_table(const int *directions, int count, int bit, Jump *out)
{
    int found = 0;
    if (!on_board(bit))
        return 0;
    for (int i = 0; i < count; i++) {
        int over = bit + directions[i], land = bit + 2 * directions[i];
        if (on_board(over) && on_board(land)) {
            out[found].over = 1ULL << over;
            out[found].land = land;
            out[found].land_mask = 1ULL << land;
            found++;
        }
    }
    return found;
}

static void
init_board(void)
{
    static const int all[4] = {4, 5, -5, -4};
    static const int down[2] = {4, 5};
    static const int up[2] = {-5, -4};
    BOARD = 0;
    for (int square = 1; square <= 32; square++) {
        SQUARE_BIT[square] = bit_of(square);
        BOARD |= 1ULL << SQUARE_BIT[square];
    }
    SQUARE_BIT[0] = -1;
    for (int bit = 0; bit < BITS; bit++)
        BIT_SQUARE[bit] = 0;
    for (int square = 1; square <= 32; square++)
        BIT_SQUARE[SQUARE_BIT[square]] = square;
    CROWN_ROW[BLACK] = CROWN_ROW[WHITE] = 0;
    for (int square = 29; square <= 32; square++)
        CROWN_ROW[BLACK] |= 1ULL << SQUARE_BIT[square];
    for (int square = 1; square <= 4; square++)
        CROWN_ROW[WHITE] |= 1ULL << SQUARE_BIT[square];
    for (int bit = 0; bit < BITS; bit++) {
        KING_JUMP_COUNT[bit] = jump_table(all, 4, bit, KING_JUMPS[bit]);
        MAN_JUMP_COUNT[BLACK][bit] = jump_table(down, 2, bit, MAN_JUMPS[BLACK][bit]);
        MAN_JUMP_COUNT[WHITE][bit] = jump_table(up, 2, bit, MAN_JUMPS[WHITE][bit]);
    }
}

/* Where the compiler may use the processor's popcnt instruction, the builtin is
 * that; otherwise it is a call into a table-driven routine, slower than counting
 * the bits in parallel (the build does not assume the instruction: the extension
 * may be copied to another machine). */
static inline int
popcount(uint64_t mask)
{
#ifdef __POPCNT__
    return __builtin_popcountll(mask);
#else
    mask = mask - (mask >> 1 & 0x5555555555555555ULL);
    mask = (mask & 0x3333333333333333ULL) + (mask >> 2 & 0x3333333333333333ULL);
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((mask * 0x0101010101010101ULL) >> 56);
#endif
}

static inline int
lowest_bit(uint64_t mask)
{
    return __builtin_ctzll(mask);
}

static inline int
highest_bit(uint64_t mask)
{
    return 63 - __builtin_clzll(mask);
}

/* -- positions and moves -------------------------------------------------------------
 *
 * A Step (start bit, end bit, jumped mask) packed into one integer: start in bits
 * 0-5, end in 6-11, the jumped pieces from bit 12 (35 bits). No move packs to 0 (a
 * move never ends where it starts), so 0 stands for "no move". */

typedef uint64_t Step;
#define NO_STEP ((Step)0)

static inline Step
make_step(int start, int end, uint64_t taken)
{
    return (Step)start | (Step)end << 6 | (Step)taken << 12;
}

static inline int step_start(Step step) { return (int)(step & 63); }
static inline int step_end(Step step) { return (int)(step >> 6 & 63); }
static inline uint64_t step_taken(Step step) { return step >> 12; }

/* A position with its side to move, as SearchBoard keeps it: the pieces by side
 * (men[BLACK] is Black's men), the plies since a man moved or a piece was taken,
 * and the Zobrist key of the pieces and the side to move. */
typedef struct {
    uint64_t men[2];
    uint64_t kings[2];
    int side;
    int quiet;
    uint64_t key;
} Board;

static inline uint64_t
occupied(const Board *board)
{
    return board->men[BLACK] | board->kings[BLACK] | board->men[WHITE] | board->kings[WHITE];
}

/* A growable list of steps. */
typedef struct {
    Step *steps;
    int count;
    int capacity;
} StepList;

static int
push_step(StepList *list, Step step)
{
    if (list->count == list->capacity) {
        int capacity = list->capacity ? 2 * list->capacity : 64;
        Step *grown = realloc(list->steps, (size_t)capacity * sizeof(Step));
        if (grown == NULL)
            return 0;
        list->steps = grown;
        list->capacity = capacity;
    }
    list->steps[list->count++] = step;
    return 1;
}

static int
reserve_steps(StepList *list, int capacity)
{
    if (list->capacity >= capacity)
        return 1;
    Step *grown = realloc(list->steps, (size_t)capacity * sizeof(Step));
    if (grown == NULL)
        return 0;
    list->steps = grown;
    list->capacity = capacity;
    return 1;
}

static int
contains_step(const Step *steps, int count, Step step)
{
    for (int i = 0; i < count; i++)
        if (steps[i] == step)
            return 1;
    return 0;
}

/* -- Zobrist keys --------------------------------------------------------------------
 *
 * A random number for each kind of piece on each bit and one for White to move;
 * a position's key is the exclusive or of those present. Fixed (a seeded
 * generator), so the table behaves alike from run to run. */

static uint64_t ZOBRIST[4][BITS]; /* Black men, Black kings, White men, White kings */
static uint64_t ZOBRIST_WHITE;

static uint64_t
splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void
init_zobrist(void)
{
    uint64_t state = 0x5061726C6F7572ULL; /* "Parlour" */
    for (int kind = 0; kind < 4; kind++)
        for (int bit = 0; bit < BITS; bit++)
            ZOBRIST[kind][bit] = splitmix64(&state);
    ZOBRIST_WHITE = splitmix64(&state);
}

static uint64_t
mask_key(const uint64_t *table, uint64_t mask)
{
    uint64_t key = 0;
    while (mask) {
        key ^= table[lowest_bit(mask)];
        mask &= mask - 1;
    }
    return key;
}

static uint64_t
board_key(const Board *board)
{
    uint64_t key = mask_key(ZOBRIST[0], board->men[BLACK])
                   ^ mask_key(ZOBRIST[1], board->kings[BLACK])
                   ^ mask_key(ZOBRIST[2], board->men[WHITE])
                   ^ mask_key(ZOBRIST[3], board->kings[WHITE]);
    return board->side == WHITE ? key ^ ZOBRIST_WHITE : key;
}

/* Whether two boards are the same position with the same side to move: the
 * repetition key of SearchBoard, (*position, side). */
static inline int
same_position(const Board *a, const Board *b)
{
    return a->key == b->key && a->side == b->side && a->men[BLACK] == b->men[BLACK]
           && a->kings[BLACK] == b->kings[BLACK] && a->men[WHITE] == b->men[WHITE]
           && a->kings[WHITE] == b->kings[WHITE];
}

/* -- move generation (board.py: _movers, _steps, _count_steps, _jumpers,
 *    _capture_paths; engine.py: SearchBoard._generate) ------------------------------
 *
 * Pieces that may go down the board (bit steps +4, +5) are Black's men and every
 * king; up the board (-4, -5), White's men and every king. */

static inline void
movers(int side, uint64_t men, uint64_t kings, uint64_t *down, uint64_t *up)
{
    if (side == BLACK) {
        *down = men | kings;
        *up = kings;
    } else {
        *down = kings;
        *up = men | kings;
    }
}

static inline int
count_steps(int side, uint64_t men, uint64_t kings, uint64_t empty)
{
    uint64_t down, up;
    movers(side, men, kings, &down, &up);
    int count = popcount(down << 4 & empty) + popcount(down << 5 & empty);
    if (up)
        count += popcount(up >> 4 & empty) + popcount(up >> 5 & empty);
    return count;
}

/* The pieces with at least one jump: a piece on bit i, an opponent on i + s and
 * an empty square on i + 2s. */
static inline uint64_t
jumpers(int side, uint64_t men, uint64_t kings, uint64_t opponents, uint64_t empty)
{
    uint64_t down, up;
    movers(side, men, kings, &down, &up);
    uint64_t found = down & ((opponents >> 4 & empty >> 8) | (opponents >> 5 & empty >> 10));
    if (up)
        found |= up & ((opponents << 4 & empty << 8) | (opponents << 5 & empty << 10));
    return found;
}

/* The mover's men and kings, the other side's pieces and the empty squares. */
typedef struct {
    uint64_t men, kings, opponents, empty;
} Sides;

static inline Sides
sides_of(const Board *board)
{
    Sides s;
    int side = board->side, other = side ^ 1;
    s.men = board->men[side];
    s.kings = board->kings[side];
    s.opponents = board->men[other] | board->kings[other];
    s.empty = BOARD & ~(s.men | s.kings | s.opponents);
    return s;
}

/* board.py _extend: the jump sequences from ``at`` onward, depth first, each
 * complete one recorded as its Step (the path itself is not needed: its first
 * and last squares and what it jumped). A man crowned on a jump stops there; the
 * jumped pieces come off at once; ``empty`` keeps the start square free (the
 * moving piece has left it) and is not otherwise changed, as in the Python. */
static int
extend(StepList *paths, Jump (*table)[4], const int *counts, int start, int at,
       uint64_t opponents, uint64_t empty, uint64_t taken, int is_king, uint64_t crown)
{
    int went_on = 0;
    for (int i = 0; i < counts[at]; i++) {
        const Jump *jump = &table[at][i];
        if ((opponents & jump->over) && (empty & jump->land_mask)) {
            went_on = 1;
            if (!is_king && (jump->land_mask & crown)) {
                if (!push_step(paths, make_step(start, jump->land, taken | jump->over)))
                    return 0;
            } else if (!extend(paths, table, counts, start, jump->land, opponents ^ jump->over,
                               empty, taken | jump->over, is_king, crown)) {
                return 0;
            }
        }
    }
    if (!went_on && taken)
        return push_step(paths, make_step(start, at, taken));
    return 1;
}

/* SearchBoard._generate: the legal moves in the search's order. With a capture:
 * every jump sequence (jumpers lowest bit first, each walked depth first), one
 * per (start, end, jumped) -- the first met -- the most pieces taken first
 * (a stable sort). Else the steps in _steps' order (down +4, down +5, up -4, up -5,
 * each by destination bit), crowning steps first (a stable sort).
 * ``scratch`` holds the raw jump sequences. Returns 0 when memory runs out. */
static int
generate(const Board *board, StepList *out, StepList *scratch)
{
    Sides s = sides_of(board);
    int side = board->side;
    out->count = 0;
    uint64_t jumping = jumpers(side, s.men, s.kings, s.opponents, s.empty);
    if (jumping) {
        uint64_t crown = CROWN_ROW[side];
        scratch->count = 0;
        for (uint64_t rest = jumping; rest; rest &= rest - 1) {
            int start = lowest_bit(rest);
            uint64_t empty = s.empty | 1ULL << start;
            int is_king = s.kings >> start & 1;
            if (!extend(scratch, is_king ? KING_JUMPS : MAN_JUMPS[side],
                        is_king ? KING_JUMP_COUNT : MAN_JUMP_COUNT[side], start, start,
                        s.opponents, empty, 0, is_king, crown))
                return 0;
        }
        /* the first of each (start, end, jumped), then the most pieces first */
        int most = 0;
        int kept = 0;
        for (int i = 0; i < scratch->count; i++) {
            Step step = scratch->steps[i];
            if (contains_step(scratch->steps, kept, step))
                continue;
            scratch->steps[kept++] = step;
            int taken = popcount(step_taken(step));
            if (taken > most)
                most = taken;
        }
        if (!reserve_steps(out, kept))
            return 0;
        for (int taken = most; taken >= 1; taken--)
            for (int i = 0; i < kept; i++)
                if (popcount(step_taken(scratch->steps[i])) == taken)
                    out->steps[out->count++] = scratch->steps[i];
        return 1;
    }
    uint64_t down, up;
    movers(side, s.men, s.kings, &down, &up);
    scratch->count = 0;
    for (uint64_t to = down << 4 & s.empty; to; to &= to - 1)
        if (!push_step(scratch, make_step(lowest_bit(to) - 4, lowest_bit(to), 0)))
            return 0;
    for (uint64_t to = down << 5 & s.empty; to; to &= to - 1)
        if (!push_step(scratch, make_step(lowest_bit(to) - 5, lowest_bit(to), 0)))
            return 0;
    if (up) {
        for (uint64_t to = up >> 4 & s.empty; to; to &= to - 1)
            if (!push_step(scratch, make_step(lowest_bit(to) + 4, lowest_bit(to), 0)))
                return 0;
        for (uint64_t to = up >> 5 & s.empty; to; to &= to - 1)
            if (!push_step(scratch, make_step(lowest_bit(to) + 5, lowest_bit(to), 0)))
                return 0;
    }
    if (!reserve_steps(out, scratch->count))
        return 0;
    /* crowning first: a man stepping onto its crown row */
    uint64_t crown = CROWN_ROW[side];
    for (int crowning = 1; crowning >= 0; crowning--)
        for (int i = 0; i < scratch->count; i++) {
            Step step = scratch->steps[i];
            int crowns = (crown >> step_end(step) & 1) && (s.men >> step_start(step) & 1);
            if (crowns == crowning)
                out->steps[out->count++] = step;
        }
    return 1;
}

/* SearchBoard.make, into a new board (the search keeps one board a ply). */
static void
make_move(const Board *from, Board *to, Step step)
{
    int side = from->side, other = side ^ 1;
    uint64_t start = 1ULL << step_start(step), end = 1ULL << step_end(step);
    uint64_t taken = step_taken(step);
    const uint64_t *men_keys = ZOBRIST[2 * side], *king_keys = ZOBRIST[2 * side + 1];
    uint64_t key = from->key ^ ZOBRIST_WHITE;
    int quiet;
    *to = *from;
    if (from->kings[side] & start) {
        to->kings[side] = (from->kings[side] ^ start) | end;
        key ^= king_keys[step_start(step)] ^ king_keys[step_end(step)];
        quiet = !taken;
    } else if (end & CROWN_ROW[side]) {
        to->men[side] = from->men[side] ^ start;
        to->kings[side] = from->kings[side] | end;
        key ^= men_keys[step_start(step)] ^ king_keys[step_end(step)];
        quiet = 0;
    } else {
        to->men[side] = (from->men[side] ^ start) | end;
        key ^= men_keys[step_start(step)] ^ men_keys[step_end(step)];
        quiet = 0;
    }
    if (taken) {
        for (uint64_t rest = taken; rest; rest &= rest - 1) {
            int bit = lowest_bit(rest);
            if (from->men[other] >> bit & 1)
                key ^= ZOBRIST[2 * other][bit];
            else if (from->kings[other] >> bit & 1)
                key ^= ZOBRIST[2 * other + 1][bit];
        }
        to->men[other] = from->men[other] & ~taken;
        to->kings[other] = from->kings[other] & ~taken;
    }
    to->side = other;
    to->quiet = quiet ? from->quiet + 1 : 0;
    to->key = key;
}

/* -- the evaluation (engine.py Evaluation.__call__) -------------------------------- */

typedef struct {
    /* square tables in five seven-bit chunks, as engine.py _chunked builds them */
    int64_t black_men[5][128];
    int64_t white_men[5][128];
    int64_t kings[5][128];
    int64_t refuge[5][128];
    int64_t black_runaway[BITS];
    int64_t white_runaway[BITS];
    uint64_t black_cones[BITS];
    uint64_t white_cones[BITS];
    int64_t distance[BITS][BITS];
    uint64_t black_runaway_rows, white_runaway_rows, black_guard, white_guard;
    int64_t man, king, trade_down, guard, mobility, hunt;
} Evaluation;

static void
chunk(int64_t table[5][128], const int64_t *per_bit)
{
    for (int c = 0; c < 5; c++)
        for (int index = 0; index < 128; index++) {
            int64_t sum = 0;
            for (int i = 0; i < 7; i++)
                if (index >> i & 1)
                    sum += per_bit[7 * c + i];
            table[c][index] = sum;
        }
}

static inline int64_t
sum_over(const int64_t table[5][128], uint64_t board)
{
    return table[0][board & 127] + table[1][board >> 7 & 127] + table[2][board >> 14 & 127]
           + table[3][board >> 21 & 127] + table[4][board >> 28 & 127];
}

/* Python's a // b (rounds towards minus infinity), for b > 0. */
static inline int64_t
floor_divide(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && a < 0)
        q -= 1;
    return q;
}

/* Evaluation._hunt: the endgame, for the side ahead. */
static int64_t
hunt(const Evaluation *e, uint64_t kings, uint64_t their_men, uint64_t their_kings)
{
    int64_t score = -sum_over(e->refuge, their_kings);
    uint64_t targets = their_men | their_kings;
    if (targets) {
        for (uint64_t rest = kings; rest; rest &= rest - 1) {
            const int64_t *distances = e->distance[lowest_bit(rest)];
            int64_t nearest = INT64_MAX;
            for (uint64_t t = targets; t; t &= t - 1)
                if (distances[lowest_bit(t)] < nearest)
                    nearest = distances[lowest_bit(t)];
            score -= e->hunt * nearest;
        }
    }
    return score;
}

/* Evaluation.__call__: the static score from Black's side. */
static int64_t
evaluate_black(const Evaluation *e, const Board *board)
{
    uint64_t black_men = board->men[BLACK], black_kings = board->kings[BLACK];
    uint64_t white_men = board->men[WHITE], white_kings = board->kings[WHITE];
    int64_t black = sum_over(e->black_men, black_men) + sum_over(e->kings, black_kings);
    int64_t white = sum_over(e->white_men, white_men) + sum_over(e->kings, white_kings);
    int64_t score = black - white;

    int pieces = popcount(black_men) + popcount(black_kings) + popcount(white_men)
                 + popcount(white_kings);
    int64_t material = e->man * (popcount(black_men) - popcount(white_men))
                       + e->king * (popcount(black_kings) - popcount(white_kings));
    if (pieces) {
        /* ahead, trade down; floor division as in Python (trade_down may be negative) */
        int64_t bonus = floor_divide((material < 0 ? -material : material) * e->trade_down, pieces);
        score += material > 0 ? bonus : -bonus;
    }

    /* the back-rank guard, while the other side has men to crown */
    if (white_men)
        score += e->guard * popcount(black_men & e->black_guard);
    if (black_men)
        score -= e->guard * popcount(white_men & e->white_guard);

    uint64_t empty = BOARD & ~(black_men | black_kings | white_men | white_kings);
    score += e->mobility * (count_steps(BLACK, black_men, black_kings, empty)
                            - count_steps(WHITE, white_men, white_kings, empty));

    /* runaway men: no enemy man in the cone ahead and no enemy king to come back */
    if (!white_kings)
        for (uint64_t rest = black_men & e->black_runaway_rows; rest; rest &= rest - 1) {
            int bit = lowest_bit(rest);
            if (!(e->black_cones[bit] & white_men))
                score += e->black_runaway[bit];
        }
    if (!black_kings)
        for (uint64_t rest = white_men & e->white_runaway_rows; rest; rest &= rest - 1) {
            int bit = lowest_bit(rest);
            if (!(e->white_cones[bit] & black_men))
                score -= e->white_runaway[bit];
        }

    if (material && (pieces <= 8 || !black_men || !white_men)) {
        if (material > 0)
            score += hunt(e, black_kings, white_men, white_kings);
        else
            score -= hunt(e, white_kings, black_men, black_kings);
    }
    return score;
}

/* SearchBoard.evaluate: for the side to move. */
static inline int64_t
evaluate_for_mover(const Evaluation *e, const Board *board)
{
    int64_t score = evaluate_black(e, board);
    return board->side == BLACK ? score : -score;
}

/* -- the endgame database (endgame.py EndgameDatabase.slot and code) ---------------- */

#define MOST_ENDGAME_PIECES 8

typedef struct {
    int present;
    Py_buffer view;           /* the codes, one byte a slot, held while the searcher lives */
    const uint8_t *codes;
    Py_ssize_t slots;
    int pieces;
    int64_t offsets[MOST_ENDGAME_PIECES + 2]; /* where the slots of n pieces begin */
} Endgames;

static int64_t COMB[33][MOST_ENDGAME_PIECES + 2]; /* comb(n, k) */

static void
init_comb(void)
{
    for (int n = 0; n <= 32; n++)
        for (int k = 0; k <= MOST_ENDGAME_PIECES + 1; k++) {
            if (k == 0)
                COMB[n][k] = 1;
            else if (n == 0)
                COMB[n][k] = 0;
            else
                COMB[n][k] = COMB[n - 1][k - 1] + COMB[n - 1][k];
        }
}

/* endgame.py _offsets, and slot_count as offsets[pieces + 1]. */
static void
endgame_offsets(int pieces, int64_t *offsets)
{
    offsets[0] = offsets[1] = offsets[2] = 0;
    for (int n = 2; n <= pieces; n++) {
        int64_t power = (int64_t)1 << (2 * n);
        offsets[n + 1] = offsets[n] + COMB[32][n] * power;
    }
}

/* The code of the position (1 + plies to the end, 0 a draw), or -1 when the
 * table does not hold it (more pieces, or a side with none). The slot numbers the
 * pieces, seen by the side to move (for White the board turned half round:
 * square n counts as 33 - n), in square order: the combinatorial number system
 * ranks the squares and the kinds follow, two bits a piece. Bits ascend with the
 * squares, so Black's pieces are met lowest bit first and White's highest first:
 * in square order either way, without a sort. */
static int
endgame_code(const Endgames *db, const Board *board)
{
    uint64_t all = occupied(board);
    int n = popcount(all);
    if (n > db->pieces)
        return -1;
    int side = board->side, other = side ^ 1;
    uint64_t kinds_of[4] = {board->men[side], board->kings[side], board->men[other],
                            board->kings[other]};
    if (!(kinds_of[0] | kinds_of[1]) || !(kinds_of[2] | kinds_of[3]))
        return -1; /* the game is over */
    int64_t rank = 0, kinds = 0;
    uint64_t rest = all;
    for (int j = 0; j < n; j++) {
        int bit = side == BLACK ? lowest_bit(rest) : highest_bit(rest);
        rest &= ~(1ULL << bit);
        int square = BIT_SQUARE[bit];
        int b = side == BLACK ? square - 1 : 32 - square;
        int kind = 0;
        while (!(kinds_of[kind] >> bit & 1))
            kind++;
        rank += COMB[b][j + 1];
        kinds |= (int64_t)kind << (2 * j);
    }
    int64_t slot = db->offsets[n] + (rank << (2 * n)) + kinds;
    if (slot < 0 || slot >= db->slots)
        return -1; /* cannot happen with a table of the right size */
    return db->codes[slot];
}

/* engine.py _endgame_score: a draw is 0, a win or loss in n plies a mate found n
 * plies further on. */
static inline int64_t
endgame_score(int code, int ply)
{
    if (!code)
        return 0;
    int plies = code - 1;
    return plies % 2 ? MATE - ply - plies : -(MATE - ply - plies);
}

/* -- the transposition table: position key to (depth, score, bound, move) ----------
 *
 * Open addressing with linear probing over a power-of-two array that doubles
 * when two thirds full, so it holds every position stored, as the dict does; an
 * entry is only ever overwritten by the same key. ``word`` packs the move (bits
 * 0-46), the depth (48-57), the bound (58-59) and whether the slot is used (63). */

typedef struct {
    uint64_t key;
    int64_t score;
    uint64_t word;
} Entry;

#define WORD_USED (1ULL << 63)
#define STEP_BITS ((1ULL << 47) - 1)

typedef struct {
    Entry *entries;
    size_t capacity; /* a power of two */
    size_t count;
} Table;

static size_t
initial_capacity(Py_ssize_t table_size)
{
    /* room for table_size entries before the first growth, within reason */
    size_t wanted = (size_t)(table_size < 0 ? 0 : table_size);
    if (wanted > ((size_t)1 << 22))
        wanted = (size_t)1 << 22;
    size_t capacity = 1024;
    while (capacity * 2 < wanted * 3)
        capacity *= 2;
    return capacity;
}

static int
table_reset(Table *table, size_t capacity)
{
    Entry *entries = calloc(capacity, sizeof(Entry));
    if (entries == NULL)
        return 0;
    free(table->entries);
    table->entries = entries;
    table->capacity = capacity;
    table->count = 0;
    return 1;
}

static inline const Entry *
table_get(const Table *table, uint64_t key)
{
    size_t mask = table->capacity - 1;
    for (size_t i = (size_t)key & mask;; i = (i + 1) & mask) {
        const Entry *entry = &table->entries[i];
        if (!(entry->word & WORD_USED))
            return NULL;
        if (entry->key == key)
            return entry;
    }
}

static int
table_grow(Table *table)
{
    size_t capacity = table->capacity * 2, mask = capacity - 1;
    Entry *entries = calloc(capacity, sizeof(Entry));
    if (entries == NULL)
        return 0;
    for (size_t j = 0; j < table->capacity; j++) {
        const Entry *entry = &table->entries[j];
        if (!(entry->word & WORD_USED))
            continue;
        size_t i = (size_t)entry->key & mask;
        while (entries[i].word & WORD_USED)
            i = (i + 1) & mask;
        entries[i] = *entry;
    }
    free(table->entries);
    table->entries = entries;
    table->capacity = capacity;
    return 1;
}

static int
table_put(Table *table, uint64_t key, int depth, int64_t score, int bound, Step move)
{
    if ((table->count + 1) * 3 > table->capacity * 2 && !table_grow(table))
        return 0;
    size_t mask = table->capacity - 1;
    size_t i = (size_t)key & mask;
    while ((table->entries[i].word & WORD_USED) && table->entries[i].key != key)
        i = (i + 1) & mask;
    Entry *entry = &table->entries[i];
    if (!(entry->word & WORD_USED))
        table->count++;
    entry->key = key;
    entry->score = score;
    entry->word = WORD_USED | (uint64_t)bound << 58 | (uint64_t)depth << 48 | (move & STEP_BITS);
    return 1;
}

static inline int entry_depth(const Entry *entry) { return (int)(entry->word >> 48 & 1023); }
static inline int entry_bound(const Entry *entry) { return (int)(entry->word >> 58 & 3); }
static inline Step entry_move(const Entry *entry) { return entry->word & STEP_BITS; }

/* search.py _to_table and _from_table: mate scores relative to the node. */
static inline int64_t
to_table(int64_t score, int ply)
{
    if (score >= MATE_BOUND)
        return score + ply;
    if (score <= -MATE_BOUND)
        return score - ply;
    return score;
}

static inline int64_t
from_table(int64_t score, int ply)
{
    if (score >= MATE_BOUND)
        return score - ply;
    if (score <= -MATE_BOUND)
        return score + ply;
    return score;
}

/* -- the history heuristic: move to the sum of depth * depth of its cut-offs -------
 *
 * A dict keyed by the whole Step in the Python; here an open-addressing map of
 * packed steps (never 0) that grows as it fills. */

typedef struct {
    Step step;
    int64_t value;
} HistoryEntry;

typedef struct {
    HistoryEntry *entries;
    size_t capacity;
    size_t count;
} History;

static inline size_t
history_slot(Step step, size_t mask)
{
    return (size_t)((step * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
}

static inline int64_t
history_get(const History *history, Step step)
{
    size_t mask = history->capacity - 1;
    for (size_t i = history_slot(step, mask);; i = (i + 1) & mask) {
        const HistoryEntry *entry = &history->entries[i];
        if (entry->step == step)
            return entry->value;
        if (entry->step == NO_STEP)
            return 0;
    }
}

static int
history_reset(History *history)
{
    HistoryEntry *entries = calloc(256, sizeof(HistoryEntry));
    if (entries == NULL)
        return 0;
    free(history->entries);
    history->entries = entries;
    history->capacity = 256;
    history->count = 0;
    return 1;
}

static int
history_add(History *history, Step step, int64_t amount)
{
    if ((history->count + 1) * 2 > history->capacity) {
        size_t capacity = history->capacity * 2, mask = capacity - 1;
        HistoryEntry *entries = calloc(capacity, sizeof(HistoryEntry));
        if (entries == NULL)
            return 0;
        for (size_t j = 0; j < history->capacity; j++) {
            HistoryEntry entry = history->entries[j];
            if (entry.step == NO_STEP)
                continue;
            size_t i = history_slot(entry.step, mask);
            while (entries[i].step != NO_STEP)
                i = (i + 1) & mask;
            entries[i] = entry;
        }
        free(history->entries);
        history->entries = entries;
        history->capacity = capacity;
    }
    size_t mask = history->capacity - 1;
    size_t i = history_slot(step, mask);
    while (history->entries[i].step != NO_STEP && history->entries[i].step != step)
        i = (i + 1) & mask;
    if (history->entries[i].step == NO_STEP) {
        history->entries[i].step = step;
        history->count++;
    }
    history->entries[i].value += amount;
    return 1;
}

/* -- the game's positions before the search (SearchBoard._counts) -------------------
 *
 * How often each position has been met in the game since the last man move or
 * capture (the root among them): a small open-addressing multiset. */

typedef struct {
    Board board;
    int count;
} Seen;

typedef struct {
    Seen *entries;
    size_t capacity;
} SeenSet;

static int
seen_add(SeenSet *set, const Board *board)
{
    size_t mask = set->capacity - 1;
    size_t i = (size_t)board->key & mask;
    while (set->entries[i].count && !same_position(&set->entries[i].board, board))
        i = (i + 1) & mask;
    set->entries[i].board = *board;
    set->entries[i].count++;
    return set->entries[i].count;
}

static inline int
seen_count(const SeenSet *set, const Board *board)
{
    size_t mask = set->capacity - 1;
    for (size_t i = (size_t)board->key & mask;; i = (i + 1) & mask) {
        const Seen *entry = &set->entries[i];
        if (!entry->count)
            return 0;
        if (same_position(&entry->board, board))
            return entry->count;
    }
}

/* -- the searcher: what lasts from search to search ----------------------------------- */

/* One ply of the search path: its board, what the side to move can do there, the
 * moves as generated and in the order searched. */
typedef struct {
    Board board;
    uint64_t jumpers; /* the mover's pieces that can jump: a capture is compulsory */
    StepList moves;
    StepList ordered;
    int64_t *ranks;
    int rank_capacity;
} Node;

typedef struct {
    PyObject_HEAD
    Evaluation evaluation;
    Endgames endgames;
    Table table;
    Py_ssize_t table_size;
    History history;
    Node *nodes;
    int node_count;
    StepList scratch;
    int busy; /* a search is under way (it runs without the GIL) */
} SearcherObject;

/* -- one search: the state AlphaBeta keeps while it searches ------------------------ */

typedef struct {
    SearcherObject *owner;
    const Evaluation *evaluation;
    const Endgames *endgames;
    Table *table;
    History *history;
    Node *nodes;
    int node_count;
    StepList *scratch;
    Step (*killers)[2];
    int killer_plies;
    SeenSet seen;

    int quiescence;
    int late_move_reductions;
    uint64_t node_total;
    double started;
    double deadline;         /* INFINITY without a time limit */
    int64_t node_limit;      /* -1: none */
    PyObject *stop;          /* an object with is_set(), or NULL */
    double next_stop_check;  /* when to ask it next */
    PyThreadState *thread;   /* while the GIL is released */

    const Step *allowed;     /* at the root only these, when not NULL */
    int allowed_count;

    int stopped;             /* SearchStopped is on its way up */
    int failed;              /* ... because of an error: a Python exception or no memory */
    int out_of_memory;

    int have_root_best;      /* search.py _root_best */
    Step root_best_move;
    int64_t root_best_score;
} Search;

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Stop with an error: out of memory (said once the GIL is back). */
static void
fail_memory(Search *s)
{
    s->out_of_memory = 1;
    s->failed = 1;
    s->stopped = 1;
}

/* Asks the stop event (and lets Ctrl-C in, as the Python search does): 1 when it
 * is set, 0 when not, -1 on an error. The GIL is taken back to ask. */
static int
ask_stop(Search *s)
{
    int stop = 0;
    PyEval_RestoreThread(s->thread);
    if (s->stop != NULL) {
        PyObject *answer = PyObject_CallMethod(s->stop, "is_set", NULL);
        if (answer == NULL) {
            stop = -1;
        } else {
            stop = PyObject_IsTrue(answer);
            Py_DECREF(answer);
        }
    }
    if (stop >= 0 && PyErr_CheckSignals() < 0)
        stop = -1;
    s->thread = PyEval_SaveThread();
    return stop;
}

/* search.py _tick, when the time has come to look (every CHECK_EVERY nodes): the
 * stop event, then the clock, then the node limit. One difference: the stop
 * event is asked at most every STOP_EVERY seconds, not at every look. Asking needs
 * the GIL, and taking it back every thousand nodes (a third of a millisecond)
 * would leave the search waiting behind any busy Python thread, up to the
 * interpreter's switch interval (5 ms) each time. A stop set before the search is
 * seen between iterations, as in the Python; one set during an iteration is met at
 * a node that depends on timing in both. */
#define STOP_EVERY 0.01

static int
check_limits(Search *s)
{
    double time = now();
    int stop = 0;
    if (time >= s->next_stop_check) {
        s->next_stop_check = time + STOP_EVERY;
        stop = ask_stop(s);
        if (stop < 0)
            s->failed = 1;
    }
    if (stop || time > s->deadline
        || (s->node_limit >= 0 && (int64_t)s->node_total >= s->node_limit)) {
        s->stopped = 1;
        return 0;
    }
    return 1;
}

/* search.py _tick (may_stop) or the bare count; 0 when the search is to stop. */
static inline int
tick(Search *s, int may_stop)
{
    s->node_total++;
    if (may_stop && s->node_total % CHECK_EVERY == 0)
        return check_limits(s);
    return 1;
}

/* Each node's jumpers, worked out as the board is made. */
static inline void
set_board(Node *node, const Board *board)
{
    node->board = *board;
    Sides s = sides_of(board);
    node->jumpers = jumpers(board->side, s.men, s.kings, s.opponents, s.empty);
}

static inline void
make_child(Search *s, int ply, Step step)
{
    Board child;
    make_move(&s->nodes[ply].board, &child, step);
    /* The child's table entry is looked up after its terminal checks: ask for it
     * now, so that the memory is on its way meanwhile (the table is too large for
     * the caches, and this wait was the search's largest single cost). */
    __builtin_prefetch(&s->table->entries[(size_t)child.key & (s->table->capacity - 1)]);
    set_board(&s->nodes[ply + 1], &child);
}

/* How often the position at ``ply`` has been met: in the game before the search,
 * and on the search path (itself included). Only the path since the last man move
 * or capture can hold it: such a move can never be undone. */
static int
times_seen(const Search *s, int ply)
{
    const Board *board = &s->nodes[ply].board;
    int count = seen_count(&s->seen, board) + 1;
    int since = ply - board->quiet;
    if (since < 1)
        since = 1;
    for (int i = ply - 2; i >= since; i -= 2)
        if (same_position(&s->nodes[i].board, board))
            count++;
    return count;
}

/* SearchBoard.terminal_score: 1 and the score when the game is over here for the
 * search (no move: lost; a repetition or the 40-move rule: drawn; in the endgame
 * database: its verdict), else 0. */
static int
terminal_score(const Search *s, int ply, int64_t *score)
{
    const Node *node = &s->nodes[ply];
    const Board *board = &node->board;
    if (!node->jumpers) {
        Sides sides = sides_of(board);
        if (!count_steps(board->side, sides.men, sides.kings, sides.empty)) {
            *score = -(MATE - ply);
            return 1;
        }
    }
    if (!ply)
        return 0; /* the root is searched: the search is there to choose its move */
    if (board->quiet >= FORTY_MOVE_PLIES || times_seen(s, ply) > 1) {
        *score = 0;
        return 1;
    }
    if (s->endgames->present && popcount(occupied(board)) <= s->endgames->pieces) {
        int code = endgame_code(s->endgames, board);
        if (code >= 0) {
            *score = endgame_score(code, ply);
            return 1;
        }
    }
    return 0;
}

/* SearchBoard.moves (and _RootOnly's: at the root only the allowed ones). */
static int
node_moves(Search *s, int ply)
{
    Node *node = &s->nodes[ply];
    if (!generate(&node->board, &node->moves, s->scratch)) {
        fail_memory(s);
        return 0;
    }
    if (ply == 0 && s->allowed != NULL) {
        int kept = 0;
        for (int i = 0; i < node->moves.count; i++)
            if (contains_step(s->allowed, s->allowed_count, node->moves.steps[i]))
                node->moves.steps[kept++] = node->moves.steps[i];
        node->moves.count = kept;
    }
    return 1;
}

/* search.py _ordered: the table's move, then the killers, then the rest by the
 * engine's order refined by history (a stable sort keeps the engine's order among
 * equals). */
static int
order_moves(Search *s, int ply, Step table_move)
{
    Node *node = &s->nodes[ply];
    int n = node->moves.count;
    if (!reserve_steps(&node->ordered, n)) {
        fail_memory(s);
        return 0;
    }
    if (node->rank_capacity < n) {
        int64_t *ranks = realloc(node->ranks, (size_t)n * sizeof(int64_t));
        if (ranks == NULL) {
            fail_memory(s);
            return 0;
        }
        node->ranks = ranks;
        node->rank_capacity = n;
    }
    const Step *killers = ply < s->killer_plies ? s->killers[ply] : NULL;
    Step *ordered = node->ordered.steps;
    int64_t *ranks = node->ranks;
    for (int i = 0; i < n; i++) {
        Step move = node->moves.steps[i];
        int64_t rank;
        if (move == table_move)
            rank = -((int64_t)1 << 40);
        else if (killers != NULL && (move == killers[0] || move == killers[1]))
            rank = -((int64_t)1 << 30);
        else
            rank = -history_get(s->history, move);
        /* insertion sort: stable, and the lists are short */
        int j = i;
        while (j > 0 && ranks[j - 1] > rank) {
            ranks[j] = ranks[j - 1];
            ordered[j] = ordered[j - 1];
            j--;
        }
        ranks[j] = rank;
        ordered[j] = move;
    }
    node->ordered.count = n;
    return 1;
}

/* search.py _reward: a move that caused a cut-off is tried early elsewhere too. */
static void
reward(Search *s, Step move, int depth, int ply)
{
    if (!history_add(s->history, move, (int64_t)depth * depth)) {
        fail_memory(s);
        return;
    }
    if (ply < s->killer_plies) {
        Step *killers = s->killers[ply];
        if (move != killers[0] && move != killers[1]) {
            killers[1] = killers[0];
            killers[0] = move;
        }
    }
}

/* -- the search (search.py _negamax, _later_move, _quiesce) -------------------------- */

static int64_t negamax(Search *s, int depth, int64_t alpha, int64_t beta, int ply, int may_stop);

static int64_t
quiesce(Search *s, int64_t alpha, int64_t beta, int ply, int may_stop)
{
    if (!tick(s, may_stop))
        return 0;
    int64_t score, best;
    if (terminal_score(s, ply, &score))
        return score;
    Node *node = &s->nodes[ply];
    if (!node->jumpers) { /* may stand pat */
        best = evaluate_for_mover(s->evaluation, &node->board);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    } else {
        best = -INFINITY_SCORE;
    }
    /* the noisy moves: every move where a capture is compulsory, else none */
    if (node->jumpers) {
        if (!node_moves(s, ply))
            return 0;
        if (node->moves.count && step_taken(node->moves.steps[0])) {
            for (int i = 0; i < node->moves.count; i++) {
                make_child(s, ply, node->moves.steps[i]);
                score = -quiesce(s, -beta, -alpha, ply + 1, may_stop);
                if (s->stopped)
                    return 0;
                if (score >= beta)
                    return score;
                if (score > best)
                    best = score;
                if (score > alpha)
                    alpha = score;
            }
        }
    }
    if (best == -INFINITY_SCORE) /* forced, yet no noisy move: a dead end */
        return evaluate_for_mover(s->evaluation, &node->board);
    return best;
}

/* A move after the first, already made, from its parent's side: does it beat
 * alpha? A null window answers that cheaply (``reduction`` plies shallower
 * first); only a move that does is searched with the full window. */
static int64_t
later_move(Search *s, int depth, int reduction, int64_t alpha, int64_t beta, int ply,
           int may_stop)
{
    int64_t score = -negamax(s, depth - reduction, -alpha - 1, -alpha, ply + 1, may_stop);
    if (s->stopped)
        return 0;
    if (score > alpha && reduction) {
        score = -negamax(s, depth, -alpha - 1, -alpha, ply + 1, may_stop);
        if (s->stopped)
            return 0;
    }
    if (alpha < score && score < beta) {
        score = -negamax(s, depth, -beta, -alpha, ply + 1, may_stop);
        if (s->stopped)
            return 0;
    }
    return score;
}

static int64_t
negamax(Search *s, int depth, int64_t alpha, int64_t beta, int ply, int may_stop)
{
    if (!tick(s, may_stop))
        return 0;
    int64_t score;
    if (terminal_score(s, ply, &score))
        return score;
    Node *node = &s->nodes[ply];
    if (depth <= 0) {
        if (s->quiescence)
            return quiesce(s, alpha, beta, ply, may_stop);
        return evaluate_for_mover(s->evaluation, &node->board);
    }

    uint64_t key = node->board.key;
    const Entry *entry = table_get(s->table, key);
    Step table_move = NO_STEP;
    int64_t original_alpha = alpha;
    if (entry != NULL) {
        table_move = entry_move(entry);
        if (entry_depth(entry) >= depth && ply > 0) {
            score = from_table(entry->score, ply);
            int bound = entry_bound(entry);
            if (bound == EXACT)
                return score;
            if (bound == LOWER && score >= beta)
                return score;
            if (bound == UPPER && score <= alpha)
                return score;
        }
    }

    if (!node_moves(s, ply))
        return 0;
    /* Reductions only where nothing is forced: a capture here, or one for the
     * opponent after the move, is a tactic a shallower search would miss. */
    int noisy = node->moves.count && step_taken(node->moves.steps[0]);
    int reduce = s->late_move_reductions && depth >= REDUCE_FROM_DEPTH && !noisy;
    if (!order_moves(s, ply, table_move))
        return 0;
    int64_t best_score = -INFINITY_SCORE;
    Step best_move = NO_STEP;
    for (int searched = 0; searched < node->ordered.count; searched++) {
        Step move = node->ordered.steps[searched];
        make_child(s, ply, move);
        if (searched == 0) {
            score = -negamax(s, depth - 1, -beta, -alpha, ply + 1, may_stop);
        } else {
            int reduction = 0;
            if (reduce && searched >= REDUCE_AFTER && !s->nodes[ply + 1].jumpers)
                reduction = searched >= REDUCE_TWO_AFTER && depth >= 6 ? 2 : 1;
            score = later_move(s, depth - 1, reduction, alpha, beta, ply, may_stop);
        }
        if (s->stopped)
            return 0;
        if (score > best_score) {
            best_score = score;
            best_move = move;
            if (score > alpha) {
                alpha = score;
                if (ply == 0) {
                    s->have_root_best = 1;
                    s->root_best_move = move;
                    s->root_best_score = score;
                }
                if (alpha >= beta) {
                    reward(s, move, depth, ply);
                    if (s->stopped)
                        return 0;
                    break;
                }
            }
        }
    }
    if (best_move == NO_STEP) /* no moves but not terminal: a dead end */
        return evaluate_for_mover(s->evaluation, &node->board);

    int bound = best_score <= original_alpha ? UPPER : best_score >= beta ? LOWER : EXACT;
    if (!table_put(s->table, key, depth, to_table(best_score, ply), bound, best_move)) {
        fail_memory(s);
        return 0;
    }
    return best_score;
}

/* -- converting to and from Python ------------------------------------------------------ */

static PyObject *
step_to_python(Step step)
{
    return Py_BuildValue("(iiK)", step_start(step), step_end(step),
                         (unsigned long long)step_taken(step));
}

/* An int in [low, high], or -1 with an exception. */
static int
read_int(PyObject *value, long long low, long long high, const char *what, long long *out)
{
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s must be from %lld to %lld", what, low, high);
        return -1;
    }
    *out = v;
    return 0;
}

static int
read_mask(PyObject *value, const char *what, uint64_t *out)
{
    long long v;
    if (read_int(value, 0, (1LL << BITS) - 1, what, &v) < 0)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* The position as the engine gives it, (black men, black kings, white men, white
 * kings), into a board with ``side`` to move: pieces on playable bits only, no
 * square held twice. */
static int
read_board(PyObject *position, long long side, long long quiet, Board *board, int strict)
{
    static const char *names[4] = {"black men", "black kings", "white men", "white kings"};
    if (!PyTuple_Check(position) || PyTuple_GET_SIZE(position) != 4) {
        PyErr_SetString(PyExc_TypeError,
                        "a position is a tuple of four ints (black men, black kings, white men, "
                        "white kings)");
        return -1;
    }
    uint64_t masks[4];
    for (int i = 0; i < 4; i++)
        if (read_mask(PyTuple_GET_ITEM(position, i), names[i], &masks[i]) < 0)
            return -1;
    if (strict) {
        uint64_t seen = 0;
        for (int i = 0; i < 4; i++) {
            if (masks[i] & ~BOARD) {
                PyErr_Format(PyExc_ValueError, "the %s stand on bits off the board", names[i]);
                return -1;
            }
            if (masks[i] & seen) {
                PyErr_SetString(PyExc_ValueError, "a square holds two pieces");
                return -1;
            }
            seen |= masks[i];
        }
    }
    board->men[BLACK] = masks[0];
    board->kings[BLACK] = masks[1];
    board->men[WHITE] = masks[2];
    board->kings[WHITE] = masks[3];
    board->side = (int)side;
    board->quiet = (int)quiet;
    board->key = board_key(board);
    return 0;
}

static int
read_side(PyObject *value, long long *side)
{
    return read_int(value, 0, 1, "the side to move (0 for Black, 1 for White)", side);
}

/* A Step from Python: (start bit, end bit, jumped mask). */
static int
read_step(PyObject *value, Step *out)
{
    if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 3) {
        PyErr_SetString(PyExc_TypeError, "a move is a tuple (start bit, end bit, jumped mask)");
        return -1;
    }
    long long start, end;
    uint64_t taken;
    if (read_int(PyTuple_GET_ITEM(value, 0), 0, BITS - 1, "a move's start bit", &start) < 0
        || read_int(PyTuple_GET_ITEM(value, 1), 0, BITS - 1, "a move's end bit", &end) < 0
        || read_mask(PyTuple_GET_ITEM(value, 2), "a move's jumped mask", &taken) < 0)
        return -1;
    *out = make_step((int)start, (int)end, taken);
    return 0;
}

static PyObject *
steps_to_list(const Step *steps, int count)
{
    PyObject *list = PyList_New(count);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *item = step_to_python(steps[i]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* -- the Searcher type: its evaluation tables ---------------------------------------- */

static PyObject *
table_item(PyObject *tables, const char *name)
{
    PyObject *value = PyDict_GetItemString(tables, name); /* borrowed */
    if (value == NULL && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "the evaluation tables lack %s", name);
    return value;
}

/* Evaluation numbers are kept well inside 64 bits: sums of a few hundred of them
 * times a weight stay exact, as Python's ints are. */
#define VALUE_LIMIT (1LL << 31)

/* The table ``name`` as a fast sequence of exactly ``count`` items (a new
 * reference), or NULL with the error set. */
static PyObject *
table_sequence(PyObject *tables, const char *name, Py_ssize_t count)
{
    PyObject *value = table_item(tables, name);
    if (value == NULL)
        return NULL;
    PyObject *items = PySequence_Fast(value, "");
    if (items == NULL) {
        PyErr_Format(PyExc_TypeError, "the evaluation table %s must be a sequence of ints", name);
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(items) != count) {
        PyErr_Format(PyExc_ValueError, "the evaluation table %s must have %zd values", name,
                     count);
        Py_DECREF(items);
        return NULL;
    }
    return items;
}

static int
read_values(PyObject *tables, const char *name, int64_t *out, Py_ssize_t count)
{
    PyObject *items = table_sequence(tables, name, count);
    if (items == NULL)
        return -1;
    int status = 0;
    for (Py_ssize_t i = 0; i < count && status == 0; i++) {
        long long v;
        status = read_int(PySequence_Fast_GET_ITEM(items, i), -VALUE_LIMIT, VALUE_LIMIT, name, &v);
        if (status == 0)
            out[i] = v;
    }
    Py_DECREF(items);
    return status < 0 ? -1 : 0;
}

static int
read_masks(PyObject *tables, const char *name, uint64_t *out, Py_ssize_t count)
{
    PyObject *items = table_sequence(tables, name, count);
    if (items == NULL)
        return -1;
    int status = 0;
    for (Py_ssize_t i = 0; i < count && status == 0; i++)
        status = read_mask(PySequence_Fast_GET_ITEM(items, i), name, &out[i]);
    Py_DECREF(items);
    return status < 0 ? -1 : 0;
}

static int
read_number(PyObject *tables, const char *name, int64_t *out)
{
    PyObject *value = table_item(tables, name);
    long long v;
    if (value == NULL || read_int(value, -VALUE_LIMIT, VALUE_LIMIT, name, &v) < 0)
        return -1;
    *out = v;
    return 0;
}

static int
read_one_mask(PyObject *tables, const char *name, uint64_t *out)
{
    PyObject *value = table_item(tables, name);
    if (value == NULL)
        return -1;
    return read_mask(value, name, out);
}

/* Evaluation.native_tables(): flat per-bit tables and the weights used directly. */
static int
read_evaluation(PyObject *tables, Evaluation *e)
{
    int64_t per_bit[BITS];
    int64_t distance[BITS * BITS];
    if (!PyDict_Check(tables)) {
        PyErr_SetString(PyExc_TypeError,
                        "the evaluation tables are a dict (Evaluation.native_tables())");
        return -1;
    }
    if (read_values(tables, "black_men", per_bit, BITS) < 0)
        return -1;
    chunk(e->black_men, per_bit);
    if (read_values(tables, "white_men", per_bit, BITS) < 0)
        return -1;
    chunk(e->white_men, per_bit);
    if (read_values(tables, "kings", per_bit, BITS) < 0)
        return -1;
    chunk(e->kings, per_bit);
    if (read_values(tables, "refuge", per_bit, BITS) < 0)
        return -1;
    chunk(e->refuge, per_bit);
    if (read_values(tables, "black_runaway", e->black_runaway, BITS) < 0
        || read_values(tables, "white_runaway", e->white_runaway, BITS) < 0
        || read_masks(tables, "black_cones", e->black_cones, BITS) < 0
        || read_masks(tables, "white_cones", e->white_cones, BITS) < 0
        || read_values(tables, "distance", distance, BITS * BITS) < 0)
        return -1;
    for (int a = 0; a < BITS; a++)
        for (int b = 0; b < BITS; b++)
            e->distance[a][b] = distance[a * BITS + b];
    if (read_one_mask(tables, "black_runaway_rows", &e->black_runaway_rows) < 0
        || read_one_mask(tables, "white_runaway_rows", &e->white_runaway_rows) < 0
        || read_one_mask(tables, "black_guard", &e->black_guard) < 0
        || read_one_mask(tables, "white_guard", &e->white_guard) < 0
        || read_number(tables, "man", &e->man) < 0 || read_number(tables, "king", &e->king) < 0
        || read_number(tables, "trade_down", &e->trade_down) < 0
        || read_number(tables, "guard", &e->guard) < 0
        || read_number(tables, "mobility", &e->mobility) < 0
        || read_number(tables, "hunt", &e->hunt) < 0)
        return -1;
    return 0;
}

/* The endgame codes: a contiguous buffer of one byte a slot, as many slots as a
 * table of ``pieces`` pieces has. */
static int
read_endgames(PyObject *codes, long long pieces, Endgames *db)
{
    db->present = 0;
    if (codes == Py_None)
        return 0;
    if (pieces < 2 || pieces > MOST_ENDGAME_PIECES) {
        PyErr_Format(PyExc_ValueError, "an endgame table holds from 2 to %d pieces",
                     MOST_ENDGAME_PIECES);
        return -1;
    }
    if (PyObject_GetBuffer(codes, &db->view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        "the endgame codes must be a contiguous buffer of bytes (a uint8 array)");
        return -1;
    }
    endgame_offsets((int)pieces, db->offsets);
    const char *format = db->view.format;
    int bytes = db->view.itemsize == 1
                && (format == NULL || strcmp(format, "B") == 0 || strcmp(format, "<B") == 0
                    || strcmp(format, "=B") == 0 || strcmp(format, "c") == 0);
    if (!bytes) {
        PyBuffer_Release(&db->view);
        PyErr_SetString(PyExc_TypeError, "the endgame codes must be unsigned bytes (uint8)");
        return -1;
    }
    if (db->view.len != db->offsets[pieces + 1]) {
        Py_ssize_t len = db->view.len;
        PyBuffer_Release(&db->view);
        PyErr_Format(PyExc_ValueError, "a table of %lld pieces has %lld slots, not %zd", pieces,
                     (long long)db->offsets[pieces + 1], len);
        return -1;
    }
    db->codes = db->view.buf;
    db->slots = db->view.len;
    db->pieces = (int)pieces;
    db->present = 1;
    return 0;
}

static void
free_nodes(SearcherObject *self)
{
    for (int i = 0; i < self->node_count; i++) {
        free(self->nodes[i].moves.steps);
        free(self->nodes[i].ordered.steps);
        free(self->nodes[i].ranks);
    }
    free(self->nodes);
    self->nodes = NULL;
    self->node_count = 0;
}

static int
ensure_nodes(SearcherObject *self, int count)
{
    if (self->node_count >= count)
        return 1;
    Node *nodes = realloc(self->nodes, (size_t)count * sizeof(Node));
    if (nodes == NULL)
        return 0;
    memset(nodes + self->node_count, 0, (size_t)(count - self->node_count) * sizeof(Node));
    self->nodes = nodes;
    self->node_count = count;
    return 1;
}

static void
Searcher_dealloc(SearcherObject *self)
{
    if (self->endgames.present)
        PyBuffer_Release(&self->endgames.view);
    free(self->table.entries);
    free(self->history.entries);
    free(self->scratch.steps);
    free_nodes(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
Searcher_init(SearcherObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"tables", "table_size", "endgame_codes", "endgame_pieces", NULL};
    PyObject *tables, *codes = Py_None, *size_object = NULL, *pieces_object = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOO:Searcher", keywords, &tables,
                                     &size_object, &codes, &pieces_object))
        return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching");
        return -1;
    }
    long long table_size = 1 << 20, pieces = 0;
    if (size_object != NULL
        && read_int(size_object, 0, PY_SSIZE_T_MAX, "table_size", &table_size) < 0)
        return -1;
    if (pieces_object != NULL
        && read_int(pieces_object, 0, MOST_ENDGAME_PIECES, "endgame_pieces", &pieces) < 0)
        return -1;
    Evaluation evaluation;
    if (read_evaluation(tables, &evaluation) < 0)
        return -1;
    Endgames endgames;
    memset(&endgames, 0, sizeof endgames);
    if (read_endgames(codes, pieces, &endgames) < 0)
        return -1;
    if (!table_reset(&self->table, initial_capacity((Py_ssize_t)table_size))
        || !history_reset(&self->history)) {
        if (endgames.present)
            PyBuffer_Release(&endgames.view);
        PyErr_NoMemory();
        return -1;
    }
    if (self->endgames.present)
        PyBuffer_Release(&self->endgames.view);
    self->evaluation = evaluation;
    self->endgames = endgames;
    self->table_size = (Py_ssize_t)table_size;
    return 0;
}

static int
check_ready(SearcherObject *self)
{
    if (self->table.entries == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher was not initialised");
        return 0;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is already searching");
        return 0;
    }
    return 1;
}

/* AlphaBeta.clear: a new game. */
static PyObject *
Searcher_clear(SearcherObject *self, PyObject *Py_UNUSED(ignored))
{
    if (!check_ready(self))
        return NULL;
    if (!table_reset(&self->table, initial_capacity(self->table_size))
        || !history_reset(&self->history))
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *
Searcher_evaluate(SearcherObject *self, PyObject *position)
{
    Board board;
    if (!check_ready(self) || read_board(position, BLACK, 0, &board, 1) < 0)
        return NULL;
    return PyLong_FromLongLong(evaluate_black(&self->evaluation, &board));
}

static PyObject *
Searcher_endgame_code(SearcherObject *self, PyObject *args)
{
    PyObject *position, *side_object;
    long long side;
    Board board;
    if (!PyArg_ParseTuple(args, "OO:endgame_code", &position, &side_object))
        return NULL;
    if (!check_ready(self) || read_side(side_object, &side) < 0
        || read_board(position, side, 0, &board, 1) < 0)
        return NULL;
    if (!self->endgames.present)
        Py_RETURN_NONE;
    int code = endgame_code(&self->endgames, &board);
    if (code < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(code);
}

/* -- the driver (search.py AlphaBeta.search) ----------------------------------------- */

/* The search's inputs beyond the position. */
typedef struct {
    int max_depth;
    double time_limit; /* negative: none */
    int64_t node_limit;
    int quiescence;
    int late_move_reductions;
    PyObject *stop;
    PyObject *on_iteration;
} Limits;

/* What a finished iteration found (search.py SearchResult). */
typedef struct {
    Step best_move;
    int64_t score;
    int depth;
    uint64_t nodes;
    double seconds;
    Step *line;
    int line_count;
} Result;

/* search.py _principal_variation: the table's moves from the root, as long as they
 * are legal, no position comes twice and the line is no longer than the depth. */
static int
principal_variation(Search *s, int depth, Result *result)
{
    uint64_t *seen = malloc((size_t)(depth + 1) * sizeof(uint64_t));
    if (seen == NULL)
        return 0;
    result->line_count = 0;
    int ply = 0;
    while (result->line_count < depth) {
        uint64_t key = s->nodes[ply].board.key;
        const Entry *entry = table_get(s->table, key);
        if (entry == NULL || entry_move(entry) == NO_STEP)
            break;
        int repeated = 0;
        for (int i = 0; i < ply; i++)
            repeated |= seen[i] == key;
        if (repeated)
            break;
        Step move = entry_move(entry);
        if (!node_moves(s, ply)) {
            free(seen);
            return 0;
        }
        if (!contains_step(s->nodes[ply].moves.steps, s->nodes[ply].moves.count, move))
            break;
        seen[ply] = key;
        result->line[result->line_count++] = move;
        make_child(s, ply, move);
        ply++;
    }
    free(seen);
    return 1;
}

static PyObject *
result_to_python(const Result *result)
{
    PyObject *best = result->best_move == NO_STEP ? Py_NewRef(Py_None)
                                                  : step_to_python(result->best_move);
    PyObject *line = steps_to_list(result->line, result->line_count);
    if (best == NULL || line == NULL) {
        Py_XDECREF(best);
        Py_XDECREF(line);
        return NULL;
    }
    return Py_BuildValue("(NLiKdN)", best, (long long)result->score, result->depth,
                         (unsigned long long)result->nodes, result->seconds, line);
}

/* search.py _out_of_time: between iterations, stop when the next would likely not
 * finish. -1 on an error from the stop event. */
static int
out_of_time(Search *s, const Limits *limits)
{
    if (s->stop != NULL) {
        PyObject *answer = PyObject_CallMethod(s->stop, "is_set", NULL);
        if (answer == NULL)
            return -1;
        int set = PyObject_IsTrue(answer);
        Py_DECREF(answer);
        if (set != 0)
            return set;
    }
    if (limits->node_limit >= 0 && (int64_t)s->node_total >= limits->node_limit)
        return 1;
    if (limits->time_limit < 0)
        return 0;
    return now() - s->started > limits->time_limit * NEXT_ITERATION_SHARE;
}

/* The iterations, deeper and deeper; the Python result tuple or NULL. */
static PyObject *
iterate(Search *s, const Limits *limits)
{
    Result result = {NO_STEP, 0, 0, 0, 0.0, NULL, 0};
    PyObject *answer = NULL;
    result.line = malloc((size_t)(limits->max_depth + 1) * sizeof(Step));
    if (result.line == NULL)
        return PyErr_NoMemory();

    if (!node_moves(s, 0))
        goto no_memory;
    int root_count = s->nodes[0].moves.count;
    if (root_count == 0) {
        int64_t terminal;
        result.score = terminal_score(s, 0, &terminal)
                           ? terminal
                           : evaluate_for_mover(s->evaluation, &s->nodes[0].board);
        answer = result_to_python(&result);
        goto done;
    }
    Step first = s->nodes[0].moves.steps[0];
    result.best_move = first;
    for (int depth = 1; depth <= limits->max_depth; depth++) {
        s->have_root_best = 0;
        s->thread = PyEval_SaveThread();
        int64_t score = negamax(s, depth, -INFINITY_SCORE, INFINITY_SCORE, 0, depth > 1);
        PyEval_RestoreThread(s->thread);
        s->thread = NULL;
        if (s->failed) {
            if (s->out_of_memory)
                goto no_memory;
            goto done; /* the exception from the stop event or a signal */
        }
        if (s->stopped) {
            /* _use_unfinished: a first move the stopped iteration found better */
            if (s->have_root_best && s->root_best_move != result.best_move) {
                result.best_move = s->root_best_move;
                result.score = s->root_best_score;
                result.line[0] = s->root_best_move;
                result.line_count = 1;
            }
            break;
        }
        /* _best_at_root, then the principal variation */
        const Entry *entry = table_get(s->table, s->nodes[0].board.key);
        int stored = entry != NULL && entry_move(entry) != NO_STEP;
        result.best_move = stored ? entry_move(entry) : first;
        result.score = score;
        result.depth = depth;
        result.nodes = s->node_total;
        result.seconds = now() - s->started;
        if (!principal_variation(s, depth, &result))
            goto no_memory;
        if (limits->on_iteration != NULL) {
            PyObject *told = result_to_python(&result);
            if (told == NULL)
                goto done;
            PyObject *returned = PyObject_CallOneArg(limits->on_iteration, told);
            Py_DECREF(told);
            if (returned == NULL)
                goto done;
            Py_DECREF(returned);
        }
        int64_t size = score < 0 ? -score : score;
        if (size >= MATE_BOUND && MATE - size <= depth)
            break; /* a forced mate within the horizon: deeper search cannot change it */
        int over = out_of_time(s, limits);
        if (over < 0)
            goto done;
        if (over)
            break;
    }
    result.nodes = s->node_total;
    result.seconds = now() - s->started;
    answer = result_to_python(&result);
    goto done;
no_memory:
    PyErr_NoMemory();
done:
    free(result.line);
    return answer;
}

static int
read_limits(PyObject *kwargs_values[], Limits *limits)
{
    /* max_depth, time_limit, node_limit, quiescence, late_move_reductions, stop,
     * on_iteration */
    long long max_depth = FULL_DEPTH;
    if (kwargs_values[0] != NULL
        && read_int(kwargs_values[0], 0, MAX_DEPTH, "max_depth", &max_depth) < 0)
        return -1;
    limits->max_depth = (int)max_depth;
    limits->time_limit = -1;
    if (kwargs_values[1] != NULL && kwargs_values[1] != Py_None) {
        double seconds = PyFloat_AsDouble(kwargs_values[1]);
        if (seconds == -1 && PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "time_limit must be a number of seconds or None");
            return -1;
        }
        if (!(seconds >= 0) || isinf(seconds)) {
            PyErr_SetString(PyExc_ValueError, "time_limit must be a finite number, 0 or more");
            return -1;
        }
        limits->time_limit = seconds;
    }
    limits->node_limit = -1;
    if (kwargs_values[2] != NULL && kwargs_values[2] != Py_None) {
        long long nodes;
        if (read_int(kwargs_values[2], 0, INT64_MAX, "node_limit", &nodes) < 0)
            return -1;
        limits->node_limit = nodes;
    }
    limits->quiescence = 1;
    if (kwargs_values[3] != NULL && (limits->quiescence = PyObject_IsTrue(kwargs_values[3])) < 0)
        return -1;
    limits->late_move_reductions = 0;
    if (kwargs_values[4] != NULL
        && (limits->late_move_reductions = PyObject_IsTrue(kwargs_values[4])) < 0)
        return -1;
    limits->stop = NULL;
    if (kwargs_values[5] != NULL && kwargs_values[5] != Py_None) {
        PyObject *is_set = PyObject_GetAttrString(kwargs_values[5], "is_set");
        if (is_set == NULL || !PyCallable_Check(is_set)) {
            Py_XDECREF(is_set);
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "stop must be a threading.Event (or have is_set())");
            return -1;
        }
        Py_DECREF(is_set);
        limits->stop = kwargs_values[5];
    }
    limits->on_iteration = NULL;
    if (kwargs_values[6] != NULL && kwargs_values[6] != Py_None) {
        if (!PyCallable_Check(kwargs_values[6])) {
            PyErr_SetString(PyExc_TypeError, "on_iteration must be callable");
            return -1;
        }
        limits->on_iteration = kwargs_values[6];
    }
    return 0;
}

/* The game's positions before the search into the seen set: each key once for
 * each time it is listed; the root added if missing (SearchBoard.__init__). */
static int
read_history(PyObject *history, const Board *root, SeenSet *seen)
{
    PyObject *items = PySequence_Fast(history, "");
    if (items == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "history must be a sequence of position keys (black men, black kings, "
                        "white men, white kings, side)");
        return -1;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
    size_t capacity = 16;
    while (capacity < (size_t)count * 2 + 2)
        capacity *= 2;
    seen->entries = calloc(capacity, sizeof(Seen));
    seen->capacity = capacity;
    if (seen->entries == NULL) {
        Py_DECREF(items);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *key = PySequence_Fast_GET_ITEM(items, i);
        if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 5) {
            Py_DECREF(items);
            PyErr_SetString(PyExc_TypeError,
                            "a history key is a tuple (black men, black kings, white men, white "
                            "kings, side)");
            return -1;
        }
        long long side;
        Board board;
        PyObject *position = PyTuple_GetSlice(key, 0, 4);
        int bad = position == NULL || read_side(PyTuple_GET_ITEM(key, 4), &side) < 0
                  || read_board(position, side, 0, &board, 0) < 0;
        Py_XDECREF(position);
        if (bad) {
            Py_DECREF(items);
            return -1;
        }
        seen_add(seen, &board);
    }
    Py_DECREF(items);
    if (!seen_count(seen, root))
        seen_add(seen, root);
    return 0;
}

static int
read_allowed(PyObject *allowed, Step **steps, int *count)
{
    *steps = NULL;
    *count = 0;
    if (allowed == NULL || allowed == Py_None)
        return 0;
    PyObject *items = PySequence_List(allowed);
    if (items == NULL) {
        PyErr_SetString(PyExc_TypeError, "allowed must be a set of moves or None");
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(items);
    *steps = malloc((size_t)(n > 0 ? n : 1) * sizeof(Step));
    if (*steps == NULL) {
        Py_DECREF(items);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (read_step(PyList_GET_ITEM(items, i), &(*steps)[i]) < 0) {
            Py_DECREF(items);
            free(*steps);
            *steps = NULL;
            return -1;
        }
    Py_DECREF(items);
    *count = (int)n;
    return 0;
}

static PyObject *
Searcher_search(SearcherObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"position",   "side",     "quiet",
                               "history",    "max_depth", "time_limit",
                               "node_limit", "quiescence", "late_move_reductions",
                               "stop",       "on_iteration", "allowed",
                               NULL};
    PyObject *position, *side_object, *quiet_object, *history;
    PyObject *options[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    PyObject *allowed_object = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO|$OOOOOOOO:search", keywords, &position,
                                     &side_object, &quiet_object, &history, &options[0],
                                     &options[1], &options[2], &options[3], &options[4],
                                     &options[5], &options[6], &allowed_object))
        return NULL;
    double started = now();
    if (!check_ready(self))
        return NULL;
    long long side, quiet;
    Board root;
    Limits limits;
    if (read_side(side_object, &side) < 0
        || read_int(quiet_object, 0, INT32_MAX / 2, "quiet", &quiet) < 0
        || read_board(position, side, quiet, &root, 1) < 0 || read_limits(options, &limits) < 0)
        return NULL;

    Search s;
    memset(&s, 0, sizeof s);
    if (read_history(history, &root, &s.seen) < 0) {
        free(s.seen.entries);
        return NULL;
    }
    Step *allowed;
    int allowed_count;
    if (read_allowed(allowed_object, &allowed, &allowed_count) < 0) {
        free(s.seen.entries);
        return NULL;
    }
    int plies = limits.max_depth + EXTRA_PLIES;
    s.killers = calloc((size_t)plies, sizeof(Step[2]));
    if (s.killers == NULL || !ensure_nodes(self, plies)) {
        free(s.killers);
        free(s.seen.entries);
        free(allowed);
        return PyErr_NoMemory();
    }

    s.owner = self;
    s.evaluation = &self->evaluation;
    s.endgames = &self->endgames;
    s.table = &self->table;
    s.history = &self->history;
    s.nodes = self->nodes;
    s.node_count = plies;
    s.scratch = &self->scratch;
    s.killer_plies = plies;
    s.quiescence = limits.quiescence;
    s.late_move_reductions = limits.late_move_reductions;
    s.started = started;
    s.deadline = limits.time_limit >= 0 ? started + limits.time_limit : INFINITY;
    s.node_limit = limits.node_limit;
    s.stop = limits.stop;
    s.allowed = allowed;
    s.allowed_count = allowed_count;
    set_board(&self->nodes[0], &root);

    /* as AlphaBeta.search begins: the history is new, the table cleared if full */
    PyObject *answer = NULL;
    int ready = history_reset(&self->history);
    if (ready && self->table.count > (size_t)self->table_size)
        ready = table_reset(&self->table, initial_capacity(self->table_size));
    if (!ready) {
        PyErr_NoMemory();
    } else {
        Py_XINCREF(limits.stop);
        Py_XINCREF(limits.on_iteration);
        self->busy = 1;
        answer = iterate(&s, &limits);
        self->busy = 0;
        Py_XDECREF(limits.stop);
        Py_XDECREF(limits.on_iteration);
    }
    free(s.killers);
    free(s.seen.entries);
    free(allowed);
    return answer;
}

static PyObject *
Searcher_get_table_size(SearcherObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(self->table_size);
}

static int
Searcher_set_table_size(SearcherObject *self, PyObject *value, void *Py_UNUSED(closure))
{
    long long size;
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "table_size cannot be deleted");
        return -1;
    }
    if (read_int(value, 0, PY_SSIZE_T_MAX, "table_size", &size) < 0)
        return -1;
    self->table_size = (Py_ssize_t)size;
    return 0;
}

static PyObject *
Searcher_get_table_count(SearcherObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSize_t(self->table.count);
}

static PyObject *
Searcher_get_endgame_pieces(SearcherObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->endgames.present ? self->endgames.pieces : 0);
}

static PyGetSetDef Searcher_getset[] = {
    {"table_size", (getter)Searcher_get_table_size, (setter)Searcher_set_table_size,
     "Positions the table may hold at the start of a search before it is cleared.", NULL},
    {"table_count", (getter)Searcher_get_table_count, NULL,
     "Positions in the transposition table now.", NULL},
    {"endgame_pieces", (getter)Searcher_get_endgame_pieces, NULL,
     "The most pieces of a position looked up in the endgame table (0: no table).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Searcher_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Searcher_search, METH_VARARGS | METH_KEYWORDS,
     "search(position, side, quiet, history, *, max_depth=64, time_limit=None, "
     "node_limit=None, quiescence=True, late_move_reductions=False, stop=None, "
     "on_iteration=None, allowed=None)\n--\n\n"
     "AlphaBeta.search over a SearchBoard: (best move, score, depth, nodes, seconds, "
     "principal variation)."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS,
     "Forget the transposition table and the history (a new game)."},
    {"evaluate", (PyCFunction)Searcher_evaluate, METH_O,
     "The static evaluation of a position from Black's side (Evaluation.__call__)."},
    {"endgame_code", (PyCFunction)Searcher_endgame_code, METH_VARARGS,
     "The endgame table's code for a position and side to move, or None "
     "(EndgameDatabase.code)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "parlour.checkers.native.Searcher",
    .tp_doc = PyDoc_STR(
        "Searcher(tables, table_size=1 << 20, endgame_codes=None, endgame_pieces=0)\n--\n\n"
        "The checkers search with its transposition table, kept from search to search: "
        "``tables`` from Evaluation.native_tables(), the endgame database's codes (a uint8 "
        "array) and its number of pieces, or None."),
    .tp_basicsize = sizeof(SearcherObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
    .tp_getset = Searcher_getset,
};

/* -- module functions -------------------------------------------------------------------- */

static PyObject *
native_moves(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *position, *side_object;
    long long side;
    Board board;
    if (!PyArg_ParseTuple(args, "OO:moves", &position, &side_object))
        return NULL;
    if (read_side(side_object, &side) < 0 || read_board(position, side, 0, &board, 1) < 0)
        return NULL;
    StepList moves = {NULL, 0, 0}, scratch = {NULL, 0, 0};
    PyObject *answer = generate(&board, &moves, &scratch) ? steps_to_list(moves.steps, moves.count)
                                                          : PyErr_NoMemory();
    free(moves.steps);
    free(scratch.steps);
    return answer;
}

static PyMethodDef native_methods[] = {
    {"moves", native_moves, METH_VARARGS,
     "moves(position, side)\n--\n\n"
     "The legal moves as Steps, in SearchBoard.moves() order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "parlour.checkers.native",
    .m_doc = "The checkers search in C: parlour.ai.search.AlphaBeta over "
             "parlour.checkers.engine.SearchBoard, node for node.",
    .m_size = -1,
    .m_methods = native_methods,
};

PyMODINIT_FUNC
PyInit_native(void)
{
    init_board();
    init_zobrist();
    init_comb();
    if (PyType_Ready(&SearcherType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(module, "Searcher", (PyObject *)&SearcherType) < 0
        || PyModule_AddIntConstant(module, "CHECK_EVERY", CHECK_EVERY) < 0
        || PyModule_AddIntConstant(module, "MAX_DEPTH", MAX_DEPTH) < 0) {
        Py_DECREF(&SearcherType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
