// @ts-check
// The shapes of what the server sends (see parlour/server/wire.py and each game's
// face, parlour/<game>/face.py), for the type checker: no code lives here.

/**
 * @typedef {object} Seat  A seat this browser holds: its side and token.
 * @property {number} side
 * @property {string} token
 */

/**
 * @typedef {object} MoveRecord  One entry of the game's record.
 * @property {number} version
 * @property {number | null} side  null for the dice
 * @property {string} text
 */

/**
 * @typedef {object} MoveRow  A line of the move list, as the game's face groups the record.
 * @property {string | null} number  "1." for chess and checkers, null otherwise
 * @property {{text: string, version: number | null}[]} cells
 * @property {string} kind  "move" or "throw"
 */

/**
 * @typedef {object} Action  A move offered as a button (backgammon's cube and dice).
 * @property {string} move
 * @property {string} label
 * @property {boolean} primary
 */

/**
 * @typedef {object} Series  A match or a money session so far.
 * @property {string} kind  "match" or "money"
 * @property {number} match_length
 * @property {number[]} points
 * @property {{winner: number, points: number, reason: string}[]} games
 * @property {boolean} over
 * @property {number | null} winner
 * @property {number} game_number
 * @property {boolean} next_game
 * @property {string[]} [rules_in_words]  the optional rules of money play in force
 * @property {string[]} [notes]  more lines about the series (the cube's limit)
 */

/**
 * @typedef {object} Outcome
 * @property {number | null} winner
 * @property {string | null} winner_name
 * @property {string} reason
 * @property {number} points
 */

/**
 * @typedef {object} SeatInfo
 * @property {number} side
 * @property {string} name
 * @property {string} player  "human" or "computer"
 * @property {string | null} level
 * @property {boolean} taken
 */

/**
 * @typedef {object} Game  A game as the server sends it.
 * @property {string} id
 * @property {string} game
 * @property {string} title
 * @property {string[]} side_names
 * @property {boolean} has_chance
 * @property {boolean} has_draws
 * @property {{opponent: string, rules?: Record<string, any>, tutor?: string, imported?: boolean, names?: string[]}} options
 * @property {{commitment: string, secret: string | null} | null} dice  the dice's commitment, and their secret once the game is over
 * @property {string[]} description  the position in words, a line a side
 * @property {number} version
 * @property {string} status
 * @property {string} position
 * @property {number | "chance" | null} turn
 * @property {string[]} legal_moves
 * @property {MoveRecord[]} moves
 * @property {MoveRow[]} move_rows
 * @property {Series | null} series
 * @property {number | null} draw_offer
 * @property {string | null} rematch  the rematch offered once a game between friends is over
 * @property {string | null} claimable_draw
 * @property {Record<string, any>} board  the face's data; its "kind" names the drawing
 * @property {boolean} can_export
 * @property {string | null} export_kind
 * @property {boolean} hints
 * @property {Outcome | null} outcome
 * @property {SeatInfo[]} seats
 * @property {Page} page
 * @property {Clock | null} clock  both sides' time, in a game with a time control
 */

/**
 * @typedef {object} Clock  The clocks as the server reckons them.
 * @property {number} base  seconds each side started with
 * @property {number} increment  seconds added after each move
 * @property {number} delay  seconds of each action before the reserve runs (backgammon)
 * @property {string} label  the time control as players name it ("5+3")
 * @property {number[]} remaining  each side's milliseconds as of ``since``
 * @property {number | null} since  when the running side's time began to run (epoch s)
 * @property {number | null} running  the side whose time runs
 * @property {number} now  the server's time when it sent this (epoch s)
 */

/**
 * @typedef {object} Page  What the game page shows beyond the board, from the face.
 * @property {string} prompt  an example of a typed move
 * @property {string[]} info  lines for the panel (pips, cube, score)
 * @property {Action[]} actions  moves offered as buttons now
 * @property {Action[]} offers  offers to resign, asked about in a question
 * @property {string | null} offer_question  the question the offers answer
 * @property {string | null} notice  what the player to act is asked (a double to take)
 * @property {string} resign_question
 * @property {number} bottom  the side drawn at the bottom of an unturned board
 */

export {};
